/* eslint-disable @n8n/community-nodes/no-restricted-imports */
import { type AddressInfo, createServer } from 'node:net';

import type { IHttpRequestMethods } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { type RetryPolicy, serviceAnswer, serviceRequest } from '../../nodes/shared/request';
import { type Sandbox, SEED, startSandbox } from '../sandbox';
import { executeContext } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(30_000);

/** No backoff: these tests count requests, they do not time them. */
const NO_WAIT: RetryPolicy = {
	maxRateLimitRetries: 10,
	maxServerErrorRetries: 4,
	maxRetryAfterSeconds: 120,
	backoffMs: 0,
};

/**
 * Regression (issue 23): only GETs were sent again after a 502/503/504 or a lost connection,
 * although PUT and DELETE are as safe to repeat; a file's error body came out as a JSON dump of
 * a Buffer. POST and PATCH are still never repeated.
 */
describe('which requests are sent again after a server error or a lost connection', () => {
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;
	let signing: ReturnType<typeof sandboxControl>;

	beforeAll(async () => {
		sandbox = await startSandbox();
		control = sandboxControl(sandbox, 'bookmark');
		signing = sandboxControl(sandbox, 'signing');
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => {
		await control.reset();
		await signing.reset();
	});

	const context = () =>
		executeContext({
			parameters: {},
			credentials: {
				bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey },
				signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
			},
		}).context;
	const send = async (method: IHttpRequestMethods, path: string, extra: object = {}) =>
		await serviceAnswer(
			context(),
			'bookmarkApi',
			'bookmark service',
			{ method, path, acceptStatuses: [404], ...extra },
			NO_WAIT,
		);
	const membership = `/api/v1/lists/${SEED.readingListId}/bookmarks/${SEED.adaPortfolioBookmarkId}`;
	const record = `/api/v1/bookmarks/${SEED.adaPortfolioBookmarkId}`;
	const sent = async () => (await control.requests()).map((request) => request.status);

	it.each([502, 503, 504])('sends a PUT again after a %i', async (status) => {
		await control.failNext(1, status);
		const answer = await send('PUT', membership);
		expect(answer.statusCode).toBe(204);
		expect(answer.repeated).toBe(true);
		expect(await sent()).toEqual([status, 204]);
	});

	it('sends a DELETE again after a lost connection', async () => {
		await control.failNext(1, 502, { drop: true });
		const answer = await send('DELETE', record);
		expect(answer.statusCode).toBe(204);
		expect(answer.repeated).toBe(true);
	});

	it('a DELETE carried out before a gateway gave up finds the record gone, and says it was repeated', async () => {
		await control.failNext(1, 504, { afterHandling: true });
		const answer = await send('DELETE', record);
		expect(answer.statusCode).toBe(404);
		expect(answer.repeated).toBe(true);
		expect(answer.error).toBeInstanceOf(NodeApiError);
		expect(await sent()).toEqual([504, 404]);
	});

	it('a DELETE carried out before the connection broke is sent again and finds the record gone', async () => {
		await control.failNext(1, 502, { afterHandling: true, drop: true });
		const answer = await send('DELETE', record);
		expect(answer).toMatchObject({ statusCode: 404, repeated: true });
	});

	it('a first answer is not marked as repeated', async () => {
		const answer = await send('DELETE', record);
		expect(answer).toMatchObject({ statusCode: 204, repeated: false });
	});

	it.each(['POST', 'PATCH'] as const)('never sends a %s again', async (method) => {
		await control.failNext(1, 502);
		const error = await send(method, method === 'POST' ? '/api/v1/bookmarks' : record, {
			body: method === 'POST' ? { type: 'link', url: 'https://example.org/x' } : { title: 'x' },
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(await sent()).toEqual([502]);
	});

	// Issue 32 item 14: the outcome of a POST or PATCH whose answer was lost is unknown; the error
	// says so, and how to find out, instead of reading like a refusal.
	it.each([
		['a connection cut', 502, { afterHandling: true, drop: true }],
		['a gateway timeout', 504, { afterHandling: true }],
	])('a POST whose answer was lost (%s) says what it made may exist, how to check, and that it was not repeated', async (_what, status, fault) => {
		await control.failNext(1, status, fault);
		const text = `lost answer ${status}`;
		const error = (await send('POST', '/api/v1/bookmarks', {
			body: { type: 'text', text },
			lostAnswerHint: 'Get Many shows whether it was stored.',
		}).catch((caught: unknown) => caught)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.description).toContain(
			'may have carried it out before the answer was lost: what it was to create or send may have been created or sent. It was not sent again, so that it is not done twice. Get Many shows whether it was stored.',
		);
		// It was stored, once: a text record sent twice would be stored twice.
		const listed = await send('GET', '/api/v1/bookmarks', { qs: { limit: 100 } });
		const stored = (listed.body as { bookmarks: Array<{ content: { text?: string } }> }).bookmarks;
		expect(stored.filter((bookmark) => bookmark.content.text === text)).toHaveLength(1);
	});

	it('a PATCH whose answer was lost says the change may have been made; without a hint, to check in the service', async () => {
		await control.failNext(1, 502, { afterHandling: true, drop: true });
		const error = (await send('PATCH', record, { body: { title: 'x' } }).catch((caught: unknown) => caught)) as NodeApiError;
		expect(error.message).toMatch(/^The answer of the bookmark service was lost: /);
		expect(error.description).toContain('the change may have been made');
		expect(error.description).toContain('Check in the bookmark service before running this item again.');
	});

	it('a POST that never reached the service says so, and nothing about what it may have made', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));
		const error = (await send('POST', '/api/v1/bookmarks', {
			baseUrl: `http://127.0.0.1:${port}`,
			body: { type: 'link', url: 'https://example.org/never-sent' },
		}).catch((caught: unknown) => caught)) as NodeApiError;
		expect(error.message).toBe('The bookmark service cannot be reached: check the Base URL in the credential');
		expect(error.description).not.toContain('may have');
	});

	it('never sends a request marked not repeatable again', async () => {
		await control.failNext(1, 503);
		const error = await send('DELETE', record, { repeatable: false }).catch((caught) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(await sent()).toEqual([503]);
	});

	it('reads the service’s message from the error body of a file request', async () => {
		const error = await serviceRequest(
			context(),
			'signingApi',
			'signing service',
			{ method: 'GET', path: '/api/v2/documents/doc_missing/download', encoding: 'arraybuffer' },
			NO_WAIT,
		).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as Error).message).toBe('The signing service answered 404: Document not found');
		expect(JSON.stringify(error)).not.toContain('Buffer');
	});
});
