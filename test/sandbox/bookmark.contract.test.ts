import { type Sandbox, SEED, startSandbox } from './index';
import { call } from './receiver';

describe('bookmark service contract', () => {
	let sandbox: Sandbox;
	const auth = () => ({ authorization: `Bearer ${sandbox.bookmark.apiKey}` });
	const url = (path: string) => `${sandbox.bookmark.url}${path}`;
	const create = async (body: unknown, headers: Record<string, string> = auth()) =>
		await call(url('/api/v1/bookmarks'), { method: 'POST', headers, body });
	const list = async (query = '') => await call(url(`/api/v1/bookmarks${query}`), { headers: auth() });

	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox.stop());
	beforeEach(async () => {
		await call(url('/_sandbox/reset'), { method: 'POST' });
	});

	describe('POST /api/v1/bookmarks', () => {
		const link = {
			type: 'link',
			url: 'https://example.org/a',
			title: 'A',
			tags: ['x', 'y'],
			note: 'Note',
		};

		it('answers 201 with the record, then 200 with alreadyExists for the exact same URL', async () => {
			const created = await create(link);
			expect(created.status).toBe(201);
			expect(created.json).toEqual({
				id: expect.stringMatching(/^bm_/),
				createdAt: expect.any(String),
				modifiedAt: expect.any(String),
				title: 'A',
				note: 'Note',
				tags: [
					{ id: expect.stringMatching(/^tag_/), name: 'x' },
					{ id: expect.stringMatching(/^tag_/), name: 'y' },
				],
				listIds: [],
				content: { type: 'link', url: 'https://example.org/a', description: '', ocrText: null },
			});
			const again = await create({ type: 'link', url: 'https://example.org/a' });
			expect(again.status).toBe(200);
			expect(again.json).toMatchObject({ id: created.json.id, alreadyExists: true });
			expect((await create({ type: 'link', url: 'https://example.org/a/' })).status).toBe(201);
		});

		it('creates a text record', async () => {
			const created = await create({ type: 'text', text: 'Just a thought' });
			expect(created.status).toBe(201);
			expect(created.json.content).toEqual({ type: 'text', text: 'Just a thought' });
		});

		it.each([
			['an unknown field', { ...link, notes: 'plural' }],
			['a missing type', { url: 'https://example.org/b' }],
			['an invalid URL', { type: 'link', url: 'not a url' }],
			['tags that are not strings', { ...link, tags: [1] }],
			['a text record without text', { type: 'text' }],
		])('answers 400 {code, message} to %s', async (_, body) => {
			const answer = await create(body);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
		});

		it('answers 401 with the plain text Unauthorized', async () => {
			const answer = await create(link, { authorization: 'Bearer wrong' });
			expect(answer.status).toBe(401);
			expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
			expect(answer.text).toBe('Unauthorized');
		});
	});

	describe('GET /api/v1/bookmarks', () => {
		it('returns 20 newest first by default, with a cursor', async () => {
			await call(url('/_sandbox/bookmarks/generate'), { method: 'POST', body: { count: 30 } });
			const answer = await list();
			expect(answer.status).toBe(200);
			expect(answer.json.bookmarks).toHaveLength(20);
			const times = answer.json.bookmarks.map((b: { createdAt: string }) => b.createdAt);
			expect([...times].sort().reverse()).toEqual(times);
			expect(answer.json.nextCursor).toEqual(expect.any(String));
		});

		it('follows the cursor to the end without loss or repetition, at the maximum page of 100', async () => {
			await call(url('/_sandbox/bookmarks/generate'), { method: 'POST', body: { count: 250, tag: 'bulk' } });
			const ids: string[] = [];
			let cursor: string | null = null;
			let pages = 0;
			do {
				const answer = await list(`?tags=bulk&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
				expect(answer.status).toBe(200);
				ids.push(...answer.json.bookmarks.map((b: { id: string }) => b.id));
				cursor = answer.json.nextCursor;
				pages++;
			} while (cursor);
			expect(pages).toBe(3);
			expect(ids).toHaveLength(250);
			expect(new Set(ids).size).toBe(250);
		});

		it('keeps a cursor stable when records are added meanwhile', async () => {
			await call(url('/_sandbox/bookmarks/generate'), { method: 'POST', body: { count: 10, tag: 'stable' } });
			const first = await list('?tags=stable&limit=5');
			await call(url('/_sandbox/bookmarks/generate'), { method: 'POST', body: { count: 3, tag: 'stable' } });
			const second = await list(`?tags=stable&limit=5&cursor=${first.json.nextCursor}`);
			const all = [...first.json.bookmarks, ...second.json.bookmarks].map((b: { id: string }) => b.id);
			expect(new Set(all).size).toBe(10);
			expect(second.json.nextCursor).toBeNull();
		});

		it('filters by q over title, note, URL, description and OCR text, by tag and by list', async () => {
			const byOcr = await list('?q=babbage');
			expect(byOcr.json.bookmarks.map((b: { title: string }) => b.title)).toEqual(['Letter, 1843 (scan)']);
			const byNote = await list(`?q=${encodeURIComponent('key text')}`);
			expect(byNote.json.bookmarks).toHaveLength(1);
			const byTag = await list('?tags=portfolio');
			expect(byTag.json.bookmarks.length).toBe(2);
			const byList = await list(`?listId=${SEED.readingListId}`);
			expect(byList.json.bookmarks.every((b: { listIds: string[] }) => b.listIds.includes(SEED.readingListId))).toBe(
				true,
			);
		});

		it.each([
			['a limit above 100', '?limit=101'],
			['a limit of 0', '?limit=0'],
			['a limit that is not a number', '?limit=ten'],
			['an unknown parameter', '?tag=x'],
			['a broken cursor', '?cursor=%%%'],
		])('answers 400 to %s', async (_, query) => {
			const answer = await list(query);
			expect(answer.status).toBe(400);
			expect(answer.json.code).toBe('BAD_REQUEST');
		});

		it('accepts the maximum limit of 100', async () => {
			expect((await list('?limit=100')).status).toBe(200);
		});
	});

	describe('GET /api/v1/bookmarks/{recordId} and GET /api/v1/lists', () => {
		it('returns one complete record, 404 JSON when unknown', async () => {
			const { json: created } = await create({ type: 'link', url: 'https://example.org/one' });
			const answer = await call(url(`/api/v1/bookmarks/${created.id}`), { headers: auth() });
			expect(answer.json).toEqual(created);
			const missing = await call(url('/api/v1/bookmarks/bm_missing'), { headers: auth() });
			expect(missing.status).toBe(404);
			expect(missing.json).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
		});

		it('lists the lists', async () => {
			const answer = await call(url('/api/v1/lists'), { headers: auth() });
			expect(answer.json).toEqual({
				lists: [
					{ id: SEED.applicationsListId, name: 'Applications', icon: '📁' },
					{ id: SEED.readingListId, name: 'Reading', icon: '📚' },
				],
			});
			expect((await call(url('/api/v1/lists'))).status).toBe(401);
		});
	});
});
