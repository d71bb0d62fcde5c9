/**
 * Add/Remove Tags, Tag → Get Many, List → Create/Update/Delete/Get Many, Add to/Remove From List,
 * pinned against the real server. Sources (Karakeep commit 7ca5ee2):
 * packages/api/routes/bookmarks.ts (POST/DELETE /bookmarks/{id}/tags), packages/trpc/routers/bookmarks.ts
 * (updateTags), packages/shared/utils/tag.ts (normalizeTagName), packages/shared/types/tags.ts,
 * packages/api/routes/tags.ts, packages/api/routes/lists.ts, packages/shared/types/lists.ts,
 * packages/trpc/routers/lists.ts, packages/trpc/models/lists.ts (addBookmark, removeBookmark,
 * update, getSizes).
 */
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { afterSecondOf, call, CUID2, expectStatus, START_TIMEOUT_MS, zodIssues } from './api';

let karakeep: KarakeepServer;

beforeAll(async () => {
	karakeep = await startKarakeep();
}, START_TIMEOUT_MS);

afterAll(async () => {
	await karakeep?.stop();
});

const newRecord = async (text: string) =>
	(await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text } })).json;
const tagNames = async (id: string) =>
	(await expectStatus(200, karakeep, 'GET', `/bookmarks/${id}`)).json.tags.map((tag: { name: string }) => tag.name).sort();

describe('Bookmark → Add Tags / Remove Tags', () => {
	test('attach by {tagName} or {tagId}: 200 {attached: [tag ids]}, every resolved id, also those it already had', async () => {
		const record = await newRecord('tag me');
		const first = await expectStatus(200, karakeep, 'POST', `/bookmarks/${record.id}/tags`, {
			body: { tags: [{ tagName: 'alpha' }, { tagName: 'beta' }] },
		});
		expect(first.json.attached).toHaveLength(2);
		first.json.attached.forEach((id: string) => expect(id).toMatch(CUID2));
		const again = await expectStatus(200, karakeep, 'POST', `/bookmarks/${record.id}/tags`, {
			body: { tags: [{ tagName: 'beta' }, { tagId: first.json.attached[0] }] },
		});
		expect(new Set(again.json.attached)).toEqual(new Set(first.json.attached));
		expect(await tagNames(record.id)).toEqual(['alpha', 'beta']);
	});

	test('names are trimmed and lose leading "#" when attaching, but not when detaching; names are case-sensitive', async () => {
		const record = await newRecord('normalise');
		await expectStatus(200, karakeep, 'POST', `/bookmarks/${record.id}/tags`, { body: { tags: [{ tagName: '  ##Gamma ' }] } });
		expect(await tagNames(record.id)).toEqual(['Gamma']);
		const hashed = await expectStatus(200, karakeep, 'DELETE', `/bookmarks/${record.id}/tags`, { body: { tags: [{ tagName: '#Gamma' }] } });
		expect(hashed.json.detached).toEqual([]);
		const otherCase = await expectStatus(200, karakeep, 'DELETE', `/bookmarks/${record.id}/tags`, { body: { tags: [{ tagName: 'gamma' }] } });
		expect(otherCase.json.detached).toEqual([]);
		expect(await tagNames(record.id)).toEqual(['Gamma']);
	});

	test('detach: 200 {detached: [tag ids]} lists every existing tag named, also one the record did not have; unknown names are left out', async () => {
		const record = await newRecord('untag me');
		const attached = await expectStatus(200, karakeep, 'POST', `/bookmarks/${record.id}/tags`, { body: { tags: [{ tagName: 'delta' }] } });
		const other = await newRecord('has epsilon');
		const epsilon = await expectStatus(200, karakeep, 'POST', `/bookmarks/${other.id}/tags`, { body: { tags: [{ tagName: 'epsilon' }] } });
		const detached = await expectStatus(200, karakeep, 'DELETE', `/bookmarks/${record.id}/tags`, {
			body: { tags: [{ tagName: 'delta' }, { tagName: 'epsilon' }, { tagName: 'never-created' }] },
		});
		expect(new Set(detached.json.detached)).toEqual(new Set([...attached.json.attached, ...epsilon.json.attached]));
		expect(await tagNames(record.id)).toEqual([]);
		// A detached tag stays, with no bookmarks.
		const tags = await expectStatus(200, karakeep, 'GET', '/tags', { query: { nameContains: 'delta' } });
		expect(tags.json.tags).toEqual([{ id: attached.json.attached[0], name: 'delta', numBookmarks: 0, numBookmarksByAttachedType: { ai: 0, human: 0 } }]);
	});

	test('a tag change moves modifiedAt; a tag list of strings or an empty name is a zod 400', async () => {
		const record = await newRecord('modified by tags');
		await afterSecondOf(record.modifiedAt);
		await expectStatus(200, karakeep, 'POST', `/bookmarks/${record.id}/tags`, { body: { tags: [{ tagName: 'zeta' }] } });
		const tagged = (await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}`)).json;
		expect(Date.parse(tagged.modifiedAt)).toBeGreaterThan(Date.parse(record.modifiedAt));
		await afterSecondOf(tagged.modifiedAt);
		await expectStatus(200, karakeep, 'DELETE', `/bookmarks/${record.id}/tags`, { body: { tags: [{ tagName: 'zeta' }] } });
		const untagged = (await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}`)).json;
		expect(Date.parse(untagged.modifiedAt)).toBeGreaterThan(Date.parse(tagged.modifiedAt));
		expect(zodIssues(await call(karakeep, 'POST', `/bookmarks/${record.id}/tags`, { body: { tags: ['zeta'] } }))[0].path).toEqual(['tags', 0]);
		expect(zodIssues(await call(karakeep, 'POST', `/bookmarks/${record.id}/tags`, { body: { tags: [{}] } })).length).toBe(1);
		expect(await call(karakeep, 'POST', '/bookmarks/nosuchbookmarkid00000000/tags', { body: { tags: [{ tagName: 'x' }] } })).toMatchObject({
			status: 404,
			text: 'Bookmark not found',
		});
	});
});

