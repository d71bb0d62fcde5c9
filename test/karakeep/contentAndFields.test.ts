/* eslint-disable @typescript-eslint/no-explicit-any -- answers are JSON of many shapes; each test states the shape it expects */
/**
 * Bookmark → Get Content and Get's complete content, Update's fields beyond the documented ones,
 * List → Get, smart and nested lists, User → Get Stats, on the real Karakeep: the facts raw, then the
 * Bookmarks node, each result checked through Karakeep's own API afterwards and each request against
 * Karakeep's OpenAPI file (the validating mock in front of the real server).
 *
 * The server here runs no workers: no crawler (a link's content stays empty, `htmlContent` null) and
 * no OCR (an uploaded file's text stays null until something sets it). Content is therefore tested
 * with what the server gives itself: a text record's text, and a file record's extracted text as
 * Karakeep's OCR worker would store it, set through `PATCH /bookmarks/{id}` `assetContent`, which
 * Karakeep offers for that. Sources (commit 7ca5ee2): packages/api/routes/bookmarks.ts (content),
 * packages/api/utils/readableContent.ts, packages/trpc/models/bookmarks.ts (toZodSchema,
 * asReadableContent), packages/trpc/routers/bookmarks.ts (updateBookmark), packages/shared/types/
 * bookmarks.ts, packages/api/routes/lists.ts, packages/shared/types/lists.ts, packages/api/routes/
 * users.ts, packages/shared/types/users.ts (zUserStatsResponseSchema).
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { KarakeepServer } from '../harness/karakeep';
import type { KarakeepSpecMock } from '../harness/karakeepSpecMock';
import { afterSecondOf, call, expectStatus, zodIssues } from './api';
import { byId, karakeepBehindSpec, nodeFailure, runNode } from './node';

const servers = karakeepBehindSpec();
let karakeep: KarakeepServer;
let mock: KarakeepSpecMock;
let viaSpec: { url: string; apiKey: string };
beforeAll(() => ({ karakeep, mock, viaSpec } = servers));

const run = async (parameters: Record<string, unknown>) => (await runNode(viaSpec, parameters)).json;
const newText = async (text: string) => (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text } })).json;
const raw = async (id: string, query: Record<string, string> = {}) => (await expectStatus(200, karakeep, 'GET', `/bookmarks/${id}`, { query })).json;

/** A PDF record as Karakeep keeps one: uploaded, made a record of; its text as OCR would set it. */
async function pdfRecord(extractedText?: string): Promise<any> {
	const form = new FormData();
	form.append('file', new File([Buffer.from('%PDF-1.4\n%%EOF\n')], 'scan.pdf', { type: 'application/pdf' }));
	const response = await fetch(`${karakeep.url}/api/v1/assets`, { method: 'POST', headers: { authorization: `Bearer ${karakeep.apiKey}` }, body: form });
	const { assetId } = (await response.json()) as { assetId: string };
	const record = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'asset', assetType: 'pdf', assetId, fileName: 'scan.pdf' } })).json;
	if (extractedText !== undefined) await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { assetContent: extractedText } });
	return record;
}

/** Paragraphs of 40 characters each, numbered: long content whose pieces can be told apart. */
const paragraphs = (count: number) =>
	Array.from({ length: count }, (_, index) => `Paragraph ${String(index).padStart(4, '0')} ${'x'.repeat(24)}.`).join('\n\n');

