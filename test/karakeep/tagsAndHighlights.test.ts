/**
 * Tag → Create, Get, Rename, Delete, Get Many (paged) and Highlight → Create, Get, Get Many,
 * Update, Delete, on the real Karakeep: first the facts raw, then the Bookmarks node, each result
 * checked through Karakeep's own API afterwards, and every request the node sends checked against
 * Karakeep's OpenAPI file (the validating mock in front of the real server). Sources (Karakeep
 * commit 7ca5ee2): packages/api/routes/tags.ts, packages/shared/types/tags.ts,
 * packages/trpc/models/tags.ts (create, update, delete), packages/api/routes/highlights.ts,
 * packages/shared/types/highlights.ts, packages/api/routes/bookmarks.ts (GET /bookmarks/{id}/highlights).
 */
import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { searchTags } from '../../nodes/Bookmarks/resources/locators';

import type { KarakeepServer } from '../harness/karakeep';
import type { KarakeepSpecMock } from '../harness/karakeepSpecMock';
import { call, CUID2, expectStatus, zodIssues } from './api';
import { executeContext } from '../unit/helpers/context';
import { byId, karakeepBehindSpec, credentialsOf, nodeFailure, runNode } from './node';

const servers = karakeepBehindSpec();
let karakeep: KarakeepServer;
let mock: KarakeepSpecMock;
let viaSpec: { url: string; apiKey: string };
beforeAll(() => ({ karakeep, mock, viaSpec } = servers));

const run = async (parameters: Record<string, unknown>) => (await runNode(viaSpec, parameters)).json;
const newRecord = async (text: string) =>
	(await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text } })).json;
const tagNamesOf = async (id: string) =>
	(await expectStatus(200, karakeep, 'GET', `/bookmarks/${id}`)).json.tags.map((tag: { name: string }) => tag.name).sort();

