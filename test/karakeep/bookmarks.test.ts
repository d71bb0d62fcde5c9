/**
 * Bookmark → Create, Get, Update, Delete and Karakeep's errors, pinned against the real server.
 * Sources (Karakeep commit 7ca5ee2): packages/api/routes/bookmarks.ts (routes),
 * packages/shared/types/bookmarks.ts (zod schemas), packages/trpc/routers/bookmarks.ts
 * (createBookmark, updateBookmark, deleteBookmark), packages/trpc/models/bookmarks.ts (reads),
 * packages/api/middlewares/auth.ts (401), packages/api/middlewares/trpcAdapter.ts (errors).
 */
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { afterSecondOf, call, CUID2, expectStatus, START_TIMEOUT_MS, WHOLE_SECOND, zodIssues } from './api';

let karakeep: KarakeepServer;

beforeAll(async () => {
	karakeep = await startKarakeep();
}, START_TIMEOUT_MS);

afterAll(async () => {
	await karakeep?.stop();
});

describe('Bookmark → Create (POST /api/v1/bookmarks)', () => {
	test('a new link is 201 with the whole record; tags in the body are dropped, not attached', async () => {
		const created = await expectStatus(201, karakeep, 'POST', '/bookmarks', {
			body: { type: 'link', url: 'https://example.org/create-1', title: 'Create 1', note: 'a note', tags: ['ignored'] },
		});
		const record = created.json;
		expect(record).toMatchObject({
			title: 'Create 1',
			note: 'a note',
			archived: false,
			favourited: false,
			summary: null,
			source: 'api',
			tags: [],
			assets: [],
			alreadyExists: false,
			content: { type: 'link', url: 'https://example.org/create-1', crawlStatus: 'pending', description: null },
		});
		expect(record.id).toMatch(CUID2);
		expect(record.userId).toMatch(CUID2);
		expect(record.createdAt).toMatch(WHOLE_SECOND);
		expect(record.modifiedAt).toBe(record.createdAt);
		// The create answer has no firstCreatedAt; every read has it.
		expect(record).not.toHaveProperty('firstCreatedAt');
		const read = await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}`);
		expect(read.json.tags).toEqual([]);
		expect(read.json.firstCreatedAt).toBe(record.createdAt);
		// No tag named "ignored" was even created.
		const tags = await expectStatus(200, karakeep, 'GET', '/tags');
		expect(tags.json.tags.map((tag: { name: string }) => tag.name)).not.toContain('ignored');
	});

	test('tags are attached after creating, by name: POST /bookmarks/{id}/tags', async () => {
		const created = await expectStatus(201, karakeep, 'POST', '/bookmarks', {
			body: { type: 'link', url: 'https://example.org/create-tags' },
		});
		const attached = await expectStatus(200, karakeep, 'POST', `/bookmarks/${created.json.id}/tags`, {
			body: { tags: [{ tagName: 'reading' }, { tagName: 'later' }] },
		});
		expect(attached.json.attached).toHaveLength(2);
		const read = await expectStatus(200, karakeep, 'GET', `/bookmarks/${created.json.id}`);
		expect(read.json.tags.map((tag: { name: string }) => tag.name).sort()).toEqual(['later', 'reading']);
		expect(read.json.tags.every((tag: { attachedBy: string }) => tag.attachedBy === 'human')).toBe(true);
	});

	test('a text record takes `text` (and no url); it has no summarization status', async () => {
		const created = await expectStatus(201, karakeep, 'POST', '/bookmarks', {
			body: { type: 'text', text: 'Remember the milk', title: 'Shopping' },
		});
		expect(created.json).toMatchObject({
			title: 'Shopping',
			summarizationStatus: null,
			content: { type: 'text', text: 'Remember the milk', sourceUrl: null },
		});
	});

	test('the same URL again is 200 alreadyExists: the record is re-saved (createdAt moves, firstCreatedAt stays), not duplicated', async () => {
		const url = 'https://example.org/resaved';
		const first = await expectStatus(201, karakeep, 'POST', '/bookmarks', {
			body: { type: 'link', url, title: 'Kept', note: 'kept note', archived: true },
		});
		await afterSecondOf(first.json.createdAt);
		const again = await expectStatus(200, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url } });
		expect(again.json.alreadyExists).toBe(true);
		expect(again.json.id).toBe(first.json.id);
		// A bare re-save keeps title and note, un-archives, and bumps createdAt (Karakeep's "lastSavedAt").
		expect(again.json).toMatchObject({ title: 'Kept', note: 'kept note', archived: false });
		const read = await expectStatus(200, karakeep, 'GET', `/bookmarks/${first.json.id}`);
		expect(read.json.firstCreatedAt).toBe(first.json.createdAt);
		expect(Date.parse(read.json.createdAt)).toBeGreaterThan(Date.parse(first.json.createdAt));
		expect(read.json.modifiedAt).toBe(read.json.createdAt);
		// The re-save answer carries the time in milliseconds; what is stored (and read back) has whole seconds.
		expect(read.json.createdAt).toMatch(WHOLE_SECOND);
		expect(Math.floor(Date.parse(again.json.createdAt) / 1000) * 1000).toBe(Date.parse(read.json.createdAt));
		// URLs are compared as exact strings: a trailing slash is another bookmark.
		const other = await call(karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: `${url}/` } });
		expect(other.status).toBe(201);
	});

	test('validation refusals are 400 {"success":false,"error":{"name":"ZodError","message":"<JSON list of issues>"}}', async () => {
		const badUrl = await call(karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'ftp://example.org/x' } });
		expect(zodIssues(badUrl).map((issue) => issue.path)).toContainEqual(['url']);
		expect(badUrl.contentType).toBe('application/json');
		const noType = await call(karakeep, 'POST', '/bookmarks', { body: { url: 'https://example.org/x' } });
		expect(zodIssues(noType).length).toBeGreaterThan(0);
		const longTitle = await call(karakeep, 'POST', '/bookmarks', {
			body: { type: 'text', text: 'x', title: 'x'.repeat(1001) },
		});
		expect(zodIssues(longTitle).map((issue) => issue.code)).toContain('too_big');
	});
});

describe('If URL Exists without side effects (GET /api/v1/bookmarks/check-url)', () => {
	test('{bookmarkId} of the bookmark with that URL (a #fragment and a trailing slash ignored), null when none; nothing changes', async () => {
		const created = await expectStatus(201, karakeep, 'POST', '/bookmarks', {
			body: { type: 'link', url: 'https://example.org/checked/page', archived: true },
		});
		for (const url of ['https://example.org/checked/page', 'https://example.org/checked/page/', 'https://example.org/checked/page#part']) {
			expect((await expectStatus(200, karakeep, 'GET', '/bookmarks/check-url', { query: { url } })).json).toEqual({ bookmarkId: created.json.id });
		}
		expect((await expectStatus(200, karakeep, 'GET', '/bookmarks/check-url', { query: { url: 'https://example.org/checked' } })).json).toEqual({
			bookmarkId: null,
		});
		const read = await expectStatus(200, karakeep, 'GET', `/bookmarks/${created.json.id}`);
		expect(read.json).toMatchObject({ archived: true, createdAt: created.json.createdAt, modifiedAt: created.json.modifiedAt });
	});
});

describe('Bookmark → Get (GET /api/v1/bookmarks/{id})', () => {
	test('an unknown id is 404 with the plain text "Bookmark not found"', async () => {
		const missing = await call(karakeep, 'GET', '/bookmarks/nosuchbookmarkid00000000');
		expect(missing).toMatchObject({ status: 404, text: 'Bookmark not found' });
		expect(missing.contentType).toMatch(/^text\/plain/);
	});

	test('the lists a record is in come from GET /bookmarks/{id}/lists (the record itself has no listIds)', async () => {
		const created = await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: 'in a list' } });
		const list = await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'Holder', icon: '📁' } });
		await expectStatus(204, karakeep, 'PUT', `/lists/${list.json.id}/bookmarks/${created.json.id}`);
		const read = await expectStatus(200, karakeep, 'GET', `/bookmarks/${created.json.id}`);
		expect(read.json).not.toHaveProperty('listIds');
		const lists = await expectStatus(200, karakeep, 'GET', `/bookmarks/${created.json.id}/lists`);
		expect(lists.json.lists.map((l: { id: string }) => l.id)).toEqual([list.json.id]);
	});
});

describe('authentication', () => {
	test('no key and a wrong key are both 401 with the plain text "Unauthorized"', async () => {
		for (const apiKey of [null, 'ak2_wrong_key']) {
			const refused = await call(karakeep, 'GET', '/bookmarks', { apiKey });
			expect(refused).toMatchObject({ status: 401, text: 'Unauthorized' });
			expect(refused.contentType).toMatch(/^text\/plain/);
		}
	});
});

describe('Bookmark → Update (PATCH /api/v1/bookmarks/{id})', () => {
	test('title, note, archived, favourited change; modifiedAt moves; the answer is the record', async () => {
		const created = await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: 'to update' } });
		await afterSecondOf(created.json.modifiedAt);
		const updated = await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${created.json.id}`, {
			body: { title: 'Updated', note: 'new note', archived: true, favourited: true },
		});
		expect(updated.json).toMatchObject({ id: created.json.id, title: 'Updated', note: 'new note', archived: true, favourited: true });
		expect(Date.parse(updated.json.modifiedAt)).toBeGreaterThan(Date.parse(created.json.modifiedAt));
		expect(updated.json.createdAt).toBe(created.json.createdAt);
	});

	test('an empty body (or only unknown fields) is 200 and changes nothing, modifiedAt included', async () => {
		const created = await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: 'untouched' } });
		await afterSecondOf(created.json.modifiedAt);
		for (const body of [{}, { tags: ['x'] }]) {
			const answer = await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${created.json.id}`, { body });
			expect(answer.json.modifiedAt).toBe(created.json.modifiedAt);
			expect(answer.json.tags).toEqual([]);
		}
	});

	test('an unknown id is 404 "Bookmark not found"', async () => {
		const missing = await call(karakeep, 'PATCH', '/bookmarks/nosuchbookmarkid00000000', { body: { title: 'x' } });
		expect(missing).toMatchObject({ status: 404, text: 'Bookmark not found' });
	});
});

describe('Bookmark → Delete (DELETE /api/v1/bookmarks/{id})', () => {
	test('204 with no body; then 404 "Bookmark not found"', async () => {
		const created = await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: 'to delete' } });
		const deleted = await expectStatus(204, karakeep, 'DELETE', `/bookmarks/${created.json.id}`);
		expect(deleted.text).toBe('');
		expect(await call(karakeep, 'GET', `/bookmarks/${created.json.id}`)).toMatchObject({ status: 404, text: 'Bookmark not found' });
		expect(await call(karakeep, 'DELETE', `/bookmarks/${created.json.id}`)).toMatchObject({ status: 404, text: 'Bookmark not found' });
	});
});