describe('Tag → Get Many (GET /api/v1/tags)', () => {
	test('{tags: [{id, name, numBookmarks, numBookmarksByAttachedType}], nextCursor}; sort usage (default) or name; nameContains; paged with limit and a base64url cursor', async () => {
		const a = await newRecord('t1');
		const b = await newRecord('t2');
		await expectStatus(200, karakeep, 'POST', `/bookmarks/${a.id}/tags`, { body: { tags: [{ tagName: 'paging-b' }, { tagName: 'paging-a' }] } });
		await expectStatus(200, karakeep, 'POST', `/bookmarks/${b.id}/tags`, { body: { tags: [{ tagName: 'paging-b' }] } });
		const byUsage = await expectStatus(200, karakeep, 'GET', '/tags', { query: { nameContains: 'paging-' } });
		expect(byUsage.json.tags.map((t: { name: string; numBookmarks: number }) => [t.name, t.numBookmarks])).toEqual([
			['paging-b', 2],
			['paging-a', 1],
		]);
		expect(byUsage.json.tags[0].numBookmarksByAttachedType).toEqual({ ai: 0, human: 2 });
		expect(byUsage.json).toHaveProperty('nextCursor', null);
		const byName = await expectStatus(200, karakeep, 'GET', '/tags', { query: { nameContains: 'paging-', sort: 'name' } });
		expect(byName.json.tags.map((t: { name: string }) => t.name)).toEqual(['paging-a', 'paging-b']);
		const page1 = await expectStatus(200, karakeep, 'GET', '/tags', { query: { nameContains: 'paging-', sort: 'name', limit: 1 } });
		expect(page1.json.tags.map((t: { name: string }) => t.name)).toEqual(['paging-a']);
		expect(JSON.parse(Buffer.from(page1.json.nextCursor, 'base64url').toString('utf8'))).toEqual({ page: 1 });
		const page2 = await expectStatus(200, karakeep, 'GET', '/tags', {
			query: { nameContains: 'paging-', sort: 'name', limit: 1, cursor: page1.json.nextCursor },
		});
		expect(page2.json.tags.map((t: { name: string }) => t.name)).toEqual(['paging-b']);
		// nameContains is a substring match, not a name lookup: resolve a tag name to its id by comparing names.
		const partial = await expectStatus(200, karakeep, 'GET', '/tags', { query: { nameContains: 'aging-' } });
		expect(partial.json.tags).toHaveLength(2);
	});
});

