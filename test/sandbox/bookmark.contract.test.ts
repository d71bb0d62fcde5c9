/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import { setTimeout as sleep } from 'node:timers/promises';

import { type Sandbox, SEED, SEED_COUNTS, startSandbox } from './index';
import { call } from './testkit';

// SANDBOX_LOG=1 shows the services' own request logs, to see what a failing test sent.
const logger = process.env.SANDBOX_LOG === '1';

interface BookmarkRecord {
	id: string;
	createdAt: string;
	title: string;
	listIds: string[];
}

describe('bookmark service contract', () => {
	let sandbox: Sandbox;
	const auth = () => ({ authorization: `Bearer ${sandbox.bookmark.apiKey}` });
	const api = (path: string) => `${sandbox.bookmark.url}${path}`;
	const create = async (body: unknown, headers: Record<string, string> = auth()) =>
		await call(api('/api/v1/bookmarks'), { method: 'POST', headers, body });
	const list = async (query = '') =>
		await call(api(`/api/v1/bookmarks${query}`), { headers: auth() });
	const generate = async (body: Record<string, unknown>) =>
		(await call(api('/_sandbox/bookmarks/generate'), { method: 'POST', body })).json as {
			count: number;
			ids: string[];
		};
	/** Follows nextCursor to the end; every page must answer 200. */
	const listAll = async (query: string) => {
		const pages: BookmarkRecord[][] = [];
		let cursor: string | null = null;
		do {
			const answer = await list(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
			expect(answer.status).toBe(200);
			pages.push(answer.json.bookmarks);
			cursor = answer.json.nextCursor;
		} while (cursor !== null);
		return pages;
	};
	const titles = (records: BookmarkRecord[]) => records.map((record) => record.title);

	beforeAll(async () => {
		sandbox = await startSandbox({ ports: {}, logger });
	});
	afterAll(async () => await sandbox.stop());
	beforeEach(async () => {
		await call(api('/_sandbox/reset'), { method: 'POST' });
	});

	describe('auth', () => {
		it.each([
			['POST', '/api/v1/bookmarks'],
			['GET', '/api/v1/bookmarks'],
			['GET', `/api/v1/bookmarks/${SEED.adaPortfolioBookmarkId}`],
			['GET', '/api/v1/lists'],
		])('answers %s %s with a plain-text 401 without the Bearer key', async (method, path) => {
			const refused: Array<Record<string, string>> = [
				{},
				{ authorization: 'Bearer wrong' },
				{ authorization: sandbox.bookmark.apiKey },
			];
			for (const headers of refused) {
				const answer = await call(api(path), { method, headers });
				expect(answer.status).toBe(401);
				expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
				expect(answer.text).toBe('Unauthorized');
			}
		});
	});

	describe('POST /api/v1/bookmarks', () => {
		const link = {
			type: 'link',
			url: 'https://example.org/a',
			title: 'A',
			tags: ['x', 'y'],
			note: 'Note',
		};

		it('answers 201 with the record, then 200 with alreadyExists for the exact same URL only', async () => {
			const created = await create(link);
			expect(created.status).toBe(201);
			expect(created.json).toEqual({
				id: expect.stringMatching(/^bm_/),
				createdAt: expect.stringMatching(/Z$/),
				modifiedAt: created.json.createdAt,
				title: 'A',
				note: 'Note',
				tags: [
					{ id: expect.stringMatching(/^tag_/), name: 'x' },
					{ id: expect.stringMatching(/^tag_/), name: 'y' },
				],
				listIds: [],
				content: { type: 'link', url: 'https://example.org/a', description: '', ocrText: null },
			});
			const again = await create({
				type: 'link',
				url: 'https://example.org/a',
				title: 'Other title',
			});
			expect(again.status).toBe(200);
			expect(again.json).toEqual({ ...created.json, alreadyExists: true });
			expect((await create({ type: 'link', url: 'https://example.org/a/' })).status).toBe(201);
			expect((await create({ type: 'link', url: 'https://example.org/A' })).status).toBe(201);
		});

		it('gives one tag one id across records', async () => {
			const first = await create({
				type: 'link',
				url: 'https://example.org/t1',
				tags: ['residency'],
			});
			const second = await create({
				type: 'link',
				url: 'https://example.org/t2',
				tags: ['residency'],
			});
			expect(first.json.tags[0].id).toBe(second.json.tags[0].id);
		});

		it('fills a missing title and note', async () => {
			const created = await create({ type: 'link', url: 'https://example.org/untitled' });
			expect(created.json).toMatchObject({ title: 'example.org', note: '', tags: [] });
		});

		it('creates a text record', async () => {
			const created = await create({ type: 'text', text: 'Just a thought', tags: ['idea'] });
			expect(created.status).toBe(201);
			expect(created.json.content).toEqual({ type: 'text', text: 'Just a thought' });
			expect(created.json.tags).toEqual([{ id: expect.any(String), name: 'idea' }]);
		});

		it.each([
			['an unknown field', { ...link, notes: 'plural' }],
			['a missing type', { url: 'https://example.org/b' }],
			['an unknown type', { type: 'image', url: 'https://example.org/b' }],
			['a link without url', { type: 'link', title: 'No URL' }],
			['an invalid URL', { type: 'link', url: 'not a url' }],
			['a URL that is not http', { type: 'link', url: 'ftp://example.org/file' }],
			['a mistyped title', { ...link, title: 7 }],
			['tags that are not strings', { ...link, tags: [1] }],
			['tags that are a string', { ...link, tags: 'x' }],
			['a text record without text', { type: 'text' }],
			['a text record with a url', { type: 'text', text: 'T', url: 'https://example.org' }],
			['a link with text', { ...link, text: 'T' }],
		])('answers 400 {code, message} to %s', async (_, body) => {
			const answer = await create(body);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
		});

		it('answers 400 to a query parameter', async () => {
			const answer = await call(api('/api/v1/bookmarks?dryRun=1'), {
				method: 'POST',
				headers: auth(),
				body: link,
			});
			expect(answer.status).toBe(400);
			expect(answer.json.code).toBe('BAD_REQUEST');
		});
	});

	describe('GET /api/v1/bookmarks', () => {
		it('returns the seed records newest first, with no cursor when all fit', async () => {
			const answer = await list();
			expect(answer.status).toBe(200);
			expect(Object.keys(answer.json)).toEqual(['bookmarks', 'nextCursor']);
			expect(answer.json.bookmarks).toHaveLength(SEED_COUNTS.bookmarks);
			const times = answer.json.bookmarks.map((record: BookmarkRecord) => record.createdAt);
			expect(times).toEqual([...times].sort().reverse());
			expect(answer.json.nextCursor).toBeNull();
			const ages = times.map((time: string) => (Date.now() - Date.parse(time)) / 86_400_000);
			expect(Math.min(...ages)).toBeLessThan(7);
			expect(Math.max(...ages)).toBeLessThan(60);
		});

		it('returns 20 by default, with a cursor', async () => {
			await generate({ count: 30 });
			const answer = await list();
			expect(answer.json.bookmarks).toHaveLength(20);
			expect(answer.json.nextCursor).toEqual(expect.any(String));
		});

		it('accepts the maximum limit of 100 and refuses 101', async () => {
			await generate({ count: 120 });
			expect((await list('?limit=100')).json.bookmarks).toHaveLength(100);
			expect((await list('?limit=1')).json.bookmarks).toHaveLength(1);
			const refused = await list('?limit=101');
			expect(refused.status).toBe(400);
			expect(refused.json).toEqual({
				code: 'BAD_REQUEST',
				message: expect.stringContaining('limit'),
			});
		});

		it('follows the cursor to the end without loss or repetition', async () => {
			const { ids } = await generate({ count: 250, tag: 'bulk' });
			const pages = await listAll('?tags=bulk&limit=100');
			expect(pages.map((page) => page.length)).toEqual([100, 100, 50]);
			const seen = pages.flat().map((record) => record.id);
			expect(new Set(seen).size).toBe(250);
			expect([...seen].sort()).toEqual([...ids].sort());
		});

		it('puts a record created later first', async () => {
			const earlier = await create({ type: 'link', url: 'https://example.org/earlier' });
			await sleep(5);
			const later = await create({ type: 'text', text: 'Later' });
			expect(later.json.createdAt > earlier.json.createdAt).toBe(true);
			const page = (await list('?limit=3')).json.bookmarks as BookmarkRecord[];
			expect(page.slice(0, 2).map((record) => record.id)).toEqual([later.json.id, earlier.json.id]);
		});

		it('keeps a strict newest-first order for records of the same millisecond', async () => {
			const { ids } = await generate({ count: 60, tag: 'burst' });
			const pages = await listAll('?tags=burst&limit=7');
			const seen = pages.flat();
			// Generated in one go, the last one created is the newest.
			expect(seen.map((record) => record.id)).toEqual([...ids].reverse());
			for (let i = 1; i < seen.length; i++) {
				const [newer, older] = [seen[i - 1], seen[i]];
				expect(
					newer.createdAt > older.createdAt ||
						(newer.createdAt === older.createdAt && newer.id > older.id),
				).toBe(true);
			}
		});

		it('keeps a cursor stable when records are added meanwhile', async () => {
			await generate({ count: 10, tag: 'stable' });
			const first = await list('?tags=stable&limit=5');
			const added = await generate({ count: 3, tag: 'stable' });
			const second = await list(`?tags=stable&limit=5&cursor=${first.json.nextCursor}`);
			const all = [...first.json.bookmarks, ...second.json.bookmarks].map(
				(record: BookmarkRecord) => record.id,
			);
			expect(new Set(all).size).toBe(10);
			expect(all).not.toEqual(expect.arrayContaining([added.ids[0]]));
			expect(second.json.nextCursor).toBeNull();
			// The new records are at the top of a fresh first page.
			expect(
				(await list('?tags=stable&limit=3')).json.bookmarks.map((r: BookmarkRecord) => r.id),
			).toEqual([...added.ids].reverse());
		});

		it.each([
			['the OCR text', 'babbage', ['Letter, 1843 (scan)']],
			['the note, as a phrase', 'key text', ['On attunement']],
			['the URL', 'video.example.org', ['Studio visit (video)']],
			['the description', 'CALL FOR APPLICATIONS', ['Residency 2026 announced']],
			['the title', 'grace', ['Portfolio – Grace Hopper']],
			['the text of a text record', 'year of studio time', ['Interview questions']],
			['nothing', 'no such words', []],
		])('searches %s with q, case-insensitively', async (_, q, expected) => {
			const answer = await list(`?q=${encodeURIComponent(q)}`);
			expect(titles(answer.json.bookmarks)).toEqual(expected);
		});

		it('filters by one tag and by list, also together with q', async () => {
			expect(titles((await list('?tags=portfolio')).json.bookmarks)).toEqual([
				'Portfolio – Grace Hopper',
				'Portfolio – Ada Lovelace',
			]);
			const reading = (await list(`?listId=${SEED.readingListId}`)).json
				.bookmarks as BookmarkRecord[];
			expect(reading.length).toBe(3);
			expect(reading.every((record) => record.listIds.includes(SEED.readingListId))).toBe(true);
			expect(titles((await list(`?listId=${SEED.readingListId}&q=scan`)).json.bookmarks)).toEqual([
				'Letter, 1843 (scan)',
			]);
			expect((await list('?tags=no-such-tag')).json).toEqual({ bookmarks: [], nextCursor: null });
		});

		it.each([
			['a limit above 100', '?limit=101'],
			['a limit of 0', '?limit=0'],
			['a negative limit', '?limit=-1'],
			['a limit that is not a number', '?limit=ten'],
			['a fractional limit', '?limit=2.5'],
			['an unknown parameter', '?tag=x'],
			['a repeated parameter', '?tags=a&tags=b'],
			['a broken cursor', '?cursor=%%%'],
			[
				'a cursor of the wrong shape',
				`?cursor=${Buffer.from('{"offset":20}').toString('base64url')}`,
			],
		])('answers 400 to %s', async (_, query) => {
			const answer = await list(query);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
		});
	});

	describe('GET /api/v1/bookmarks/{recordId}', () => {
		it('returns one complete record', async () => {
			const { json: created } = await create({
				type: 'link',
				url: 'https://example.org/one',
				note: 'n',
			});
			const answer = await call(api(`/api/v1/bookmarks/${created.id}`), { headers: auth() });
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual(created);
			const letter = await call(api(`/api/v1/bookmarks/${SEED.scannedLetterBookmarkId}`), {
				headers: auth(),
			});
			expect(letter.json.content).toEqual({
				type: 'link',
				url: 'https://archive.example.org/scans/letter-1843.pdf',
				description: 'Scanned correspondence',
				ocrText: expect.stringContaining('Babbage'),
			});
		});

		it('answers 404 {code: NOT_FOUND} when unknown, 400 to a query parameter', async () => {
			const missing = await call(api('/api/v1/bookmarks/bm_missing'), { headers: auth() });
			expect(missing.status).toBe(404);
			expect(missing.json).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
			const withQuery = await call(api(`/api/v1/bookmarks/${SEED.adaPortfolioBookmarkId}?full=1`), {
				headers: auth(),
			});
			expect(withQuery.status).toBe(400);
		});
	});

	describe('GET /api/v1/lists', () => {
		it('lists the lists with their icons', async () => {
			const answer = await call(api('/api/v1/lists'), { headers: auth() });
			expect(answer.json).toEqual({
				lists: [
					{ id: SEED.applicationsListId, name: 'Applications', icon: '📁' },
					{ id: SEED.readingListId, name: 'Reading', icon: '📚' },
				],
			});
			expect((await call(api('/api/v1/lists?limit=5'), { headers: auth() })).status).toBe(400);
		});
	});

	describe('control endpoints', () => {
		it('generates records with a tag and a list', async () => {
			const { count, ids } = await generate({ count: 3, tag: 'gen', listId: SEED.readingListId });
			expect(count).toBe(3);
			const record = (await call(api(`/api/v1/bookmarks/${ids[0]}`), { headers: auth() })).json;
			expect(record).toMatchObject({ tags: [{ name: 'gen' }], listIds: [SEED.readingListId] });
			const refused = [
				{ count: 0 },
				{ count: 'many' },
				{ count: 1, listId: 'list_missing' },
				{ count: 1, color: 'red' },
			];
			for (const body of refused) {
				expect(
					(await call(api('/_sandbox/bookmarks/generate'), { method: 'POST', body })).status,
				).toBe(400);
			}
		});

		it('puts a record in lists', async () => {
			const path = api(`/_sandbox/bookmarks/${SEED.adaPortfolioBookmarkId}/lists`);
			const answer = await call(path, { method: 'PUT', body: { listIds: [SEED.readingListId] } });
			expect(answer.json.listIds).toEqual([SEED.readingListId]);
			const reading = (await list(`?listId=${SEED.readingListId}`)).json
				.bookmarks as BookmarkRecord[];
			expect(reading.map((record) => record.id)).toContain(SEED.adaPortfolioBookmarkId);
			expect(
				(await call(path, { method: 'PUT', body: { listIds: ['list_missing'] } })).status,
			).toBe(400);
			const unknown = api('/_sandbox/bookmarks/bm_missing/lists');
			expect((await call(unknown, { method: 'PUT', body: { listIds: [] } })).status).toBe(404);
		});

		it('goes back to the seed records on reset', async () => {
			await generate({ count: 5 });
			await call(api('/_sandbox/reset'), { method: 'POST' });
			expect((await list()).json.bookmarks).toHaveLength(SEED_COUNTS.bookmarks);
		});
	});
});
