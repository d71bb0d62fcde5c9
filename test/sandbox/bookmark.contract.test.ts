/* eslint-disable @n8n/community-nodes/no-restricted-globals */

import { ManualClock, type Sandbox, SEED, SEED_COUNTS, startSandbox } from './index';
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
	// Time moves only when a test moves it: "later" is a step of this clock, not a sleep.
	const clock = new ManualClock();
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
		sandbox = await startSandbox({ ports: {}, logger, clock });
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
			['PATCH', `/api/v1/bookmarks/${SEED.adaPortfolioBookmarkId}`],
			['DELETE', `/api/v1/bookmarks/${SEED.adaPortfolioBookmarkId}`],
			['POST', `/api/v1/bookmarks/${SEED.adaPortfolioBookmarkId}/tags`],
			['DELETE', `/api/v1/bookmarks/${SEED.adaPortfolioBookmarkId}/tags`],
			['GET', '/api/v1/tags'],
			['POST', '/api/v1/lists'],
			['PATCH', `/api/v1/lists/${SEED.readingListId}`],
			['DELETE', `/api/v1/lists/${SEED.readingListId}`],
			['PUT', `/api/v1/lists/${SEED.readingListId}/bookmarks/${SEED.adaPortfolioBookmarkId}`],
			['DELETE', `/api/v1/lists/${SEED.readingListId}/bookmarks/${SEED.adaPortfolioBookmarkId}`],
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
				archived: false,
				favourited: false,
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
			const ages = times.map((time: string) => (clock.now() - Date.parse(time)) / 86_400_000);
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
			clock.advance(1);
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
					{
						id: SEED.applicationsListId,
						name: 'Applications',
						icon: '📁',
						description: expect.stringContaining('applicants'),
						bookmarkCount: 3,
					},
					{
						id: SEED.readingListId,
						name: 'Reading',
						icon: '📚',
						description: '',
						bookmarkCount: 3,
					},
				],
			});
			expect((await call(api('/api/v1/lists?limit=5'), { headers: auth() })).status).toBe(400);
		});
	});

	describe('archived, favourited and sortBy on GET /api/v1/bookmarks', () => {
		it('filters by archived and favourited, true or false', async () => {
			expect(titles((await list('?archived=true')).json.bookmarks)).toEqual([
				'Residency 2026 announced',
			]);
			expect(titles((await list('?favourited=true')).json.bookmarks)).toEqual(['On attunement']);
			const notArchived = (await list('?archived=false')).json.bookmarks as BookmarkRecord[];
			expect(notArchived).toHaveLength(SEED_COUNTS.bookmarks - 1);
			expect(titles((await list('?favourited=true&archived=true')).json.bookmarks)).toEqual([]);
		});

		it.each([
			['archived=yes', '?archived=yes'],
			['archived=1', '?archived=1'],
			['favourited=TRUE', '?favourited=TRUE'],
			['an unknown sortBy', '?sortBy=title'],
			[
				'a createdAt cursor with sortBy=modifiedAt',
				`?sortBy=modifiedAt&cursor=${Buffer.from('{"createdAt":"2026-01-01T00:00:00.000Z","id":"bm_1"}').toString('base64url')}`,
			],
		])('answers 400 to %s', async (_, query) => {
			const answer = await list(query);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
		});

		it('sorts by modifiedAt, newest first, and pages by it without loss or repetition', async () => {
			const { ids } = await generate({ count: 30, tag: 'sorted' });
			const touched = [ids[3], ids[17], ids[0]];
			for (const id of touched) {
				await patch(id, { note: `touched ${id}` });
			}
			const pages = await listAll('?tags=sorted&sortBy=modifiedAt&limit=7');
			const seen = pages.flat() as Array<BookmarkRecord & { modifiedAt: string }>;
			// Patches within one millisecond share a modifiedAt: the contract breaks such ties by id, descending.
			const newestFirst = [...seen].sort(
				(a, b) => b.modifiedAt.localeCompare(a.modifiedAt) || b.id.localeCompare(a.id),
			);
			expect(seen.map((record) => record.id)).toEqual(newestFirst.map((record) => record.id));
			expect([...seen.map((record) => record.id).slice(0, 3)].sort()).toEqual([...touched].sort());
			expect(new Set(seen.map((record) => record.id)).size).toBe(30);
			// The default order is still by creation.
			expect((await list('?tags=sorted&limit=1')).json.bookmarks[0].id).toBe(ids[29]);
		});
	});

	const patch = async (id: string, body: unknown) =>
		await call(api(`/api/v1/bookmarks/${id}`), { method: 'PATCH', headers: auth(), body });
	const getRecord = async (id: string) =>
		(await call(api(`/api/v1/bookmarks/${id}`), { headers: auth() })).json;

	describe('PATCH /api/v1/bookmarks/{recordId}', () => {
		it('changes only the fields sent and moves modifiedAt', async () => {
			const before = await getRecord(SEED.adaPortfolioBookmarkId);
			const answer = await patch(SEED.adaPortfolioBookmarkId, { archived: true, favourited: true });
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual({
				...before,
				archived: true,
				favourited: true,
				modifiedAt: expect.any(String),
			});
			expect(answer.json.modifiedAt > before.modifiedAt).toBe(true);
			const renamed = await patch(SEED.adaPortfolioBookmarkId, { title: 'Portfolio', note: '' });
			expect(renamed.json).toMatchObject({ title: 'Portfolio', note: '', archived: true });
			expect(renamed.json.modifiedAt > answer.json.modifiedAt).toBe(true);
			expect(await getRecord(SEED.adaPortfolioBookmarkId)).toEqual(renamed.json);
		});

		it.each([
			['an empty body', {}],
			['an unknown field', { tags: ['x'] }],
			['a mistyped archived', { archived: 'true' }],
			['a mistyped title', { title: 1 }],
			['an empty title', { title: ' ' }],
		])('answers 400 to %s and changes nothing', async (_, body) => {
			const before = await getRecord(SEED.adaPortfolioBookmarkId);
			const answer = await patch(SEED.adaPortfolioBookmarkId, body);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
			expect(await getRecord(SEED.adaPortfolioBookmarkId)).toEqual(before);
		});

		it('answers 404 for an unknown record, 401 without the key', async () => {
			const missing = await patch('bm_missing', { archived: true });
			expect(missing.status).toBe(404);
			expect(missing.json.code).toBe('NOT_FOUND');
			const refused = await call(api(`/api/v1/bookmarks/${SEED.adaPortfolioBookmarkId}`), {
				method: 'PATCH',
				body: { archived: true },
			});
			expect(refused.status).toBe(401);
			expect(refused.text).toBe('Unauthorized');
		});
	});

	describe('DELETE /api/v1/bookmarks/{recordId}', () => {
		it('answers 204 without a body, then 404', async () => {
			const path = api(`/api/v1/bookmarks/${SEED.adaPortfolioBookmarkId}`);
			const deleted = await call(path, { method: 'DELETE', headers: auth() });
			expect(deleted.status).toBe(204);
			expect(deleted.text).toBe('');
			expect((await call(path, { headers: auth() })).status).toBe(404);
			const again = await call(path, { method: 'DELETE', headers: auth() });
			expect(again.status).toBe(404);
			expect(again.json.code).toBe('NOT_FOUND');
			expect((await list()).json.bookmarks).toHaveLength(SEED_COUNTS.bookmarks - 1);
		});
	});

	describe('tags of a record', () => {
		const tagsPath = (id: string) => api(`/api/v1/bookmarks/${id}/tags`);
		const attach = async (id: string, body: unknown) =>
			await call(tagsPath(id), { method: 'POST', headers: auth(), body });
		const detach = async (id: string, body: unknown) =>
			await call(tagsPath(id), { method: 'DELETE', headers: auth(), body });

		it('attaches tags, creating new ones, and moves modifiedAt; an attached tag again is no error', async () => {
			const before = await getRecord(SEED.adaPortfolioBookmarkId);
			const answer = await attach(SEED.adaPortfolioBookmarkId, {
				tags: ['shortlist', 'residency'],
			});
			expect(answer.status).toBe(200);
			const residencyId = before.tags.find((t: { name: string }) => t.name === 'residency').id;
			expect(answer.json).toEqual({
				attached: [
					{ id: expect.stringMatching(/^tag_/), name: 'shortlist' },
					{ id: residencyId, name: 'residency' },
				],
			});
			const after = await getRecord(SEED.adaPortfolioBookmarkId);
			expect(after.tags.map((t: { name: string }) => t.name)).toEqual([
				'residency',
				'portfolio',
				'shortlist',
			]);
			expect(after.modifiedAt > before.modifiedAt).toBe(true);
			const again = await attach(SEED.adaPortfolioBookmarkId, { tags: ['shortlist'] });
			expect(again.status).toBe(200);
			expect((await getRecord(SEED.adaPortfolioBookmarkId)).tags).toHaveLength(3);
		});

		it('detaches with a JSON body on DELETE, listing only the tags the record had', async () => {
			const before = await getRecord(SEED.adaPortfolioBookmarkId);
			const answer = await detach(SEED.adaPortfolioBookmarkId, {
				tags: ['portfolio', 'never-had'],
			});
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual({ detached: [{ id: expect.any(String), name: 'portfolio' }] });
			const after = await getRecord(SEED.adaPortfolioBookmarkId);
			expect(after.tags.map((t: { name: string }) => t.name)).toEqual(['residency']);
			expect(after.modifiedAt > before.modifiedAt).toBe(true);
			expect((await detach(SEED.adaPortfolioBookmarkId, { tags: ['portfolio'] })).json).toEqual({
				detached: [],
			});
		});

		it.each([
			['no body', undefined],
			['no tags', { tags: [] }],
			['51 tags', { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }],
			['an empty name', { tags: [''] }],
			['names that are not strings', { tags: [1] }],
			['an unknown field', { tags: ['a'], color: 'red' }],
		])('answers 400 to %s on both methods', async (_, body) => {
			for (const send of [attach, detach]) {
				const answer = await send(SEED.adaPortfolioBookmarkId, body);
				expect(answer.status).toBe(400);
				expect(answer.json).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
			}
		});

		it('accepts 50 tags, answers 404 for an unknown record', async () => {
			const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`);
			expect(
				(await attach(SEED.adaPortfolioBookmarkId, { tags: fifty })).json.attached,
			).toHaveLength(50);
			for (const send of [attach, detach]) {
				const answer = await send('bm_missing', { tags: ['a'] });
				expect(answer.status).toBe(404);
				expect(answer.json.code).toBe('NOT_FOUND');
			}
		});
	});

	describe('GET /api/v1/tags', () => {
		it('lists every tag by name with its bookmark count', async () => {
			const answer = await call(api('/api/v1/tags'), { headers: auth() });
			expect(answer.status).toBe(200);
			const { tags } = answer.json as {
				tags: Array<{ id: string; name: string; bookmarkCount: number }>;
			};
			expect(tags.map((t) => t.name)).toEqual([...tags.map((t) => t.name)].sort());
			expect(tags.find((t) => t.name === 'residency')).toEqual({
				id: expect.stringMatching(/^tag_/),
				name: 'residency',
				bookmarkCount: 4,
			});
			expect((await call(api('/api/v1/tags?limit=5'), { headers: auth() })).status).toBe(400);
			expect((await call(api('/api/v1/tags'))).status).toBe(401);
		});
	});

	describe('lists', () => {
		const listsApi = (path = '') => api(`/api/v1/lists${path}`);
		const createList = async (body: unknown) =>
			await call(listsApi(), { method: 'POST', headers: auth(), body });

		it('creates a list (201), updates it (200) and deletes it (204), keeping its records', async () => {
			const created = await createList({ name: 'Shortlist', description: 'Final round' });
			expect(created.status).toBe(201);
			expect(created.json).toEqual({
				id: expect.stringMatching(/^list_/),
				name: 'Shortlist',
				icon: expect.any(String),
				description: 'Final round',
				bookmarkCount: 0,
			});
			const id = created.json.id;
			const member = api(`/api/v1/lists/${id}/bookmarks/${SEED.adaPortfolioBookmarkId}`);
			expect((await call(member, { method: 'PUT', headers: auth() })).status).toBe(204);
			const updated = await call(listsApi(`/${id}`), {
				method: 'PATCH',
				headers: auth(),
				body: { icon: '⭐' },
			});
			expect(updated.status).toBe(200);
			expect(updated.json).toEqual({ ...created.json, icon: '⭐', bookmarkCount: 1 });
			const before = await getRecord(SEED.adaPortfolioBookmarkId);
			const deleted = await call(listsApi(`/${id}`), { method: 'DELETE', headers: auth() });
			expect(deleted.status).toBe(204);
			expect(deleted.text).toBe('');
			const after = await getRecord(SEED.adaPortfolioBookmarkId);
			expect(after.listIds).toEqual([SEED.applicationsListId]);
			expect(after.modifiedAt > before.modifiedAt).toBe(true);
			const lists = (await call(listsApi(), { headers: auth() })).json.lists as Array<{
				id: string;
			}>;
			expect(lists.map((l) => l.id)).not.toContain(id);
			expect((await call(listsApi(`/${id}`), { method: 'DELETE', headers: auth() })).status).toBe(
				404,
			);
		});

		it.each([
			['no name', { icon: '⭐' }],
			['an empty name', { name: '  ' }],
			['an unknown field', { name: 'X', color: 'red' }],
			['a mistyped description', { name: 'X', description: 3 }],
		])('answers 400 to a create with %s', async (_, body) => {
			const answer = await createList(body);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
		});

		it('answers 400 to an empty or unknown update and 404 for an unknown list', async () => {
			const path = listsApi(`/${SEED.readingListId}`);
			for (const body of [{}, { bookmarkCount: 3 }, { name: '' }]) {
				const answer = await call(path, { method: 'PATCH', headers: auth(), body });
				expect(answer.status).toBe(400);
			}
			const missing = await call(listsApi('/list_missing'), {
				method: 'PATCH',
				headers: auth(),
				body: { name: 'X' },
			});
			expect(missing.status).toBe(404);
			expect(missing.json.code).toBe('NOT_FOUND');
		});

		it('adds a record idempotently (204) and removes it (204, then 404), moving modifiedAt', async () => {
			const member = api(
				`/api/v1/lists/${SEED.readingListId}/bookmarks/${SEED.adaPortfolioBookmarkId}`,
			);
			const before = await getRecord(SEED.adaPortfolioBookmarkId);
			for (let i = 0; i < 2; i++) {
				const added = await call(member, { method: 'PUT', headers: auth() });
				expect(added.status).toBe(204);
				expect(added.text).toBe('');
			}
			const inList = await getRecord(SEED.adaPortfolioBookmarkId);
			expect(inList.listIds).toEqual([SEED.applicationsListId, SEED.readingListId]);
			expect(inList.modifiedAt > before.modifiedAt).toBe(true);
			const removed = await call(member, { method: 'DELETE', headers: auth() });
			expect(removed.status).toBe(204);
			expect(removed.text).toBe('');
			expect((await getRecord(SEED.adaPortfolioBookmarkId)).listIds).toEqual([
				SEED.applicationsListId,
			]);
			const again = await call(member, { method: 'DELETE', headers: auth() });
			expect(again.status).toBe(404);
			expect(again.json.code).toBe('NOT_FOUND');
		});

		it.each([
			['an unknown list', `/api/v1/lists/list_missing/bookmarks/${SEED.adaPortfolioBookmarkId}`],
			['an unknown record', `/api/v1/lists/${SEED.readingListId}/bookmarks/bm_missing`],
		])('answers 404 for %s on PUT and DELETE', async (_, path) => {
			for (const method of ['PUT', 'DELETE']) {
				const answer = await call(api(path), { method, headers: auth() });
				expect(answer.status).toBe(404);
				expect(answer.json.code).toBe('NOT_FOUND');
			}
		});
	});

	describe('control endpoints', () => {
		it('generates records with a given, a null or no creation time', async () => {
			const late = '2020-01-01T00:00:00.000Z';
			const [dated] = (await generate({ count: 1, createdAt: late })).ids;
			const [undated] = (await generate({ count: 1, createdAt: null })).ids;
			const [missing] = (await generate({ count: 1, createdAt: 'missing' })).ids;
			expect((await getRecord(dated)).createdAt).toBe(late);
			expect((await getRecord(undated)).createdAt).toBeNull();
			expect(await getRecord(missing)).not.toHaveProperty('createdAt');
			// Undated records come first, as NULLS FIRST in a descending order.
			const ids = (await list('?limit=3')).json.bookmarks.map(
				(record: BookmarkRecord) => record.id,
			);
			expect(ids.slice(0, 2).sort()).toEqual([undated, missing].sort());
			const pages = await listAll('?limit=2');
			expect(pages.flat()).toHaveLength(SEED_COUNTS.bookmarks + 3);
			expect(
				(
					await call(api('/_sandbox/bookmarks/generate'), {
						method: 'POST',
						body: { count: 1, createdAt: 'soon' },
					})
				).status,
			).toBe(400);
		});

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