describe('Tags, raw', () => {
	test('create: 201 {id, name}, the name trimmed and without a leading #; a name taken is 400 in plain text', async () => {
		const created = await expectStatus(201, karakeep, 'POST', '/tags', { body: { name: '  #raw-create ' } });
		expect(created.json).toEqual({ id: expect.stringMatching(CUID2), name: 'raw-create' });
		const taken = await call(karakeep, 'POST', '/tags', { body: { name: 'raw-create' } });
		expect([taken.status, taken.contentType, taken.text]).toEqual([400, 'text/plain;charset=UTF-8', 'Tag name already exists for this user.']);
	});

	test('get: the tag with its counts; rename: 200 {id, name}; {} is a 500; delete: 204, again 404 "Tag not found", its records stay', async () => {
		const record = await newRecord('tagged');
		const [tagId] = (await expectStatus(200, karakeep, 'POST', `/bookmarks/${record.id}/tags`, { body: { tags: [{ tagName: 'raw-tag' }] } })).json.attached;
		expect((await expectStatus(200, karakeep, 'GET', `/tags/${tagId}`)).json).toEqual({
			id: tagId,
			name: 'raw-tag',
			numBookmarks: 1,
			numBookmarksByAttachedType: { ai: 0, human: 1 },
		});
		expect((await expectStatus(200, karakeep, 'PATCH', `/tags/${tagId}`, { body: { name: 'raw-renamed' } })).json).toEqual({ id: tagId, name: 'raw-renamed' });
		expect(await tagNamesOf(record.id)).toEqual(['raw-renamed']);
		expect((await call(karakeep, 'PATCH', `/tags/${tagId}`, { body: {} })).status).toBe(500);
		await expectStatus(204, karakeep, 'DELETE', `/tags/${tagId}`);
		const again = await call(karakeep, 'DELETE', `/tags/${tagId}`);
		expect([again.status, again.text]).toEqual([404, 'Tag not found']);
		expect((await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}`)).json.tags).toEqual([]);
	});

	test('list with a limit pages: nextCursor is base64url of {"page": n}, null at the end', async () => {
		for (const name of ['page-a', 'page-b', 'page-c']) await expectStatus(201, karakeep, 'POST', '/tags', { body: { name } });
		const first = await expectStatus(200, karakeep, 'GET', '/tags', { query: { nameContains: 'page-', sort: 'name', limit: 2 } });
		expect(first.json.tags.map((tag: { name: string }) => tag.name)).toEqual(['page-a', 'page-b']);
		expect(JSON.parse(Buffer.from(first.json.nextCursor, 'base64url').toString())).toEqual({ page: 1 });
		const second = await expectStatus(200, karakeep, 'GET', '/tags', {
			query: { nameContains: 'page-', sort: 'name', limit: 2, cursor: first.json.nextCursor },
		});
		expect(second.json).toMatchObject({ tags: [{ name: 'page-c' }], nextCursor: null });
	});
});

describe('Tag → Create, Get, Rename, Delete, Get Many (the node)', () => {
	test('Create makes the tag, Get has its count, Rename renames it on its records, Delete leaves its records', async () => {
		const [created] = await run({ resource: 'tag', operation: 'create', name: '#node-tag' });
		expect(created).toEqual({ id: expect.stringMatching(CUID2), name: 'node-tag', numBookmarks: 0, bookmarkCount: 0 });
		expect((await expectStatus(200, karakeep, 'GET', `/tags/${created.id}`)).json.name).toBe('node-tag');

		const record = await newRecord('node tagged');
		await run({ resource: 'bookmark', operation: 'addTags', recordId: byId(record.id), tags: 'node-tag' });
		const [read] = await run({ resource: 'tag', operation: 'get', tagId: byId(created.id) });
		expect(read).toMatchObject({ id: created.id, name: 'node-tag', bookmarkCount: 1, numBookmarksByAttachedType: { human: 1 } });

		const [renamed] = await run({ resource: 'tag', operation: 'rename', tagId: byId(created.id), name: 'node-renamed' });
		expect(renamed).toMatchObject({ id: created.id, name: 'node-renamed', bookmarkCount: 1 });
		expect(await tagNamesOf(record.id)).toEqual(['node-renamed']);

		expect(await run({ resource: 'tag', operation: 'delete', tagId: byId(created.id) })).toEqual([
			{ deleted: true, id: created.id, alreadyGone: false },
		]);
		expect((await call(karakeep, 'GET', `/tags/${created.id}`)).status).toBe(404);
		expect((await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}`)).json).toMatchObject({ id: record.id, tags: [] });
		const again = await nodeFailure(viaSpec, { resource: 'tag', operation: 'delete', tagId: byId(created.id) });
		expect(again).toBeInstanceOf(NodeApiError);
		expect(again.message).toBe('The Karakeep server answered 404: Tag not found');
		expect(await run({ resource: 'tag', operation: 'delete', tagId: byId(created.id), ifAlreadyGone: 'succeed' })).toEqual([
			{ deleted: true, id: created.id, alreadyGone: true },
		]);
	});

	test("a name another tag has: Karakeep's refusal in its words", async () => {
		await run({ resource: 'tag', operation: 'create', name: 'node-taken' });
		const error = await nodeFailure(viaSpec, { resource: 'tag', operation: 'create', name: 'node-taken' });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The Karakeep server answered 400: Tag name already exists for this user.');
	});

	test('the picker lists tags by name', async () => {
		await run({ resource: 'tag', operation: 'create', name: 'picker-tag' });
		const { context } = executeContext({ parameters: {}, credentials: credentialsOf(karakeep) });
		const found = await searchTags.call(context as unknown as ILoadOptionsFunctions, 'picker');
		expect(found.results).toEqual([{ name: 'picker-tag', value: expect.stringMatching(CUID2) }]);
	});

	test('Get Many asks for pages of 1,000 and follows nextCursor (Karakeep says a page limit is coming)', async () => {
		const names = Array.from({ length: 1001 }, (_, index) => `many-${String(index).padStart(4, '0')}`);
		// Eight at a time: the real server is the bottleneck, and the order of creation does not matter.
		for (let start = 0; start < names.length; start += 8) {
			await Promise.all(names.slice(start, start + 8).map(async (name) => await expectStatus(201, karakeep, 'POST', '/tags', { body: { name } })));
		}
		const { json, requests } = await runNode(viaSpec, { resource: 'tag', operation: 'getMany', returnAll: true });
		const got = json.map((tag) => String(tag.name));
		expect(got).toEqual([...got].sort((a, b) => a.localeCompare(b)));
		const listed = (await expectStatus(200, karakeep, 'GET', '/tags')).json.tags;
		expect(json).toHaveLength(listed.length);
		expect(new Set(json.map((tag) => tag.id))).toEqual(new Set(listed.map((tag: { id: string }) => tag.id)));
		expect(requests.map((request) => request.qs)).toEqual([
			{ sort: 'name', limit: 1000 },
			{ sort: 'name', limit: 1000, cursor: Buffer.from(JSON.stringify({ page: 1 })).toString('base64url') },
		]);
		expect(await run({ resource: 'tag', operation: 'getMany', limit: 3 })).toHaveLength(3);
	});
});