describe('Readable content, raw', () => {
	test('pieces of at most maxChars, cut after a paragraph; nextCursor to the end; the text format', async () => {
		const text = paragraphs(5);
		const record = await newText(text);
		const first = await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}/content`, { query: { maxChars: 100, format: 'text' } });
		expect(first.json).toMatchObject({
			bookmarkId: record.id,
			bookmarkType: 'text',
			format: 'text',
			contentVersion: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
			range: { start: 0, end: 84, total: text.length },
			truncated: true,
		});
		expect(first.json.content).toBe(text.slice(0, 84));
		const second = await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}/content`, { query: { maxChars: 50_000, cursor: first.json.nextCursor } });
		expect(second.json).toMatchObject({ range: { start: 84, end: text.length }, nextCursor: null, truncated: false, format: 'text' });
		expect(first.json.content + second.json.content).toBe(text);
		expect(zodIssues(await call(karakeep, 'GET', `/bookmarks/${record.id}/content`, { query: { maxChars: 50_001 } }))[0].path).toEqual(['maxChars']);
	});

	test('a cursor of content changed since: 409 CONTENT_CHANGED', async () => {
		const record = await newText(paragraphs(4));
		const first = await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}/content`, { query: { maxChars: 60 } });
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { text: paragraphs(5) } });
		const changed = await call(karakeep, 'GET', `/bookmarks/${record.id}/content`, { query: { cursor: first.json.nextCursor } });
		expect([changed.status, changed.json]).toEqual([
			409,
			{ code: 'CONTENT_CHANGED', message: 'The bookmark content changed after this cursor was issued. Restart from the first page.' },
		]);
	});

	test('a file record: its extracted text (null without OCR); Get gives it only with includeContent=true', async () => {
		const bare = await pdfRecord();
		expect((await expectStatus(200, karakeep, 'GET', `/bookmarks/${bare.id}/content`)).json).toMatchObject({ bookmarkType: 'asset', content: '', range: { total: 0 } });
		expect((await raw(bare.id, { includeContent: 'true' })).content.content).toBeNull();
		const scanned = await pdfRecord('Invoice 42\n\nTotal due: 12 EUR');
		expect((await raw(scanned.id)).content.content).toBeNull();
		expect((await raw(scanned.id, { includeContent: 'true' })).content).toMatchObject({ type: 'asset', assetType: 'pdf', content: 'Invoice 42\n\nTotal due: 12 EUR', size: 15 });
		expect((await expectStatus(200, karakeep, 'GET', `/bookmarks/${scanned.id}/content`)).json.content).toBe('Invoice 42\n\nTotal due: 12 EUR');
	});

	test('a link not crawled (no crawler here): empty content, htmlContent null even with includeContent', async () => {
		const link = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/content' } })).json;
		expect((await expectStatus(200, karakeep, 'GET', `/bookmarks/${link.id}/content`)).json).toMatchObject({ bookmarkType: 'link', format: 'markdown', content: '' });
		expect((await raw(link.id, { includeContent: 'true' })).content).toMatchObject({ htmlContent: null, crawlStatus: 'pending' });
	});
});

describe('Bookmark → Get Content (the node)', () => {
	test('reads piece by piece to the end', async () => {
		const text = paragraphs(2000);
		expect(text.length).toBeGreaterThan(60_000);
		const record = await newText(text);
		const { json, requests } = await runNode(viaSpec, { resource: 'bookmark', operation: 'getContent', recordId: byId(record.id), format: 'text' });
		expect(json).toEqual([
			{
				id: record.id,
				bookmarkType: 'text',
				contentVersion: expect.stringMatching(/^sha256:/),
				format: 'text',
				content: text,
				characters: text.length,
				totalCharacters: text.length,
				complete: true,
			},
		]);
		expect(requests.length).toBeGreaterThan(1);
		expect(requests.every((request) => Number(request.qs?.maxChars) <= 50_000)).toBe(true);
	});

	test('Max Characters: that many from the start (Karakeep cuts its first piece at a paragraph, the next fills up), complete false', async () => {
		const record = await newText(paragraphs(10));
		const { json, requests } = await runNode(viaSpec, { resource: 'bookmark', operation: 'getContent', recordId: byId(record.id), maxCharacters: 100 });
		expect(json[0]).toMatchObject({ format: 'markdown', characters: 100, totalCharacters: paragraphs(10).length, complete: false });
		expect(json[0].content).toBe(paragraphs(10).slice(0, 100));
		expect(requests.map((request) => request.qs?.maxChars)).toEqual([100, 16]);
	});

	test('a file record’s extracted text', async () => {
		const scanned = await pdfRecord('Receipt\n\nPaid in full');
		const [read] = await run({ resource: 'bookmark', operation: 'getContent', recordId: byId(scanned.id) });
		expect(read).toMatchObject({ bookmarkType: 'asset', content: 'Receipt\n\nPaid in full', complete: true });
	});

	// Issue 43 item 4: a file just uploaded (and every file on a Karakeep without workers) has no text.
	test('a file record Karakeep has not read yet: empty, complete, and a reason that says why', async () => {
		const uploaded = await pdfRecord();
		const [read] = await run({ resource: 'bookmark', operation: 'getContent', recordId: byId(uploaded.id) });
		expect(read).toMatchObject({ bookmarkType: 'asset', content: '', totalCharacters: 0, complete: true });
		expect(read.reason).toMatch(/^Karakeep has no text of this file yet: .*OCR.*no workers/);
		// A link saved where no crawler runs: its own reason.
		const link = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/not-crawled' } })).json;
		const [page] = await run({ resource: 'bookmark', operation: 'getContent', recordId: byId(link.id) });
		expect(page).toMatchObject({ bookmarkType: 'link', content: '', complete: true, reason: expect.stringMatching(/^Karakeep has not fetched this page yet/) });
		// Content there: no reason.
		const [scanned] = await run({ resource: 'bookmark', operation: 'getContent', recordId: byId((await pdfRecord('Receipt')).id) });
		expect(scanned).not.toHaveProperty('reason');
	});

	test('content changed while read: the read restarts from the start and gives the new content', async () => {
		const record = await newText(paragraphs(4000));
		let edited = false;
		const { json, requests } = await runNode(
			viaSpec,
			{ resource: 'bookmark', operation: 'getContent', recordId: byId(record.id) },
			{
				onRequest: async (request) => {
					// Before the second piece of the first read: the content changes under the reader.
					if (!edited && request.qs?.cursor) {
						edited = true;
						await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { text: paragraphs(4001) } });
					}
				},
			},
		);
		expect(json[0]).toMatchObject({ content: paragraphs(4001), complete: true });
		expect(requests.filter((request) => !request.qs?.cursor)).toHaveLength(2);
	});

	test('content that keeps changing: 4 reads (3 restarts), then a clear error', async () => {
		const record = await newText(paragraphs(4000));
		let version = 4000;
		const error = await nodeFailure(
			viaSpec,
			{ resource: 'bookmark', operation: 'getContent', recordId: byId(record.id) },
			{
				onRequest: async (request) => {
					if (request.qs?.cursor) {
						await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { text: paragraphs(++version) } });
					}
				},
			},
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(`The content of record ${record.id} kept changing while it was read`);
		expect(version).toBe(4004);
	});

	test('as an agent’s tool: the content with personal data redacted', async () => {
		const record = await newText('Applicant: Grace Hopper\n\nContact grace.hopper@example.org about the residency.');
		const { json } = await runNode(viaSpec, { resource: 'bookmark', operation: 'getContent', recordId: byId(record.id), maxCharacters: 2000 }, { tool: true });
		expect(json[0].content).toBe('Applicant: NAME_1\n\nContact EMAIL_1 about the residency.');
	});

	test("an unknown record: Karakeep's 404", async () => {
		const error = await nodeFailure(viaSpec, { resource: 'bookmark', operation: 'getContent', recordId: byId('nosuchrecord0000000000000') });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The Karakeep server answered 404: Bookmark not found');
	});
});

describe('Bookmark → Get returns content completely', () => {
	test('a file record’s extracted text as content.ocrText (and content.content), Simplify off', async () => {
		const scanned = await pdfRecord('Certificate of completion');
		const [record] = await run({ resource: 'bookmark', operation: 'get', recordId: byId(scanned.id), simplify: false });
		expect(record.content).toMatchObject({ type: 'asset', ocrText: 'Certificate of completion', content: 'Certificate of completion', assetType: 'pdf', fileName: 'scan.pdf' });
		const sent = mock.requests.filter((request) => request.path === `/api/v1/bookmarks/${scanned.id}`);
		expect(sent.at(-1)?.query).toEqual({ includeContent: 'true' });
	});

	test('simplified, a file record names its file', async () => {
		const scanned = await pdfRecord();
		const { json: [record] } = await runNode(viaSpec, { resource: 'bookmark', operation: 'get', recordId: byId(scanned.id) }, { node: { typeVersion: 2 } });
		expect(record).toMatchObject({ id: scanned.id, type: 'asset', url: null, file: { assetId: scanned.content.assetId, type: 'pdf', fileName: 'scan.pdf', size: 15 } });
	});
});

describe('Bookmark → Update: every field Karakeep edits', () => {
	test('a link’s URL, description, author, publisher, dates, summary and saved time', async () => {
		const link = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/fields' } })).json;
		const page = {
			url: 'https://example.org/fields-moved',
			description: 'A description',
			author: 'An Author',
			publisher: 'A Publisher',
			datePublished: '2025-03-04T05:06:07.000Z',
			dateModified: '2025-04-05T06:07:08.000Z',
		};
		const record = { title: 'Fields', summary: 'A summary', createdAt: '2020-01-02T03:04:05.000Z' };
		const [updated] = await run({
			resource: 'bookmark',
			operation: 'update',
			recordId: byId(link.id),
			simplify: false,
			updateFields: { ...page, ...record },
		});
		const stored = await raw(link.id);
		expect(stored).toMatchObject({ ...record, content: page });
		expect(updated).toMatchObject({ id: link.id, summary: 'A summary', createdAt: '2020-01-02T03:04:05.000Z', content: stored.content });
		// Moved back in time: the record is now the last in Karakeep's order.
		const all = [];
		let cursor: string | null = null;
		do {
			const page: any = (await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { limit: 100, ...(cursor ? { cursor } : {}) } })).json;
			all.push(...page.bookmarks);
			cursor = page.nextCursor;
		} while (cursor);
		expect(all.at(-1).id).toBe(link.id);

		// Emptied fields are cleared.
		await run({ resource: 'bookmark', operation: 'update', recordId: byId(link.id), updateFields: { author: '', summary: '' } });
		expect(await raw(link.id)).toMatchObject({ summary: null, content: { author: null } });
	});

	test('a text record’s text; a file record’s extracted text', async () => {
		const text = await newText('before');
		await afterSecondOf(text.modifiedAt);
		await run({ resource: 'bookmark', operation: 'update', recordId: byId(text.id), updateFields: { text: 'after' } });
		const stored = await raw(text.id);
		expect(stored.content.text).toBe('after');
		expect(Date.parse(stored.modifiedAt)).toBeGreaterThan(Date.parse(text.modifiedAt));
		const scanned = await pdfRecord();
		await run({ resource: 'bookmark', operation: 'update', recordId: byId(scanned.id), updateFields: { assetContent: 'typed in' } });
		expect((await raw(scanned.id, { includeContent: 'true' })).content.content).toBe('typed in');
	});

	test("Karakeep's refusals in its words; an empty URL or a bad date before anything is sent", async () => {
		const text = await newText('not a link');
		const error = await nodeFailure(viaSpec, { resource: 'bookmark', operation: 'update', recordId: byId(text.id), updateFields: { author: 'Someone' } });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The Karakeep server answered 400: Attempting to set link attributes for non-link type bookmark');
		const before = mock.requests.length;
		expect((await nodeFailure(viaSpec, { resource: 'bookmark', operation: 'update', recordId: byId(text.id), updateFields: { url: ' ' } })).message).toBe(
			'URL: must not be empty (it cannot be cleared)',
		);
		expect((await nodeFailure(viaSpec, { resource: 'bookmark', operation: 'update', recordId: byId(text.id), updateFields: { createdAt: 'soon' } })).message).toBe(
			'Saved At: "soon" is not a date or time: use YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss (optionally with a zone, e.g. Z or +02:00)',
		);
		expect(mock.requests.length).toBe(before);
	});
});

describe('List → Get, smart and nested lists', () => {
	test('raw: a smart list needs a query of qualifiers only; records cannot be added to it by hand', async () => {
		const words = zodIssues(await call(karakeep, 'POST', '/lists', { body: { name: 'S', icon: '📁', type: 'smart', query: 'plain words' } }));
		expect(words[0].message).toBe('Smart lists cannot have unqualified terms (aka full text search terms) in the query');
		const manual = zodIssues(await call(karakeep, 'POST', '/lists', { body: { name: 'M', icon: '📁', query: '#x' } }));
		expect(manual[0].message).toBe('Manual lists cannot have a query');
		const smart = (await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'S', icon: '📁', type: 'smart', query: '#x' } })).json;
		const record = await newText('for a smart list');
		const refused = await call(karakeep, 'PUT', `/lists/${smart.id}/bookmarks/${record.id}`);
		expect([refused.status, refused.text]).toEqual([400, 'Smart lists cannot be added to']);
	});

	test('Create a smart list (its records are those its query finds), a nested list; Get each with its count; Update moves and re-queries', async () => {
		const tagged = await newText('smart member');
		await expectStatus(200, karakeep, 'POST', `/bookmarks/${tagged.id}/tags`, { body: { tags: [{ tagName: 'smart-tag' }] } });
		const [smart] = await run({ resource: 'list', operation: 'create', name: 'Smart', additionalFields: { query: '#smart-tag' } });
		expect(smart).toMatchObject({ name: 'Smart', type: 'smart', query: '#smart-tag', icon: '📁', bookmarkCount: 0 });
		expect((await expectStatus(200, karakeep, 'GET', `/lists/${smart.id}`)).json).toMatchObject({ type: 'smart', query: '#smart-tag' });
		const members = (await expectStatus(200, karakeep, 'GET', `/lists/${smart.id}/bookmarks`)).json.bookmarks;
		expect(members.map((record: { id: string }) => record.id)).toEqual([tagged.id]);

		const [parent] = await run({ resource: 'list', operation: 'create', name: 'Parent' });
		const [child] = await run({ resource: 'list', operation: 'create', name: 'Child', additionalFields: { parentId: byId(parent.id) } });
		expect(child).toMatchObject({ parentId: parent.id, type: 'manual' });
		expect((await expectStatus(200, karakeep, 'GET', `/lists/${child.id}`)).json.parentId).toBe(parent.id);

		await run({ resource: 'bookmark', operation: 'addToList', recordId: byId(tagged.id), listId: byId(child.id) });
		const [read] = await run({ resource: 'list', operation: 'get', listId: byId(child.id) });
		expect(read).toMatchObject({ id: child.id, name: 'Child', parentId: parent.id, description: '', bookmarkCount: 1 });

		const [moved] = await run({ resource: 'list', operation: 'update', listId: byId(child.id), updateFields: { parentId: byId('') } });
		expect(moved).toMatchObject({ id: child.id, parentId: null });
		expect((await expectStatus(200, karakeep, 'GET', `/lists/${child.id}`)).json.parentId).toBeNull();
		await run({ resource: 'list', operation: 'update', listId: byId(smart.id), updateFields: { query: '#other-tag' } });
		expect((await expectStatus(200, karakeep, 'GET', `/lists/${smart.id}`)).json.query).toBe('#other-tag');
	});

	test("List → Get of an unknown list: Karakeep's 404", async () => {
		const error = await nodeFailure(viaSpec, { resource: 'list', operation: 'get', listId: byId('nosuchlist00000000000000') });
		expect(error.message).toBe('The Karakeep server answered 404: List not found');
	});
});

describe('User → Get Stats', () => {
	test("the key's user's numbers, as Karakeep counts them", async () => {
		const [stats] = await run({ resource: 'user', operation: 'getStats' });
		const counted = (await expectStatus(200, karakeep, 'GET', '/users/me/stats')).json;
		expect(stats).toEqual(counted);
		expect(stats).toMatchObject({
			numBookmarks: expect.any(Number),
			bookmarksByType: { link: expect.any(Number), text: expect.any(Number), asset: expect.any(Number) },
			totalAssetSize: expect.any(Number),
		});
		expect(stats.numBookmarks).toBeGreaterThan(0);
		// Who the user is never appears.
		expect(JSON.stringify(stats)).not.toMatch(/admin@example\.com|Karakeep Admin/);
	});
});
