/**
 * Bookmark → Search: the real server cannot (no Meilisearch here), so it is checked against
 * Karakeep's own OpenAPI document through the validating mock (test/harness/karakeepSpecMock.ts).
 * Sources (Karakeep commit 7ca5ee2): packages/api/routes/bookmarks.ts (GET /bookmarks/search:
 * q, limit, cursor = a decimal offset, sortOrder asc|desc|relevance, searchMode fts|semantic|hybrid,
 * includeContent), packages/trpc/routers/bookmarks.ts (searchBookmarks: "Search functionality is not
 * configured" without a search client), specs/karakeep-openapi.json (operation searchBookmarks).
 */
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { type KarakeepSpecMock, startKarakeepSpecMock } from '../harness/karakeepSpecMock';
import { call, expectStatus, START_TIMEOUT_MS } from './api';

let karakeep: KarakeepServer;

beforeAll(async () => {
	karakeep = await startKarakeep();
}, START_TIMEOUT_MS);

afterAll(async () => {
	await karakeep?.stop();
});

test('the real server answers search 500 "Internal server error" (no Meilisearch), after validating the query', async () => {
	expect(await call(karakeep, 'GET', '/bookmarks/search', { query: { q: 'anything' } })).toMatchObject({
		status: 500,
		text: 'Internal server error',
	});
	expect((await call(karakeep, 'GET', '/bookmarks/search')).status).toBe(400);
});

describe('the validating mock of karakeep-openapi.json, on its own', () => {
	let mock: KarakeepSpecMock;
	const server = () => ({ url: mock.url, apiKey: 'ak2_any_key' });

	beforeAll(async () => {
		mock = await startKarakeepSpecMock();
	});
	afterAll(async () => {
		await mock?.stop();
	});

	test('a valid search is 200 with an answer that validates against the document', async () => {
		const answer = await expectStatus(200, server(), 'GET', '/bookmarks/search', {
			query: { q: 'rust #lang is:fav', limit: 10, cursor: '20', sortOrder: 'desc', searchMode: 'fts', includeContent: false },
		});
		expect(answer.json).toEqual({ bookmarks: expect.any(Array), nextCursor: expect.anything() });
		expect(mock.requests.at(-1)).toMatchObject({ operationId: 'searchBookmarks', valid: true, status: 200 });
	});

	test.each([
		['no q', {}, "must have required property 'q'"],
		['limit not a number', { q: 'x', limit: 'ten' }, '/query/limit must be number'],
		['an unknown searchMode', { q: 'x', searchMode: 'exact' }, '/query/searchMode must be equal to one of the allowed values'],
		['an unknown sortOrder', { q: 'x', sortOrder: 'newest' }, '/query/sortOrder must be equal to one of the allowed values'],
		['includeContent not a boolean', { q: 'x', includeContent: 'yes' }, '/query/includeContent must be boolean'],
		['a parameter the document does not name', { q: 'x', tags: 'a' }, 'must NOT have additional properties {"additionalProperty":"tags"}'],
	])('refused 400 in the shape of Karakeep\'s validation errors: %s', async (_what, query, message) => {
		const refused = await call(server(), 'GET', '/bookmarks/search', { query: query as Record<string, string> });
		expect(refused.status).toBe(400);
		expect(refused.json).toEqual({ success: false, error: { name: 'OpenAPIValidationError', message: expect.stringContaining(message) } });
		expect(mock.requests.at(-1)).toMatchObject({ valid: false, status: 400 });
	});

	test('no Bearer key is Karakeep\'s plain-text 401; a route the document lacks is 404', async () => {
		expect(await call(server(), 'GET', '/bookmarks/search', { query: { q: 'x' }, apiKey: null })).toMatchObject({ status: 401, text: 'Unauthorized' });
		expect((await call(server(), 'GET', '/webhooks')).status).toBe(404);
	});

	test('bodies validate too: a list without icon, and a field the document does not name (tags on create)', async () => {
		const noIcon = await call(server(), 'POST', '/lists', { body: { name: 'x' } });
		expect(noIcon.status).toBe(400);
		expect(noIcon.json.error.message).toContain("must have required property 'icon'");
		const tags = await call(server(), 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/', tags: ['a'] } });
		expect(tags.status).toBe(400);
		expect(tags.json.error.message).toContain('"tags"');
		const good = await call(server(), 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/' } });
		expect(good.status).toBe(201);
	});
});

describe('the validating mock in front of the real Karakeep: every other route forwarded, search answered over its bookmarks', () => {
	let mock: KarakeepSpecMock;
	const server = () => ({ url: mock.url, apiKey: karakeep.apiKey });

	beforeAll(async () => {
		mock = await startKarakeepSpecMock({ upstream: karakeep });
	});
	afterAll(async () => {
		await mock?.stop();
	});

	test('records made through the mock are found by words (title, note, URL, text), #tag and is:fav; paged by offset cursor; all requests validated', async () => {
		const make = async (body: Record<string, unknown>) => (await expectStatus(201, server(), 'POST', '/bookmarks', { body })).json;
		const rust = await make({ type: 'link', url: 'https://example.org/rust-book', title: 'The Rust Book', note: 'ownership chapter' });
		const notes = await make({ type: 'text', text: 'Rust lifetimes, explained', title: 'Notes' });
		await make({ type: 'text', text: 'Unrelated', title: 'Other' });
		await expectStatus(200, server(), 'POST', `/bookmarks/${rust.id}/tags`, { body: { tags: [{ tagName: 'lang' }] } });
		await expectStatus(200, server(), 'PATCH', `/bookmarks/${notes.id}`, { body: { favourited: true } });

		const ids = async (query: Record<string, string | number>) =>
			(await expectStatus(200, server(), 'GET', '/bookmarks/search', { query })).json.bookmarks.map((b: { id: string }) => b.id);
		expect(new Set(await ids({ q: 'rust' }))).toEqual(new Set([rust.id, notes.id]));
		expect(await ids({ q: 'ownership' })).toEqual([rust.id]);
		expect(await ids({ q: 'rust-book' })).toEqual([rust.id]);
		expect(await ids({ q: '#lang' })).toEqual([rust.id]);
		expect(await ids({ q: 'rust is:fav' })).toEqual([notes.id]);
		const page1 = await expectStatus(200, server(), 'GET', '/bookmarks/search', { query: { q: 'rust', limit: 1 } });
		expect(page1.json.nextCursor).toBe('1');
		const page2 = await expectStatus(200, server(), 'GET', '/bookmarks/search', { query: { q: 'rust', limit: 1, cursor: page1.json.nextCursor } });
		expect(page2.json.nextCursor).toBeNull();
		expect(new Set([page1.json.bookmarks[0].id, page2.json.bookmarks[0].id])).toEqual(new Set([rust.id, notes.id]));
		expect(mock.requests.every((request) => request.valid)).toBe(true);
		// The real server's own answers come through unchanged.
		expect(await call(server(), 'GET', '/bookmarks/nosuchbookmarkid00000000')).toMatchObject({ status: 404, text: 'Bookmark not found' });
	});
});