describe('List → Create, Update, Delete, Get Many; Add to List, Remove From List', () => {
	test('create needs an icon (zod 400 without); 201 the list; a name of 1..100 characters', async () => {
		expect(zodIssues(await call(karakeep, 'POST', '/lists', { body: { name: 'No icon' } }))).toEqual([
			expect.objectContaining({ path: ['icon'], code: 'invalid_type' }),
		]);
		expect(zodIssues(await call(karakeep, 'POST', '/lists', { body: { name: '', icon: '📚' } }))[0].path).toEqual(['name']);
		const created = await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'Reading', icon: '📚', description: 'To read' } });
		expect(created.json).toEqual({
			id: expect.stringMatching(CUID2),
			name: 'Reading',
			description: 'To read',
			icon: '📚',
			parentId: null,
			type: 'manual',
			query: null,
			public: false,
			hasCollaborators: false,
			userRole: 'owner',
		});
		const all = await expectStatus(200, karakeep, 'GET', '/lists');
		expect(all.json.lists).toContainEqual(created.json);
		expect(all.json).not.toHaveProperty('nextCursor');
	});

	test('update: PATCH with fields is 200 the list; an empty PATCH is a 500 "Internal server error"; description null clears it', async () => {
		const created = (await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'Before', icon: '📁', description: 'd' } })).json;
		const renamed = await expectStatus(200, karakeep, 'PATCH', `/lists/${created.id}`, { body: { name: 'After', icon: '🗂️' } });
		expect(renamed.json).toMatchObject({ id: created.id, name: 'After', icon: '🗂️', description: 'd' });
		const cleared = await expectStatus(200, karakeep, 'PATCH', `/lists/${created.id}`, { body: { description: null } });
		expect(cleared.json.description).toBeNull();
		expect(await call(karakeep, 'PATCH', `/lists/${created.id}`, { body: {} })).toMatchObject({ status: 500, text: 'Internal server error' });
		expect(await call(karakeep, 'PATCH', '/lists/nosuchlistid000000000000', { body: { name: 'x' } })).toMatchObject({ status: 404, text: 'List not found' });
	});

	test('membership: PUT 204 (again 204), DELETE 204, again a 400 in plain text; unknown list or bookmark 404; modifiedAt does not move', async () => {
		const list = (await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'Members', icon: '👥' } })).json;
		const record = await newRecord('member');
		await afterSecondOf(record.modifiedAt);
		await expectStatus(204, karakeep, 'PUT', `/lists/${list.id}/bookmarks/${record.id}`);
		await expectStatus(204, karakeep, 'PUT', `/lists/${list.id}/bookmarks/${record.id}`);
		expect((await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}`)).json.modifiedAt).toBe(record.modifiedAt);
		await expectStatus(204, karakeep, 'DELETE', `/lists/${list.id}/bookmarks/${record.id}`);
		expect((await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}`)).json.modifiedAt).toBe(record.modifiedAt);
		const notIn = await call(karakeep, 'DELETE', `/lists/${list.id}/bookmarks/${record.id}`);
		expect(notIn).toMatchObject({ status: 400, text: `Bookmark ${record.id} is already not in list ${list.id}` });
		expect(notIn.contentType).toMatch(/^text\/plain/);
		// Removing an unknown bookmark is the same 400 (no bookmark check on removal); adding one is a 404.
		expect(await call(karakeep, 'DELETE', `/lists/${list.id}/bookmarks/nosuchbookmarkid00000000`)).toMatchObject({ status: 400 });
		expect(await call(karakeep, 'PUT', `/lists/${list.id}/bookmarks/nosuchbookmarkid00000000`)).toMatchObject({ status: 404, text: 'Bookmark not found' });
		expect(await call(karakeep, 'PUT', `/lists/nosuchlistid000000000000/bookmarks/${record.id}`)).toMatchObject({ status: 404, text: 'List not found' });
	});

	test('a list has no record count over REST; the tRPC route lists.stats (same API key) has it', async () => {
		const list = (await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'Counted', icon: '🔢' } })).json;
		for (const text of ['c1', 'c2']) {
			const record = await newRecord(text);
			await expectStatus(204, karakeep, 'PUT', `/lists/${list.id}/bookmarks/${record.id}`);
		}
		const one = await expectStatus(200, karakeep, 'GET', `/lists/${list.id}`);
		expect(Object.keys(one.json).sort()).toEqual(['description', 'hasCollaborators', 'icon', 'id', 'name', 'parentId', 'public', 'query', 'type', 'userRole']);
		// superjson: a Map is sent as [[key, value]…] with meta naming it a map.
		const stats = await expectStatus(200, karakeep, 'GET', '/api/trpc/lists.stats');
		expect(stats.json.result.data.meta).toEqual({ values: { stats: ['map'] } });
		expect(new Map(stats.json.result.data.json.stats).get(list.id)).toBe(2);
	});

	test('delete: 204, its bookmarks stay; then 404 "List not found"', async () => {
		const list = (await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'Doomed', icon: '🗑️' } })).json;
		const record = await newRecord('survivor');
		await expectStatus(204, karakeep, 'PUT', `/lists/${list.id}/bookmarks/${record.id}`);
		await expectStatus(204, karakeep, 'DELETE', `/lists/${list.id}`);
		await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}`);
		expect((await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}/lists`)).json.lists).toEqual([]);
		expect(await call(karakeep, 'DELETE', `/lists/${list.id}`)).toMatchObject({ status: 404, text: 'List not found' });
	});
});
