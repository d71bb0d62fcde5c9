import { type Sandbox, startSandbox } from './index';
import { call } from './receiver';

describe('rate limits and faults, common to the three services', () => {
	let sandbox: Sandbox;
	const requests = {
		signing: () => call(`${sandbox.signing.url}/api/v2/documents/doc_x`, { headers: { authorization: `Bearer ${sandbox.signing.apiKey}` } }),
		bookmark: () => call(`${sandbox.bookmark.url}/api/v1/lists`, { headers: { authorization: `Bearer ${sandbox.bookmark.apiKey}` } }),
		survey: () => call(`${sandbox.survey.url}/api/v1/management/surveys`, { headers: { 'x-api-key': sandbox.survey.apiKey } }),
	};
	const control = async (service: keyof typeof requests, path: string, body?: unknown, method = 'PUT') =>
		await call(`${sandbox[service].url}/_sandbox${path}`, { method, body });

	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox.stop());

	it('limits the survey service to 100 requests a minute by default', async () => {
		for (let i = 0; i < 100; i++) expect((await requests.survey()).status).toBe(200);
		const refused = await requests.survey();
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
		expect(refused.json).toEqual({ code: 'too_many_requests', message: expect.any(String), details: {} });
		await call(`${sandbox.survey.url}/_sandbox/reset`, { method: 'POST' });
	});

	it.each(['signing', 'bookmark', 'survey'] as const)('answers 429 with Retry-After over a configured limit (%s)', async (service) => {
		await control(service, '/rate-limit', { limit: 2 });
		expect((await requests[service]()).status).not.toBe(429);
		expect((await requests[service]()).status).not.toBe(429);
		const refused = await requests[service]();
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
		if (service === 'bookmark') expect(refused.text).toBe('Too Many Requests');
		if (service === 'signing') expect(refused.json).toEqual({ message: expect.any(String) });
		await control(service, '/rate-limit', { limit: null });
		expect((await requests[service]()).status).not.toBe(429);
	});

	it.each(['signing', 'bookmark', 'survey'] as const)('fails the next N requests in fault mode (%s)', async (service) => {
		await control(service, '/faults', { status: 503, count: 2 });
		expect((await requests[service]()).status).toBe(503);
		expect((await requests[service]()).status).toBe(503);
		expect((await requests[service]()).status).not.toBe(503);
	});

	it('records the requests it received, and forgets them on request', async () => {
		await control('bookmark', '/requests', undefined, 'DELETE');
		await requests.bookmark();
		const { json } = await call(`${sandbox.bookmark.url}/_sandbox/requests`);
		expect(json.requests).toEqual([
			expect.objectContaining({ method: 'GET', path: '/api/v1/lists', status: 200, query: {} }),
		]);
		expect(json.requests[0].headers.authorization).toBe(`Bearer ${sandbox.bookmark.apiKey}`);
	});
});
