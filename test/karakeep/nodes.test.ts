/* eslint-disable @typescript-eslint/no-explicit-any -- node outputs are JSON; each test states what it expects */
/**
 * The Bookmarks node and trigger with the credential's API set to Karakeep, against the real
 * Karakeep (every operation, the polling trigger, "Test credential"), and search against the
 * validating mock of Karakeep's own spec in front of it (the real server has no Meilisearch here).
 * The facts the adapter (nodes/Bookmarks/adapters/karakeep.ts) relies on are pinned, raw, in the
 * other files of this folder.
 */
import type { ICredentialsDecrypted, IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { bookmarkApiTest } from '../../nodes/Bookmarks/credentialTest';
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { type KarakeepSpecMock, startKarakeepSpecMock } from '../harness/karakeepSpecMock';
import { type Sandbox, startSandbox } from '../sandbox';
import { credentialTestContext, executeContext, type Parameters, pollContext } from '../unit/helpers/context';
import { afterSecondOf, call, CUID2, expectStatus, START_TIMEOUT_MS } from './api';

let karakeep: KarakeepServer;

beforeAll(async () => {
	karakeep = await startKarakeep();
}, START_TIMEOUT_MS);

afterAll(async () => {
	await karakeep?.stop();
});

const node = new Bookmarks();
const credentialsOf = (server: { url: string; apiKey: string }) => ({
	bookmarkApi: { api: 'karakeep', baseUrl: server.url, apiKey: server.apiKey },
});
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** Runs the Bookmarks node once with these parameters; its output items' JSON. */
async function run(parameters: Parameters, server: { url: string; apiKey: string } = karakeep): Promise<any[]> {
	const { context } = executeContext({ parameters, credentials: credentialsOf(server) });
	return (await node.execute.call(context))[0].map((item) => item.json);
}
const failure = async (parameters: Parameters): Promise<any> => await run(parameters).catch((error: unknown) => error);
const create = async (overrides: Parameters = {}) =>
	(await run({ resource: 'bookmark', operation: 'create', type: 'link', url: `https://example.org/${Math.random()}`, ...overrides }))[0];
const rawRecord = async (id: string) => (await expectStatus(200, karakeep, 'GET', `/bookmarks/${id}`)).json;
const namesOf = (tags: Array<{ name: string }>) => tags.map((tag) => tag.name).sort();

describe('Bookmark → Create', () => {
	test('tags are really attached, and the output has the documented shape plus what Karakeep returns', async () => {
		const record = await create({ url: 'https://example.org/nodes/create', title: 'Created', tags: 'residency, portfolio', notes: 'a note' });
		expect(record.id).toMatch(CUID2);
		expect(record).toMatchObject({
			alreadyExists: false,
			title: 'Created',
			note: 'a note',
			listIds: [],
			archived: false,
			favourited: false,
			content: { type: 'link', url: 'https://example.org/nodes/create', ocrText: null },
			// Karakeep's own fields stay.
			taggingStatus: expect.any(String),
			userId: expect.stringMatching(CUID2),
		});
		expect(namesOf(record.tags)).toEqual(['portfolio', 'residency']);
		expect(namesOf((await rawRecord(record.id)).tags)).toEqual(['portfolio', 'residency']);
	});

	test('a text record', async () => {
		const record = await create({ type: 'text', text: 'Only words', url: undefined });
		expect(record).toMatchObject({ alreadyExists: false, content: { type: 'text', text: 'Only words' } });
	});

	test('If URL Exists: Return Existing leaves the record as it was (Karakeep would re-save it), Fail names it, Update It changes it', async () => {
		const url = 'https://example.org/nodes/exists';
		const first = await create({ url, title: 'First', tags: 'one' });
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${first.id}`, { body: { archived: true } });
		const stored = await rawRecord(first.id);
		await afterSecondOf(stored.modifiedAt);

		const again = await create({ url, title: 'Second' });
		expect(again).toMatchObject({ id: first.id, alreadyExists: true, title: 'First', archived: true });
		const after = await rawRecord(first.id);
		expect(after).toMatchObject({ title: 'First', archived: true, createdAt: stored.createdAt, modifiedAt: stored.modifiedAt });

		const refused = await failure({ resource: 'bookmark', operation: 'create', type: 'link', url, options: { ifUrlExists: 'fail' } });
		expect(refused).toBeInstanceOf(NodeOperationError);
		expect(refused.message).toBe(`The URL is already stored as record ${first.id}`);

		const updated = await create({ url, title: 'Updated', tags: 'two', notes: 'new note', options: { ifUrlExists: 'update' } });
		expect(updated).toMatchObject({ id: first.id, alreadyExists: true, title: 'Updated', note: 'new note' });
		expect(namesOf(updated.tags)).toEqual(['one', 'two']);
	});

	test('the same URL with a trailing slash is another record, as Karakeep and the documented API compare URLs exactly', async () => {
		const plain = await create({ url: 'https://example.org/nodes/slash' });
		const slashed = await create({ url: 'https://example.org/nodes/slash/' });
		expect(slashed.alreadyExists).toBe(false);
		expect(slashed.id).not.toBe(plain.id);
	});

	test("Karakeep's refusal reaches the user in its own words, the field named", async () => {
		const error = await failure({ resource: 'bookmark', operation: 'create', type: 'link', url: 'https://example.org/nodes/long', title: 'x'.repeat(1001) });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/^The Karakeep server answered 400: title: .*1000/);
	});
});

describe('Bookmark → Get, Update, Delete', () => {
	test('Get has the record with its lists', async () => {
		const record = await create();
		const [list] = await run({ resource: 'list', operation: 'create', name: 'For Get' });
		await run({ resource: 'bookmark', operation: 'addToList', recordId: byId(record.id), listId: byId(list.id) });
		const [read] = await run({ resource: 'bookmark', operation: 'get', recordId: byId(record.id) });
		expect(read).toMatchObject({ id: record.id, listIds: [list.id], firstCreatedAt: record.createdAt });
	});

	test('Update changes the fields and answers the whole record, tags included', async () => {
		const record = await create({ tags: 'kept' });
		const [updated] = await run({
			resource: 'bookmark',
			operation: 'update',
			recordId: byId(record.id),
			updateFields: { title: 'Renamed', note: 'noted', archived: true, favourited: true },
		});
		expect(updated).toMatchObject({ id: record.id, title: 'Renamed', note: 'noted', archived: true, favourited: true, listIds: [] });
		expect(namesOf(updated.tags)).toEqual(['kept']);
	});

	test('Delete, then again: 404 in Karakeep\'s words, or alreadyGone with If Already Deleted → Succeed', async () => {
		const record = await create();
		expect(await run({ resource: 'bookmark', operation: 'delete', recordId: byId(record.id) })).toEqual([
			{ deleted: true, id: record.id, alreadyGone: false },
		]);
		expect((await call(karakeep, 'GET', `/bookmarks/${record.id}`)).status).toBe(404);
		const error = await failure({ resource: 'bookmark', operation: 'delete', recordId: byId(record.id) });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The Karakeep server answered 404: Bookmark not found');
		expect(await run({ resource: 'bookmark', operation: 'delete', recordId: byId(record.id), ifAlreadyGone: 'succeed' })).toEqual([
			{ deleted: true, id: record.id, alreadyGone: true },
		]);
	});
});

describe('Tags and lists', () => {
	test('Add Tags answers every tag named with its name; Remove Tags only those the record had', async () => {
		const record = await create({ tags: 'a' });
		await create({ tags: 'elsewhere' });
		const [added] = await run({ resource: 'bookmark', operation: 'addTags', recordId: byId(record.id), tags: 'a, b' });
		expect(added.id).toBe(record.id);
		expect(namesOf(added.attached)).toEqual(['a', 'b']);
		expect(added.attached.every((tag: IDataObject) => typeof tag.id === 'string')).toBe(true);
		const [removed] = await run({ resource: 'bookmark', operation: 'removeTags', recordId: byId(record.id), tags: 'b, elsewhere' });
		expect(namesOf(removed.detached)).toEqual(['b']);
		expect(namesOf((await rawRecord(record.id)).tags)).toEqual(['a']);
	});

	test('Tag → Get Many: by name, each with bookmarkCount', async () => {
		await create({ tags: 'zz-counted' });
		await create({ tags: 'zz-counted' });
		const tags = await run({ resource: 'tag', operation: 'getMany', returnAll: true });
		const names = tags.map((tag) => String(tag.name));
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(tags.find((tag) => tag.name === 'zz-counted')).toMatchObject({ bookmarkCount: 2, numBookmarks: 2 });
	});

	// Issue 43 item 9: version 3 gives the documented API's shape; Karakeep's extra counts with Simplify off.
	test('Tag → Get Many, version 3: ID, name and bookmarkCount only; Simplify off adds Karakeep’s counts', async () => {
		await create({ tags: 'zz-shaped' });
		const v3 = async (parameters: Parameters) => {
			const { context } = executeContext({ parameters, credentials: credentialsOf(karakeep), node: { typeVersion: 3 } });
			return (await node.execute.call(context))[0].map((item) => item.json);
		};
		const simplified = await v3({ resource: 'tag', operation: 'getMany', returnAll: true });
		expect(simplified.find((tag) => tag.name === 'zz-shaped')).toEqual({ id: expect.any(String), name: 'zz-shaped', bookmarkCount: 1 });
		expect(simplified.every((tag) => Object.keys(tag).join() === 'id,name,bookmarkCount')).toBe(true);
		const raw = await v3({ resource: 'tag', operation: 'getMany', returnAll: true, simplify: false });
		expect(raw.find((tag) => tag.name === 'zz-shaped')).toMatchObject({ bookmarkCount: 1, numBookmarks: 1, numBookmarksByAttachedType: expect.any(Object) });
	});

	test('List → Create (no icon needed), Update, Get Many with counts, Delete; membership in and out', async () => {
		const [list] = await run({ resource: 'list', operation: 'create', name: 'Shortlist', additionalFields: { description: 'to read' } });
		expect(list).toMatchObject({ name: 'Shortlist', icon: '📁', description: 'to read', bookmarkCount: 0 });
		const record = await create();
		expect(await run({ resource: 'bookmark', operation: 'addToList', recordId: byId(record.id), listId: byId(list.id) })).toEqual([
			{ recordId: record.id, listId: list.id, added: true },
		]);
		// Adding again is no error.
		await run({ resource: 'bookmark', operation: 'addToList', recordId: byId(record.id), listId: byId(list.id) });
		const [renamed] = await run({ resource: 'list', operation: 'update', listId: byId(list.id), updateFields: { name: 'Longlist', icon: '📚' } });
		expect(renamed).toMatchObject({ id: list.id, name: 'Longlist', icon: '📚', bookmarkCount: 1 });
		const lists = await run({ resource: 'list', operation: 'getMany', returnAll: true });
		expect(lists.find((one) => one.id === list.id)).toMatchObject({ name: 'Longlist', bookmarkCount: 1 });

		expect(await run({ resource: 'bookmark', operation: 'removeFromList', recordId: byId(record.id), listId: byId(list.id) })).toEqual([
			{ recordId: record.id, listId: list.id, removed: true },
		]);
		const notIn = await failure({ resource: 'bookmark', operation: 'removeFromList', recordId: byId(record.id), listId: byId(list.id) });
		expect(notIn).toBeInstanceOf(NodeApiError);
		expect(notIn.message).toBe(`The Karakeep server answered 400: Bookmark ${record.id} is already not in list ${list.id}`);

		expect(await run({ resource: 'list', operation: 'delete', listId: byId(list.id) })).toEqual([{ deleted: true, id: list.id, alreadyGone: false }]);
		expect(await run({ resource: 'list', operation: 'delete', listId: byId(list.id), ifAlreadyGone: 'succeed' })).toEqual([
			{ deleted: true, id: list.id, alreadyGone: true },
		]);
	});
});

describe('Bookmark → Get Many, each filter on the route that serves it', () => {
	let listId: string;
	const ids: Record<string, string> = {};

	beforeAll(async () => {
		const [list] = await run({ resource: 'list', operation: 'create', name: 'Filtered' });
		listId = list.id;
		for (const [name, tags, archived, favourited, listed] of [
			['plain', 'gm-x', false, false, true],
			['archived', 'gm-x', true, false, true],
			['favourite', 'gm-y', false, true, false],
			['both', 'gm-x, gm-y', false, true, true],
		] as const) {
			const record = await create({ title: `gm ${name}`, tags });
			ids[name] = record.id;
			if (archived || favourited) {
				await run({ resource: 'bookmark', operation: 'update', recordId: byId(record.id), updateFields: { archived, favourited } });
			}
			if (listed) await run({ resource: 'bookmark', operation: 'addToList', recordId: byId(record.id), listId: byId(listId) });
		}
	});

	const found = async (filters: IDataObject) =>
		(await run({ resource: 'bookmark', operation: 'getMany', returnAll: true, filters }))
			.filter((record) => Object.values(ids).includes(record.id))
			.map((record) => Object.keys(ids).find((name) => ids[name] === record.id))
			.sort();

	test('tag (exact name), list, archived, favourited and their combinations', async () => {
		expect(await found({ tag: 'gm-x' })).toEqual(['archived', 'both', 'plain']);
		expect(await found({ tag: 'gm' })).toEqual([]);
		expect(await found({ tag: 'no-such-tag' })).toEqual([]);
		expect(await found({ list: { mode: 'id', value: listId } })).toEqual(['archived', 'both', 'plain']);
		expect(await found({ archived: true })).toEqual(['archived']);
		expect(await found({ favourited: true })).toEqual(['both', 'favourite']);
		expect(await found({ tag: 'gm-x', archived: false })).toEqual(['both', 'plain']);
		expect(await found({ tag: 'gm-y', list: { mode: 'id', value: listId } })).toEqual(['both']);
		expect(await found({ list: { mode: 'id', value: listId }, favourited: true })).toEqual(['both']);
	});

	test('records carry their lists, newest first', async () => {
		const records = await run({ resource: 'bookmark', operation: 'getMany', returnAll: true, filters: { tag: 'gm-x' } });
		expect(records.find((record) => record.id === ids.plain).listIds).toEqual([listId]);
		const times = records.map((record) => Date.parse(record.createdAt));
		expect(times).toEqual([...times].sort((a, b) => b - a));
	});

	test('Return All follows the cursor past a page of 100; Limit stops where asked', async () => {
		for (let index = 0; index < 105; index++) {
			await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: `paged ${index}` } });
		}
		const all = await run({ resource: 'bookmark', operation: 'getMany', returnAll: true });
		expect(all.length).toBeGreaterThan(105);
		expect(new Set(all.map((record) => record.id)).size).toBe(all.length);
		expect(await run({ resource: 'bookmark', operation: 'getMany', limit: 7 })).toHaveLength(7);
	});
});

describe('Search, against Karakeep\'s own spec (the validating mock in front of the real server)', () => {
	let mock: KarakeepSpecMock;
	beforeAll(async () => {
		mock = await startKarakeepSpecMock({ upstream: karakeep });
	});
	afterAll(async () => await mock?.stop());

	test('Bookmark → Search and Get Many with a query go to /bookmarks/search; every request validates', async () => {
		const wanted = await create({ title: 'Attunement essay', tags: 'sx' });
		await create({ title: 'Something else', tags: 'sx' });
		const server = { url: mock.url, apiKey: karakeep.apiKey };
		const found = await run({ resource: 'bookmark', operation: 'search', query: 'attunement' }, server);
		expect(found.map((record) => record.id)).toEqual([wanted.id]);
		expect(found[0].listIds).toEqual([]);
		const filtered = await run({ resource: 'bookmark', operation: 'getMany', returnAll: true, filters: { query: 'essay', tag: 'sx' } }, server);
		expect(filtered.map((record) => record.id)).toEqual([wanted.id]);
		expect(mock.requests.some((request) => request.operationId === 'searchBookmarks')).toBe(true);
		expect(mock.requests.filter((request) => !request.valid)).toEqual([]);
	});

	test('every other operation validates against the spec too', async () => {
		const server = { url: mock.url, apiKey: karakeep.apiKey };
		const before = mock.requests.length;
		const [record] = await run({ resource: 'bookmark', operation: 'create', type: 'link', url: 'https://example.org/nodes/spec', tags: 't1', notes: 'n' }, server);
		await run({ resource: 'bookmark', operation: 'get', recordId: byId(record.id) }, server);
		await run({ resource: 'bookmark', operation: 'update', recordId: byId(record.id), updateFields: { title: 'T' } }, server);
		await run({ resource: 'bookmark', operation: 'addTags', recordId: byId(record.id), tags: 't2' }, server);
		await run({ resource: 'bookmark', operation: 'removeTags', recordId: byId(record.id), tags: 't2' }, server);
		const [list] = await run({ resource: 'list', operation: 'create', name: 'Spec' }, server);
		await run({ resource: 'bookmark', operation: 'addToList', recordId: byId(record.id), listId: byId(list.id) }, server);
		await run({ resource: 'bookmark', operation: 'getMany', limit: 5, filters: { list: { mode: 'id', value: list.id }, tag: 't1' } }, server);
		await run({ resource: 'bookmark', operation: 'removeFromList', recordId: byId(record.id), listId: byId(list.id) }, server);
		await run({ resource: 'list', operation: 'update', listId: byId(list.id), updateFields: { description: 'd' } }, server);
		await run({ resource: 'tag', operation: 'getMany', returnAll: true }, server);
		await run({ resource: 'list', operation: 'delete', listId: byId(list.id) }, server);
		await run({ resource: 'bookmark', operation: 'delete', recordId: byId(record.id) }, server);
		const sent = mock.requests.slice(before);
		expect(sent.length).toBeGreaterThan(15);
		// lists.stats is Karakeep's tRPC route, outside the REST spec.
		expect(sent.filter((request) => !request.valid && !request.path.startsWith('/api/trpc/'))).toEqual([]);
	});
});

describe('Bookmarks Trigger (polling) on Karakeep', () => {
	const poll = async (parameters: Parameters, staticData: Record<string, unknown>) => {
		const { context } = pollContext({ parameters, credentials: credentialsOf(karakeep), staticData });
		const output = await new BookmarksTrigger().poll.call(context);
		return output ? output[0].map((item) => item.json as any) : [];
	};

	test('New Records: what exists at activation is not emitted; a record created after is, once, with its lists', async () => {
		const state = {};
		await create();
		expect(await poll({ watch: 'newRecords' }, state)).toEqual([]);
		const fresh = await create({ tags: 'polled' });
		const emitted = await poll({ watch: 'newRecords' }, state);
		expect(emitted.map((record) => record.id)).toEqual([fresh.id]);
		expect(emitted[0]).toMatchObject({ listIds: [], tags: [expect.objectContaining({ name: 'polled' })] });
		expect(await poll({ watch: 'newRecords' }, state)).toEqual([]);
	});

	test('Changed Records: an update is emitted (Karakeep cannot sort by modifiedAt: the trigger sorts)', async () => {
		const state = {};
		const record = await create();
		expect(await poll({ watch: 'changedRecords' }, state)).toEqual([]);
		await afterSecondOf(record.modifiedAt);
		await run({ resource: 'bookmark', operation: 'update', recordId: byId(record.id), updateFields: { title: 'Changed' } });
		const emitted = await poll({ watch: 'changedRecords' }, state);
		expect(emitted.map((one) => one.id)).toEqual([record.id]);
		expect(emitted[0].title).toBe('Changed');
	});

	/**
	 * Issue 32 item 11. Karakeep's re-save (packages/trpc/routers/bookmarks.ts `createBookmark`, a URL
	 * posted again) moves `createdAt` and `modifiedAt` to now, un-archives, and sends an `edited`
	 * webhook; `firstCreatedAt` keeps when the record was first stored (packages/db/schema.ts: the
	 * `createdAt` field is the `lastSavedAt` column). What each mode promises there: New Records emits
	 * a record once, when it is first saved, never for a re-save; Changed Records emits a re-save as a
	 * change, once.
	 */
	const resave = async (url: string) => expect((await expectStatus(200, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url } })).json.alreadyExists).toBe(true);
	/** Past the second after `iso`: a re-save then tells itself from the first save by more than the second a save may straddle. */
	const secondsAfter = async (iso: string) => await afterSecondOf(new Date(Date.parse(iso) + 1000).toISOString());

	test('New Records: a link saved again is not a new record, however long ago it was first saved', async () => {
		const url = `https://example.org/resaved-poll/${Math.random()}`;
		// Saved long ago (an hour before, far behind the trigger's 10 minutes), archived since.
		const early = new Date(Date.now() - 3600_000).toISOString();
		const saved = await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url, createdAt: early, archived: true } });
		// Activated in a later second than the first save: Karakeep stamps it in whole seconds, and one
		// in the very second a read began may have been missed by that read (then a re-save is new).
		const { firstCreatedAt } = await rawRecord(saved.json.id);
		await afterSecondOf(firstCreatedAt);
		const state = {};
		expect(await poll({ watch: 'newRecords' }, state)).toEqual([]);
		await secondsAfter(firstCreatedAt);
		await resave(url);
		expect((await rawRecord(saved.json.id)).createdAt).not.toBe(early);
		const fresh = await create();
		expect((await poll({ watch: 'newRecords' }, state)).map((record) => record.id)).toEqual([fresh.id]);
	});

	test('Changed Records: a link saved again (moved to the top, un-archived) is a change, emitted once', async () => {
		const url = `https://example.org/resaved-change/${Math.random()}`;
		const record = await create({ url });
		await run({ resource: 'bookmark', operation: 'update', recordId: byId(record.id), updateFields: { archived: true } });
		const state = {};
		expect(await poll({ watch: 'changedRecords' }, state)).toEqual([]);
		await secondsAfter((await rawRecord(record.id)).modifiedAt);
		await resave(url);
		const emitted = await poll({ watch: 'changedRecords' }, state);
		expect(emitted.map((one) => [one.id, one.archived])).toEqual([[record.id, false]]);
		expect(emitted[0].modifiedAt).toBe(emitted[0].createdAt);
		expect(await poll({ watch: 'changedRecords' }, state)).toEqual([]);
	});

	test('a tag filter reads only that tag\'s records', async () => {
		const state = {};
		expect(await poll({ watch: 'newRecords', filters: { tag: 'watched' } }, state)).toEqual([]);
		await create({ tags: 'unwatched' });
		const watched = await create({ tags: 'watched' });
		expect((await poll({ watch: 'newRecords', filters: { tag: 'watched' } }, state)).map((one) => one.id)).toEqual([watched.id]);
	});
});

