/**
 * Karakeep's webhooks from its own worker (start.sh --webhook runs apps/workers/workers/webhookWorker.ts
 * of Karakeep commit 7ca5ee2), received on a local endpoint: what a delivery is, when it is
 * repeated, and that test/harness/karakeepWebhooks.ts builds it byte for byte.
 *
 * Sources: webhookWorker.ts (runWebhook: body, headers, `retryTimes` attempts, each with an
 * AbortSignal.timeout of `timeoutSec`), packages/shared/config.ts (WEBHOOK_TIMEOUT_SEC 5,
 * WEBHOOK_RETRY_TIMES 3, WEBHOOK_NUM_WORKERS 1), packages/trpc/models/webhooks.service.ts
 * (triggerWebhook: one queue job per event), packages/shared-server/src/queues.ts (WebhookQueue),
 * liteque 0.8.0 (job id = the task's AUTOINCREMENT id as a string).
 */
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import {
	buildKarakeepDelivery,
	karakeepDeliveryBody,
	type KarakeepWebhookOperation,
	type ReceivedRequest,
	type ReceiverAnswer,
	sendKarakeepDelivery,
	startWebhookReceiver,
	type WebhookReceiver,
} from '../harness/karakeepWebhooks';
import { afterSecondOf, call, expectStatus, START_TIMEOUT_MS } from './api';

const TOKEN = 'webhook-token-set-in-karakeep';
const WAIT_MS = 5 * 60_000;

let karakeep: KarakeepServer;
let receiver: WebhookReceiver;
/**
 * How the endpoint answers, per bookmark URL and attempt number (1-based); 200 otherwise. By URL,
 * so that it is set before the bookmark exists: the worker may deliver before the POST's answer is read.
 */
const policies = new Map<string, (attempt: number) => ReceiverAnswer>();

const fromWorker = (request: ReceivedRequest) => !request.path.includes('helper=');
const isEvent = (bookmarkId: string, operation: KarakeepWebhookOperation) => (request: ReceivedRequest) =>
	fromWorker(request) && (request.json as { bookmarkId?: string; operation?: string })?.bookmarkId === bookmarkId &&
	(request.json as { operation?: string }).operation === operation;

beforeAll(async () => {
	receiver = await startWebhookReceiver((request) => {
		const body = request.json as { url?: string; jobId?: string } | undefined;
		const policy = body?.url && fromWorker(request) ? policies.get(body.url) : undefined;
		if (!policy) return 200;
		const attempt = receiver.received.filter((r) => fromWorker(r) && (r.json as { jobId?: string }).jobId === body!.jobId).length;
		return policy(attempt);
	});
	// The held attempt is abandoned after 15 s rather than 5: time enough, on a busy machine, to edit and
	// delete the bookmark while the worker waits on it.
	karakeep = await startKarakeep({ webhook: { url: receiver.url, token: TOKEN }, env: { WEBHOOK_TIMEOUT_SEC: '15' } });
}, START_TIMEOUT_MS);

afterAll(async () => {
	await karakeep?.stop();
	await receiver?.close();
});

/** Sends what the builder makes for `input` to the same endpoint and returns it as received. */
async function sendBuilt(input: Parameters<typeof buildKarakeepDelivery>[0]): Promise<ReceivedRequest> {
	const before = receiver.received.length;
	const answer = await sendKarakeepDelivery(`${receiver.url}?helper=${before}`, buildKarakeepDelivery(input));
	expect(answer.status).toBe(200);
	return receiver.received.find((request, index) => index >= before && request.path.endsWith(`helper=${before}`))!;
}

/** The worker's request and the builder's, compared as sent: every header line in order, and the body's bytes. */
function expectSameDelivery(built: ReceivedRequest, real: ReceivedRequest) {
	expect(built.rawHeaders).toEqual(real.rawHeaders);
	expect(built.body.equals(real.body)).toBe(true);
	expect(built.method).toBe('POST');
	expect(real.method).toBe('POST');
}

/** The distinct jobs among received requests (an attempt repeated after a slow answer is the same job). */
const jobsOf = (requests: ReceivedRequest[]) => new Set(requests.map((request) => karakeepDeliveryBody(request).jobId));

/** Waits until every job enqueued before now was handled: the worker takes jobs oldest second first, one at a time. */
async function drain(): Promise<void> {
	const sentinel = await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: 'sentinel' } });
	await receiver.next(isEvent(sentinel.json.id, 'created'), 'the sentinel\'s created delivery');
}

