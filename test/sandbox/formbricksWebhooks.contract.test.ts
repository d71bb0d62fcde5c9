/**
 * Webhooks as Formbricks sends them. Source: formbricks/formbricks at commit
 * b66c1dd978af618a0e402bd3343b456bed68594c,
 * apps/web/modules/response-pipeline/lib/process-response-pipeline-job.ts (body, headers,
 * `webhook-id`, one attempt to every subscribed webhook), apps/web/lib/crypto.ts (signature),
 * packages/jobs/src/constants.ts (3 attempts, exponential backoff), packages/jobs/src/types.ts
 * (the response as the job holds it). The helper under test is test/sandbox/formbricks/webhook.ts;
 * every signature is checked with the `standardwebhooks` library, as a receiver would.
 */
import { createHash } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import { FORMBRICKS_SEED, startFormbricks, type FormbricksSandbox } from './formbricks';
import { backoffMs, FORMBRICKS_DELIVERY } from './formbricks/timing';
import { buildDelivery, FORMBRICKS_COMMIT, webhookMessageId } from './formbricks/webhook';
import { call, type Receiver, startReceiver } from './testkit';

const SECRET = `whsec_${Buffer.from('formbricks-test-secret-32-bytes!').toString('base64')}`;
const URLS = { publicUrl: 'https://forms.example.org', webappUrl: 'https://app.example.org' };
const { surveys, questions, workspaceId } = FORMBRICKS_SEED;

/** A response as Formbricks' routes hand it to `sendToPipeline`, with a field the job schema drops. */
const response = {
	surveyId: surveys.residency,
	id: 'cm2279tlxqd4a1crz44ouub0f',
	createdAt: '2026-11-03T10:00:00.000Z',
	updatedAt: '2026-11-03T10:14:00.000Z',
	finished: true,
	endingId: 'ux5kjf7n2q8wbd0c3lmz9p4r',
	data: {
		[questions.residency.fullName]: 'Ada Lovelace',
		[questions.mentor.cv]: ['/storage/cmpftjjwzhxblhsvszbrd0mig/private/cv.pdf'],
	},
	meta: { country: 'GB', userAgent: { device: 'desktop', browser: 'Chrome', os: 'macOS' }, url: 'https://forms.example.org/s/x' },
	ttc: { _total: 5000 },
	variables: {},
	contactAttributes: null,
	singleUseId: null,
	language: 'default',
	displayId: 'cmdadaadaadaadaadaadaadaa',
	contact: null,
	tags: [],
	contactId: null,
};
const survey = {
	name: 'Residency application',
	type: 'link',
	status: 'inProgress',
	createdAt: '2026-10-01T08:00:00.000Z',
	updatedAt: '2026-10-02T08:00:00.000Z',
};

/** The 17th job's delivery of responseFinished to one hook, with what a test changes. */
const deliver = (change: Partial<Parameters<typeof buildDelivery>[0]> = {}) =>
	buildDelivery({
		jobId: '17',
		event: 'responseFinished',
		webhook: { id: 'cmwebhook00000000000000001', secret: SECRET },
		response,
		survey,
		urls: URLS,
		...change,
	});

