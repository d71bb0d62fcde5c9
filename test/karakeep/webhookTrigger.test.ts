/* eslint-disable @typescript-eslint/no-explicit-any -- trigger outputs are JSON; each test states what it expects */
/**
 * The Bookmarks Webhook Trigger with deliveries built exactly as Karakeep's webhook worker builds
 * them (test/harness/karakeepWebhooks.ts `buildKarakeepDelivery`, checked byte for byte against the
 * real worker in webhooks.test.ts; Karakeep apps/workers/workers/webhookWorker.ts at 7ca5ee2), and
 * Include Record reading the real Karakeep. Deliveries from the real worker into a real n8n are in
 * test/e2e/bookmarksKarakeep.test.ts.
 */
import { randomUUID } from 'crypto';

import { BookmarksWebhookTrigger } from '../../nodes/Bookmarks/BookmarksWebhookTrigger.node';
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { buildKarakeepDelivery, type KarakeepDeliveryInput } from '../harness/karakeepWebhooks';
import { callWebhook, type WebhookCall } from '../unit/helpers/context';
import { expectStatus, START_TIMEOUT_MS } from './api';

let karakeep: KarakeepServer;

beforeAll(async () => {
	karakeep = await startKarakeep();
}, START_TIMEOUT_MS);

afterAll(async () => {
	await karakeep?.stop();
});

const TOKEN = 'a-token-set-in-karakeep';
const trigger = new BookmarksWebhookTrigger();
let nextJob = 1000;

/** A delivery of one event, as the worker sends it, to the trigger; the trigger's outcome. */
async function deliver(
	input: Partial<KarakeepDeliveryInput> & { bookmarkId: string },
	call: Partial<WebhookCall> = {},
	credential: Record<string, unknown> = {},
) {
	const delivery = buildKarakeepDelivery({
		jobId: String(nextJob++),
		userId: 'uuuuuuuuuuuuuuuuuuuuuuuu',
		operation: 'created',
		bookmark: { type: 'link', url: 'https://example.org/hooked' },
		token: TOKEN,
		...input,
	});
	return await callWebhook(trigger.webhook, {
		headers: Object.fromEntries(delivery.headers),
		body: JSON.parse(delivery.body.toString('utf8')),
		rawBody: delivery.body,
		parameters: { events: ['created', 'edited', 'crawled', 'ai tagged', 'deleted'] },
		credentials: {
			bookmarkApi: { api: 'karakeep', baseUrl: karakeep.url, apiKey: karakeep.apiKey, webhookToken: TOKEN, ...credential },
		},
		workflowId: 'workflow-' + randomUUID(),
		...call,
	});
}
const itemsOf = (outcome: Awaited<ReturnType<typeof deliver>>) =>
	(outcome.result.workflowData?.[0] ?? []).map((item) => item.json as any);

describe('the token, checked in constant time and required (fail closed)', () => {
	test('the right token: one item, the event in the documented terms plus what Karakeep sent', async () => {
		const outcome = await deliver({ jobId: '7', bookmarkId: 'b1', operation: 'created' });
		expect(itemsOf(outcome)).toEqual([
			{
				event: 'created',
				deliveryId: '7:created',
				recordId: 'b1',
				jobId: '7',
				userId: 'uuuuuuuuuuuuuuuuuuuuuuuu',
				url: 'https://example.org/hooked',
				type: 'link',
			},
		]);
	});

	test('a wrong token, no token, or a token without "Bearer": 401, no execution', async () => {
		for (const token of ['wrong', null]) {
			const outcome = await deliver({ bookmarkId: 'b2', token });
			expect(outcome.status).toBe(401);
			expect(outcome.result.workflowData).toBeUndefined();
		}
		const bare = await deliver({ bookmarkId: 'b2' }, { headers: { authorization: TOKEN, 'content-type': 'application/json' } });
		expect(bare.status).toBe(401);
	});

	test('no Webhook Token in the credential: 401 and a log line saying how to fix it, whatever the delivery carries', async () => {
		const outcome = await deliver({ bookmarkId: 'b3' }, {}, { webhookToken: '' });
		expect(outcome.status).toBe(401);
		expect(outcome.responseBody).toEqual({
			message: 'The trigger has no webhook token to check this delivery with: set it in the credential',
		});
		expect(outcome.warnings).toEqual([expect.stringContaining('its credential has no Webhook Token. Set a webhook in Karakeep under Settings → Webhooks')]);
		expect(outcome.warnings[0]).not.toContain(TOKEN);
	});

	test('a credential of the documented API (which sends no webhooks): 401, saying to choose Karakeep', async () => {
		const outcome = await deliver({ bookmarkId: 'b4' }, {}, { api: 'documented' });
		expect(outcome.status).toBe(401);
		expect(outcome.warnings).toEqual([expect.stringContaining('Choose Karakeep under API in the credential')]);
	});
});