test(
	'created, edited and deleted: one POST each, {jobId, bookmarkId, userId, url, type, operation}, Bearer token; the builder makes the same bytes',
	async () => {
		const created = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/hooked' } })).json;
		const createdDelivery = await receiver.next(isEvent(created.id, 'created'), 'the created delivery');
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${created.id}`, { body: { title: 'Edited' } });
		const editedDelivery = await receiver.next(isEvent(created.id, 'edited'), 'the edited delivery');
		await expectStatus(204, karakeep, 'DELETE', `/bookmarks/${created.id}`);
		const deletedDelivery = await receiver.next(isEvent(created.id, 'deleted'), 'the deleted delivery');

		const userId = (await expectStatus(200, karakeep, 'GET', '/users/me')).json.id;
		const base = { bookmarkId: created.id, userId, url: 'https://example.org/hooked', type: 'link' };
		expect(karakeepDeliveryBody(createdDelivery)).toEqual({ ...base, jobId: expect.stringMatching(/^\d+$/), operation: 'created' });
		expect(karakeepDeliveryBody(editedDelivery)).toEqual({ ...base, jobId: expect.stringMatching(/^\d+$/), operation: 'edited' });
		// Deleted: the bookmark is gone when the worker reads it, so url and type are left out.
		expect(karakeepDeliveryBody(deletedDelivery)).toEqual({ jobId: expect.stringMatching(/^\d+$/), bookmarkId: created.id, userId, operation: 'deleted' });
		const jobIds = [createdDelivery, editedDelivery, deletedDelivery].map((d) => karakeepDeliveryBody(d).jobId);
		expect(new Set(jobIds).size).toBe(3);
		expect(jobIds.map(Number)).toEqual([...jobIds.map(Number)].sort((a, b) => a - b));
		for (const delivery of [createdDelivery, editedDelivery, deletedDelivery]) {
			expect(delivery.headers.authorization).toBe(`Bearer ${TOKEN}`);
			expect(delivery.headers['content-type']).toBe('application/json');
			const body = karakeepDeliveryBody(delivery);
			const exists = body.operation !== 'deleted';
			const built = await sendBuilt({
				jobId: body.jobId,
				bookmarkId: created.id,
				userId,
				operation: body.operation,
				bookmark: exists ? { type: 'link', url: 'https://example.org/hooked' } : null,
				token: TOKEN,
			});
			expectSameDelivery(built, delivery);
		}
	},
	WAIT_MS,
);

test(
	'a text record: no url; attaching a tag is an edited event; adding it to a list sends nothing',
	async () => {
		const created = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: 'a note' } })).json;
		const createdDelivery = await receiver.next(isEvent(created.id, 'created'), 'the created delivery of a text record');
		expect(karakeepDeliveryBody(createdDelivery)).not.toHaveProperty('url');
		expect(karakeepDeliveryBody(createdDelivery).type).toBe('text');
		const built = await sendBuilt({
			jobId: karakeepDeliveryBody(createdDelivery).jobId,
			bookmarkId: created.id,
			userId: created.userId,
			operation: 'created',
			bookmark: { type: 'text' },
			token: TOKEN,
		});
		expectSameDelivery(built, createdDelivery);

		await expectStatus(200, karakeep, 'POST', `/bookmarks/${created.id}/tags`, { body: { tags: [{ tagName: 'hooked' }] } });
		await receiver.next(isEvent(created.id, 'edited'), 'the edited delivery of a tag change');
		const list = (await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'Quiet', icon: '🔕' } })).json;
		await expectStatus(204, karakeep, 'PUT', `/lists/${list.id}/bookmarks/${created.id}`);
		await afterSecondOf(new Date().toISOString());
		await drain();
		expect(jobsOf(receiver.received.filter(isEvent(created.id, 'edited'))).size).toBe(1);
	},
	WAIT_MS,
);

test(
	'an empty PATCH (nothing changes) and posting an existing URL again (a re-save) each send edited',
	async () => {
		const url = 'https://example.org/resaved-hook';
		const created = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url } })).json;
		await receiver.next(isEvent(created.id, 'created'), 'the created delivery');
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${created.id}`, { body: {} });
		const first = await receiver.next(isEvent(created.id, 'edited'), 'the edited delivery of an empty PATCH');
		await expectStatus(200, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url } });
		const firstJob = karakeepDeliveryBody(first).jobId;
		await receiver.next(
			(request) => isEvent(created.id, 'edited')(request) && karakeepDeliveryBody(request).jobId !== firstJob,
			'the edited delivery of a re-save',
		);
		expect(jobsOf(receiver.received.filter(isEvent(created.id, 'created'))).size).toBe(1);
	},
	WAIT_MS,
);

