/* eslint-disable @n8n/community-nodes/no-restricted-globals */
import type { FastifyReply } from 'fastify';

import { DEFAULT_KEYS, ManualClock, type Sandbox, SEED, startSandbox } from './index';
import { bearerToken, createService, listen } from './service';
import { call } from './testkit';

// SANDBOX_LOG=1 shows the services' own request logs, to see what a failing test sent.
const logger = process.env.SANDBOX_LOG === '1';

type ServiceName = 'signing' | 'bookmark' | 'survey';
const SERVICES: ServiceName[] = ['signing', 'bookmark', 'survey'];

describe('what the three services share', () => {
	let sandbox: Sandbox;
	// Time moves only when a test moves it: windows and delays do not depend on the machine's speed.
	const clock = new ManualClock();
	const authHeaders = (
		service: ServiceName,
		key = sandbox[service].apiKey,
	): Record<string, string> =>
		service === 'survey' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
	/** One cheap authenticated API request per service. */
	const probe = async (service: ServiceName, headers = authHeaders(service)) => {
		const path = {
			signing: '/api/v2/documents/doc_missing',
			bookmark: '/api/v1/lists',
			survey: '/api/v1/management/surveys',
		}[service];
		return await call(`${sandbox[service].url}${path}`, { headers });
	};
	const okStatus = { signing: 404, bookmark: 200, survey: 200 };
	const control = async (service: ServiceName, path: string, method: string, body?: unknown) =>
		await call(`${sandbox[service].url}/_sandbox${path}`, { method, body });
	/** The service's error shape for a status, as CONTRACTS.md gives it. */
	const expectErrorShape = (
		service: ServiceName,
		answer: Awaited<ReturnType<typeof call>>,
		status: number,
	) => {
		expect(answer.status).toBe(status);
		if (service === 'signing') expect(answer.json).toEqual({ message: expect.any(String) });
		if (service === 'survey') {
			expect(answer.json).toEqual({
				code: expect.any(String),
				message: expect.any(String),
				details: expect.any(Object),
			});
		}
		if (service === 'bookmark' && (status === 401 || status === 429)) {
			expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
		} else if (service === 'bookmark') {
			expect(answer.json).toEqual({ code: expect.any(String), message: expect.any(String) });
		}
	};

	beforeAll(async () => {
		sandbox = await startSandbox({ ports: {}, logger, clock });
	});
	afterAll(async () => await sandbox.stop());
	beforeEach(async () => {
		for (const service of SERVICES) await control(service, '/reset', 'POST');
	});

	it('starts each service on its own port with the default keys', () => {
		const ports = SERVICES.map((service) => sandbox[service].port);
		expect(new Set(ports).size).toBe(3);
		for (const service of SERVICES) {
			expect(sandbox[service].url).toBe(`http://127.0.0.1:${sandbox[service].port}`);
			expect(sandbox[service].apiKey).toBe(DEFAULT_KEYS[service]);
		}
	});

	it.each(SERVICES)('answers GET /_sandbox/health without auth (%s)', async (service) => {
		const answer = await control(service, '/health', 'GET');
		expect(answer.status).toBe(200);
		expect(answer.json).toMatchObject({ ok: true, service });
	});

	describe('auth', () => {
		it.each(SERVICES)(
			'refuses a wrong key and a missing key with 401 in the service shape (%s)',
			async (service) => {
				for (const headers of [authHeaders(service, 'wrong-key'), {}]) {
					expectErrorShape(service, await probe(service, headers), 401);
				}
				expect((await probe(service)).status).toBe(okStatus[service]);
			},
		);

		it('gives each service its exact 401 body', async () => {
			expect((await probe('signing', {})).json).toEqual({ message: 'Unauthorized' });
			expect((await probe('bookmark', {})).text).toBe('Unauthorized');
			expect((await probe('survey', {})).json).toEqual({
				code: 'not_authenticated',
				message: expect.any(String),
				details: {},
			});
		});

		it('does not take one service’s key for another', async () => {
			const answer = await probe('bookmark', { authorization: `Bearer ${sandbox.signing.apiKey}` });
			expect(answer.status).toBe(401);
		});

		it('answers an unknown API path 404 once authenticated, 401 before', async () => {
			const path = `${sandbox.bookmark.url}/api/v1/nothing-here`;
			expect((await call(path)).status).toBe(401);
			const answer = await call(path, { headers: authHeaders('bookmark') });
			expect(answer.status).toBe(404);
			expect(answer.json).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
		});
	});

	describe('bodies that are not JSON', () => {
		const posts = {
			signing: `/api/v2/templates/${SEED.residencyTemplateId}/generate-document`,
			bookmark: '/api/v1/bookmarks',
			survey: '/api/v1/webhooks',
		};
		it.each(SERVICES)(
			'answers 400 to broken JSON and to another media type (%s)',
			async (service) => {
				const url = `${sandbox[service].url}${posts[service]}`;
				const headers = authHeaders(service);
				const broken = await call(url, {
					method: 'POST',
					headers: { ...headers, 'content-type': 'application/json' },
					rawBody: '{"title":',
				});
				expectErrorShape(service, broken, 400);
				const plain = await call(url, {
					method: 'POST',
					headers: { ...headers, 'content-type': 'text/plain' },
					rawBody: 'hello',
				});
				expectErrorShape(service, plain, 400);
				const none = await call(url, { method: 'POST', headers });
				expectErrorShape(service, none, 400);
				const array = await call(url, { method: 'POST', headers, body: [] });
				expectErrorShape(service, array, 400);
			},
		);
	});

	describe('rate limit', () => {
		it('limits the survey service to 100 requests a minute by default, and no other', async () => {
			for (let i = 0; i < 100; i++) expect((await probe('survey')).status).toBe(200);
			const refused = await probe('survey');
			expect(refused.status).toBe(429);
			expect(refused.json).toEqual({
				code: 'too_many_requests',
				message: expect.any(String),
				details: {},
			});
			for (let i = 0; i < 110; i++) expect((await probe('bookmark')).status).toBe(200);
			for (let i = 0; i < 110; i++) expect((await probe('signing')).status).toBe(404);
		});

		it.each(SERVICES)(
			'answers 429 with Retry-After until the oldest request leaves the window (%s)',
			async (service) => {
				expect((await control(service, '/rate-limit', 'PUT', { limit: 2 })).json).toEqual({
					limit: 2,
				});
				expect((await probe(service)).status).toBe(okStatus[service]);
				expect((await probe(service)).status).toBe(okStatus[service]);
				const refused = await probe(service);
				expectErrorShape(service, refused, 429);
				// The first request was just now: its slot frees in 60 seconds.
				expect(refused.headers.get('retry-after')).toBe('60');
				if (service === 'bookmark') expect(refused.text).toBe('Too Many Requests');
				if (service === 'survey') expect(refused.json.code).toBe('too_many_requests');
				clock.advance(20_500);
				expect((await probe(service)).headers.get('retry-after')).toBe('40');
				await control(service, '/rate-limit', 'PUT', { limit: null });
				expect((await probe(service)).status).toBe(okStatus[service]);
			},
		);

		it('does not count refused requests, nor requests without a valid key', async () => {
			await control('bookmark', '/rate-limit', 'PUT', { limit: 1 });
			for (let i = 0; i < 3; i++) expect((await probe('bookmark', {})).status).toBe(401);
			expect((await probe('bookmark')).status).toBe(200);
			expect((await probe('bookmark')).status).toBe(429);
		});

		it('starts a new window when the limit is set, and goes back to the default on reset', async () => {
			await control('signing', '/rate-limit', 'PUT', { limit: 1 });
			await probe('signing');
			expect((await probe('signing')).status).toBe(429);
			await control('signing', '/rate-limit', 'PUT', { limit: 1 });
			expect((await probe('signing')).status).toBe(404);
			await control('signing', '/reset', 'POST');
			for (let i = 0; i < 3; i++) expect((await probe('signing')).status).toBe(404);
		});

		it.each([{ limit: 0 }, { limit: 'ten' }, { limit: 1.5 }, {}, { limit: 2, extra: true }])(
			'refuses the control body %j',
			async (body) => {
				expect((await control('survey', '/rate-limit', 'PUT', body)).status).toBe(400);
			},
		);
	});

	describe('fault mode', () => {
		it.each(SERVICES)(
			'answers the next N requests with the fault, in the service shape (%s)',
			async (service) => {
				const set = await control(service, '/faults', 'PUT', { status: 503, count: 2 });
				expect(set.status).toBe(200);
				expectErrorShape(service, await probe(service), 503);
				expectErrorShape(service, await probe(service), 503);
				expect((await probe(service)).status).toBe(okStatus[service]);
			},
		);

		it.each([500, 502, 504])('simulates %i', async (status) => {
			await control('survey', '/faults', 'PUT', { status, count: 1 });
			const answer = await probe('survey');
			expect(answer.status).toBe(status);
			expect(answer.json.code).toEqual(expect.any(String));
		});

		it('answers a fault before checking the key, and not on control endpoints', async () => {
			await control('bookmark', '/faults', 'PUT', { status: 500, count: 1 });
			expect((await control('bookmark', '/health', 'GET')).status).toBe(200);
			const answer = await probe('bookmark', {});
			expect(answer.status).toBe(500);
			expect(answer.json).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: expect.any(String) });
		});

		it('delays the fault to simulate a timeout', async () => {
			await control('signing', '/faults', 'PUT', { status: 504, count: 1, delayMs: 300 });
			let answered = false;
			const faulted = probe('signing').finally(() => (answered = true));
			expect(await clock.nextWait('fault delay')).toEqual({ purpose: 'fault delay', inMs: 300 });
			clock.advance(299);
			// Answered after the clock moved: the faulted request would have been answered first.
			expect((await control('signing', '/health', 'GET')).status).toBe(200);
			expect(answered).toBe(false);
			clock.advance(1);
			expect((await faulted).status).toBe(504);
		});

		it('sends Retry-After with a simulated 429', async () => {
			await control('survey', '/faults', 'PUT', { status: 429, count: 1, retryAfter: 7 });
			const answer = await probe('survey');
			expect(answer.status).toBe(429);
			expect(answer.headers.get('retry-after')).toBe('7');
		});

		it('is cleared by DELETE /_sandbox/faults and by reset', async () => {
			await control('survey', '/faults', 'PUT', { status: 503, count: 5 });
			await control('survey', '/faults', 'DELETE');
			expect((await probe('survey')).status).toBe(200);
			await control('survey', '/faults', 'PUT', { status: 503, count: 5 });
			await control('survey', '/reset', 'POST');
			expect((await probe('survey')).status).toBe(200);
		});

		it.each([
			{ status: 200, count: 1 },
			{ status: 503 },
			{ status: 503, count: 0 },
			{ status: 503, count: 1, delay: 5 },
		])('refuses the control body %j', async (body) => {
			expect((await control('signing', '/faults', 'PUT', body)).status).toBe(400);
			expect((await probe('signing')).status).toBe(404);
		});
	});

	describe('request log', () => {
		it('records every API request with its query, lowercased headers, raw and parsed body and status', async () => {
			const body = { type: 'link', url: 'https://example.org/logged' };
			await call(`${sandbox.bookmark.url}/api/v1/bookmarks`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${sandbox.bookmark.apiKey}`, 'X-Trace': 'abc' },
				body,
			});
			await call(`${sandbox.bookmark.url}/api/v1/bookmarks?q=logged&limit=5`, {
				headers: authHeaders('bookmark'),
			});
			await probe('bookmark', {});
			const { json } = await control('bookmark', '/requests', 'GET');
			expect(json.requests).toEqual([
				{
					method: 'POST',
					path: '/api/v1/bookmarks',
					query: {},
					headers: expect.objectContaining({
						authorization: `Bearer ${sandbox.bookmark.apiKey}`,
						'x-trace': 'abc',
						'content-type': 'application/json',
					}),
					rawBody: JSON.stringify(body),
					body,
					status: 201,
					at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
				},
				expect.objectContaining({
					method: 'GET',
					query: { q: 'logged', limit: '5' },
					rawBody: '',
					status: 200,
				}),
				expect.objectContaining({ path: '/api/v1/lists', status: 401 }),
			]);
		});

		it('leaves control requests out, and forgets on DELETE and on reset', async () => {
			await probe('survey');
			await control('survey', '/health', 'GET');
			expect((await control('survey', '/requests', 'GET')).json.requests).toHaveLength(1);
			await control('survey', '/requests', 'DELETE');
			expect((await control('survey', '/requests', 'GET')).json.requests).toEqual([]);
			await probe('survey');
			await control('survey', '/reset', 'POST');
			expect((await control('survey', '/requests', 'GET')).json.requests).toEqual([]);
		});

		it('records refused and faulted requests too', async () => {
			await control('signing', '/faults', 'PUT', { status: 502, count: 1 });
			await probe('signing');
			await probe('signing', {});
			const { json } = await control('signing', '/requests', 'GET');
			expect(json.requests.map((request: { status: number }) => request.status)).toEqual([
				502, 401,
			]);
		});
	});

	describe('options', () => {
		it('takes other keys, other limits and no seed data', async () => {
			const other = await startSandbox({
				ports: {},
				logger,
				keys: { bookmark: 'other-key' },
				rateLimits: { survey: null, bookmark: 1 },
				seed: false,
			});
			try {
				expect(other.bookmark.apiKey).toBe('other-key');
				const bookmarkHeaders = { authorization: 'Bearer other-key' };
				const lists = await call(`${other.bookmark.url}/api/v1/lists`, {
					headers: bookmarkHeaders,
				});
				expect(lists.json).toEqual({ lists: [] });
				expect(
					(await call(`${other.bookmark.url}/api/v1/lists`, { headers: bookmarkHeaders })).status,
				).toBe(429);
				const surveyHeaders = { 'x-api-key': other.survey.apiKey };
				for (let i = 0; i < 101; i++) {
					const surveys = await call(`${other.survey.url}/api/v1/management/surveys`, {
						headers: surveyHeaders,
					});
					expect(surveys.json).toEqual({ data: [] });
				}
				const generate = await call(
					`${other.signing.url}/api/v2/templates/${SEED.residencyTemplateId}/generate-document`,
					{
						method: 'POST',
						headers: { authorization: `Bearer ${other.signing.apiKey}` },
						body: {
							title: 'T',
							recipients: [{ name: 'A', email: 'a@example.org', role: 'SIGNER' }],
						},
					},
				);
				expect(generate.status).toBe(404);
			} finally {
				await other.stop();
			}
		});

		it('fails to start on a port in use', async () => {
			await expect(startSandbox({ ports: { bookmark: sandbox.bookmark.port } })).rejects.toThrow(
				/EADDRINUSE/,
			);
		});
	});
});

describe('the sliding window', () => {
	// The contract's own window of 60 s, on a clock that moves only when the test moves it.
	const clock = new ManualClock();
	let url: string;
	let close: () => Promise<void>;
	const errors = {
		send: (reply: FastifyReply, status: number, message: string) =>
			reply.code(status).send({ message }),
	};

	beforeAll(async () => {
		const { app } = createService({
			name: 'bookmark',
			apiKey: 'key',
			presentedKey: bearerToken,
			errors,
			rateLimit: 2,
			clock,
			reset: () => undefined,
		});
		app.get('/api/ping', async () => ({ pong: true }));
		url = `http://127.0.0.1:${await listen(app, '127.0.0.1', 0)}/api/ping`;
		close = async () => await app.close();
	});
	afterAll(async () => await close());

	it('frees a slot when its request is older than the window; refused requests take none', async () => {
		const ping = async () => await call(url, { headers: { authorization: 'Bearer key' } });
		expect((await ping()).status).toBe(200);
		clock.advance(250);
		expect((await ping()).status).toBe(200);
		const refused = await ping();
		expect(refused.status).toBe(429);
		// The first slot frees at 60 s, 59.75 s from now: whole seconds, rounded up.
		expect(refused.headers.get('retry-after')).toBe('60');
		clock.advance(59_749);
		expect((await ping()).headers.get('retry-after')).toBe('1');
		// 60 s after the first request it leaves the window; the second (at 250 ms) is still in it.
		clock.advance(1);
		expect((await ping()).status).toBe(200);
		const full = await ping();
		expect(full.status).toBe(429);
		expect(full.headers.get('retry-after')).toBe('1');
		clock.advance(250);
		expect((await ping()).status).toBe(200);
	});
});
