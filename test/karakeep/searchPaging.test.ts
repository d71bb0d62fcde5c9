/* eslint-disable @typescript-eslint/no-explicit-any -- node outputs are JSON; each test states what it expects */
/**
 * Issue 32 item 15: Bookmark → Search with Return All returns each record once while the results
 * change between two pages. Karakeep's search cursor is an offset (packages/api/routes/bookmarks.ts:
 * `cursor` → `{ver: 1, offset}`, `nextCursor` → the decimal offset; packages/trpc/routers/bookmarks.ts
 * searchBookmarks pages Meilisearch with `offset`, newest first for sortOrder=desc), so a record
 * added before the next page moves every later one down by one, and one that leaves the results
 * moves them up. The real server has no Meilisearch here: search goes through the validating mock
 * (test/harness/karakeepSpecMock.ts), which searches the real server's records by offset as
 * Karakeep does; the records are made and deleted on the real server between the node's pages.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { type KarakeepSpecMock, startKarakeepSpecMock } from '../harness/karakeepSpecMock';
import { executeContext } from '../unit/helpers/context';
import { afterSecondOf, expectStatus, START_TIMEOUT_MS } from './api';

let karakeep: KarakeepServer;
let mock: KarakeepSpecMock;
/** The records that match the query from the start, oldest first. */
const matching: string[] = [];
const WORD = 'overlapword';

beforeAll(async () => {
	karakeep = await startKarakeep();
	mock = await startKarakeepSpecMock({ upstream: karakeep });
	// More than one page of 100.
	for (let index = 0; index < 130; index++) {
		const { json } = await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: `${WORD} ${index}` } });
		matching.push(json.id);
	}
}, START_TIMEOUT_MS);

afterAll(async () => {
	await mock?.stop();
	await karakeep?.stop();
});

const isLaterPage = (request: IHttpRequestOptions) =>
	request.url.endsWith('/bookmarks/search') && (request.qs as Record<string, unknown> | undefined)?.cursor !== undefined;

/** Search → Return All; `beforeNextPage` runs once, before the second page is asked for. */
async function searchAll(beforeNextPage: () => Promise<void>): Promise<string[]> {
	let changed = false;
	const { context } = executeContext({
		parameters: { resource: 'bookmark', operation: 'search', query: WORD, returnAll: true },
		credentials: { bookmarkApi: { api: 'karakeep', baseUrl: mock.url, apiKey: karakeep.apiKey } },
		onRequest: async (request) => {
			if (changed || !isLaterPage(request)) return;
			changed = true;
			await beforeNextPage();
		},
	});
	const found = (await new Bookmarks().execute.call(context))[0].map((item) => (item.json as any).id as string);
	expect(changed).toBe(true);
	return found;
}

test('a record added between two pages: none comes twice, every record there from the start comes once', async () => {
	const newest = (await expectStatus(200, karakeep, 'GET', `/bookmarks/${matching.at(-1)}`)).json;
	let added = '';
	const found = await searchAll(async () => {
		// Strictly newer than every record before it, so it sorts first and moves all the others down.
		await afterSecondOf(newest.createdAt);
		added = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: `${WORD} added while reading` } })).json.id;
	});
	expect(new Set(found).size).toBe(found.length);
	expect([...found].sort()).toEqual(expect.arrayContaining([...matching].sort()));
	expect(mock.requests.filter((request) => !request.valid)).toEqual([]);
	// It matches from now on, as the newest.
	matching.push(added);
});

test('a record that leaves the results between two pages: none of the others is skipped', async () => {
	const found = await searchAll(async () => {
		// The newest record, read on the first page, no longer matches: every later one moves up by one.
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${matching.pop()}`, { body: { text: 'no longer found' } });
	});
	expect(new Set(found).size).toBe(found.length);
	expect(found).toEqual(expect.arrayContaining(matching));
});

test('results that shrink past where the next page starts: the records that moved up are read, none twice', async () => {
	const everyMatch = [...matching];
	const found = await searchAll(async () => {
		// The first page's newest 50 no longer match: fewer records are left than the next page's
		// offset, so Karakeep answers that page empty, and the 30 not read yet moved up before it.
		const response = await fetch(`${mock.url}/api/v1/bookmarks/search?q=${WORD}&sortOrder=desc&limit=100`, {
			headers: { authorization: `Bearer ${karakeep.apiKey}` },
		});
		const { bookmarks } = (await response.json()) as { bookmarks: Array<{ id: string }> };
		expect(bookmarks).toHaveLength(100);
		for (const { id } of bookmarks.slice(0, 50)) {
			await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${id}`, { body: { text: 'no longer found' } });
		}
	});
	expect(new Set(found).size).toBe(found.length);
	expect([...found].sort()).toEqual([...everyMatch].sort());
});