test(
	'a refused attempt (500) is repeated at once with the same bytes (same jobId); at most 3 attempts in all',
	async () => {
		policies.set('https://example.org/flaky', (attempt) => (attempt === 1 ? 500 : 200));
		const flaky = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/flaky' } })).json;
		const [first, second] = await receiver.count(isEvent(flaky.id, 'created'), 2, 'two attempts of one delivery');
		expect(second.rawHeaders).toEqual(first.rawHeaders);
		expect(second.body.equals(first.body)).toBe(true);

		policies.set('https://example.org/down', () => 500);
		const down = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/down' } })).json;
		const attempts = await receiver.count(isEvent(down.id, 'created'), 3, 'three attempts of a refused delivery');
		expect(new Set(attempts.map((a) => a.body.toString('utf8'))).size).toBe(1);
		await afterSecondOf(new Date().toISOString());
		await drain();
		expect(receiver.received.filter(isEvent(down.id, 'created'))).toHaveLength(3);
	},
	WAIT_MS,
);

test(
	'an endpoint that does not answer: the attempt is abandoned after its timeout and repeated with the same bytes, read once per job (the bookmark deleted meanwhile); events queued for a bookmark deleted before the worker reaches them are dropped, except deleted',
	async () => {
		policies.set('https://example.org/slow', (attempt) => (attempt === 1 ? 'hold' : 200));
		const slow = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/slow' } })).json;
		const held = await receiver.next(isEvent(slow.id, 'created'), 'the first, held attempt');
		// While the worker waits on the held attempt, the bookmark is edited and deleted.
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${slow.id}`, { body: { title: 'Edited while held' } });
		await expectStatus(204, karakeep, 'DELETE', `/bookmarks/${slow.id}`);
		await held.answered; // the worker gave up on it (AbortSignal.timeout) and closed the connection
		const [, retried] = await receiver.count(isEvent(slow.id, 'created'), 2, 'the second attempt after the timeout');
		expect(retried.rawHeaders).toEqual(held.rawHeaders);
		expect(retried.body.equals(held.body)).toBe(true);
		expect(karakeepDeliveryBody(retried)).toMatchObject({ url: 'https://example.org/slow', type: 'link' });
		await receiver.next(isEvent(slow.id, 'deleted'), 'the deleted delivery');
		await afterSecondOf(new Date().toISOString());
		await drain();
		expect(receiver.received.filter(isEvent(slow.id, 'edited'))).toHaveLength(0);
	},
	WAIT_MS,
);

test(
	'webhooks are managed over tRPC with the API key (webhooks.list/update); without a token there is no Authorization header, and the builder agrees',
	async () => {
		const listed = await expectStatus(200, karakeep, 'GET', '/api/trpc/webhooks.list');
		const [webhook] = listed.json.result.data.json.webhooks;
		expect(webhook).toMatchObject({ url: receiver.url, hasToken: true, events: ['created', 'edited', 'crawled', 'ai tagged', 'deleted'] });
		expect(webhook).not.toHaveProperty('token');
		await expectStatus(200, karakeep, 'POST', '/api/trpc/webhooks.update', { body: { json: { webhookId: webhook.id, token: null } } });
		try {
			const created = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/no-token' } })).json;
			const delivery = await receiver.next(isEvent(created.id, 'created'), 'a delivery without a token');
			expect(delivery.headers).not.toHaveProperty('authorization');
			const built = await sendBuilt({
				jobId: karakeepDeliveryBody(delivery).jobId,
				bookmarkId: created.id,
				userId: created.userId,
				operation: 'created',
				bookmark: { type: 'link', url: 'https://example.org/no-token' },
				token: null,
			});
			expectSameDelivery(built, delivery);
		} finally {
			await call(karakeep, 'POST', '/api/trpc/webhooks.update', { body: { json: { webhookId: webhook.id, token: TOKEN } } });
		}
	},
	WAIT_MS,
);

test('the builder: crawled and ai tagged have the shape of created (the bookmark exists), keys in the worker\'s order', () => {
	for (const operation of ['crawled', 'ai tagged'] as const) {
		const delivery = buildKarakeepDelivery({
			jobId: '42',
			bookmarkId: 'b',
			userId: 'u',
			operation,
			bookmark: { type: 'link', url: 'https://example.org/a' },
			token: 't',
		});
		expect(delivery.body.toString('utf8')).toBe(
			`{"jobId":"42","bookmarkId":"b","userId":"u","url":"https://example.org/a","type":"link","operation":"${operation}"}`,
		);
		expect(delivery.headers).toContainEqual(['authorization', 'Bearer t']);
		expect(delivery.headers).toContainEqual(['content-length', String(delivery.body.length)]);
	}
});
