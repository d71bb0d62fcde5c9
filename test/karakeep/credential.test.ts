/**
 * What "Test credential" can call on Karakeep, and how a Karakeep server differs from one that
 * speaks the documented API (the project's sandbox bookmark service, test/sandbox/bookmark.ts).
 * Sources (Karakeep commit 7ca5ee2): packages/api/routes/users.ts (GET /users/me → users.whoami,
 * zWhoAmIResponseSchema in packages/shared/types/users.ts), packages/api/routes/health.ts,
 * packages/api/index.ts (hono poweredBy(): X-Powered-By: Hono), packages/api/middlewares/auth.ts.
 */
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { startSandbox, type Sandbox } from '../sandbox';
import { call, CUID2, expectStatus, START_TIMEOUT_MS } from './api';

let karakeep: KarakeepServer;
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox();
	karakeep = await startKarakeep();
}, START_TIMEOUT_MS);

afterAll(async () => {
	await karakeep?.stop();
	await sandbox?.stop();
});

test('the documented probe (GET /api/v1/bookmarks?limit=1) passes on both: it cannot tell them apart', async () => {
	await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: 'one' } });
	for (const server of [karakeep, sandbox.bookmark]) {
		const page = await expectStatus(200, server, 'GET', '/bookmarks', { query: { limit: 1 } });
		expect(Array.isArray(page.json.bookmarks)).toBe(true);
		expect(page.json.bookmarks).toHaveLength(1);
		// Both refuse a wrong key with the plain text "Unauthorized".
		expect(await call(server, 'GET', '/bookmarks', { query: { limit: 1 }, apiKey: 'wrong' })).toMatchObject({ status: 401, text: 'Unauthorized' });
	}
	// The records differ: Karakeep's ids are cuid2 and its records carry userId and the AI statuses, no listIds.
	const karakeepRecord = (await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { limit: 1 } })).json.bookmarks[0];
	const sandboxRecord = (await expectStatus(200, sandbox.bookmark, 'GET', '/bookmarks', { query: { limit: 1 } })).json.bookmarks[0];
	expect(karakeepRecord.id).toMatch(CUID2);
	expect(karakeepRecord).toHaveProperty('taggingStatus');
	expect(karakeepRecord).not.toHaveProperty('listIds');
	expect(sandboxRecord.id).toMatch(/^bm_/);
	expect(sandboxRecord).toHaveProperty('listIds');
});

test('GET /api/v1/users/me answers only on Karakeep: {id, name, email, image, localUser}; a wrong key is 401', async () => {
	const me = await expectStatus(200, karakeep, 'GET', '/users/me');
	expect(Object.keys(me.json).sort()).toEqual(['email', 'id', 'image', 'localUser', 'name']);
	expect(typeof me.json.localUser).toBe('boolean');
	expect(me.json.id).toMatch(CUID2);
	expect(await call(karakeep, 'GET', '/users/me', { apiKey: 'ak2_wrong' })).toMatchObject({ status: 401, text: 'Unauthorized' });
	expect((await call(sandbox.bookmark, 'GET', '/users/me')).status).toBe(404);
});

test('Karakeep without a key: GET /api/health answers {status: "ok"}, every answer has X-Powered-By: Hono', async () => {
	const health = await fetch(new URL('/api/health', karakeep.url));
	expect(await health.json()).toEqual({ status: 'ok', message: 'Web app is working' });
	expect(health.headers.get('x-powered-by')).toBe('Hono');
	const refused = await fetch(new URL('/api/v1/bookmarks', karakeep.url));
	expect(refused.headers.get('x-powered-by')).toBe('Hono');
	const sandboxAnswer = await fetch(new URL('/api/v1/bookmarks', sandbox.bookmark.url));
	expect(sandboxAnswer.headers.get('x-powered-by')).toBeNull();
	expect((await call(sandbox.bookmark, 'GET', '/api/health')).status).toBe(404);
});
