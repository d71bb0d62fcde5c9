import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { searchLists } from '../../nodes/Bookmarks/resources/list';
import { Sandbox, startSandbox } from '../sandbox';
import { executeContext, Parameters } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(30_000);

describe('Bookmarks node against the sandbox', () => {
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;
	const node = new Bookmarks();

	beforeAll(async () => {
		sandbox = await startSandbox();
		control = sandboxControl(sandbox, 'bookmark');
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => await control.reset());

	const credentials = (key = sandbox.bookmark.apiKey) => ({
		bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: key },
	});
	const run = async (
		parameters: Parameters | Parameters[],
		options: { items?: IDataObject[]; continueOnFail?: boolean; key?: string; node?: { typeVersion: number } } = {},
	) => {
		const { context } = executeContext({ parameters, ...options, credentials: credentials(options.key) });
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const create = (overrides: Parameters = {}): Parameters => ({
		resource: 'bookmark',
		operation: 'create',
		type: 'link',
		url: 'https://example.org/essays/on-attunement',
		title: 'On attunement',
		tags: 'essay, residency ,essay',
		notes: 'Cited in the residency statement',
		...overrides,
	});
	const generate = async (count: number, tag: string) =>
		await control.call('POST', '/bookmarks/generate', { count, tag });

	describe('Bookmark → Create', () => {
		it('sends the contract body and says whether the URL was already stored', async () => {
			const [created] = await run(create());
			const [again] = await run(create({ title: 'Another title' }));
			const requests = await control.requests();
			expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/bookmarks' });
			expect(requests[0].headers.authorization).toBe(`Bearer ${sandbox.bookmark.apiKey}`);
			expect(requests[0].body).toEqual({
				type: 'link',
				url: 'https://example.org/essays/on-attunement',
				title: 'On attunement',
				tags: ['essay', 'residency'],
				note: 'Cited in the residency statement',
			});
			expect(created).toMatchObject({ id: expect.stringMatching(/^bm_/), alreadyExists: false });
			expect(again).toMatchObject({ id: created.id, alreadyExists: true });
		});

		it('creates a text record', async () => {
			const [record] = await run(create({ type: 'text', text: 'A note without a link', url: undefined }));
			expect(record.content).toMatchObject({ type: 'text', text: 'A note without a link' });
			expect((await control.requests())[0].body).toMatchObject({ type: 'text', text: 'A note without a link' });
		});

		it.each([
			['an invalid URL', { url: 'not a url' }, 'URL'],
			['an empty URL', { url: ' ' }, 'URL: must not be empty'],
			['an empty text', { type: 'text', text: '' }, 'Text: must not be empty'],
		])('refuses %s before sending anything', async (_, overrides, message) => {
			const error = await run(create(overrides)).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain(message);
			expect(error.context.itemIndex).toBe(0);
			expect(await control.requests()).toHaveLength(0);
		});
	});

	describe('Bookmark → Search and Get Many', () => {
		it('searches by keyword with the default limit of 20', async () => {
			await generate(30, 'bulk');
			const records = await run({ resource: 'bookmark', operation: 'search', query: 'generated' });
			const [request] = await control.requests();
			expect(request.query).toEqual({ q: 'generated', limit: '20' });
			expect(records.length).toBeLessThanOrEqual(20);
		});

		it('refuses an empty query for Search', async () => {
			const error = await run({ resource: 'bookmark', operation: 'search', query: '  ' }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain('Query');
			expect(await control.requests()).toHaveLength(0);
		});

		it('follows the cursor to the end with Return All, past the maximum page size', async () => {
			await generate(250, 'bulk');
			const records = await run({
				resource: 'bookmark',
				operation: 'getMany',
				returnAll: true,
				filters: { tag: 'bulk' },
			});
			expect(records).toHaveLength(250);
			expect(new Set(records.map((record) => record.id)).size).toBe(250);
			const created = records.map((record) => String(record.createdAt));
			expect([...created].sort().reverse()).toEqual(created);
			const requests = await control.requests();
			expect(requests).toHaveLength(3);
			expect(requests.every((request) => request.query.limit === '100' && request.query.tags === 'bulk')).toBe(true);
		});

		it('stops at the limit across pages', async () => {
			await generate(150, 'bulk');
			const records = await run({ resource: 'bookmark', operation: 'getMany', limit: 130, filters: { tag: 'bulk' } });
			expect(records).toHaveLength(130);
			expect((await control.requests()).map((request) => request.query.limit)).toEqual(['100', '30']);
		});

		it('filters by list picked from the list and by tag', async () => {
			const { results } = await searchLists.call(executeContext({ parameters: {}, credentials: credentials() }).context as never);
			expect(results.length).toBeGreaterThan(0);
			const listId = String(results[0].value);
			const records = await run({
				resource: 'bookmark',
				operation: 'getMany',
				returnAll: true,
				filters: { list: { mode: 'list', value: listId } },
			});
			expect(records.length).toBeGreaterThan(0);
			expect(records.every((record) => (record.listIds as string[]).includes(listId))).toBe(true);
		});
	});

	describe('Bookmark → Get', () => {
		it('returns one complete record', async () => {
			const [created] = await run(create());
			const [record] = await run({ resource: 'bookmark', operation: 'get', recordId: created.id });
			expect(record).toMatchObject({ id: created.id, title: 'On attunement', content: { url: created.content && (created.content as IDataObject).url } });
		});

		it('turns the JSON 404 into an error with the service’s message', async () => {
			const error = await run({ resource: 'bookmark', operation: 'get', recordId: 'bm_missing' }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('404');
			expect(error.description).toContain('NOT_FOUND');
		});

		it('turns the plain-text 401 into an error that says so', async () => {
			const error = await run({ resource: 'bookmark', operation: 'get', recordId: 'bm_1' }, { key: 'wrong' }).catch(
				(e) => e,
			);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('401');
			expect(error.message).toContain('Unauthorized');
			// Issue 43 item 8: which field to check, as "Test credential" says it.
			expect(error.description).toContain('Check the API Key: it is generated in the web portal under Settings → API Tokens.');
		});
	});

	it('Tag → Get Many gives ID, name and bookmarkCount in every version (the documented API’s shape is the one shape)', async () => {
		for (const typeVersion of [1, 2, 3]) {
			const tags = await run({ resource: 'tag', operation: 'getMany', returnAll: true }, { node: { typeVersion } });
			expect(tags.length).toBeGreaterThan(0);
			expect(tags.every((tag) => Object.keys(tag).sort().join() === 'bookmarkCount,id,name')).toBe(true);
		}
	});

	it('List → Get Many returns the workspace lists', async () => {
		const lists = await run({ resource: 'list', operation: 'getMany', returnAll: true });
		expect(lists.length).toBeGreaterThan(0);
		expect(lists[0]).toEqual({
			id: expect.any(String),
			name: expect.any(String),
			icon: expect.any(String),
			description: expect.any(String),
			bookmarkCount: expect.any(Number),
		});
	});

	it('keeps going with Continue On Fail, paired per item', async () => {
		const { context } = executeContext({
			parameters: [create({ url: 'bad' }), create()],
			items: [{}, {}],
			continueOnFail: true,
			credentials: credentials(),
		});
		const [output] = await node.execute.call(context);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output[0].json.error).toContain('URL');
		expect(output[1].json.id).toEqual(expect.any(String));
	});
});
