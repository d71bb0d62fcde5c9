import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { searchBookmarks } from '../../nodes/Bookmarks/resources/locators';
import { SEED, type Sandbox, startSandbox } from '../sandbox';
import { executeContext, type Parameters } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(30_000);

const ADA = SEED.adaPortfolioBookmarkId;
const PROBE_HEADER = 'x-test-probe';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const fromList = (value: string) => ({ __rl: true, mode: 'list', value });

describe('Bookmarks node: editing, deleting, tags and lists against the sandbox', () => {
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;
	const node = new Bookmarks();

	beforeAll(async () => {
		sandbox = await startSandbox();
		control = sandboxControl(sandbox, 'bookmark');
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => await control.reset());

	const credentials = () => ({
		bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey },
	});
	const run = async (
		parameters: Parameters | Parameters[],
		options: { items?: IDataObject[]; continueOnFail?: boolean; asTool?: boolean } = {},
	) => {
		const { context } = executeContext({
			parameters,
			items: options.items,
			continueOnFail: options.continueOnFail,
			credentials: credentials(),
			node: options.asTool ? { type: 'n8n-nodes-sign-survey-bookmark.bookmarksTool' } : undefined,
		});
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const failure = async (parameters: Parameters) => await run(parameters).catch((error) => error);
	const api = async (method: string, path: string, body?: unknown) => {
		const response = await fetch(`${sandbox.bookmark.url}${path}`, {
			method,
			headers: {
				authorization: `Bearer ${sandbox.bookmark.apiKey}`,
				[PROBE_HEADER]: '1',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		return { status: response.status, json: text ? JSON.parse(text) : undefined };
	};
	/** What the node sent: the log without the test's own look-ups. */
	const nodeRequests = async () =>
		(await control.requests()).filter((request) => request.headers[PROBE_HEADER] === undefined);
	const record = async (id: string) => (await api('GET', `/api/v1/bookmarks/${id}`)).json;
	const expectNothingSent = async () => expect(await nodeRequests()).toHaveLength(0);

	describe('Bookmark → Update', () => {
		const update = (updateFields: IDataObject, recordId: unknown = byId(ADA)): Parameters => ({
			resource: 'bookmark',
			operation: 'update',
			recordId,
			updateFields,
		});

		it('sends only the fields the user set and returns the record', async () => {
			const [updated] = await run(update({ archived: true, note: '' }));
			const [request] = await nodeRequests();
			expect(request).toMatchObject({ method: 'PATCH', path: `/api/v1/bookmarks/${ADA}` });
			expect(request.body).toEqual({ archived: true, note: '' });
			expect(updated).toMatchObject({ id: ADA, archived: true, note: '', favourited: false });
			expect(await record(ADA)).toMatchObject({
				archived: true,
				title: 'Portfolio – Ada Lovelace',
			});
		});

		it('takes the record from the picker, and yes/no sent as text by an agent', async () => {
			await run(update({ favourited: 'true', title: ' Renamed ' }, fromList(ADA)));
			expect((await nodeRequests())[0].body).toEqual({ favourited: true, title: 'Renamed' });
		});

		it.each([
			['no field at all', {}, 'Update Fields'],
			['only an empty title', { title: '  ' }, 'Update Fields'],
			['a yes/no that is neither', { archived: 'maybe' }, 'Archived'],
		])('refuses %s before sending anything', async (_, fields, named) => {
			const error = await failure(update(fields));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain(named);
			expect(error.context.itemIndex).toBe(0);
			await expectNothingSent();
		});

		it.each([
			['an empty ID', byId(' '), 'Bookmark: must not be empty'],
			['the ID ..', byId('..'), '".." is not a valid ID'],
		])('refuses %s before sending anything', async (_, recordId, message) => {
			const error = await failure(update({ archived: true }, recordId));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain(message);
			await expectNothingSent();
		});

		it('reports an unknown record with the service’s 404', async () => {
			const error = await failure(update({ archived: true }, byId('bm_missing')));
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('404');
		});
	});

	describe('Bookmark → Delete', () => {
		it('deletes (204, no body) and outputs { deleted: true, id }', async () => {
			const output = await run({ resource: 'bookmark', operation: 'delete', recordId: byId(ADA) });
			expect(output).toEqual([{ deleted: true, id: ADA, alreadyGone: false }]);
			expect((await nodeRequests())[0]).toMatchObject({ method: 'DELETE', status: 204 });
			expect((await api('GET', `/api/v1/bookmarks/${ADA}`)).status).toBe(404);
			const again = await failure({
				resource: 'bookmark',
				operation: 'delete',
				recordId: byId(ADA),
			});
			expect(again).toBeInstanceOf(NodeApiError);
			expect(again.httpCode).toBe('404');
		});
	});

	describe('Bookmark → Add Tags / Remove Tags', () => {
		const tags = (operation: string, value: unknown): Parameters => ({
			resource: 'bookmark',
			operation,
			recordId: byId(ADA),
			tags: value,
		});

		it('attaches tags from a comma-separated list and detaches them with a JSON body on DELETE', async () => {
			const [added] = await run(tags('addTags', 'shortlist, residency, shortlist'));
			expect(added).toEqual({
				id: ADA,
				attached: [
					{ id: expect.any(String), name: 'shortlist' },
					{ id: expect.any(String), name: 'residency' },
				],
			});
			const [removed] = await run(tags('removeTags', ['shortlist', 'never-had']));
			expect(removed).toEqual({
				id: ADA,
				detached: [{ id: expect.any(String), name: 'shortlist' }],
			});
			const requests = await nodeRequests();
			expect(requests.map((r) => [r.method, r.path, r.body])).toEqual([
				['POST', `/api/v1/bookmarks/${ADA}/tags`, { tags: ['shortlist', 'residency'] }],
				['DELETE', `/api/v1/bookmarks/${ADA}/tags`, { tags: ['shortlist', 'never-had'] }],
			]);
			expect((await record(ADA)).tags.map((t: IDataObject) => t.name)).toEqual([
				'residency',
				'portfolio',
			]);
		});

		it.each([
			['no tag', ' , '],
			['51 tags', Array.from({ length: 51 }, (_, i) => `t${i}`).join(',')],
		])('refuses %s before sending anything', async (_, value) => {
			for (const operation of ['addTags', 'removeTags']) {
				const error = await failure(tags(operation, value));
				expect(error).toBeInstanceOf(NodeOperationError);
				expect(error.message).toContain('Tags');
			}
			await expectNothingSent();
		});
	});

	describe('Bookmark → Add to List / Remove from List', () => {
		const membership = (operation: string, listId: unknown): Parameters => ({
			resource: 'bookmark',
			operation,
			recordId: byId(ADA),
			listId,
		});

		it('adds idempotently and removes; removing again is the service’s 404', async () => {
			for (let i = 0; i < 2; i++) {
				expect(await run(membership('addToList', fromList(SEED.readingListId)))).toEqual([
					{ recordId: ADA, listId: SEED.readingListId, added: true },
				]);
			}
			expect((await record(ADA)).listIds).toContain(SEED.readingListId);
			expect(await run(membership('removeFromList', byId(SEED.readingListId)))).toEqual([
				{ recordId: ADA, listId: SEED.readingListId, removed: true },
			]);
			expect((await record(ADA)).listIds).not.toContain(SEED.readingListId);
			const again = await failure(membership('removeFromList', byId(SEED.readingListId)));
			expect(again).toBeInstanceOf(NodeApiError);
			expect(again.httpCode).toBe('404');
			const requests = await nodeRequests();
			expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
				['PUT', `/api/v1/lists/${SEED.readingListId}/bookmarks/${ADA}`, 204],
				['PUT', `/api/v1/lists/${SEED.readingListId}/bookmarks/${ADA}`, 204],
				['DELETE', `/api/v1/lists/${SEED.readingListId}/bookmarks/${ADA}`, 204],
				['DELETE', `/api/v1/lists/${SEED.readingListId}/bookmarks/${ADA}`, 404],
				// After a 404, one read checks whether the server speaks Karakeep instead (it does not).
				['GET', '/api/v1/users/me', 404],
			]);
		});

		it('refuses a list ID of . before sending anything', async () => {
			const error = await failure(membership('addToList', byId('.')));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain('List');
			await expectNothingSent();
		});
	});

	describe('Bookmark → Create, If URL Exists', () => {
		const create = (ifUrlExists: string | undefined, overrides: Parameters = {}): Parameters => ({
			resource: 'bookmark',
			operation: 'create',
			type: 'link',
			url: 'https://portfolio.example.org/ada-lovelace',
			title: 'Ada, shortlisted',
			notes: 'Second round',
			tags: 'shortlist',
			options: ifUrlExists === undefined ? {} : { ifUrlExists },
			...overrides,
		});

		it('Return Existing (the default) returns the stored record unchanged', async () => {
			const before = await record(ADA);
			for (const mode of [undefined, 'returnExisting']) {
				const [output] = await run(create(mode));
				expect(output).toEqual({ ...before, alreadyExists: true });
			}
			expect(await record(ADA)).toEqual(before);
			expect((await nodeRequests()).map((r) => r.method)).toEqual(['POST', 'POST']);
		});

		it('Update It applies title, note and tags to the stored record', async () => {
			const [output] = await run(create('update'));
			expect(output).toMatchObject({
				id: ADA,
				alreadyExists: true,
				title: 'Ada, shortlisted',
				note: 'Second round',
			});
			expect((output.tags as IDataObject[]).map((t) => t.name)).toEqual([
				'residency',
				'portfolio',
				'shortlist',
			]);
			expect(await record(ADA)).toEqual({ ...output, alreadyExists: undefined });
			const requests = await nodeRequests();
			expect(requests.map((r) => [r.method, r.path])).toEqual([
				['POST', '/api/v1/bookmarks'],
				['POST', `/api/v1/bookmarks/${ADA}/tags`],
				['PATCH', `/api/v1/bookmarks/${ADA}`],
			]);
			expect(requests[2].body).toEqual({ title: 'Ada, shortlisted', note: 'Second round' });
		});

		it('Update It with only tags given changes only the tags', async () => {
			const before = await record(ADA);
			const [output] = await run(create('update', { title: '', notes: '' }));
			expect(output).toMatchObject({ title: before.title, note: before.note, alreadyExists: true });
			expect((await nodeRequests()).map((r) => r.method)).toEqual(['POST', 'POST', 'GET']);
		});

		it('Fail stops with an error naming the stored record, and changes nothing', async () => {
			const before = await record(ADA);
			const error = await failure(create('fail'));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain(ADA);
			expect(error.context.itemIndex).toBe(0);
			expect(await record(ADA)).toEqual(before);
		});

		it('creates a new URL the same way in all three modes', async () => {
			for (const [index, mode] of ['returnExisting', 'update', 'fail'].entries()) {
				const [output] = await run(create(mode, { url: `https://example.org/new/${index}` }));
				expect(output).toMatchObject({ alreadyExists: false, title: 'Ada, shortlisted' });
			}
		});
	});

	describe('reads: archived and favourited filters, Simplify, the record picker', () => {
		it('filters Get Many and Search by archived and favourited', async () => {
			const archived = await run({
				resource: 'bookmark',
				operation: 'getMany',
				returnAll: true,
				filters: { archived: true },
			});
			expect(archived.map((r) => r.title)).toEqual(['Residency 2026 announced']);
			const notFavourited = await run({
				resource: 'bookmark',
				operation: 'search',
				query: 'attunement',
				filters: { favourited: false },
			});
			expect(notFavourited).toEqual([]);
			const queries = (await nodeRequests()).map((r) => r.query);
			expect(queries).toEqual([
				{ archived: 'true', limit: '100' },
				{ q: 'attunement', favourited: 'false', limit: '20' },
			]);
		});

		const simplified = {
			id: ADA,
			type: 'link',
			title: 'Portfolio – Ada Lovelace',
			url: 'https://portfolio.example.org/ada-lovelace',
			text: null,
			note: 'Residency applicant, strong generative work',
			tags: ['residency', 'portfolio'],
			lists: [{ id: SEED.applicationsListId, name: 'Applications' }],
			archived: false,
			favourited: false,
			createdAt: expect.any(String),
			modifiedAt: expect.any(String),
		};
		const get = (options: IDataObject = {}): Parameters => ({
			resource: 'bookmark',
			operation: 'get',
			recordId: byId(ADA),
			options,
		});

		it('returns full records by default and simplified ones with Simplify', async () => {
			const [full] = await run(get());
			expect(full).toHaveProperty('content');
			expect(await run(get({ simplify: true }))).toEqual([simplified]);
			const many = await run({
				resource: 'bookmark',
				operation: 'getMany',
				returnAll: true,
				options: { simplify: true },
			});
			expect(many.find((r) => r.id === ADA)).toEqual(simplified);
			expect(many.every((r) => !('content' in r))).toBe(true);
		});

		it('simplifies by default when run as a tool, unless the user turned it off', async () => {
			expect(await run(get(), { asTool: true })).toEqual([simplified]);
			const [full] = await run(get({ simplify: false }), { asTool: true });
			expect(full).toHaveProperty('content');
		});

		it('offers records in the picker, searched and paged by the cursor', async () => {
			await control.call('POST', '/bookmarks/generate', { count: 60, tag: 'picked' });
			const { context } = executeContext({ parameters: {}, credentials: credentials() });
			const first = await searchBookmarks.call(context as never, 'generated');
			expect(first.results).toHaveLength(50);
			expect(first.results[0]).toEqual({
				name: expect.stringMatching(/^Generated record/),
				value: expect.stringMatching(/^bm_/),
				url: expect.stringMatching(/^https:/),
			});
			const second = await searchBookmarks.call(
				context as never,
				'generated',
				first.paginationToken,
			);
			expect(second.results).toHaveLength(10);
			expect(second.paginationToken).toBeUndefined();
		});
	});

	describe('Tag → Get Many', () => {
		it('returns the tags by name with their counts, up to the limit', async () => {
			const tags = await run({ resource: 'tag', operation: 'getMany', returnAll: true });
			expect(tags.find((t) => t.name === 'portfolio')).toEqual({
				id: expect.any(String),
				name: 'portfolio',
				bookmarkCount: 2,
			});
			expect(await run({ resource: 'tag', operation: 'getMany', limit: 2 })).toHaveLength(2);
		});
	});

	describe('List → Create / Update / Delete / Get Many', () => {
		it('creates, updates, lists and deletes a list; its records stay', async () => {
			const [created] = await run({
				resource: 'list',
				operation: 'create',
				name: ' Shortlist ',
				additionalFields: { icon: '⭐', description: 'Final round' },
			});
			expect(created).toEqual({
				id: expect.stringMatching(/^list_/),
				name: 'Shortlist',
				icon: '⭐',
				description: 'Final round',
				bookmarkCount: 0,
			});
			const listId = String(created.id);
			await run({
				resource: 'bookmark',
				operation: 'addToList',
				recordId: byId(ADA),
				listId: byId(listId),
			});
			const [updated] = await run({
				resource: 'list',
				operation: 'update',
				listId: fromList(listId),
				updateFields: { name: 'Final shortlist' },
			});
			expect(updated).toEqual({ ...created, name: 'Final shortlist', bookmarkCount: 1 });
			const lists = await run({ resource: 'list', operation: 'getMany', returnAll: true });
			expect(lists.map((l) => l.name)).toEqual(['Applications', 'Reading', 'Final shortlist']);
			expect(await run({ resource: 'list', operation: 'delete', listId: byId(listId) })).toEqual([
				{ deleted: true, id: listId, alreadyGone: false },
			]);
			expect((await record(ADA)).listIds).toEqual([SEED.applicationsListId]);
			const patch = (await nodeRequests()).find((r) => r.method === 'PATCH');
			expect(patch?.body).toEqual({ name: 'Final shortlist' });
		});

		it.each([
			['a create without a name', { operation: 'create', name: ' ' }, 'Name'],
			[
				'an update without fields',
				{ operation: 'update', listId: byId(SEED.readingListId), updateFields: {} },
				'Update Fields',
			],
			['a delete of the list ..', { operation: 'delete', listId: byId('..') }, 'List'],
		])('refuses %s before sending anything', async (_, parameters, named) => {
			const error = await failure({ resource: 'list', ...parameters });
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain(named);
			await expectNothingSent();
		});
	});

	it('keeps going with Continue On Fail, each output paired with its item', async () => {
		const output = await run(
			[
				{
					resource: 'bookmark',
					operation: 'update',
					recordId: byId('bm_missing'),
					updateFields: { archived: true },
				},
				{
					resource: 'bookmark',
					operation: 'update',
					recordId: byId(ADA),
					updateFields: { archived: true },
				},
			],
			{ items: [{}, {}], continueOnFail: true },
		);
		expect(output[0].error).toEqual(expect.any(String));
		expect(output[1]).toMatchObject({ id: ADA, archived: true });
	});
});