describe('"Test credential" with the API option', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox?.stop());

	const test_ = async (data: IDataObject) =>
		await bookmarkApiTest.call(credentialTestContext(), { id: 't', name: 't', type: 'bookmarkApi', data } as ICredentialsDecrypted);

	test('Karakeep chosen, a Karakeep server: connected; a wrong key: refused, in words', async () => {
		expect(await test_({ api: 'karakeep', baseUrl: karakeep.url, apiKey: karakeep.apiKey })).toEqual({
			status: 'OK',
			message: 'Connected to the Karakeep server',
		});
		const refused = await test_({ api: 'karakeep', baseUrl: karakeep.url, apiKey: 'ak2_wrong' });
		expect(refused).toEqual({
			status: 'Error',
			message: 'The Karakeep server refused the API key (401). Check the API Key: Karakeep makes keys under Settings → API Keys.',
		});
	});

	test('the documented API chosen, a Karakeep server: says to choose Karakeep', async () => {
		expect(await test_({ baseUrl: karakeep.url, apiKey: karakeep.apiKey })).toEqual({
			status: 'Error',
			message: 'This server answers like Karakeep: choose "Karakeep" under API in this credential.',
		});
	});

	test('Karakeep chosen, a server of the documented API: says to choose the documented API', async () => {
		expect(await test_({ api: 'karakeep', baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey })).toEqual({
			status: 'Error',
			message: 'This server answers like the documented bookmark API: choose "Documented API (the Sandbox, or a Server Built to the README)" under API in this credential.',
		});
		expect(await test_({ baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey })).toEqual({
			status: 'OK',
			message: 'Connected to the bookmark service',
		});
	});
});
