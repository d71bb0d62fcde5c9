/**
 * Bookmark → Get Many with each filter, and paging, pinned against the real server.
 * Sources (Karakeep commit 7ca5ee2): packages/api/routes/bookmarks.ts (GET /bookmarks: only
 * favourited, archived, sortOrder, includeContent, limit, cursor), packages/api/utils/pagination.ts
 * (limit 1..100, cursor "<id>_<ISO createdAt>"), packages/api/utils/types.ts (zStringBool,
 * sortOrder asc|desc), packages/api/routes/tags.ts and lists.ts (/tags/{id}/bookmarks,
 * /lists/{id}/bookmarks), packages/trpc/models/bookmarks.ts (Bookmark.loadMulti: order
 * createdAt then id, both descending for desc).
 */
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { afterSecondOf, call, expectStatus, START_TIMEOUT_MS, zodIssues } from './api';

let karakeep: KarakeepServer;
const ids: Record<string, string> = {};
let tagId: string;
let listId: string;

const idsOf = (answer: { json: { bookmarks: Array<{ id: string }> } }) => answer.json.bookmarks.map((b) => b.id);

beforeAll(async () => {
	karakeep = await startKarakeep();
	// Five records, each created in a later second than the one before, so their order is known.
	let last = new Date(0).toISOString();
	for (const name of ['one', 'two', 'three', 'four', 'five']) {
		await afterSecondOf(last);
		const created = await expectStatus(201, karakeep, 'POST', '/bookmarks', {
			body: { type: 'link', url: `https://example.org/${name}`, title: `Record ${name}` },
		});
		ids[name] = created.json.id;
		last = created.json.createdAt;
	}
	const attached = await expectStatus(200, karakeep, 'POST', `/bookmarks/${ids.two}/tags`, {
		body: { tags: [{ tagName: 'picked' }] },
	});
	tagId = attached.json.attached[0];
	await expectStatus(200, karakeep, 'POST', `/bookmarks/${ids.four}/tags`, { body: { tags: [{ tagId }] } });
	const list = await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'Picks', icon: '⭐' } });
	listId = list.json.id;
	await expectStatus(204, karakeep, 'PUT', `/lists/${listId}/bookmarks/${ids.three}`);
	await expectStatus(204, karakeep, 'PUT', `/lists/${listId}/bookmarks/${ids.four}`);
	await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${ids.four}`, { body: { archived: true } });
	await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${ids.one}`, { body: { favourited: true } });
}, START_TIMEOUT_MS);

afterAll(async () => {
	await karakeep?.stop();
});

const newestFirst = () => [ids.five, ids.four, ids.three, ids.two, ids.one];

test('GET /bookmarks answers {bookmarks, nextCursor}, newest first (by createdAt)', async () => {
	const all = await expectStatus(200, karakeep, 'GET', '/bookmarks');
	expect(idsOf(all)).toEqual(newestFirst());
	// null on the last page (adaptPagination returns the tRPC answer as it is then).
	expect(all.json).toHaveProperty('nextCursor', null);
});

test('q, tags, listId and sortBy are ignored by GET /bookmarks: the answer is the same as without them', async () => {
	const filtered = await expectStatus(200, karakeep, 'GET', '/bookmarks', {
		query: { q: 'Record five', tags: 'picked', listId, sortBy: 'modifiedAt' },
	});
	expect(idsOf(filtered)).toEqual(newestFirst());
});

test('tags → GET /tags/{tagId}/bookmarks (by tag id, not name); an unknown tag id is 200 with no bookmarks', async () => {
	const byTag = await expectStatus(200, karakeep, 'GET', `/tags/${tagId}/bookmarks`);
	expect(idsOf(byTag)).toEqual([ids.four, ids.two]);
	const unknown = await expectStatus(200, karakeep, 'GET', '/tags/nosuchtagid0000000000000/bookmarks');
	expect(idsOf(unknown)).toEqual([]);
	const byName = await expectStatus(200, karakeep, 'GET', '/tags/picked/bookmarks');
	expect(idsOf(byName)).toEqual([]);
});

