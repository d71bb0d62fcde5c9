/**
 * Issue 32 item 18 (the adapters as a registry: adding a platform is one adapter) and issue 37
 * items 3 and 7 (an error from the wrong API choice says so; trigger events named as n8n's own).
 */
import type { ICredentialsDecrypted, IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { BookmarkApi } from '../../credentials/BookmarkApi.credentials';
import { SigningApi } from '../../credentials/SigningApi.credentials';
import { SurveyApi } from '../../credentials/SurveyApi.credentials';
import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { BookmarksWebhookTrigger } from '../../nodes/Bookmarks/BookmarksWebhookTrigger.node';
import { bookmarkApis } from '../../nodes/Bookmarks/adapters';
import { Signing } from '../../nodes/Signing/Signing.node';
import { SigningTrigger } from '../../nodes/Signing/SigningTrigger.node';
import { signingApis } from '../../nodes/Signing/adapters';
import { Survey } from '../../nodes/Survey/Survey.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { surveyApis } from '../../nodes/Survey/adapters';
import { type ApiAdapter, adapterRegistry, documentedOption } from '../../nodes/shared/adapterRegistry';
import { serviceCredentialTest } from '../../nodes/shared/credentialTest';
import { type EditorNodeType, n8nTriggerActions } from '../harness/n8nEditor';
import { FORMBRICKS_SEED, type Sandbox, startSandbox } from '../sandbox';
import { credentialTestContext, executeContext, type Parameters } from './helpers/context';
import { type FormbricksHarness, startFormbricksHarness } from './helpers/formbricks';

jest.setTimeout(60_000);

describe('each service’s adapters are a registry', () => {
	it.each([
		['signingApi', new SigningApi().properties, signingApis],
		['bookmarkApi', new BookmarkApi().properties, bookmarkApis],
		['surveyApi', new SurveyApi().properties, surveyApis],
	] as const)('%s: the credential offers one API per adapter, the documented one first and default', (type, properties, registry) => {
		const api = properties.find((property) => property.name === 'api')!;
		expect(registry.credentialType).toBe(type);
		expect(api.default).toBe('documented');
		expect((api.options as Array<{ value: string }>).map((option) => option.value)).toEqual(
			registry.adapters.map((adapter) => adapter.api),
		);
	});

	/** A made-up second platform, to show what one more adapter brings by itself. */
	interface NoteAdapter extends ApiAdapter {
		archive?: { run(): string };
	}
	const adapter = (api: string, name: string, probePath: string, extra: Partial<NoteAdapter> = {}): NoteAdapter => ({
		api,
		option: api === 'documented' ? documentedOption('note service') : { name, description: `${name}’s API` },
		like: api === 'documented' ? 'the documented note API' : name,
		apiName: api === 'documented' ? 'the documented API' : `the ${name} API`,
		serviceName: 'note service',
		credentialProbe: {
			service: 'note service',
			secretName: 'API key',
			secretHint: '',
			apiPrefix: '/api',
			probePath,
			headers: () => ({}),
			isServiceAnswer: (body) => (body as IDataObject)?.speaks === api,
			isServiceRefusal: () => false,
		},
		recognition: {
			probePath,
			answersLikeIt: ({ statusCode, body }) => statusCode === 200 && (body as IDataObject)?.speaks === api,
		},
		...extra,
	});
	const notes = adapterRegistry<NoteAdapter>({ credentialType: 'noteApi', name: 'note service' }, [
		adapter('documented', '', '/api/notes'),
		adapter('papyrus', 'Papyrus', '/api/papyrus/me', { archive: { run: () => 'archived' } }),
		adapter('scroll', 'Scroll', '/api/scroll/version'),
	]);
	const node = { getNode: () => ({ name: 'Notes' }) as never };

	it('a new adapter is offered in the credential and recognised by every other API’s "Test credential"', async () => {
		expect((notes.apiOption().options as Array<{ name: string }>).map((option) => option.name)).toEqual([
			'Documented API (the Sandbox, or a Server Built to the README)',
			'Papyrus',
			'Scroll',
		]);
		const probe = notes.credentialProbeFor({ api: 'papyrus' });
		expect(probe.otherApis?.map((other) => [other.label, other.like, other.probePath])).toEqual([
			['Documented API (the Sandbox, or a Server Built to the README)', 'the documented note API', '/api/notes'],
			['Scroll', 'Scroll', '/api/scroll/version'],
		]);
		// A server that speaks Scroll, tested as Papyrus: every other API is asked, and Scroll answers.
		const context = credentialTestContext();
		const answers: Record<string, { statusCode: number; body: unknown }> = {
			'/api/papyrus/me': { statusCode: 404, body: 'Not Found' },
			'/api/notes': { statusCode: 404, body: 'Not Found' },
			'/api/scroll/version': { statusCode: 200, body: { speaks: 'scroll' } },
		};
		Object.assign(context.helpers, {
			request: async (options: { uri: string }) => {
				context.requests.push(`GET ${new URL(options.uri).pathname}`);
				return answers[new URL(options.uri).pathname];
			},
		});
		const result = await serviceCredentialTest(notes.credentialProbeFor).call(context, {
			data: { api: 'papyrus', baseUrl: 'https://notes.example.com', apiKey: 'k' },
		} as unknown as ICredentialsDecrypted);
		expect(result).toEqual({
			status: 'Error',
			message: 'This server answers like Scroll: choose "Scroll" under API in this credential.',
		});
		expect(context.requests).toEqual(['GET /api/papyrus/me', 'GET /api/notes', 'GET /api/scroll/version']);
	});

	it('an operation only some APIs have: the capability, or an error naming who has it, before anything is sent', () => {
		const papyrus = notes.adapterFor(node, { api: 'papyrus' });
		expect(notes.capability(node, papyrus, 'archive', 'Note → Archive').run()).toBe('archived');
		const documented = notes.adapterFor(node, {});
		let error: unknown;
		try {
			notes.capability(node, documented, 'archive', 'Note → Archive', 3);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(
			'Note → Archive is available with the Papyrus API; this credential uses the documented API',
		);
		expect((error as NodeOperationError).description).toContain('choose that under API in the credential');
		expect((error as NodeOperationError).context.itemIndex).toBe(3);
	});

	it('the wrong-API read goes the way every request goes: a refusal is "not that API", a cancelled execution sends nothing', async () => {
		const wrongRoute = () =>
			new NodeApiError({ name: 'Notes' } as never, { message: 'Not Found' }, { httpCode: '404', message: 'Not Found' });
		const contextWith = (signal: AbortSignal) => {
			const sent: string[] = [];
			const answers: Record<string, { statusCode: number; body: unknown }> = {
				'/api/notes': { statusCode: 401, body: { error: 'unauthorized' } },
				'/api/scroll/version': { statusCode: 200, body: { speaks: 'scroll' } },
			};
			const ctx = {
				getNode: () => ({ name: 'Notes' }),
				getCredentials: async () => ({ api: 'papyrus', baseUrl: 'https://notes.example.com', apiKey: `key-${Math.random()}` }),
				getExecutionCancelSignal: () => signal,
				helpers: {
					httpRequestWithAuthentication: async (_type: string, options: { url: string }) => {
						const path = new URL(options.url).pathname;
						sent.push(`GET ${path}`);
						return { headers: {}, ...answers[path] };
					},
				},
			};
			return { ctx: ctx as unknown as IExecuteFunctions, sent };
		};
		const live = contextWith(new AbortController().signal);
		const explained = await notes.explainError(live.ctx, wrongRoute(), 0);
		expect(explained.message).toBe('Not Found. This server answers like Scroll: check API in the credential (choose "Scroll")');
		expect(live.sent).toEqual(['GET /api/notes', 'GET /api/scroll/version']);

		const cancel = new AbortController();
		cancel.abort();
		const cancelled = contextWith(cancel.signal);
		expect((await notes.explainError(cancelled.ctx, wrongRoute(), 0)).message).toBe('Not Found');
		expect(cancelled.sent).toEqual([]);
	});

	it('an API the credential names but this version does not know is an error naming the known ones', () => {
		expect(() => notes.adapterFor(node, { api: 'tablet' })).toThrow(
			'The credential\'s API "tablet" is not known to this version of the node',
		);
	});
});

describe('an error from the wrong API choice says so (issue 37 item 3)', () => {
	let sandbox: Sandbox;
	let fb: FormbricksHarness;

	beforeAll(async () => {
		sandbox = await startSandbox();
		fb = await startFormbricksHarness();
	});
	afterAll(async () => {
		await sandbox?.stop();
		await fb?.stop();
	});

	const run = async (
		node: INodeType,
		parameters: Parameters,
		credentials: Record<string, IDataObject>,
		continueOnFail = false,
	) => {
		const harness = executeContext({ parameters, credentials, continueOnFail });
		const outcome = await (node.execute!.call(harness.context) as Promise<INodeExecutionData[][]>).then(
			(output) => ({ output: output[0].map((item) => item.json), error: undefined }),
			(error: Error) => ({ output: undefined, error }),
		);
		return { ...outcome, requests: harness.requests.map((request) => `${request.method} ${new URL(request.url).pathname}`) };
	};

	it('Bookmarks Create with API = Karakeep against a documented server: “answers like the documented bookmark API”', async () => {
		const { error, requests } = await run(
			new Bookmarks(),
			{ resource: 'bookmark', operation: 'create', type: 'link', url: 'https://example.org/wrong-api', title: 'x' },
			{ bookmarkApi: { api: 'karakeep', baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey } },
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toMatch(/^The Karakeep server answered 40\d: /);
		expect(error!.message).toContain(
			'This server answers like the documented bookmark API: check API in the credential (choose "Documented API (the Sandbox, or a Server Built to the README)")',
		);
		// The read that recognised it is the documented API's own list.
		expect(requests[requests.length - 1]).toBe('GET /api/v1/bookmarks');
	});

	it('Survey Get Many with API = Formbricks against a documented server, and the other way round', async () => {
		const onDocumented = await run(
			new Survey(),
			{ resource: 'survey', operation: 'getMany' },
			{ surveyApi: { api: 'formbricks', baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
		);
		expect(onDocumented.error).toBeInstanceOf(NodeApiError);
		expect(onDocumented.error!.message).toContain('This server answers like the documented survey API: check API in the credential');

		const onFormbricks = await run(
			new Survey(),
			{ resource: 'response', operation: 'getMany', surveyId: { __rl: true, mode: 'id', value: FORMBRICKS_SEED.surveys.residency } },
			{ surveyApi: { baseUrl: fb.fb.url, apiKey: fb.fb.apiKey } },
		);
		expect(onFormbricks.error).toBeInstanceOf(NodeApiError);
		expect(onFormbricks.error!.message).toContain('This server answers like Formbricks: check API in the credential (choose "Formbricks")');
	});

	it('Signing with API = Documenso against a documented server, with Continue On Fail: the item’s error says it', async () => {
		const { output } = await run(
			new Signing(),
			{ resource: 'template', operation: 'getMany', returnAll: true },
			{ signingApi: { api: 'documenso', baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey } },
			true,
		);
		expect(output).toHaveLength(1);
		expect(String(output![0].error)).toContain('This server answers like the documented signing API: check API in the credential');
	});

	it('the right API’s own 404 stays as it is, after one read that finds no other API', async () => {
		const { error, requests } = await run(
			new Bookmarks(),
			{ resource: 'bookmark', operation: 'get', recordId: { __rl: true, mode: 'id', value: 'bm_missing' } },
			{ bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey } },
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).not.toContain('answers like');
		expect(requests).toEqual(['GET /api/v1/bookmarks/bm_missing', 'GET /api/v1/users/me']);
	});
});

describe('trigger events in the nodes panel read as n8n’s own (issue 37 item 7)', () => {
	const actions = (node: INodeType) => n8nTriggerActions(node.description as unknown as EditorNodeType & { properties: [] });

	it('Signing Trigger: “On Document Completed”, “On Recipient Completed (Documenso)”', () => {
		const shown = actions(new SigningTrigger());
		expect(shown).toContain('On Document Completed');
		expect(shown).toContain('On Recipient Completed (Documenso)');
		expect(shown).toContain('On Reminder Sent (Documenso)');
		expect(shown.every((label) => /^On [A-Z]/.test(label))).toBe(true);
	});

	it('Bookmarks Webhook Trigger: “On Bookmark AI-Tagged”', () => {
		// Karakeep's own events, and the change events told from its edited and AI tagged deliveries (issue 44).
		expect(actions(new BookmarksWebhookTrigger())).toEqual([
			'On Bookmark AI-Tagged',
			'On Bookmark Archived',
			'On Bookmark Crawled',
			'On Bookmark Created',
			'On Bookmark Deleted',
			'On Bookmark Edited',
			'On Bookmark Favourited',
			'On Bookmark Summary Added',
			'On Bookmark Tags Added',
			'On Bookmark Tags Removed',
			'On Bookmark Title or Note Changed',
			'On Bookmark Unarchived',
			'On Bookmark Unfavourited',
		]);
	});

	it('Survey Trigger: “On Response Finished”', () => {
		expect(actions(new SurveyTrigger())).toEqual(['On Response Created', 'On Response Finished', 'On Response Updated']);
	});

	it('without an action n8n would show the name in lower case, as the issue saw it', () => {
		expect(
			n8nTriggerActions({
				name: 'x',
				displayName: 'X Trigger',
				description: '',
				group: ['trigger'],
				properties: [{ name: 'events', displayName: 'Events', options: [{ name: 'Recipient Completed (Documenso)' }, { name: 'AI Tagged' }] }],
			}),
		).toEqual(['On recipient completed documenso', 'On ai tagged']);
	});
});
