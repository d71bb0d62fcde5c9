/* eslint-disable @n8n/community-nodes/no-restricted-globals */
import { createHmac } from 'node:crypto';
import { ManualClock, type Sandbox, SEED, SEED_COUNTS, startSandbox } from './index';
import {
	call,
	type ReceivedDelivery,
	type Receiver,
	settledDeliveries,
	startReceiver,
} from './testkit';

// SANDBOX_LOG=1 shows the services' own request logs, to see what a failing test sent.
const logger = process.env.SANDBOX_LOG === '1';

const RETRY_DELAY_MS = 50;

/** Standard Webhooks, recomputed here with node:crypto only. */
function expectedSignature(secret: string, delivery: ReceivedDelivery): string {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	const signed = `${String(delivery.headers['webhook-id'])}.${String(delivery.headers['webhook-timestamp'])}.${delivery.rawBody}`;
	return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

describe('survey service contract', () => {
	let sandbox: Sandbox;
	// Time moves only when a test moves it: retries, timestamps and webhook timeouts are the test's.
	const clock = new ManualClock();
	let receiver: Receiver;
	const key = () => ({ 'x-api-key': sandbox.survey.apiKey });
	const api = (path: string) => `${sandbox.survey.url}${path}`;
	const get = async (path: string, headers: Record<string, string> = key()) =>
		await call(api(path), { headers });
	const responsesPath = (query = '', surveyId: string = SEED.residencySurveyId) =>
		`/api/v1/management/surveys/${surveyId}/responses${query}`;
	const control = async (path: string, body?: unknown, method = 'POST') =>
		await call(api(`/_sandbox${path}`), { method, body });
	const register = async (body: unknown, headers: Record<string, string> = key()) =>
		await call(api('/api/v1/webhooks'), { method: 'POST', headers, body });
	const respond = async (
		data: Record<string, unknown>,
		extra: Record<string, unknown> = {},
		surveyId: string = SEED.residencySurveyId,
	) => (await control(`/surveys/${surveyId}/responses`, { data, ...extra })).json.data;

	beforeAll(async () => {
		receiver = await startReceiver();
		sandbox = await startSandbox({
			ports: {},
			logger,
			clock,
			webhookRetryDelayMs: RETRY_DELAY_MS,
			rateLimits: { survey: null },
		});
	});
	afterAll(async () => {
		await sandbox.stop();
		await receiver.close();
	});
	beforeEach(async () => {
		await control('/reset');
		receiver.clear();
	});

	describe('auth', () => {
		it.each([
			['GET', '/api/v1/management/surveys'],
			['GET', responsesPath()],
			['GET', `/api/v1/management/responses/${SEED.adaResponseId}`],
			['GET', `/api/v1/management/surveys/${SEED.residencySurveyId}`],
			['DELETE', `/api/v1/management/responses/${SEED.adaResponseId}`],
			['GET', '/api/v1/webhooks'],
			['POST', '/api/v1/webhooks'],
			['DELETE', '/api/v1/webhooks/wh_missing'],
		])('answers %s %s 401 {code: not_authenticated} without the key', async (method, path) => {
			const refused: Array<Record<string, string>> = [
				{},
				{ 'x-api-key': 'wrong' },
				{ authorization: 'Bearer wrong' },
			];
			for (const headers of refused) {
				const answer = await call(api(path), { method, headers });
				expect(answer.status).toBe(401);
				expect(answer.json).toEqual({
					code: 'not_authenticated',
					message: expect.any(String),
					details: {},
				});
			}
		});

		it('accepts the key as x-api-key and as Authorization: Bearer', async () => {
			expect((await get('/api/v1/management/surveys')).status).toBe(200);
			const bearer = await get('/api/v1/management/surveys', {
				authorization: `Bearer ${sandbox.survey.apiKey}`,
			});
			expect(bearer.status).toBe(200);
		});
	});

	describe('GET /api/v1/management/surveys', () => {
		it('returns published and draft surveys with every field', async () => {
			const answer = await get('/api/v1/management/surveys');
			expect(answer.status).toBe(200);
			expect(answer.json.data).toHaveLength(SEED_COUNTS.surveys);
			expect(answer.json.data).toEqual(
				expect.arrayContaining([
					{
						id: SEED.residencySurveyId,
						name: 'Residency application',
						status: 'inProgress',
						type: 'link',
						createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
						responseCount: SEED_COUNTS.residencyResponses,
					},
					expect.objectContaining({ id: SEED.draftSurveyId, status: 'draft', responseCount: 0 }),
					expect.objectContaining({
						id: SEED.alumniSurveyId,
						name: 'Alumni feedback',
						status: 'completed',
						type: 'app',
						responseCount: SEED_COUNTS.alumniResponses,
					}),
				]),
			);
		});

		it('counts responses as they come', async () => {
			await respond({ fullName: 'New' });
			const residency = (await get('/api/v1/management/surveys')).json.data.find(
				(survey: { id: string }) => survey.id === SEED.residencySurveyId,
			);
			expect(residency.responseCount).toBe(SEED_COUNTS.residencyResponses + 1);
		});

		it('answers 400 {code: bad_request} to a query parameter', async () => {
			const answer = await get('/api/v1/management/surveys?status=draft');
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({
				code: 'bad_request',
				message: expect.any(String),
				details: {},
			});
		});
	});

	describe('GET /api/v1/management/surveys/{surveyId}/responses', () => {
		const TOTAL = SEED_COUNTS.residencyResponses + 600;
		beforeEach(async () => {
			await control(`/surveys/${SEED.residencySurveyId}/generate-responses`, { count: 600 });
		});

		it('returns 50 oldest first by default, with meta', async () => {
			const answer = await get(responsesPath());
			expect(answer.status).toBe(200);
			expect(answer.json.data).toHaveLength(50);
			expect(answer.json.meta).toEqual({ total: TOTAL, limit: 50, offset: 0 });
			const times = answer.json.data.map((response: { createdAt: string }) => response.createdAt);
			expect(times).toEqual([...times].sort());
			for (const response of answer.json.data) {
				expect(response).toEqual({
					id: expect.stringMatching(/^resp_/),
					surveyId: SEED.residencySurveyId,
					createdAt: expect.stringMatching(/Z$/),
					updatedAt: expect.stringMatching(/Z$/),
					finished: expect.any(Boolean),
					data: expect.objectContaining({
						fullName: expect.any(String),
						email: expect.any(String),
					}),
					meta: { source: 'link' },
				});
			}
		});

		it('pages by offset up to the maximum limit of 250, covering every response once, in order', async () => {
			const seen: Array<{ id: string; createdAt: string }> = [];
			for (let offset = 0; offset < TOTAL; offset += 250) {
				const answer = await get(responsesPath(`?limit=250&offset=${offset}`));
				expect(answer.json.meta).toEqual({ total: TOTAL, limit: 250, offset });
				expect(answer.json.data).toHaveLength(Math.min(250, TOTAL - offset));
				seen.push(...answer.json.data);
			}
			expect(new Set(seen.map((response) => response.id)).size).toBe(TOTAL);
			const times = seen.map((response) => response.createdAt);
			expect(times).toEqual([...times].sort());
			expect(seen.map((response) => response.id)).toEqual(
				expect.arrayContaining([SEED.adaResponseId, SEED.unfinishedResponseId]),
			);
		});

		it('answers an offset past the end with no data and the total', async () => {
			const answer = await get(responsesPath(`?offset=${TOTAL + 10}`));
			expect(answer.json).toEqual({
				data: [],
				meta: { total: TOTAL, limit: 50, offset: TOTAL + 10 },
			});
		});

		it.each([
			['a limit above 250', '?limit=251'],
			['a limit of 0', '?limit=0'],
			['a limit that is not a number', '?limit=all'],
			['a fractional offset', '?offset=1.5'],
			['a negative offset', '?offset=-1'],
			['an unknown parameter', '?page=2'],
			['a cursor, which this service does not take', '?cursor=abc'],
		])('answers 400 {code: bad_request} to %s', async (_, query) => {
			const answer = await get(responsesPath(query));
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({
				code: 'bad_request',
				message: expect.any(String),
				details: expect.any(Object),
			});
		});

		it('answers 404 {code: not_found} for an unknown survey', async () => {
			const answer = await get(responsesPath('', 'srv_missing'));
			expect(answer.status).toBe(404);
			expect(answer.json).toEqual({ code: 'not_found', message: expect.any(String), details: {} });
		});
	});

	describe('GET /api/v1/management/surveys/{surveyId} (Part 2, section 6)', () => {
		const MULTIPLE_CHOICE = ['multipleChoiceSingle', 'multipleChoiceMulti'];

		it('returns the survey with its questions; every answer of the seed is keyed by a question id', async () => {
			const answer = await get(`/api/v1/management/surveys/${SEED.residencySurveyId}`);
			expect(answer.status).toBe(200);
			expect(answer.json.data).toEqual({
				id: SEED.residencySurveyId,
				name: 'Residency application',
				status: 'inProgress',
				type: 'link',
				createdAt: expect.any(String),
				responseCount: SEED_COUNTS.residencyResponses,
				questions: expect.any(Array),
			});
			for (const surveyId of [SEED.residencySurveyId, SEED.alumniSurveyId, SEED.draftSurveyId]) {
				const { questions } = (await get(`/api/v1/management/surveys/${surveyId}`)).json.data;
				for (const question of questions) {
					expect(question).toEqual({
						id: expect.any(String),
						type: expect.stringMatching(
							/^(openText|multipleChoiceSingle|multipleChoiceMulti|rating|nps|date|consent|fileUpload)$/,
						),
						headline: expect.any(String),
						required: expect.any(Boolean),
						...(MULTIPLE_CHOICE.includes(question.type)
							? {
									choices: expect.arrayContaining([
										{ id: expect.any(String), label: expect.any(String) },
									]),
								}
							: {}),
					});
				}
				const ids = new Set(questions.map((question: { id: string }) => question.id));
				const { data: responses } = (await get(responsesPath('?limit=250', surveyId))).json;
				for (const response of responses) {
					for (const key of Object.keys(response.data)) expect(ids).toContain(key);
				}
			}
		});

		it('seeds several question types: a multi-choice answer is an array of its labels, two headlines repeat', async () => {
			const { questions } = (await get(`/api/v1/management/surveys/${SEED.alumniSurveyId}`)).json
				.data;
			const headlines = questions.map((question: { headline: string }) => question.headline);
			expect(new Set(headlines).size).toBeLessThan(headlines.length);
			const multi = questions.find(
				(question: { type: string }) => question.type === 'multipleChoiceMulti',
			);
			const labels = multi.choices.map((choice: { label: string }) => choice.label);
			const { data: responses } = (await get(responsesPath('', SEED.alumniSurveyId))).json;
			for (const response of responses) {
				expect(Array.isArray(response.data[multi.id])).toBe(true);
				for (const label of response.data[multi.id]) expect(labels).toContain(label);
			}
			const draft = (await get(`/api/v1/management/surveys/${SEED.draftSurveyId}`)).json.data;
			expect(
				new Set(draft.questions.map((question: { type: string }) => question.type)).size,
			).toBeGreaterThanOrEqual(5);
		});

		it('seeds the "Delete my data" survey: an e-mail question and a confirmation, no responses', async () => {
			const answer = await get(`/api/v1/management/surveys/${SEED.erasureSurveyId}`);
			expect(answer.json.data).toMatchObject({
				name: 'Delete my data',
				status: 'inProgress',
				responseCount: 0,
			});
			expect(answer.json.data.questions).toEqual([
				expect.objectContaining({ id: 'email', type: 'openText', required: true }),
				expect.objectContaining({ id: 'confirmation', type: 'consent', required: true }),
			]);
		});

		it('keeps questions out of the survey list', async () => {
			for (const survey of (await get('/api/v1/management/surveys')).json.data)
				expect(survey).not.toHaveProperty('questions');
		});

		it('answers 404 for an unknown survey and 400 to a query parameter', async () => {
			expect((await get('/api/v1/management/surveys/srv_missing')).json).toEqual({
				code: 'not_found',
				message: expect.any(String),
				details: {},
			});
			expect(
				(await get(`/api/v1/management/surveys/${SEED.residencySurveyId}?expand=questions`)).status,
			).toBe(400);
		});
	});

	describe('responses by date (Part 2, section 6)', () => {
		const SURVEY = 'srv_dates';
		const times = [
			'2026-10-04T23:59:59.999Z',
			'2026-10-05T00:00:00.000Z',
			'2026-10-05T12:00:00.000Z',
			'2026-10-06T00:00:00.000Z',
			'2026-10-06T00:00:00.001Z',
		];
		let ids: string[];
		beforeEach(async () => {
			await control('/surveys', { id: SURVEY, name: 'Dates' });
			ids = [];
			for (const createdAt of times)
				ids.push((await respond({ n: createdAt }, { createdAt }, SURVEY)).id);
		});
		const matching = async (query: string) => {
			const answer = await get(responsesPath(query, SURVEY));
			expect(answer.status).toBe(200);
			return answer.json;
		};

		it('takes inclusive bounds; a date alone is midnight UTC, so endDate=2026-10-06 ends at its first instant', async () => {
			expect(
				(await matching('?startDate=2026-10-05')).data.map((r: { id: string }) => r.id),
			).toEqual(ids.slice(1));
			expect((await matching('?endDate=2026-10-06')).data.map((r: { id: string }) => r.id)).toEqual(
				ids.slice(0, 4),
			);
			const both = await matching(
				'?startDate=2026-10-05T12:00:00.000Z&endDate=2026-10-06T00:00:00.000Z',
			);
			expect(both.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(2, 4));
			expect((await matching('?startDate=2026-10-07')).data).toEqual([]);
		});

		it('counts in meta.total what matches, and pages within the matching set', async () => {
			const page = await matching('?startDate=2026-10-05&endDate=2026-10-06&limit=2&offset=1');
			expect(page.meta).toEqual({ total: 3, limit: 2, offset: 1 });
			expect(page.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(2, 4));
		});

		it('filters by updatedAt with filterDateField=updatedAt; createdAt is the default', async () => {
			// Later than the millisecond the last response was updated in: the bound is inclusive.
			clock.advance(1);
			const before = new Date(clock.now()).toISOString();
			clock.advance(1);
			await control(`/responses/${ids[0]}`, { data: { n: 'changed' } }, 'PATCH');
			const updated = await matching(
				`?startDate=${encodeURIComponent(before)}&filterDateField=updatedAt`,
			);
			expect(updated.data.map((r: { id: string }) => r.id)).toEqual([ids[0]]);
			expect(updated.meta.total).toBe(1);
			expect((await matching(`?startDate=${encodeURIComponent(before)}`)).meta.total).toBe(0);
			expect(
				(await matching(`?startDate=${encodeURIComponent(before)}&filterDateField=createdAt`)).meta
					.total,
			).toBe(0);
		});

		it.each([
			['a startDate that is no date', '?startDate=yesterday'],
			['an endDate that is no date', '?endDate=2026-13-45'],
			['another filterDateField', '?filterDateField=finishedAt'],
		])('answers 400 {code: bad_request} to %s', async (_, query) => {
			const answer = await get(responsesPath(query, SURVEY));
			expect(answer.status).toBe(400);
			expect(answer.json.code).toBe('bad_request');
		});
	});

	describe('DELETE /api/v1/management/responses/{responseId} (Part 2, section 6)', () => {
		const count = async () =>
			(await get('/api/v1/management/surveys')).json.data.find(
				(survey: { id: string }) => survey.id === SEED.residencySurveyId,
			).responseCount;

		it('erases the response, answers it as it was, and the survey counts one fewer', async () => {
			const before = (await get(`/api/v1/management/responses/${SEED.adaResponseId}`)).json.data;
			const answer = await call(api(`/api/v1/management/responses/${SEED.adaResponseId}`), {
				method: 'DELETE',
				headers: key(),
			});
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual({ data: before });
			expect(await count()).toBe(SEED_COUNTS.residencyResponses - 1);
			expect((await get(`/api/v1/management/responses/${SEED.adaResponseId}`)).status).toBe(404);
			const listed = (await get(responsesPath())).json;
			expect(listed.meta.total).toBe(SEED_COUNTS.residencyResponses - 1);
			expect(listed.data.map((r: { id: string }) => r.id)).not.toContain(SEED.adaResponseId);
			expect(
				(await get(`/api/v1/management/surveys/${SEED.residencySurveyId}`)).json.data.responseCount,
			).toBe(SEED_COUNTS.residencyResponses - 1);
		});

		it('answers 404 for an unknown or already erased response, and 400 to a query parameter', async () => {
			const erase = async (path: string) =>
				await call(api(path), { method: 'DELETE', headers: key() });
			expect(
				(await erase(`/api/v1/management/responses/${SEED.adaResponseId}?soft=1`)).status,
			).toBe(400);
			expect((await erase(`/api/v1/management/responses/${SEED.adaResponseId}`)).status).toBe(200);
			const again = await erase(`/api/v1/management/responses/${SEED.adaResponseId}`);
			expect(again.status).toBe(404);
			expect(again.json.code).toBe('not_found');
			expect(await count()).toBe(SEED_COUNTS.residencyResponses - 1);
		});
	});

	describe('GET /api/v1/management/responses/{responseId}', () => {
		it('returns { data: response }', async () => {
			const answer = await get(`/api/v1/management/responses/${SEED.adaResponseId}`);
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual({
				data: {
					id: SEED.adaResponseId,
					surveyId: SEED.residencySurveyId,
					createdAt: expect.any(String),
					updatedAt: expect.any(String),
					finished: true,
					data: {
						fullName: 'Ada Lovelace',
						email: 'ada.lovelace@example.org',
						phone: expect.any(String),
						portfolio: expect.stringMatching(/^https:\/\//),
						statement: expect.any(String),
						decision: 'approved',
					},
					meta: { source: 'link' },
				},
			});
			const unfinished = await get(`/api/v1/management/responses/${SEED.unfinishedResponseId}`);
			expect(unfinished.json.data.finished).toBe(false);
		});

		it('answers 404 when unknown and 400 to a query parameter', async () => {
			const missing = await get('/api/v1/management/responses/resp_missing');
			expect(missing.status).toBe(404);
			expect(missing.json.code).toBe('not_found');
			expect(
				(await get(`/api/v1/management/responses/${SEED.adaResponseId}?expand=1`)).status,
			).toBe(400);
		});
	});

	describe('webhooks API', () => {
		it('registers (secret shown once), lists without secret, deletes, 404 when unknown', async () => {
			const created = await register({
				url: receiver.url,
				triggers: ['responseFinished'],
				surveyIds: [],
				source: 'n8n',
			});
			expect(created.status).toBe(201);
			expect(created.json.data).toEqual({
				id: expect.stringMatching(/^wh_/),
				url: receiver.url,
				triggers: ['responseFinished'],
				surveyIds: [],
				source: 'n8n',
				secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
			});
			expect(Buffer.from(created.json.data.secret.slice(6), 'base64')).toHaveLength(24);
			const { secret, ...withoutSecret } = created.json.data;
			expect(secret).toBeDefined();
			expect((await get('/api/v1/webhooks')).json).toEqual({ data: [withoutSecret] });
			const deleted = await call(api(`/api/v1/webhooks/${created.json.data.id}`), {
				method: 'DELETE',
				headers: key(),
			});
			expect(deleted.status).toBe(200);
			expect(deleted.json).toEqual({ data: withoutSecret });
			expect((await get('/api/v1/webhooks')).json.data).toEqual([]);
			const again = await call(api(`/api/v1/webhooks/${created.json.data.id}`), {
				method: 'DELETE',
				headers: key(),
			});
			expect(again.status).toBe(404);
			expect(again.json.code).toBe('not_found');
		});

		it('gives each webhook its own secret, and takes surveyIds and source as optional', async () => {
			const first = (await register({ url: receiver.url, triggers: ['responseCreated'] })).json
				.data;
			const second = (await register({ url: receiver.url, triggers: ['responseCreated'] })).json
				.data;
			expect(first.secret).not.toBe(second.secret);
			expect(first).toEqual({
				id: expect.any(String),
				url: receiver.url,
				triggers: ['responseCreated'],
				surveyIds: [],
				secret: expect.any(String),
			});
		});

		it.each([
			['no url', { triggers: ['responseFinished'] }],
			['a url that is not a URL', { url: 'hook', triggers: ['responseFinished'] }],
			['no triggers', { url: 'http://127.0.0.1:1/x' }],
			['empty triggers', { url: 'http://127.0.0.1:1/x', triggers: [] }],
			['an unknown trigger', { url: 'http://127.0.0.1:1/x', triggers: ['responseDeleted'] }],
			['triggers that are a string', { url: 'http://127.0.0.1:1/x', triggers: 'responseFinished' }],
			[
				'surveyIds that are not strings',
				{ url: 'http://127.0.0.1:1/x', triggers: ['responseFinished'], surveyIds: [1] },
			],
			[
				'an unknown field',
				{ url: 'http://127.0.0.1:1/x', triggers: ['responseFinished'], secret: 'mine' },
			],
		])('answers 400 {code: bad_request} to %s', async (_, body) => {
			const answer = await register(body);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({
				code: 'bad_request',
				message: expect.any(String),
				details: expect.any(Object),
			});
			expect((await get('/api/v1/webhooks')).json.data).toEqual([]);
		});
	});

	describe('webhook deliveries', () => {
		it('delivers signed events; the signature recomputes independently with node:crypto', async () => {
			const hook = (
				await register({ url: receiver.url, triggers: ['responseCreated', 'responseFinished'] })
			).json.data;
			const response = await respond(
				{ fullName: 'Ada', decision: 'approved' },
				{ createdAt: '2026-11-01T09:30:00.000Z' },
			);
			const deliveries = await receiver.waitFor(2);
			expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
				'responseCreated',
				'responseFinished',
			]);
			for (const delivery of deliveries) {
				expect(delivery.body).toEqual({
					event: delivery.body.event,
					surveyId: SEED.residencySurveyId,
					responseId: response.id,
					createdAt: '2026-11-01T09:30:00.000Z',
					data: { fullName: 'Ada', decision: 'approved' },
				});
				expect(delivery.headers['content-type']).toBe('application/json');
				expect(delivery.headers['webhook-id']).toMatch(/^msg_/);
				// Signed at the time of the attempt.
				expect(delivery.headers['webhook-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
				expect(delivery.headers['webhook-signature']).toBe(
					expectedSignature(hook.secret, delivery),
				);
			}
			expect(deliveries[0].headers['webhook-id']).not.toBe(deliveries[1].headers['webhook-id']);
		});

		it('delivers only the triggers a hook asked for, for the surveys it named', async () => {
			await register({ url: `${receiver.url}/finished`, triggers: ['responseFinished'] });
			await register({
				url: `${receiver.url}/alumni`,
				triggers: ['responseCreated'],
				surveyIds: [SEED.alumniSurveyId],
			});
			await respond({ fullName: 'Unfinished' }, { finished: false });
			await respond({ fullName: 'Residency' });
			await respond({ fullName: 'Alumna' }, {}, SEED.alumniSurveyId);
			await settledDeliveries(sandbox.survey.url);
			const seen = receiver.received
				.map((delivery) => `${delivery.body.event} ${delivery.body.data.fullName}`)
				.sort();
			expect(seen).toEqual([
				'responseCreated Alumna',
				'responseFinished Alumna',
				'responseFinished Residency',
			]);
		});

		it('fires responseUpdated with the merged data, then responseFinished when a response turns finished', async () => {
			await register({ url: receiver.url, triggers: ['responseUpdated', 'responseFinished'] });
			const response = await respond({ fullName: 'Mary' }, { finished: false });
			const patched = await control(
				`/responses/${response.id}`,
				{ data: { decision: 'pending' } },
				'PATCH',
			);
			expect(patched.json.data).toMatchObject({
				finished: false,
				data: { fullName: 'Mary', decision: 'pending' },
			});
			await control(`/responses/${response.id}`, { finished: true }, 'PATCH');
			await control(`/responses/${response.id}`, { data: { decision: 'approved' } }, 'PATCH');
			const deliveries = await receiver.waitFor(4);
			expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
				'responseUpdated',
				'responseUpdated',
				'responseFinished',
				'responseUpdated',
			]);
			expect(deliveries[2].body).toMatchObject({
				createdAt: response.createdAt,
				data: { fullName: 'Mary', decision: 'pending' },
			});
			expect((await get(`/api/v1/management/responses/${response.id}`)).json.data).toMatchObject({
				finished: true,
				data: { fullName: 'Mary', decision: 'approved' },
			});
		});

		it('control: a response added with deliver: false fires nothing (its deliveries are lost) and is listed', async () => {
			await register({ url: receiver.url, triggers: ['responseCreated', 'responseFinished'] });
			const lost = await respond({ fullName: 'Never delivered' }, { deliver: false });
			const delivered = await respond({ fullName: 'Delivered' });
			const deliveries = await receiver.waitFor(2);
			// Deliveries leave in the order of the responses: a delivery of the first would come first.
			expect(deliveries.map((delivery) => delivery.body.responseId)).toEqual([delivered.id, delivered.id]);
			const listed = (await get(responsesPath('?limit=250'))).json.data as Array<{ id: string }>;
			expect(listed.map((response) => response.id)).toEqual(expect.arrayContaining([lost.id, delivered.id]));
		});

		it('stops delivering to a deleted webhook', async () => {
			const hook = (await register({ url: receiver.url, triggers: ['responseCreated'] })).json.data;
			await call(api(`/api/v1/webhooks/${hook.id}`), { method: 'DELETE', headers: key() });
			await respond({ fullName: 'Nobody hears' });
			expect(await settledDeliveries(sandbox.survey.url)).toEqual([]);
			expect(receiver.received).toEqual([]);
		});

		it('redelivers after two failures: three attempts, one webhook-id, each attempt signed anew', async () => {
			receiver.answers = [500, 502];
			const hook = (await register({ url: receiver.url, triggers: ['responseFinished'] })).json
				.data;
			await respond({ fullName: 'Lise' });
			for (let retry = 0; retry < 2; retry++) {
				expect(await clock.advanceToNext('webhook retry')).toBe(RETRY_DELAY_MS);
			}
			const log = await settledDeliveries(sandbox.survey.url);
			const deliveries = receiver.received;
			expect(deliveries).toHaveLength(3);
			expect(new Set(deliveries.map((delivery) => delivery.headers['webhook-id'])).size).toBe(1);
			for (const delivery of deliveries)
				expect(delivery.headers['webhook-signature']).toBe(
					expectedSignature(hook.secret, delivery),
				);
			expect(
				log.map((entry: { attempt: number; status: number }) => [entry.attempt, entry.status]),
			).toEqual([
				[1, 500],
				[2, 502],
				[3, 200],
			]);
			expect(log[0]).toMatchObject({
				deliveryId: deliveries[0].headers['webhook-id'],
				event: 'responseFinished',
				url: receiver.url,
			});
		});

		it('gives up after exactly three attempts', async () => {
			receiver.answers = [500, 500, 500, 500];
			await register({ url: receiver.url, triggers: ['responseFinished'] });
			await respond({ fullName: 'Emmy' });
			for (let retry = 0; retry < 2; retry++) await clock.advanceToNext('webhook retry');
			await settledDeliveries(sandbox.survey.url);
			// Given up: no retry waits, however far time moves.
			expect(clock.pending()).toEqual([]);
			expect(receiver.received).toHaveLength(3);
			expect(
				new Set(receiver.received.map((delivery) => delivery.headers['webhook-id'])).size,
			).toBe(1);
		});
	});

	describe('control endpoints', () => {
		it('creates a survey, and refuses an unknown status or type', async () => {
			const created = await control('/surveys', {
				id: 'srv_open_call',
				name: 'Open call',
				status: 'scheduled',
				type: 'app',
			});
			expect(created.json).toEqual({
				id: 'srv_open_call',
				name: 'Open call',
				status: 'scheduled',
				type: 'app',
				createdAt: expect.any(String),
				responseCount: 0,
			});
			expect((await get(responsesPath('', 'srv_open_call'))).json.meta.total).toBe(0);
			expect((await control('/surveys', { name: 'X', status: 'live' })).status).toBe(400);
			expect((await control('/surveys', { name: 'X', type: 'email' })).status).toBe(400);
		});

		it('creates a response, finished by default, with an optional creation time', async () => {
			const response = await respond({ fullName: 'Nina' }, { createdAt: '2026-01-02T03:04:05Z' });
			expect(response).toMatchObject({
				id: expect.stringMatching(/^resp_/),
				finished: true,
				createdAt: '2026-01-02T03:04:05.000Z',
			});
			expect(
				(
					await control(`/surveys/${SEED.residencySurveyId}/responses`, {
						data: {},
						createdAt: 'yesterday',
					})
				).status,
			).toBe(400);
			expect(
				(await control(`/surveys/${SEED.residencySurveyId}/responses`, { answers: {} })).status,
			).toBe(400);
			expect((await control('/surveys/srv_missing/responses', { data: {} })).status).toBe(404);
			expect((await control('/responses/resp_missing', { data: {} }, 'PATCH')).status).toBe(404);
		});

		it('generates 20,000 deterministic responses without webhooks', async () => {
			await register({ url: receiver.url, triggers: ['responseCreated', 'responseFinished'] });
			const generated = await control(`/surveys/${SEED.draftSurveyId}/generate-responses`, {
				count: 20_000,
			});
			expect(generated.json).toEqual({ count: 20_000, total: 20_000 });
			const first = await get(responsesPath('?limit=250', SEED.draftSurveyId));
			expect(first.json.meta.total).toBe(20_000);
			expect(first.json.data[0].data).toMatchObject({
				fullName: 'Applicant 1',
				email: 'applicant1@example.org',
			});
			const last = await get(responsesPath('?limit=1&offset=19999', SEED.draftSurveyId));
			expect(last.json.data[0].data).toMatchObject({
				fullName: 'Applicant 20000',
				email: 'applicant20000@example.org',
			});
			const createdDaysAgo = (response: { createdAt: string }) =>
				(clock.now() - Date.parse(response.createdAt)) / 86_400_000;
			expect(createdDaysAgo(first.json.data[0])).toBeGreaterThan(30);
			expect(createdDaysAgo(last.json.data[0])).toBeLessThan(7);
			const unfinished = first.json.data.filter(
				(response: { finished: boolean }) => !response.finished,
			).length;
			expect(unfinished).toBeGreaterThan(0);
			expect(unfinished).toBeLessThan(50);
			expect(await settledDeliveries(sandbox.survey.url)).toEqual([]);
			expect(receiver.received).toEqual([]);
		});

		it('generates with a finished ratio, and refuses bad counts', async () => {
			await control(`/surveys/${SEED.draftSurveyId}/generate-responses`, {
				count: 100,
				finishedRatio: 1,
			});
			const page = (await get(responsesPath('?limit=100', SEED.draftSurveyId))).json.data;
			expect(page.every((response: { finished: boolean }) => response.finished)).toBe(true);
			for (const body of [
				{ count: 0 },
				{ count: 2.5 },
				{ count: 1, finishedRatio: 2 },
				{ count: 1, seed: 3 },
			]) {
				expect(
					(await control(`/surveys/${SEED.draftSurveyId}/generate-responses`, body)).status,
				).toBe(400);
			}
		});

		it('lists webhooks with their secrets for tests, and forgets them on reset', async () => {
			const hook = (await register({ url: receiver.url, triggers: ['responseCreated'] })).json.data;
			expect((await control('/webhooks', undefined, 'GET')).json.data).toEqual([hook]);
			await control('/reset');
			expect((await get('/api/v1/webhooks')).json.data).toEqual([]);
		});
	});
});