describe('events and redeliveries', () => {
	test('a redelivery (same jobId and operation) starts nothing; the same job for another operation does', async () => {
		const call = { workflowId: 'workflow-redelivery' };
		expect(itemsOf(await deliver({ jobId: '42', bookmarkId: 'b5', operation: 'edited' }, call))).toHaveLength(1);
		const again = await deliver({ jobId: '42', bookmarkId: 'b5', operation: 'edited' }, call);
		expect(again.result).toEqual({ webhookResponse: 'OK' });
		expect(itemsOf(await deliver({ jobId: '42', bookmarkId: 'b5', operation: 'crawled' }, call))).toHaveLength(1);
	});

	test('a delivery whose execution n8n failed to start is taken again when redelivered', async () => {
		const call = { workflowId: 'workflow-failed-start' };
		await deliver({ jobId: '43', bookmarkId: 'b6' }, { ...call, n8nAnswer: 500 });
		expect(itemsOf(await deliver({ jobId: '43', bookmarkId: 'b6' }, call))).toHaveLength(1);
	});

	test('crawled and ai tagged (workers that do not run here) have the shape of created', async () => {
		for (const operation of ['crawled', 'ai tagged'] as const) {
			expect(itemsOf(await deliver({ jobId: `5${operation.length}`, bookmarkId: 'b7', operation }))).toEqual([
				expect.objectContaining({ event: operation, deliveryId: `5${operation.length}:${operation}`, recordId: 'b7' }),
			]);
		}
	});

	test('deleted carries neither url nor type (the worker reads no bookmark)', async () => {
		const [item] = itemsOf(await deliver({ bookmarkId: 'b8', operation: 'deleted', bookmark: null }));
		expect(item).toMatchObject({ event: 'deleted', recordId: 'b8', url: null, type: null });
	});

	test('an event not chosen is acknowledged and starts nothing; a body that is no Karakeep event is 400', async () => {
		const unchosen = await deliver({ bookmarkId: 'b9', operation: 'edited' }, { parameters: { events: ['created'] } });
		expect(unchosen.result).toEqual({ webhookResponse: 'OK' });
		const malformed = await callWebhook(trigger.webhook, {
			headers: { authorization: `Bearer ${TOKEN}` },
			body: { jobId: '1', operation: 'created' },
			parameters: { events: ['created'] },
			credentials: { bookmarkApi: { api: 'karakeep', baseUrl: karakeep.url, apiKey: karakeep.apiKey, webhookToken: TOKEN } },
		});
		expect(malformed.status).toBe(400);
	});
});

describe('Include Record, from the real Karakeep', () => {
	test('the record, simplified by default or whole; a record deleted since comes as null with recordStatus "deleted"', async () => {
		const created = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/include', title: 'Included' } })).json;
		await expectStatus(200, karakeep, 'POST', `/bookmarks/${created.id}/tags`, { body: { tags: [{ tagName: 'hooked' }] } });
		const simplified = itemsOf(await deliver({ bookmarkId: created.id }, { parameters: { events: ['created'], includeRecord: true } }));
		expect(simplified[0]).toMatchObject({
			recordId: created.id,
			recordStatus: 'found',
			record: { id: created.id, title: 'Included', tags: ['hooked'], url: 'https://example.org/include' },
		});
		const whole = itemsOf(await deliver({ bookmarkId: created.id }, { parameters: { events: ['created'], includeRecord: true, simplify: false } }));
		expect(whole[0].record).toMatchObject({ id: created.id, listIds: [], userId: expect.any(String), content: { url: 'https://example.org/include' } });

		await expectStatus(204, karakeep, 'DELETE', `/bookmarks/${created.id}`);
		const gone = itemsOf(await deliver({ bookmarkId: created.id, operation: 'edited' }, { parameters: { events: ['edited'], includeRecord: true } }));
		expect(gone).toEqual([expect.objectContaining({ event: 'edited', record: null, recordStatus: 'deleted' })]);
		const deleted = itemsOf(await deliver({ bookmarkId: created.id, operation: 'deleted', bookmark: null }, { parameters: { events: ['deleted'], includeRecord: true } }));
		expect(deleted).toEqual([expect.objectContaining({ event: 'deleted', record: null, recordStatus: 'deleted' })]);
	});

	test('Karakeep unreachable: the event still comes, recordStatus "unavailable" with the reason', async () => {
		const [item] = itemsOf(
			await deliver({ bookmarkId: 'b10' }, { parameters: { events: ['created'], includeRecord: true } }, { baseUrl: 'http://127.0.0.1:9' }),
		);
		// Which reason depends on whether the retries of the read outlast the trigger's wait for it.
		expect(item).toMatchObject({ event: 'created', record: null, recordStatus: 'unavailable' });
		expect(item.recordError).toMatch(/cannot be reached|did not come within 3 s/);
	});
});