describe('Highlights, raw', () => {
	test('create needs text and note present (null allowed): 201 with id, userId, createdAt, colour yellow by default', async () => {
		const record = await newRecord('Highlight this passage.');
		const refused = zodIssues(await call(karakeep, 'POST', '/highlights', { body: { bookmarkId: record.id, startOffset: 0, endOffset: 9 } }));
		expect(refused.map((issue) => issue.path.join('.')).sort()).toEqual(['note', 'text']);
		const created = await expectStatus(201, karakeep, 'POST', '/highlights', {
			body: { bookmarkId: record.id, startOffset: 0, endOffset: 9, text: 'Highlight', note: null },
		});
		expect(created.json).toEqual({
			id: expect.stringMatching(CUID2),
			bookmarkId: record.id,
			startOffset: 0,
			endOffset: 9,
			color: 'yellow',
			text: 'Highlight',
			note: null,
			userId: expect.stringMatching(CUID2),
			createdAt: expect.any(String),
		});
		const unknown = await call(karakeep, 'POST', '/highlights', { body: { bookmarkId: 'nope', startOffset: 0, endOffset: 1, text: null, note: null } });
		expect([unknown.status, unknown.text]).toEqual([404, 'Bookmark not found']);
		// Delete answers the highlight it deleted; again, 404.
		expect((await expectStatus(200, karakeep, 'DELETE', `/highlights/${created.json.id}`)).json.id).toBe(created.json.id);
		const again = await call(karakeep, 'DELETE', `/highlights/${created.json.id}`);
		expect([again.status, again.text]).toEqual([404, 'Highlight not found']);
	});

	test('all highlights page by cursor (<id>_<createdAt>), newest first; a record’s come at once', async () => {
		const record = await newRecord('One two three four.');
		for (const [start, end] of [[0, 3], [4, 7], [8, 13]]) {
			await expectStatus(201, karakeep, 'POST', '/highlights', { body: { bookmarkId: record.id, startOffset: start, endOffset: end, text: null, note: null } });
		}
		const first = await expectStatus(200, karakeep, 'GET', '/highlights', { query: { limit: 2 } });
		expect(first.json.highlights).toHaveLength(2);
		expect(first.json.nextCursor).toMatch(new RegExp(`^${CUID2.source.slice(1, -1)}_\\d{4}-`));
		const ofRecord = await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}/highlights`);
		expect(ofRecord.json).toEqual({ highlights: expect.any(Array) });
		expect(ofRecord.json.highlights).toHaveLength(3);
	});
});

describe('Highlight → Create, Get, Get Many, Update, Delete (the node)', () => {
	test('each checked through Karakeep afterwards', async () => {
		const record = await newRecord('The quick brown fox.');
		const [created] = await run({
			resource: 'highlight',
			operation: 'create',
			recordId: byId(record.id),
			text: 'quick',
			startOffset: 4,
			endOffset: 9,
			additionalFields: { color: 'green', note: 'speed' },
		});
		expect(created).toMatchObject({ bookmarkId: record.id, text: 'quick', startOffset: 4, endOffset: 9, color: 'green', note: 'speed' });
		expect((await expectStatus(200, karakeep, 'GET', `/highlights/${created.id}`)).json).toMatchObject({ color: 'green', note: 'speed' });

		const [plain] = await run({ resource: 'highlight', operation: 'create', recordId: byId(record.id), startOffset: 10, endOffset: 15 });
		expect(plain).toMatchObject({ text: null, note: null, color: 'yellow' });

		expect(await run({ resource: 'highlight', operation: 'get', highlightId: created.id })).toEqual([
			(await expectStatus(200, karakeep, 'GET', `/highlights/${created.id}`)).json,
		]);
		const ofRecord = await run({ resource: 'highlight', operation: 'getMany', scope: 'record', recordId: byId(record.id), returnAll: true });
		expect(ofRecord.map((highlight) => highlight.id).sort()).toEqual([created.id, plain.id].sort());

		const [updated] = await run({ resource: 'highlight', operation: 'update', highlightId: created.id, updateFields: { color: 'blue', note: '' } });
		expect(updated).toMatchObject({ id: created.id, color: 'blue', note: null });
		expect((await expectStatus(200, karakeep, 'GET', `/highlights/${created.id}`)).json).toMatchObject({ color: 'blue', note: null });

		expect(await run({ resource: 'highlight', operation: 'delete', highlightId: created.id })).toEqual([
			{ deleted: true, id: created.id, alreadyGone: false },
		]);
		expect((await call(karakeep, 'GET', `/highlights/${created.id}`)).status).toBe(404);
		expect(await run({ resource: 'highlight', operation: 'delete', highlightId: created.id, ifAlreadyGone: 'succeed' })).toEqual([
			{ deleted: true, id: created.id, alreadyGone: true },
		]);
	});

	test('Get Many of all records follows the cursor past a page (Return All), and stops at Limit', async () => {
		const record = await newRecord('Many highlights here.');
		for (let index = 0; index < 105; index++) {
			await expectStatus(201, karakeep, 'POST', '/highlights', { body: { bookmarkId: record.id, startOffset: 0, endOffset: 4, text: null, note: null } });
		}
		const total = (await expectStatus(200, karakeep, 'GET', '/users/me/stats')).json.numHighlights;
		const { json: all, requests } = await runNode(viaSpec, { resource: 'highlight', operation: 'getMany', returnAll: true });
		expect(all).toHaveLength(total);
		expect(new Set(all.map((highlight) => highlight.id)).size).toBe(total);
		expect(requests.length).toBeGreaterThan(1);
		expect(await run({ resource: 'highlight', operation: 'getMany', limit: 7 })).toHaveLength(7);
	});

	test('bad offsets and colours are refused before anything is sent', async () => {
		const before = mock.requests.length;
		const backwards = await nodeFailure(viaSpec, { resource: 'highlight', operation: 'create', recordId: byId('x'), startOffset: 5, endOffset: 5 });
		expect(backwards.message).toBe('End Offset: 5 is not after Start Offset (5)');
		const colour = await nodeFailure(viaSpec, { resource: 'highlight', operation: 'update', highlightId: 'x', updateFields: { color: 'purple' } });
		expect(colour.message).toBe('Colour: "purple" is not one of yellow, red, green, blue');
		expect(mock.requests.length).toBe(before);
	});
});

describe('as an agent’s tools', () => {
	test('highlights and tags come back with personal data redacted; tag names are kept; deleting needs the consent switch', async () => {
		const record = await newRecord('Reference: Ada Lovelace, ada.lovelace@example.org');
		await run({ resource: 'bookmark', operation: 'addTags', recordId: byId(record.id), tags: 'tool-tag' });
		await expectStatus(201, karakeep, 'POST', '/highlights', {
			body: { bookmarkId: record.id, startOffset: 0, endOffset: 9, text: 'Reference', note: 'Write to ada.lovelace@example.org' },
		});
		const asTool = async (parameters: Record<string, unknown>) => (await runNode(viaSpec, parameters, { tool: true })).json;

		const highlights = await asTool({ resource: 'highlight', operation: 'getMany', scope: 'record', recordId: byId(record.id), returnAll: true });
		expect(highlights).toHaveLength(1);
		expect(highlights[0].note).toBe('Write to EMAIL_1');
		expect(JSON.stringify(highlights)).not.toContain('ada.lovelace');

		const tags = await asTool({ resource: 'tag', operation: 'getMany', returnAll: true });
		const tag = tags.find((one) => one.name === 'tool-tag');
		expect(tag).toMatchObject({ bookmarkCount: 1 });

		const before = mock.requests.length;
		const refused = await nodeFailure(viaSpec, { resource: 'tag', operation: 'delete', tagId: byId(tag.id) }, { tool: true });
		expect(refused.message).toBe('Deleting tags is not allowed for an AI agent');
		const highlightRefused = await nodeFailure(viaSpec, { resource: 'highlight', operation: 'delete', highlightId: highlights[0].id }, { tool: true });
		expect(highlightRefused.message).toBe('Deleting highlights is not allowed for an AI agent');
		expect(mock.requests.length).toBe(before);
		expect(await asTool({ resource: 'tag', operation: 'delete', tagId: byId(tag.id), allowAsTool: true })).toEqual([
			{ deleted: true, id: tag.id, alreadyGone: false },
		]);
		expect((await call(karakeep, 'GET', `/tags/${tag.id}`)).status).toBe(404);
	});
});