describe(`the delivery helper, as Formbricks ${FORMBRICKS_COMMIT.slice(0, 7)} builds a delivery`, () => {
	const now = new Date();
	const delivery = deliver({ now });

	it('writes the nested body byte for byte: the job schema\'s fields in its order, storage URLs resolved, the survey last', () => {
		expect(delivery.body).toBe(
			'{"webhookId":"cmwebhook00000000000000001","event":"responseFinished","data":{' +
				`"id":"cm2279tlxqd4a1crz44ouub0f","createdAt":"2026-11-03T10:00:00.000Z","updatedAt":"2026-11-03T10:14:00.000Z",` +
				`"surveyId":"${surveys.residency}","displayId":"cmdadaadaadaadaadaadaadaa","contact":null,"contactAttributes":null,` +
				`"finished":true,"endingId":"ux5kjf7n2q8wbd0c3lmz9p4r",` +
				`"data":{"${questions.residency.fullName}":"Ada Lovelace","${questions.mentor.cv}":["https://app.example.org/storage/cmpftjjwzhxblhsvszbrd0mig/private/cv.pdf"]},` +
				'"variables":{},"ttc":{"_total":5000},"tags":[],' +
				'"meta":{"url":"https://forms.example.org/s/x","userAgent":{"browser":"Chrome","os":"macOS","device":"desktop"},"country":"GB"},' +
				'"singleUseId":null,"language":"default",' +
				'"survey":{"title":"Residency application","type":"link","status":"inProgress","createdAt":"2026-10-01T08:00:00.000Z","updatedAt":"2026-10-02T08:00:00.000Z"}}}',
		);
	});

	it('sends exactly the Standard Webhooks headers, with an id derived from the job, the webhook and the event', () => {
		const id = createHash('sha256').update(`17:cmwebhook00000000000000001:responseFinished`).digest('hex');
		expect(delivery.headers).toEqual({
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
			'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
		});
		expect(webhookMessageId('17', 'cmwebhook00000000000000001', 'responseCreated')).not.toBe(id);
	});

	it('signs the exact bytes: the standardwebhooks library accepts it, and refuses a changed byte or an old timestamp', () => {
		const receiver = new Webhook(SECRET);
		expect(receiver.verify(delivery.body, delivery.headers)).toEqual(JSON.parse(delivery.body));
		expect(() => receiver.verify(delivery.body.replace('Ada', 'Eve'), delivery.headers)).toThrow();
		const old = deliver({ now: new Date(now.getTime() - 10 * 60_000) });
		expect(old.headers['webhook-id']).toBe(delivery.headers['webhook-id']);
		expect(() => receiver.verify(old.body, old.headers)).toThrow(/timestamp/i);
	});

	it('sends no signature for a webhook without a secret (made before Formbricks had them)', () => {
		const unsigned = deliver({ webhook: { id: 'cmwebhook00000000000000001', secret: null } });
		expect(Object.keys(unsigned.headers)).toEqual(['content-type', 'webhook-id', 'webhook-timestamp']);
	});

	it('retries as BullMQ does with Formbricks\' job options: 3 attempts, 5 s then 10 s apart, 5 s per request', () => {
		expect(FORMBRICKS_DELIVERY).toEqual({ attempts: 3, backoffDelayMs: 5_000, timeoutMs: 5_000 });
		expect([1, 2].map((attemptsMade) => backoffMs(FORMBRICKS_DELIVERY.backoffDelayMs, attemptsMade))).toEqual([
			5_000, 10_000,
		]);
	});

	it('refuses a response the job schema refuses, as sendToPipeline would', () => {
		expect(() => deliver({ response: { ...response, id: 'resp_not_a_cuid' } })).toThrow(/cuid2/);
	});
});

