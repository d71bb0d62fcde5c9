/* eslint-disable @n8n/community-nodes/no-restricted-imports */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { Sandbox, startSandbox } from '../sandbox';
import { runWithFakeTime } from './helpers/clock';
import { executeContext, Parameters } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(30_000);

/** A port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** When each request was answered, in ms after the first (the sandbox's clock: fake time in a fake-time test). */
const sinceFirst = (requests: Array<{ at: string }>) =>
	requests.map((request) => Date.parse(request.at) - Date.parse(requests[0].at));

const TEMPLATE_ID = 'tpl_residency_agreement';
const ada = { name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' };

describe('Signing node against the sandbox', () => {
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;
	const node = new Signing();

	beforeAll(async () => {
		sandbox = await startSandbox();
		control = sandboxControl(sandbox, 'signing');
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => {
		await control.reset();
	});

	const credentials = (token = sandbox.signing.apiKey) => ({
		signingApi: { baseUrl: `${sandbox.signing.url}/`, apiToken: token },
	});
	const run = async (
		parameters: Parameters | Parameters[],
		options: { items?: IDataObject[]; continueOnFail?: boolean; token?: string } = {},
	) => {
		const { context } = executeContext({
			parameters,
			items: options.items,
			continueOnFail: options.continueOnFail,
			credentials: credentials(options.token),
		});
		return (await node.execute.call(context))[0];
	};
	const generate = (overrides: Parameters = {}): Parameters => ({
		resource: 'document',
		operation: 'generateFromTemplate',
		templateId: TEMPLATE_ID,
		title: 'Residency agreement – Ada Lovelace',
		recipientsInput: 'fields',
		recipients: { recipient: [ada] },
		...overrides,
	});
	const get = (documentId: string): Parameters => ({ resource: 'document', operation: 'get', documentId });

	describe('Generate From Template', () => {
		it('sends exactly the contract request and returns signing URLs', async () => {
			const [item] = await run(generate());
			const [request] = await control.requests();
			expect(request.method).toBe('POST');
			expect(request.path).toBe(`/api/v2/templates/${TEMPLATE_ID}/generate-document`);
			expect(request.headers.authorization).toBe(`Bearer ${sandbox.signing.apiKey}`);
			expect(request.headers['content-type']).toMatch(/^application\/json/);
			expect(request.body).toEqual({ title: 'Residency agreement – Ada Lovelace', recipients: [ada] });
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json).toMatchObject({
				documentId: expect.any(String),
				status: 'PENDING',
				recipients: [expect.objectContaining({ email: ada.email, signingUrl: expect.stringMatching(/^https?:\/\//) })],
			});
		});

		it('takes recipients from one expression that yields an array, role defaulting to Signer', async () => {
			const recipientsJson = [
				{ name: 'Ada Lovelace', email: 'ada@example.org' },
				{ name: 'Office', email: 'office@example.org', role: 'cc' },
			];
			await run(generate({ recipientsInput: 'json', recipientsJson }));
			await run(generate({ recipientsInput: 'json', recipientsJson: JSON.stringify(recipientsJson) }));
			const requests = await control.requests();
			expect(requests).toHaveLength(2);
			for (const request of requests) {
				expect((request.body as IDataObject).recipients).toEqual([
					{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' },
					{ name: 'Office', email: 'office@example.org', role: 'CC' },
				]);
			}
		});

		it.each([
			['no recipients', { recipients: {} }, 'Recipients: add at least one recipient'],
			['an empty recipients array', { recipientsInput: 'json', recipientsJson: '[]' }, 'Recipients: add at least one recipient'],
			['an invalid e-mail', { recipients: { recipient: [{ ...ada, email: 'ada-at-example' }] } }, 'Recipients › Email (recipient 1): "ada-at-example" is not a valid e-mail address'],
			['an unknown role', { recipients: { recipient: [{ ...ada, role: 'OWNER' }] } }, 'Recipients › Role (recipient 1)'],
			['a recipient without name', { recipients: { recipient: [{ ...ada, name: ' ' }] } }, 'Recipients › Name (recipient 1): must not be empty'],
			['an empty template ID', { templateId: '  ' }, 'Template: pick a template or give its ID'],
			['an empty title', { title: '' }, 'Title: must not be empty'],
			['recipients that are not JSON', { recipientsInput: 'json', recipientsJson: '[{' }, 'Recipients (JSON): is not valid JSON'],
		])('refuses %s before sending anything, naming the field and the item', async (_, overrides, message) => {
			const error = await run([generate(), generate(overrides)], { items: [{}, {}] }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain(message);
			expect(error.context.itemIndex).toBe(1);
			// Item 0 was valid and sent; item 1 never reached the service.
			expect(await control.requests()).toHaveLength(1);
		});

		it('reports the service’s own message and status for an unknown template', async () => {
			const error = await run(generate({ templateId: 'tpl_missing' })).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('404');
			expect(error.message).toContain('Template not found');
		});

		it('reports a wrong token as 401 without leaking it', async () => {
			const error = await run(generate(), { token: 'wrong-token-value' }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('401');
			// Issue 43 item 8: which field to check, as "Test credential" says it.
			expect(error.description).toContain('Check the API Token: it is generated in the portal under Settings → API & Webhooks.');
			expect(JSON.stringify({ ...error, message: error.message, description: error.description })).not.toContain(
				'wrong-token-value',
			);
		});

		it.each([500, 502, 503])('is never repeated after a %i (the document may exist)', async (status) => {
			await control.failNext(1, status);
			const error = await run(generate()).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe(String(status));
			expect(await control.requests()).toHaveLength(1);
		});

		it('is never repeated after a timeout', async () => {
			// The service answers only after an hour: nothing but the request's own timeout ends it.
			await control.failNext(1, 503, { delayMs: 3_600_000 });
			const { context, requests } = executeContext({ parameters: generate(), credentials: credentials() });
			// Shorten the node's own timeout through the request it makes.
			const original = context.helpers.httpRequestWithAuthentication;
			context.helpers.httpRequestWithAuthentication = async function (type, options) {
				return await original.call(this, type, { ...options, timeout: 500 });
			};
			const error = await node.execute.call(context).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(requests).toHaveLength(1);
			await control.clearFaults();
		});

		it('waits for Retry-After and retries when the service refused with 429', async () => {
			await control.failNext(2, 429, { retryAfter: 1 });
			const { result, elapsedMs } = await runWithFakeTime(async () => await run(generate()));
			expect(result[0].json.status).toBe('PENDING');
			const requests = await control.requests();
			expect(requests.map((r) => r.status)).toEqual([429, 429, 200]);
			// One second after each refusal, as the service asked, on the test's clock.
			expect(sinceFirst(requests)).toEqual([0, 1_000, 2_000]);
			expect(elapsedMs).toBe(2_000);
		});

		it('keeps going with Continue On Fail, one output per item, paired with its input', async () => {
			const output = await run(
				[generate({ title: '' }), generate(), generate({ templateId: 'tpl_missing' })],
				{ items: [{}, {}, {}], continueOnFail: true },
			);
			expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(output[0].json.error).toContain('Title');
			expect(output[1].json.documentId).toEqual(expect.any(String));
			expect(output[2].json.error).toContain('Template not found');
		});
	});

	describe('Get', () => {
		it('returns the document with its status and recipients’ signing status', async () => {
			const [created] = await run(generate());
			const [item] = await run(get(String(created.json.documentId)));
			expect(item.json).toMatchObject({
				id: created.json.documentId,
				templateId: TEMPLATE_ID,
				status: 'PENDING',
				recipients: [expect.objectContaining({ email: ada.email, signingStatus: 'NOT_SIGNED' })],
			});
			const read = (await control.requests()).find((r) => r.method === 'GET');
			expect(read?.path).toBe(`/api/v2/documents/${String(created.json.documentId)}`);
			expect(read?.headers['content-type']).toBeUndefined();
		});

		it('retries 502, 503 and 504 with backoff', async () => {
			const [created] = await run(generate());
			await control.clearRequests();
			await control.failNext(3, 503);
			const { result } = await runWithFakeTime(async () => await run(get(String(created.json.documentId))));
			expect(result[0].json.id).toBe(created.json.documentId);
			const requests = await control.requests();
			expect(requests.map((r) => r.status)).toEqual([503, 503, 503, 200]);
			// Backoff from 500 ms, doubled at each retry.
			expect(sinceFirst(requests)).toEqual([0, 500, 1_500, 3_500]);
		});

		it('reports an unknown document as 404', async () => {
			const error = await run(get('doc_unknown')).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('404');
		});

		it('refuses an empty document ID before sending anything', async () => {
			const error = await run(get('')).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain('Document ID');
			expect(await control.requests()).toHaveLength(0);
		});

		it('says when the service cannot be reached', async () => {
			const { context } = executeContext({
				parameters: get('doc_1'),
				credentials: { signingApi: { baseUrl: `http://127.0.0.1:${await closedPort()}`, apiToken: 't' } },
			});
			const error = await node.execute.call(context).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toMatch(/cannot be reached/);
		}, 60_000);
	});
});