test('listId → GET /lists/{listId}/bookmarks; an unknown list is 404 "List not found"', async () => {
	const inList = await expectStatus(200, karakeep, 'GET', `/lists/${listId}/bookmarks`);
	expect(idsOf(inList)).toEqual([ids.four, ids.three]);
	expect(await call(karakeep, 'GET', '/lists/nosuchlistid000000000000/bookmarks')).toMatchObject({ status: 404, text: 'List not found' });
});

test('archived and favourited filter (true/false) on GET /bookmarks only; anything else is a zod 400', async () => {
	expect(idsOf(await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { archived: true } }))).toEqual([ids.four]);
	expect(idsOf(await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { archived: false } }))).toEqual([
		ids.five,
		ids.three,
		ids.two,
		ids.one,
	]);
	expect(idsOf(await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { favourited: true } }))).toEqual([ids.one]);
	for (const value of ['yes', '1', 'TRUE']) {
		const refused = await call(karakeep, 'GET', '/bookmarks', { query: { archived: value } });
		expect(zodIssues(refused)).toEqual([expect.objectContaining({ path: ['archived'], message: 'Must be true or false' })]);
	}
});

test('the tag and list routes ignore archived and favourited (their query schema has neither): filter their pages client-side', async () => {
	expect(idsOf(await expectStatus(200, karakeep, 'GET', `/tags/${tagId}/bookmarks`, { query: { archived: false } }))).toEqual([ids.four, ids.two]);
	expect(idsOf(await expectStatus(200, karakeep, 'GET', `/lists/${listId}/bookmarks`, { query: { archived: true, favourited: true } }))).toEqual([
		ids.four,
		ids.three,
	]);
	// They do take sortOrder, limit and cursor.
	const asc = await expectStatus(200, karakeep, 'GET', `/tags/${tagId}/bookmarks`, { query: { sortOrder: 'asc', limit: 1 } });
	expect(idsOf(asc)).toEqual([ids.two]);
	expect(asc.json.nextCursor).toBe(`${ids.four}_${(await expectStatus(200, karakeep, 'GET', `/bookmarks/${ids.four}`)).json.createdAt}`);
});

test('sortOrder asc|desc (by createdAt; there is no sort by modifiedAt); relevance is a zod 400 here', async () => {
	const asc = await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { sortOrder: 'asc' } });
	expect(idsOf(asc)).toEqual([...newestFirst()].reverse());
	expect(zodIssues(await call(karakeep, 'GET', '/bookmarks', { query: { sortOrder: 'relevance' } }))[0].path).toEqual(['sortOrder']);
});

test('paging: limit 1..100 (101 and 0 are a zod 400), nextCursor "<id>_<ISO createdAt>" of the next page\'s first record', async () => {
	const seen: string[] = [];
	let cursor: string | undefined;
	const cursors: string[] = [];
	do {
		const page = await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { limit: 2, ...(cursor ? { cursor } : {}) } });
		seen.push(...idsOf(page));
		cursor = page.json.nextCursor ?? undefined;
		if (cursor) cursors.push(cursor);
	} while (cursor);
	expect(seen).toEqual(newestFirst());
	const [firstCursor] = cursors;
	const nextFirst = (await expectStatus(200, karakeep, 'GET', `/bookmarks/${ids.three}`)).json;
	expect(firstCursor).toBe(`${ids.three}_${nextFirst.createdAt}`);
	for (const limit of [0, 101]) {
		expect(zodIssues(await call(karakeep, 'GET', '/bookmarks', { query: { limit } }))[0].path).toEqual(['limit']);
	}
	expect(zodIssues(await call(karakeep, 'GET', '/bookmarks', { query: { cursor: 'opaque' } }))[0]).toMatchObject({
		path: ['cursor'],
		message: 'Must be a valid cursor',
	});
	// The default page is 20.
	for (let i = 0; i < 16; i++) await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: `filler ${i}` } });
	const firstPage = await expectStatus(200, karakeep, 'GET', '/bookmarks');
	expect(firstPage.json.bookmarks).toHaveLength(20);
	expect(typeof firstPage.json.nextCursor).toBe('string');
});
