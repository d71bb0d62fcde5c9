/**
 * Issue 32 item 14: a write whose answer was lost (the connection cut after the service carried it
 * out) is not sent again, and its error says that what it makes or sends may exist now, and how to
 * find out, on every API the nodes speak. The services here carry the request out, then drop the
 * connection (the sandbox's fault `afterHandling` + `drop`), and each test shows the thing exists.
 * Karakeep's own is in test/karakeep/halfway.test.ts (the real server).
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { type Sandbox, SEED, startSandbox } from '../sandbox';
import { executeContext, hookContext, type Parameters } from './helpers/context';
import { DOCUMENSO_SEED, type DocumensoHarness, startDocumensoHarness } from './helpers/documenso';
import { type FormbricksHarness, startFormbricksHarness } from './helpers/formbricks';
import { sandboxControl } from './helpers/sandbox';

const MAY_EXIST = 'may have carried it out before the answer was lost: what it was to create or send may have been created or sent. It was not sent again, so that it is not done twice.';
const cutAfterHandling = (path: string) => ({ status: 502, count: 1, afterHandling: true, drop: true, path });

const failure = async (run: () => Promise<unknown>): Promise<NodeApiError> =>
	(await run().then(
		() => new Error('the node did not fail'),
		(error: unknown) => error,
	)) as NodeApiError;

const lostAnswerOf = (error: NodeApiError, service: string) => {
	expect(error).toBeInstanceOf(NodeApiError);
	expect(error.message).toMatch(new RegExp(`^The answer of the ${service} was lost: `));
	expect(error.description).toContain(MAY_EXIST);
};

describe('the documented APIs (the sandbox)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => {
		for (const service of ['signing', 'bookmark', 'survey'] as const) await sandboxControl(sandbox, service).reset();
	});
	const credentials = () => ({
		signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
		bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey },
		surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey },
	});
	const run = async (node: Signing | Bookmarks, parameters: Parameters) => {
		const { context } = executeContext({ parameters, credentials: credentials() });
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const api = async (service: 'signing' | 'bookmark' | 'survey', path: string) =>
		(await (
			await fetch(`${sandbox[service].url}${path}`, {
				headers:
					service === 'survey'
						? { 'x-api-key': sandbox.survey.apiKey }
						: { authorization: `Bearer ${sandbox[service].apiKey}` },
			})
		).json()) as IDataObject;

	it('Signing → Generate From Template: the document may exist; Get Many with the template finds it', async () => {
		await sandboxControl(sandbox, 'signing').call('PUT', '/faults', cutAfterHandling('/generate-document'));
		const error = await failure(async () =>
			await run(new Signing(), {
				resource: 'document',
				operation: 'generateFromTemplate',
				templateId: SEED.residencyTemplateId,
				title: 'Lost answer',
				recipientsInput: 'json',
				recipientsJson: JSON.stringify([{ name: 'Ada Lovelace', email: 'ada@example.org' }]),
			}),
		);
		lostAnswerOf(error, 'signing service');
		expect(error.description).toContain(
			`Document → Get Many with Filters › Template ${SEED.residencyTemplateId} lists the documents made from it, newest first; one titled "Lost answer"`,
		);
		const { data } = await api('signing', `/api/v2/documents?templateId=${SEED.residencyTemplateId}`);
		expect((data as IDataObject[]).filter((document) => document.title === 'Lost answer')).toHaveLength(1);
	});

	it('Bookmarks → Create (text): the record may exist, and running again would store a second one', async () => {
		await sandboxControl(sandbox, 'bookmark').call('PUT', '/faults', cutAfterHandling('/api/v1/bookmarks'));
		const error = await failure(async () =>
			await run(new Bookmarks(), { resource: 'bookmark', operation: 'create', type: 'text', text: 'A lost answer' }),
		);
		lostAnswerOf(error, 'bookmark service');
		expect(error.description).toContain('which would store a second record');
		const { bookmarks } = await api('bookmark', '/api/v1/bookmarks?limit=100');
		expect((bookmarks as IDataObject[]).filter((record) => (record.content as IDataObject).text === 'A lost answer')).toHaveLength(1);
	});

	it('Bookmarks → List → Create: the list may exist, named in the hint', async () => {
		await sandboxControl(sandbox, 'bookmark').call('PUT', '/faults', cutAfterHandling('/api/v1/lists'));
		const error = await failure(async () => await run(new Bookmarks(), { resource: 'list', operation: 'create', name: 'Lost list' }));
		lostAnswerOf(error, 'bookmark service');
		expect(error.description).toContain('List → Get Many lists every list; look for "Lost list"');
		const { lists } = await api('bookmark', '/api/v1/lists');
		expect((lists as IDataObject[]).filter((list) => list.name === 'Lost list')).toHaveLength(1);
	});

	it('Survey Trigger activation: a webhook may be registered; activating again replaces it', async () => {
		const { checkExists, create } = new SurveyTrigger().webhookMethods.default;
		const url = 'http://127.0.0.1:5678/webhook/lost-answer/webhook';
		const harness = hookContext({
			parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
			credentials: { surveyApi: credentials().surveyApi },
			webhookUrl: url,
		});
		expect(await checkExists.call(harness.context)).toBe(false);
		await sandboxControl(sandbox, 'survey').call('PUT', '/faults', cutAfterHandling('/api/v1/webhooks'));
		const error = await failure(async () => await create.call(harness.context));
		lostAnswerOf(error, 'survey service');
		expect(error.description).toContain('Activate the workflow again: activation deletes any webhook for this URL it does not know');
		const { data } = await api('survey', '/api/v1/webhooks');
		expect((data as IDataObject[]).filter((hook) => hook.url === url)).toHaveLength(1);
		// As the hint says: the next activation replaces it.
		expect(await checkExists.call(harness.context)).toBe(false);
		await create.call(harness.context);
		const after = (await api('survey', '/api/v1/webhooks')).data as IDataObject[];
		expect(after.filter((hook) => hook.url === url).map((hook) => hook.id)).toEqual([harness.staticData.webhookId]);
	});
});

describe('Documenso', () => {
	let documenso: DocumensoHarness;
	const node = new Signing();
	beforeAll(async () => (documenso = await startDocumensoHarness()));
	afterAll(async () => await documenso?.stop());
	beforeEach(async () => await documenso.control('/reset'));

	const run = async (parameters: Parameters) => {
		const { context } = executeContext({ parameters, credentials: documenso.credentials() });
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const generate = (distribute: boolean) =>
		run({
			resource: 'document',
			operation: 'generateFromTemplate',
			templateId: { mode: 'id', value: String(DOCUMENSO_SEED.residencyTemplateId) },
			title: 'Lost answer',
			distribute,
			recipientsInput: 'json',
			recipientsJson: JSON.stringify([
				{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' },
				{ name: 'Grace Hopper', email: 'director@example.org', role: 'APPROVER' },
			]),
		});
	const documents = async () => (await documenso.control<{ documents: IDataObject[] }>('/documents', 'GET')).documents;

	it('Generate From Template: the document may exist; the hint says where', async () => {
		await documenso.control('/faults', 'PUT', cutAfterHandling('/envelope/use'));
		const error = await failure(async () => await generate(true));
		lostAnswerOf(error, 'Documenso server');
		expect(error.description).toContain(`Document → Get Many with Filters › Template ${DOCUMENSO_SEED.residencyTemplateId} lists`);
		expect((await documents()).map((document) => document.title)).toEqual(['Lost answer']);
	});

	it('Send: the draft may have been sent; Get shows it, and Send cannot send it twice', async () => {
		const [draft] = await generate(false);
		await documenso.control('/faults', 'PUT', cutAfterHandling('/envelope/distribute'));
		const error = await failure(async () => await run({ resource: 'document', operation: 'send', documentId: draft.documentId }));
		lostAnswerOf(error, 'Documenso server');
		expect(error.description).toContain(`Document → Get ${String(draft.documentId)} shows whether it was sent`);
		expect((await documents())[0].status).toBe('PENDING');
	});

	it('Resend: the reminders may have gone out; the audit log lists them', async () => {
		const [document] = await generate(true);
		await documenso.control('/faults', 'PUT', cutAfterHandling('/envelope/redistribute'));
		const error = await failure(async () => await run({ resource: 'document', operation: 'resend', documentId: document.documentId }));
		lostAnswerOf(error, 'Documenso server');
		expect(error.description).toContain(`Document → Get Audit Log of ${String(document.documentId)} lists each reminder sent`);
		const log = await run({ resource: 'document', operation: 'getAuditLog', documentId: document.documentId });
		expect(log.filter((entry) => entry.type === 'INVITATION_RESENT')).toHaveLength(2);
	});
});

describe('Formbricks', () => {
	let formbricks: FormbricksHarness;
	beforeAll(async () => (formbricks = await startFormbricksHarness()));
	afterAll(async () => await formbricks?.stop());

	it('Survey Trigger activation: a webhook may be registered, and the hint says how to replace it', async () => {
		const { checkExists, create } = new SurveyTrigger().webhookMethods.default;
		const url = 'https://n8n.example.org/webhook/lost-answer/webhook';
		const harness = hookContext({
			parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
			credentials: formbricks.credentials(),
			webhookUrl: url,
		});
		expect(await checkExists.call(harness.context)).toBe(false);
		await formbricks.control('faults', 'PUT', { ...cutAfterHandling('/api/v1/webhooks') });
		const error = await failure(async () => await create.call(harness.context));
		lostAnswerOf(error, 'Formbricks server');
		expect(error.description).toContain('Activate the workflow again');
		const hooks = await formbricks.api<{ data: IDataObject[] }>('/api/v1/webhooks');
		expect(hooks.json.data.filter((hook) => hook.url === url)).toHaveLength(1);
	});
});
