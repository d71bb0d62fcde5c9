/**
 * Issue 11 §4 and issue 18 item 4: bad input is refused before anything is sent, with a message
 * that names the field as the form shows it, once, and the item.
 */
import type { IDataObject, IHttpRequestOptions, INodeType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { listEntryLabel } from '../../nodes/shared/validation';
import { Signing } from '../../nodes/Signing/Signing.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { n8nErrorTitle } from '../harness/n8nEditor';
import { Sandbox, startSandbox } from '../sandbox';
import { executeContext, Parameters } from './helpers/context';

jest.setTimeout(60_000);

describe('Input checks before sending', () => {
	let sandbox: Sandbox;
	let documentId: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
		const generated = (await fetch(
			`${sandbox.signing.url}/api/v2/templates/tpl_residency_agreement/generate-document`,
			{
				method: 'POST',
				headers: {
					authorization: `Bearer ${sandbox.signing.apiKey}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({
					title: 'T',
					recipients: [{ name: 'Ada', email: 'ada@example.org', role: 'SIGNER' }],
				}),
			},
		).then(async (response) => await response.json())) as { documentId: string };
		documentId = generated.documentId;
	});
	afterAll(async () => await sandbox?.stop());

	const nodes: Record<string, INodeType> = {
		signing: new Signing(),
		bookmarks: new Bookmarks(),
		survey: new Survey(),
	};

	/** Runs two items: the first valid, the second with `bad`; returns the error and the requests sent. */
	const runWithBadSecondItem = async (node: string, good: Parameters, bad: Parameters) => {
		const { context, requests } = executeContext({
			parameters: [good, { ...good, ...bad }],
			items: [{}, {}],
			credentials: {
				signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
				bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey },
				surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey },
			},
		});
		const error = await nodes[node].execute!.call(context).then(
			() => undefined,
			(e: unknown) => e,
		);
		return { error: error as NodeOperationError & { context: IDataObject }, requests };
	};

	/** Requests of item 1 that carried the id in their path. */
	const pathsWithDotSegments = (requests: IHttpRequestOptions[]) =>
		requests.map((request) => request.url).filter((url) => /\/\.\.?(\/|\?|$)/.test(url));

	describe('ids of "." or ".." (they would change the request path)', () => {
		const survey = (id: string) => ({ mode: 'id', value: id });
		const cases = (): Array<[string, string, Parameters, string, string]> => [
			[
				'Document → Get',
				'signing',
				{ resource: 'document', operation: 'get', documentId },
				'documentId',
				'Document ID',
			],
			[
				'Document → Generate From Template',
				'signing',
				{
					resource: 'document',
					operation: 'generateFromTemplate',
					templateId: 'tpl_residency_agreement',
					title: 'T',
					recipientsInput: 'fields',
					recipients: { recipient: [{ name: 'Ada', email: 'ada@example.org', role: 'SIGNER' }] },
				},
				'templateId',
				'Template',
			],
			[
				'Bookmark → Get',
				'bookmarks',
				{ resource: 'bookmark', operation: 'get', recordId: 'bm_seed_grace_portfolio' },
				'recordId',
				'Bookmark',
			],
			[
				'Response → Get',
				'survey',
				{ resource: 'response', operation: 'get', responseId: 'resp_residency_001' },
				'responseId',
				'Response ID',
			],
			[
				'Response → Get Many',
				'survey',
				{
					resource: 'response',
					operation: 'getMany',
					surveyId: survey('srv_residency_2026'),
					limit: 1,
				},
				'surveyId',
				'Survey',
			],
			[
				'Applicant Record → Export',
				'survey',
				{
					resource: 'applicantRecords',
					operation: 'export',
					surveyId: survey('srv_residency_2026'),
					personalData: 'redact',
				},
				'surveyId',
				'Survey',
			],
			[
				'Survey → Get Metrics',
				'survey',
				{
					resource: 'survey',
					operation: 'getMetrics',
					allSurveys: false,
					surveyId: survey('srv_residency_2026'),
				},
				'surveyId',
				'Survey',
			],
		];
		for (const id of ['.', '..', ' .. ']) {
			it(`${JSON.stringify(id)} is refused in every operation that puts an id in a path, naming the field and the item`, async () => {
				for (const [operation, node, good, parameter, label] of cases()) {
					const bad = { [parameter]: parameter === 'surveyId' ? survey(id) : id };
					const { error, requests } = await runWithBadSecondItem(node, good, bad);
					expect({ operation, message: error?.message }).toEqual({
						operation,
						message: `${label}: "${id.trim()}" is not a valid ID [item 1]`,
					});
					expect(error).toBeInstanceOf(NodeOperationError);
					expect(error.context.itemIndex).toBe(1);
					expect({ operation, paths: pathsWithDotSegments(requests) }).toEqual({
						operation,
						paths: [],
					});
				}
			});
		}
	});

	describe('Limit, Offset and Max Concurrent Requests', () => {
		const responsesOf = (options: IDataObject, overrides: Parameters = {}): Parameters => ({
			resource: 'response',
			operation: 'getMany',
			surveyId: { mode: 'id', value: 'srv_residency_2026' },
			returnAll: false,
			limit: 5,
			options,
			...overrides,
		});

		it.each([
			['Limit 0', responsesOf({}, { limit: 0 }), 'Limit: 0 is not a whole number of at least 1'],
			['Limit -3', responsesOf({}, { limit: -3 }), 'Limit: -3 is not a whole number of at least 1'],
			[
				'Limit 2.5',
				responsesOf({}, { limit: 2.5 }),
				'Limit: 2.5 is not a whole number of at least 1',
			],
			[
				'Limit NaN',
				responsesOf({}, { limit: Number.NaN }),
				'Limit: NaN is not a whole number of at least 1',
			],
			[
				'Limit "abc"',
				responsesOf({}, { limit: 'abc' }),
				'Limit: "abc" is not a whole number of at least 1',
			],
			['Offset -1', responsesOf({ offset: -1 }), 'Offset: -1 is not a whole number of at least 0'],
			[
				'Offset 1.5',
				responsesOf({ offset: 1.5 }),
				'Offset: 1.5 is not a whole number of at least 0',
			],
			[
				'Offset "abc"',
				responsesOf({ offset: 'abc' }),
				'Offset: "abc" is not a whole number of at least 0',
			],
			[
				'Max Concurrent Requests "abc"',
				responsesOf({ maxConcurrency: 'abc' }, { returnAll: true }),
				'Max Concurrent Requests: "abc" is not a whole number from 1 to 32',
			],
			[
				'Max Concurrent Requests 0',
				responsesOf({ maxConcurrency: 0 }, { returnAll: true }),
				'Max Concurrent Requests: 0 is not a whole number from 1 to 32',
			],
			[
				'Max Concurrent Requests NaN',
				responsesOf({ maxConcurrency: Number.NaN }, { returnAll: true }),
				'Max Concurrent Requests: NaN is not a whole number from 1 to 32',
			],
			[
				'Max Concurrent Requests -2',
				responsesOf({ maxConcurrency: -2 }, { returnAll: true }),
				'Max Concurrent Requests: -2 is not a whole number from 1 to 32',
			],
		])('Response → Get Many refuses %s before sending', async (_, parameters, message) => {
			const { error, requests } = await runWithBadSecondItem('survey', responsesOf({}), parameters);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(`${message} [item 1]`);
			expect(error.context.itemIndex).toBe(1);
			expect(requests).toHaveLength(1); // item 0's request only
		});

		it('Applicant Record → Export refuses Max Concurrent Requests "abc" instead of dropping pages', async () => {
			const good = {
				resource: 'applicantRecords',
				operation: 'export',
				surveyId: { mode: 'id', value: 'srv_residency_2026' },
				personalData: 'redact',
			};
			const { error } = await runWithBadSecondItem('survey', good, {
				options: { maxConcurrency: 'abc' },
			});
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				'Max Concurrent Requests: "abc" is not a whole number from 1 to 32 [item 1]',
			);
			expect(error.context.itemIndex).toBe(1);
		});

		it.each([
			[
				'Bookmark → Get Many',
				'bookmarks',
				{ resource: 'bookmark', operation: 'getMany', returnAll: false, limit: 0 },
			],
			[
				'List → Get Many',
				'bookmarks',
				{ resource: 'list', operation: 'getMany', returnAll: false, limit: 'abc' },
			],
			[
				'Survey → Get Many',
				'survey',
				{ resource: 'survey', operation: 'getMany', returnAll: false, limit: -1 },
			],
		])('%s goes through the same Limit check', async (_, node, parameters) => {
			const { error } = await runWithBadSecondItem(node, { ...parameters, limit: 1 }, parameters);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toMatch(/^Limit: .* is not a whole number of at least 1 \[item 1\]$/);
			expect(error.context.itemIndex).toBe(1);
		});

		it('takes a number an expression gave as text', async () => {
			const { error, requests } = await runWithBadSecondItem(
				'survey',
				responsesOf({}),
				responsesOf({ offset: '2' }, { limit: '3' }),
			);
			expect(error).toBeUndefined();
			expect(requests.at(-1)?.qs).toMatchObject({ limit: 3, offset: 2 });
		});
	});

	describe('validation messages', () => {
		it('name a field inside a list as the form shows it', () => {
			expect(listEntryLabel('Recipients', 'recipient', 0, 'Email')).toBe(
				'Recipients › Email (recipient 1)',
			);
			expect(listEntryLabel('Recipients', 'recipient', 2)).toBe('Recipients (recipient 3)');
		});

		it('say the field once, with the form labels, and name the item', async () => {
			const good = {
				resource: 'document',
				operation: 'generateFromTemplate',
				templateId: 'tpl_residency_agreement',
				title: 'T',
				recipientsInput: 'fields',
				recipients: {
					recipient: [
						{ name: 'Ada', email: 'ada@example.org', role: 'SIGNER' },
						{ name: 'Alan', email: 'alan@example.org', role: 'SIGNER' },
					],
				},
			};
			const bad = {
				recipients: {
					recipient: [
						{ name: 'Ada', email: 'ada@example.org', role: 'SIGNER' },
						{ name: 'Alan', email: 'ada-at-example', role: 'SIGNER' },
					],
				},
			};
			const { error } = await runWithBadSecondItem('signing', good, bad);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				'Recipients › Email (recipient 2): "ada-at-example" is not a valid e-mail address [item 1]',
			);
			expect(error.message).not.toMatch(/\[\d+\]|\.email/);
			expect(error.description).toBe('Change this value; nothing was sent for this item.');
			expect(error.description).not.toContain('Recipients');
			expect(error.context.itemIndex).toBe(1);
		});

		// Issue 37 item 9: n8n's editor adds " [item 1]" to an error's title when the node had
		// several items; the message says it in those words itself, and nothing says it otherwise.
		it.each([
			['Bookmarks → Create, a URL that is not http(s)', 'bookmarks', { resource: 'bookmark', operation: 'create', type: 'link', url: 'https://example.org' }, { url: 'ftp://example.org' }],
			['Response → Get Many, a date that does not exist', 'survey', { resource: 'response', operation: 'getMany', surveyId: { mode: 'id', value: 'srv_residency_2026' }, returnAll: true }, { filters: { createdAfter: '2026-02-30' } }],
			['Bookmark → Get, "." as its ID', 'bookmarks', { resource: 'bookmark', operation: 'get', recordId: 'bm_seed_grace_portfolio' }, { recordId: '.' }],
		])('%s: the item is named once, in n8n’s words, in the editor and in the message', async (_, node, good, bad) => {
			const { error } = await runWithBadSecondItem(node, good, bad);
			const title = n8nErrorTitle(error, 2);
			expect(title).toBe(error.message);
			expect(title).toMatch(/ \[item 1\]$/);
			expect([title, error.description].join(' ').match(/\bitem\b/g)).toHaveLength(2); // "[item 1]", "this item"
			expect(error.description).not.toMatch(/\d/);
		});

		it('with one input item the message names no item, as n8n’s editor names none', async () => {
			const { context } = executeContext({
				parameters: { resource: 'bookmark', operation: 'create', type: 'link', url: 'ftp://example.org' },
				items: [{}],
				credentials: { bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey } },
			});
			const error = (await nodes.bookmarks.execute!.call(context).catch((e: unknown) => e)) as NodeOperationError;
			expect(error.message).toBe('URL: "ftp://example.org" is not an http(s) URL');
			expect(n8nErrorTitle(error as never, 1)).toBe(error.message);
		});
	});
});
