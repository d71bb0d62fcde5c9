/**
 * Issue 43 item 5: `BOOKMARKS=karakeep npm start` seeds a fresh Karakeep with the bookmark sandbox's
 * demo records (test/harness/karakeepSeed.ts): its lists, links and note, each with its tags and in
 * its lists, through Karakeep's own REST API.
 */
import { seedKarakeep } from '../harness/karakeepSeed';
import { seedBookmarks, seedLists } from '../sandbox/seed';
import { expectStatus } from './api';
import { karakeepBehindSpec } from './node';

const servers = karakeepBehindSpec();

test('the sandbox’s records, tags and lists, newest first as in the sandbox', async () => {
	const { karakeep } = servers;
	expect(await seedKarakeep(karakeep)).toEqual({ bookmarks: seedBookmarks().length, lists: seedLists().length });
	const { bookmarks } = (await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { limit: 100 } })).json;
	const byTitle = new Map((bookmarks as Array<{ title: string; tags: Array<{ name: string }> }>).map((bookmark) => [bookmark.title, bookmark]));
	const expected = [...seedBookmarks()].sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
	expect((bookmarks as Array<{ title: string }>).map((bookmark) => bookmark.title)).toEqual(expected.map((bookmark) => bookmark.title));
	for (const seeded of expected) {
		expect(byTitle.get(seeded.title!)!.tags.map((tag) => tag.name).sort()).toEqual([...(seeded.tags ?? [])].sort());
	}
	const { lists } = (await expectStatus(200, karakeep, 'GET', '/lists')).json;
	const applications = (lists as Array<{ id: string; name: string }>).find((list) => list.name === 'Applications')!;
	const filed = (await expectStatus(200, karakeep, 'GET', `/lists/${applications.id}/bookmarks`)).json.bookmarks as Array<{ title: string }>;
	expect(filed.map((bookmark) => bookmark.title).sort()).toEqual(
		seedBookmarks()
			.filter((bookmark) => bookmark.listIds?.includes('list_applications'))
			.map((bookmark) => bookmark.title)
			.sort(),
	);
});
