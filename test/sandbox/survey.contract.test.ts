/* eslint-disable @n8n/community-nodes/no-restricted-globals */
import { createHmac } from 'node:crypto';

import { type Sandbox, SEED, startSandbox } from './index';
import { call, type Receiver, startReceiver } from './receiver';

/** Standard Webhooks, recomputed here with node:crypto only. */
function expectedSignature(secret: string, id: string, timestamp: string, body: string): string {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

describe('survey service contract', () => {
	let sandbox: Sandbox;
	let receiver: Receiver;
	const key = () => ({ 'x-api-key': sandbox.survey.apiKey });
	const url = (path: string) => `${sandbox.survey.url}${path}`;
	const get = async (path: string, headers: Record<string, string> = key()) => await call(url(path), { headers });
	const control = async (path: string, body?: unknown, method = 'POST') =>
		await call(url(`/_sandbox${path}`), { method, body });
	const register = async (body: unknown) => await call(url('/api/v1/webhooks'), { method: 'POST', headers: key(), body });

	beforeAll(async () => {
		receiver = await startReceiver();
		sandbox = await startSandbox({ webhookRetryDelayMs: 50, rateLimits: { survey: null } });
	});
	afterAll(async () => {
		await sandbox.stop();
		await receiver.close();
	});
	beforeEach(async () => {
		await control('/reset');
		receiver.received.length = 0;
		receiver.answers = [];
	});

	describe('auth', () => {
		it('accepts x-api-key and Authorization: Bearer, and answers 401 otherwise', async () => {
			expect((await get('/api/v1/management/surveys')).status).toBe(200);
			expect(
				(await get('/api/v1/management/surveys', { authorization: `Bearer ${sandbox.survey.apiKey}` })).status,
			).toBe(200);
			const refused = await get('/api/v1/management/surveys', { 'x-api-key': 'wrong' });
			expect(refused.status).toBe(401);
			expect(refused.json).toEqual({ code: 'not_authenticated', message: expect.any(String), details: {} });
			expect((await get('/api/v1/management/surveys', {})).status).toBe(401);
		});
	});

	describe('GET /api/v1/management/surveys', () => {
		it('returns published and draft surveys with every field', async () => {
			const answer = await get('/api/v1/management/surveys');
			expect(answer.json.data).toEqual(
				expect.arrayContaining([
					{
						id: SEED.residencySurveyId,
						name: 'Residency application',
						status: 'inProgress',
						type: 'link',
						createdAt: expect.stringMatching(/Z$/),
						responseCount: 6,
					},
					expect.objectContaining({ id: SEED.draftSurveyId, status: 'draft', responseCount: 0 }),
					expect.objectContaining({ id: SEED.alumniSurveyId, type: 'app' }),
				]),
			);
		});

		it('answers 400 to an unknown parameter', async () => {
			const answer = await get('/api/v1/management/surveys?status=draft');
			expect(answer.status).toBe(400);
			expect(answer.json.code).toBe('bad_request');
		});
	});

	describe('GET /api/v1/management/surveys/{surveyId}/responses', () => {
		beforeEach(async () => {
			await control(`/surveys/${SEED.residencySurveyId}/generate-responses`, { count: 600 });
		});

		it('returns 50 oldest first by default, with meta', async () => {
			const answer = await get(`/api/v1/management/surveys/${SEED.residencySurveyId}/responses`);
			expect(answer.json.data).toHaveLength(50);
			expect(answer.json.meta).toEqual({ total: 606, limit: 50, offset: 0 });
			const times = answer.json.data.map((r: { createdAt: string }) => r.createdAt);
			expect([...times].sort()).toEqual(times);
			expect(answer.json.data[0]).toEqual({
				id: expect.stringMatching(/^resp_/),
				surveyId: SEED.residencySurveyId,
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				finished: expect.any(Boolean),
				data: expect.any(Object),
				meta: { source: expect.any(String) },
			});
		});

		it('pages by offset up to the maximum limit of 250, covering every response once', async () => {
			const ids: string[] = [];
			for (let offset = 0; offset < 606; offset += 250) {
				const answer = await get(`/api/v1/management/surveys/${SEED.residencySurveyId}/responses?limit=250&offset=${offset}`);
				expect(answer.json.meta).toEqual({ total: 606, limit: 250, offset });
				ids.push(...answer.json.data.map((r: { id: string }) => r.id));
			}
			expect(ids).toHaveLength(606);
			expect(new Set(ids).size).toBe(606);
		});

		it.each([
			['a limit above 250', '?limit=251'],
			['a negative offset', '?offset=-1'],
			['an unknown parameter', '?page=2'],
		])('answers 400 to %s', async (_, query) => {
			const answer = await get(`/api/v1/management/surveys/${SEED.residencySurveyId}/responses${query}`);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ code: 'bad_request', message: expect.any(String), details: expect.any(Object) });
		});

		it('answers 404 for an unknown survey', async () => {
			const answer = await get('/api/v1/management/surveys/srv_missing/responses');
			expect(answer.status).toBe(404);
			expect(answer.json.code).toBe('not_found');
		});
	});

	describe('GET /api/v1/management/responses/{responseId}', () => {
		it('returns { data: response }, 404 when unknown', async () => {
			const { json: page } = await get(`/api/v1/management/surveys/${SEED.residencySurveyId}/responses?limit=1`);
			const answer = await get(`/api/v1/management/responses/${page.data[0].id}`);
			expect(answer.json).toEqual({ data: page.data[0] });
			expect((await get('/api/v1/management/responses/resp_missing')).status).toBe(404);
		});
	});

	describe('webhooks API', () => {
		it('registers (secret shown once), lists without secret, deletes, 404 when unknown', async () => {
			const created = await register({ url: receiver.url, triggers: ['responseFinished'], surveyIds: [], source: 'n8n' });
			expect(created.status).toBe(201);
			expect(created.json.data).toEqual({
				id: expect.stringMatching(/^wh_/),
				url: receiver.url,
				triggers: ['responseFinished'],
				surveyIds: [],
				source: 'n8n',
				secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]+$/),
			});
			const listed = await get('/api/v1/webhooks');
			const { secret, ...withoutSecret } = created.json.data;
			expect(secret).toBeDefined();
			expect(listed.json.data).toEqual([withoutSecret]);
			const deleted = await call(url(`/api/v1/webhooks/${created.json.data.id}`), { method: 'DELETE', headers: key() });
			expect(deleted.status).toBe(200);
			expect(deleted.json.data.id).toBe(created.json.data.id);
			expect((await get('/api/v1/webhooks')).json.data).toEqual([]);
			expect((await call(url(`/api/v1/webhooks/${created.json.data.id}`), { method: 'DELETE', headers: key() })).status).toBe(404);
		});

		it.each([
			['no url', { triggers: ['responseFinished'] }],
			['empty triggers', { url: 'http://127.0.0.1:1/x', triggers: [] }],
			['an unknown trigger', { url: 'http://127.0.0.1:1/x', triggers: ['responseDeleted'] }],
			['an unknown field', { url: 'http://127.0.0.1:1/x', triggers: ['responseFinished'], secret: 'mine' }],
		])('answers 400 to %s', async (_, body) => {
			expect((await register(body)).status).toBe(400);
		});

		it('delivers signed events to matching hooks; the signature recomputes independently', async () => {
			const hook = (await register({ url: receiver.url, triggers: ['responseCreated', 'responseFinished'] })).json.data;
			await register({ url: `${receiver.url}/other-survey`, triggers: ['responseFinished'], surveyIds: ['srv_other'] });
			const { json } = await control(`/surveys/${SEED.residencySurveyId}/responses`, {
				data: { fullName: 'Ada', decision: 'approved' },
			});
			const deliveries = await receiver.waitFor(2);
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect(receiver.received).toHaveLength(2);
			expect(deliveries.map((d) => d.body.event)).toEqual(['responseCreated', 'responseFinished']);
			for (const delivery of deliveries) {
				expect(delivery.body).toEqual({
					event: delivery.body.event,
					surveyId: SEED.residencySurveyId,
					responseId: json.data.id,
					createdAt: json.data.createdAt,
					data: { fullName: 'Ada', decision: 'approved' },
				});
				const id = String(delivery.headers['webhook-id']);
				const timestamp = String(delivery.headers['webhook-timestamp']);
				expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(10);
				expect(delivery.headers['webhook-signature']).toBe(
					`v1,${expectedSignature(hook.secret, id, timestamp, delivery.rawBody)}`,
				);
			}
		});

		it('fires responseUpdated, then responseFinished when a response turns finished', async () => {
			await register({ url: receiver.url, triggers: ['responseUpdated', 'responseFinished'] });
			const { json } = await control(`/surveys/${SEED.residencySurveyId}/responses`, {
				data: { fullName: 'Mary' },
				finished: false,
			});
			await control(`/responses/${json.data.id}`, { data: { decision: 'pending' } }, 'PATCH');
			await control(`/responses/${json.data.id}`, { finished: true }, 'PATCH');
			const deliveries = await receiver.waitFor(3);
			expect(deliveries.map((d) => d.body.event)).toEqual(['responseUpdated', 'responseUpdated', 'responseFinished']);
			expect(deliveries[2].body.data).toEqual({ fullName: 'Mary', decision: 'pending' });
		});

		it('redelivers a failed delivery with the same webhook-id, three attempts in all', async () => {
			receiver.answers = [500, 500, 500];
			await register({ url: receiver.url, triggers: ['responseFinished'] });
			await control(`/surveys/${SEED.residencySurveyId}/responses`, { data: { fullName: 'Lise' } });
			const deliveries = await receiver.waitFor(3);
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect(receiver.received).toHaveLength(3);
			expect(new Set(deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
		});
	});
});