describe('deliveries of the Formbricks flavour', () => {
	let fb: FormbricksSandbox;
	let receiver: Receiver;
	let other: Receiver;

	beforeAll(async () => {
		// Short backoff: 1 ms before the 2nd attempt, 2 ms before the 3rd (Formbricks: 5 s, 10 s).
		fb = await startFormbricks({ backoffDelayMs: 1 });
		receiver = await startReceiver();
		other = await startReceiver();
	});
	afterAll(async () => {
		await fb.stop();
		await receiver.close();
		await other.close();
	});
	beforeEach(async () => {
		await call(`${fb.url}/_sandbox/reset`, { method: 'POST' });
		receiver.clear();
		other.clear();
	});

	const register = async (url: string, body: Record<string, unknown> = {}) => {
		const { status, json } = await call(`${fb.url}/api/v1/webhooks`, {
			method: 'POST',
			headers: { 'x-api-key': fb.apiKey },
			body: { url, triggers: ['responseCreated', 'responseUpdated', 'responseFinished'], workspaceId, source: 'n8n', ...body },
		});
		expect(status).toBe(200);
		return json.data as { id: string; secret: string };
	};
	const respond = async (body: Record<string, unknown>, surveyId: string = surveys.residency) =>
		(await call(`${fb.url}/_sandbox/surveys/${surveyId}/responses`, { method: 'POST', body })).json.data;
	const attempts = async () => (await call(`${fb.url}/_sandbox/deliveries`)).json.deliveries;

	it('delivers responseCreated then responseFinished, nested, signed over the exact bytes', async () => {
		const hook = await register(receiver.url);
		const created = await respond({ data: { [questions.residency.fullName]: 'Grace Hopper' } });
		const [first, second] = await receiver.arrived(2);
		const verifier = new Webhook(hook.secret);
		for (const delivery of [first, second]) {
			expect(verifier.verify(delivery.rawBody, delivery.headers as Record<string, string>)).toEqual(delivery.body);
		}
		expect(first.body.event).toBe('responseCreated');
		expect(second.body.event).toBe('responseFinished');
		expect(first.headers['webhook-id']).not.toBe(second.headers['webhook-id']);
		expect(second.body).toEqual({
			webhookId: hook.id,
			event: 'responseFinished',
			data: {
				id: created.id,
				createdAt: created.createdAt,
				updatedAt: created.updatedAt,
				surveyId: surveys.residency,
				displayId: created.displayId,
				contact: null,
				contactAttributes: null,
				finished: true,
				endingId: created.endingId,
				data: { [questions.residency.fullName]: 'Grace Hopper' },
				variables: {},
				ttc: created.ttc,
				tags: [],
				meta: created.meta,
				singleUseId: null,
				language: 'default',
				survey: {
					title: 'Residency application',
					type: 'link',
					status: 'inProgress',
					createdAt: expect.any(String),
					updatedAt: expect.any(String),
				},
			},
		});
	});

	it('delivers responseUpdated for progress and, once finished, responseFinished; only to hooks of that survey and event', async () => {
		await register(receiver.url, { triggers: ['responseUpdated', 'responseFinished'], surveyIds: [surveys.residency] });
		await register(other.url, { triggers: ['responseFinished'], surveyIds: [surveys.alumni] });
		const started = await respond({ data: { [questions.residency.fullName]: 'Hedy Lamarr' }, finished: false });
		await call(`${fb.url}/_sandbox/responses/${started.id}`, {
			method: 'PATCH',
			body: { data: { [questions.residency.email]: 'hedy@example.org' }, finished: true },
		});
		const arrived = await receiver.arrived(2);
		await fb.idle();
		expect(arrived.map((delivery) => delivery.body.event)).toEqual(['responseUpdated', 'responseFinished']);
		expect(arrived[1].body.data.data).toEqual({
			[questions.residency.fullName]: 'Hedy Lamarr',
			[questions.residency.email]: 'hedy@example.org',
		});
		expect(other.received).toEqual([]);
	});

	it('retries a failed delivery with the same webhook-id, signed anew each time, 3 attempts at most', async () => {
		const hook = await register(receiver.url, { triggers: ['responseCreated'] });
		receiver.answers = [500, 503, 502, 200];
		await respond({ data: {}, finished: false });
		const arrived = await receiver.arrived(3);
		await fb.idle();
		expect(receiver.received).toHaveLength(3);
		const ids = new Set(arrived.map((delivery) => delivery.headers['webhook-id']));
		expect(ids.size).toBe(1);
		const verifier = new Webhook(hook.secret);
		for (const delivery of arrived) verifier.verify(delivery.rawBody, delivery.headers as Record<string, string>);
		expect((await attempts()).map((attempt: { attempt: number; status: number }) => [attempt.attempt, attempt.status])).toEqual([
			[1, 500],
			[2, 503],
			[3, 502],
		]);
	});

	it('sends the event again to every hook when one of them failed: a hook that answered 200 sees a redelivery', async () => {
		await register(receiver.url, { triggers: ['responseCreated'] });
		await register(other.url, { triggers: ['responseCreated'] });
		other.answers = [500];
		await respond({ data: {}, finished: false });
		const [first, again] = await receiver.arrived(2);
		await fb.idle();
		expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
		expect(again.rawBody).toBe(first.rawBody);
		expect(again.headers['webhook-timestamp']).toBeDefined();
		expect(other.received.map((delivery) => delivery.headers['webhook-id'])).toEqual([
			other.received[0].headers['webhook-id'],
			other.received[0].headers['webhook-id'],
		]);
	});

	it('goes on with later events while a failed one waits for its retry', async () => {
		await register(receiver.url, { triggers: ['responseCreated', 'responseFinished'] });
		receiver.answers = [500];
		await respond({ data: {} });
		const arrived = await receiver.arrived(3);
		expect(arrived.map((delivery) => delivery.body.event)).toEqual([
			'responseCreated',
			'responseFinished',
			'responseCreated',
		]);
	});

});

describe('a receiver that does not answer', () => {
	it('counts as a failed attempt after the timeout, and the event is retried with the same webhook-id', async () => {
		// Its own sandbox with a short timeout: only the attempt that is never answered may time out here.
		const fb = await startFormbricks({ backoffDelayMs: 1, timeoutMs: 200 });
		const receiver = await startReceiver([{ status: 200, after: new Promise(() => undefined) }]);
		try {
			await call(`${fb.url}/api/v1/webhooks`, {
				method: 'POST',
				headers: { 'x-api-key': fb.apiKey },
				body: { url: receiver.url, triggers: ['responseCreated'], workspaceId },
			});
			await call(`${fb.url}/_sandbox/surveys/${surveys.residency}/responses`, {
				method: 'POST',
				body: { data: {}, finished: false },
			});
			const [first, second] = await receiver.arrived(2);
			expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
			const log = (await call(`${fb.url}/_sandbox/deliveries`)).json.deliveries;
			expect(log[0]).toMatchObject({ attempt: 1, error: 'timeout' });
		} finally {
			await fb.stop();
			await receiver.close();
		}
	});
});
