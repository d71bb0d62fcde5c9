/* eslint-disable @typescript-eslint/no-explicit-any -- answers are JSON of many shapes; each test states the shape it expects */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test files on disk, as n8n's filesystem binary mode keeps them */
/**
 * Files on the real Karakeep: Bookmark → Create From File, Asset → Download, Attach, Replace,
 * Detach. The facts raw first, then the Bookmarks node, each result checked through Karakeep's own
 * API (the record, its tags and lists, the file's bytes), every request against Karakeep's OpenAPI
 * file (the validating mock in front of the real server, which also reads the multipart body).
 *
 * The server runs with `MAX_ASSET_SIZE_MB=2`, so that its limit is met with a 3 MB file rather than
 * 50 MB; a second one with `FREE_QUOTA_ASSET_SIZE_BYTES` gives its user a storage quota. Sources
 * (commit 7ca5ee2): packages/api/routes/assets.ts, packages/api/utils/upload.ts (uploadAsset),
 * packages/api/utils/assets.ts (serveAsset), packages/shared/assetdb.ts (the types kept),
 * packages/shared/config.ts (MAX_ASSET_SIZE_MB, FREE_QUOTA_ASSET_SIZE_BYTES),
 * packages/shared-server/src/services/quotaService.ts, packages/trpc/routers/bookmarks.ts
 * (createBookmark, type asset), packages/trpc/models/assets.ts (attach, replace, detach),
 * packages/trpc/lib/attachments.ts.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import type { IBinaryData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PROJECT_ROOT } from '../harness/paths';
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import type { KarakeepSpecMock } from '../harness/karakeepSpecMock';
import { inputBinary, storedBinary } from '../unit/helpers/context';
import { call, expectStatus, START_TIMEOUT_MS } from './api';
import { byId, karakeepBehindSpec, nodeFailure, runNode } from './node';

const MAX_ASSET_SIZE_MB = 2;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const servers = karakeepBehindSpec({ env: { MAX_ASSET_SIZE_MB: String(MAX_ASSET_SIZE_MB) } });
let karakeep: KarakeepServer;
let mock: KarakeepSpecMock;
let viaSpec: { url: string; apiKey: string };
let files: string;

beforeAll(() => {
	({ karakeep, mock, viaSpec } = servers);
	files = mkdtempSync(path.join(PROJECT_ROOT, '.tmp', 'assets-'));
});
afterAll(() => {
	if (files) rmSync(files, { recursive: true, force: true });
});

/** A PDF of `size` bytes: a PDF header and pseudo-random bytes after it, different for each seed. */
function pdfBytes(size: number, seed = 1): Buffer {
	const bytes = Buffer.alloc(size);
	let state = seed;
	for (let index = 0; index < size; index++) {
		state = (state * 1_103_515_245 + 12_345) >>> 0;
		bytes[index] = state >>> 24;
	}
	Buffer.from('%PDF-1.7\n').copy(bytes);
	return bytes;
}
/** The smallest PNG (1×1, transparent) with `seed` in a comment chunk, so two differ. */
const pngBytes = (seed = 0) =>
	Buffer.concat([
		Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
		Buffer.from('1f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f6e6a10000000049454e44ae426082', 'hex'),
		Buffer.from([seed]),
	]);

/** Raw upload as Karakeep's own clients send it (fetch's FormData). */
async function upload(bytes: Buffer, fileName: string, type: string, server = karakeep) {
	const form = new FormData();
	form.append('file', new File([bytes], fileName, { type }));
	const response = await fetch(`${server.url}/api/v1/assets`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}` }, body: form });
	return { status: response.status, json: (await response.json()) as any };
}
async function download(assetId: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
	const response = await fetch(`${karakeep.url}/api/v1/assets/${assetId}`, { headers: { authorization: `Bearer ${karakeep.apiKey}` } });
	return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}
/** Files compared by SHA-256: jest compares a Buffer byte by byte as an object, slowly. */
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const raw = async (id: string) => (await expectStatus(200, karakeep, 'GET', `/bookmarks/${id}`)).json;
const newLink = async (url: string) => (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url } })).json;

/** A file written where n8n's filesystem mode would keep it, as the item's binary data. */
function stored(bytes: Buffer, fileName: string, mimeType: string): IBinaryData {
	const file = path.join(files, `${Math.random().toString(36).slice(2)}-${fileName}`);
	writeFileSync(file, bytes);
	return storedBinary(file, fileName, mimeType);
}

describe('Files, raw', () => {
	test('upload: 200 {assetId (a UUID), contentType, size, fileName}; the type is told from the bytes, not the declared one', async () => {
		const pdf = pdfBytes(1000);
		const uploaded = await upload(pdf, 'declared.png', 'image/png');
		expect(uploaded).toEqual({ status: 200, json: { assetId: expect.stringMatching(UUID), contentType: 'application/pdf', size: 1000, fileName: 'declared.png' } });
		expect(await download(uploaded.json.assetId)).toEqual({ status: 200, type: 'application/pdf', bytes: pdf });
		// Non-ASCII characters of a name become _.
		expect((await upload(pdfBytes(10), 'Zoë.pdf', 'application/pdf')).json.fileName).toBe('Zo_.pdf');
	});

	test('refusals: 400 {"error":"Unsupported asset type"} for a type it does not keep, 413 {"error":"Asset is too big"} over MAX_ASSET_SIZE_MB', async () => {
		expect(await upload(Buffer.from('plain words'), 'notes.txt', 'text/plain')).toEqual({ status: 400, json: { error: 'Unsupported asset type' } });
		// Declared a PDF, but its bytes are not one.
		expect(await upload(Buffer.from('plain words'), 'fake.pdf', 'application/pdf')).toEqual({ status: 400, json: { error: 'Unsupported asset type' } });
		expect((await upload(pdfBytes(MAX_ASSET_SIZE_MB * 1_048_576), 'at-limit.pdf', 'application/pdf')).status).toBe(200);
		expect(await upload(pdfBytes(MAX_ASSET_SIZE_MB * 1_048_576 + 1), 'over.pdf', 'application/pdf')).toEqual({ status: 413, json: { error: 'Asset is too big' } });
	});

	test('a record of a file: 201, type asset; only PDFs and images; downloads: bytes, Content-Type, Content-Length; HEAD too; unknown: 404 "Asset not found"', async () => {
		const { json: asset } = await upload(pdfBytes(500), 'record.pdf', 'application/pdf');
		const created = await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'asset', assetType: 'pdf', assetId: asset.assetId, fileName: 'record.pdf' } });
		expect(created.json).toMatchObject({ alreadyExists: false, tags: [], assets: [], content: { type: 'asset', assetType: 'pdf', assetId: asset.assetId, fileName: 'record.pdf' } });
		expect((await raw(created.json.id)).assets).toEqual([{ id: asset.assetId, assetType: 'bookmarkAsset', fileName: 'record.pdf' }]);
		const { json: html } = await upload(Buffer.from('<html><body>page</body></html>'), 'page.html', 'text/html');
		const refused = await call(karakeep, 'POST', '/bookmarks', { body: { type: 'asset', assetType: 'pdf', assetId: html.assetId } });
		expect([refused.status, refused.text]).toEqual([400, 'Unsupported asset type']);
		const head = await fetch(`${karakeep.url}/api/v1/assets/${asset.assetId}`, { method: 'HEAD', headers: { authorization: `Bearer ${karakeep.apiKey}` } });
		expect([head.status, head.headers.get('content-type'), head.headers.get('content-length')]).toEqual([200, 'application/pdf', '500']);
		const unknown = await call(karakeep, 'GET', '/assets/00000000-0000-0000-0000-000000000000');
		expect([unknown.status, unknown.text]).toEqual([404, 'Asset not found']);
	});

	test('attach: 201 {id, assetType, fileName}; replace: 204, the old file gone; detach: 204, again 404; a record’s own file cannot be detached', async () => {
		const link = await newLink('https://example.org/raw-attach');
		const { json: first } = await upload(pngBytes(1), 'shot.png', 'image/png');
		const attached = await expectStatus(201, karakeep, 'POST', `/bookmarks/${link.id}/assets`, { body: { id: first.assetId, assetType: 'screenshot' } });
		expect(attached.json).toEqual({ id: first.assetId, assetType: 'screenshot', fileName: 'shot.png' });
		const { json: second } = await upload(pngBytes(2), 'shot2.png', 'image/png');
		await expectStatus(204, karakeep, 'PUT', `/bookmarks/${link.id}/assets/${first.assetId}`, { body: { assetId: second.assetId } });
		expect((await download(first.assetId)).status).toBe(404);
		expect((await raw(link.id)).assets).toEqual([{ id: second.assetId, assetType: 'screenshot', fileName: 'shot2.png' }]);
		await expectStatus(204, karakeep, 'DELETE', `/bookmarks/${link.id}/assets/${second.assetId}`);
		expect((await call(karakeep, 'DELETE', `/bookmarks/${link.id}/assets/${second.assetId}`)).status).toBe(404);
		expect((await raw(link.id)).assets).toEqual([]);

		const { json: own } = await upload(pdfBytes(50), 'own.pdf', 'application/pdf');
		const record = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'asset', assetType: 'pdf', assetId: own.assetId } })).json;
		const kept = await call(karakeep, 'DELETE', `/bookmarks/${record.id}/assets/${own.assetId}`);
		expect([kept.status, kept.text]).toEqual([400, "You can't detach this type of asset"]);
	});
});

describe('Bookmark → Create From File (the node)', () => {
	test('a PDF in n8n’s filesystem mode: streamed up, a PDF record with title, note, tags and list, the file byte for byte', async () => {
		const pdf = pdfBytes(1_500_000, 7);
		const [list] = (await runNode(viaSpec, { resource: 'list', operation: 'create', name: 'Signed' })).json;
		const before = mock.requests.length;
		const { json: [record] } = await runNode(
			viaSpec,
			{
				resource: 'bookmark',
				operation: 'createFromFile',
				binaryPropertyName: 'data',
				title: 'Signed agreement',
				tags: 'signed, agreement',
				notes: 'Completed by every signer',
				options: { list: byId(list.id) },
			},
			{ binaries: [{ data: stored(pdf, 'agreement.pdf', 'application/pdf') }] },
		);
		expect(record).toMatchObject({
			title: 'Signed agreement',
			note: 'Completed by every signer',
			listIds: [list.id],
			content: { type: 'asset', assetType: 'pdf', fileName: 'agreement.pdf', size: pdf.length },
		});
		// Karakeep's own view of it.
		const stored_ = await raw(record.id);
		expect(stored_).toMatchObject({ title: 'Signed agreement', note: 'Completed by every signer', content: { type: 'asset', assetType: 'pdf', assetId: record.content.assetId } });
		expect(stored_.tags.map((tag: { name: string }) => tag.name).sort()).toEqual(['agreement', 'signed']);
		expect((await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}/lists`)).json.lists.map((one: { id: string }) => one.id)).toEqual([list.id]);
		const kept = await download(record.content.assetId);
		expect({ ...kept, bytes: digest(kept.bytes) }).toEqual({ status: 200, type: 'application/pdf', bytes: digest(pdf) });
		// The upload as it went over the wire: one part "file", the PDF's name, type and bytes.
		const sent = mock.requests.slice(before);
		const parts = sent.find((request) => request.operationId === 'uploadAsset')?.parts ?? [];
		expect(parts.map((part) => ({ ...part, body: digest(part.body) }))).toEqual([
			{ name: 'file', fileName: 'agreement.pdf', contentType: 'application/pdf', body: digest(pdf) },
		]);
		expect(sent.map((request) => request.operationId)).toEqual([
			'uploadAsset',
			'createBookmark',
			'attachTagsToBookmark',
			'getBookmark',
			'addBookmarkToList',
			'getBookmark',
			'getBookmarkLists',
		]);
	});

	test('an image in n8n’s in-memory mode: an image record; simplified, it names its file', async () => {
		const png = pngBytes(9);
		const { json: [record] } = await runNode(
			viaSpec,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'picture', options: { fileName: 'renamed.png' } },
			{ binaries: [{ picture: inputBinary(png, 'photo.png', 'image/png') }], node: { typeVersion: 2 } },
		);
		expect(record).toMatchObject({ type: 'asset', title: null, tags: [], file: { type: 'image', fileName: 'renamed.png', size: png.length } });
		expect(await download(record.file.assetId)).toEqual({ status: 200, type: 'image/png', bytes: png });
	});

	test('refused before anything is sent: not a PDF or image, over the limit set, no such binary field', async () => {
		const before = mock.requests.length;
		const text = await nodeFailure(
			viaSpec,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data' },
			{ binaries: [{ data: inputBinary(Buffer.from('just words'), 'notes.pdf', 'application/pdf') }] },
		);
		expect(text).toBeInstanceOf(NodeOperationError);
		expect(text.message).toBe(
			'Input Binary Field: the file "notes.pdf" is not a PDF, GIF image, JPEG image, PNG image or WebP image by its first bytes (n8n calls it application/pdf). Only PDFs and images are kept as a record of their own: attach other files to a record with Asset → Attach.',
		);
		const video = await nodeFailure(
			viaSpec,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data' },
			{ binaries: [{ data: inputBinary(Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypmp42')]), 'clip.mp4', 'video/mp4') }] },
		);
		expect(video.message).toMatch(/^Input Binary Field: the file "clip.mp4" is an MP4 video\. Only PDFs and images/);
		const large = await nodeFailure(
			viaSpec,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data', options: { maxFileMegabytes: 1 } },
			{ binaries: [{ data: stored(pdfBytes(1_048_577), 'large.pdf', 'application/pdf') }] },
		);
		expect(large.message).toBe(
			"Input Binary Field: the file \"large.pdf\" is 1.0 MB; the server takes files up to 1 MB (Karakeep's MAX_ASSET_SIZE_MB, 50 MB unless the server sets another: if yours allows more, raise Options → Largest File (MB))",
		);
		const missing = await nodeFailure(viaSpec, { resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'file' }, { binaries: [{ data: inputBinary(pdfBytes(10), 'a.pdf', 'application/pdf') }] });
		expect(missing.message).toBe('Input Binary Field: input item 0 has no binary field "file"; its binary fields are "data"');
		expect(mock.requests.length).toBe(before);
	});

	test("over the server's own limit: Karakeep's 413 with its setting named; the item's error keeps its place (Continue On Fail)", async () => {
		const { json } = await runNode(
			viaSpec,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data' },
			{
				binaries: [
					{ data: stored(pdfBytes(MAX_ASSET_SIZE_MB * 1_048_576 + 1), 'over.pdf', 'application/pdf') },
					{ data: inputBinary(pdfBytes(100), 'small.pdf', 'application/pdf') },
				],
				items: [{}, {}],
				continueOnFail: true,
			},
		);
		expect(json[0]).toEqual({ error: 'The Karakeep server answered 413: Asset is too big' });
		expect(json[1]).toMatchObject({ content: { type: 'asset', fileName: 'small.pdf' } });
		const error = await nodeFailure(
			viaSpec,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data' },
			{ binaries: [{ data: stored(pdfBytes(MAX_ASSET_SIZE_MB * 1_048_576 + 1), 'over.pdf', 'application/pdf') }] },
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.description).toContain('Karakeep takes files up to its MAX_ASSET_SIZE_MB (50 MB unless the server sets another limit)');
	});

	test('a failure after the upload says what exists and how to complete it', async () => {
		const error = await nodeFailure(
			viaSpec,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data', tags: 'kept', options: { list: byId('nosuchlist00000000000000') } },
			{ binaries: [{ data: inputBinary(pdfBytes(100, 3), 'half.pdf', 'application/pdf') }] },
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The Karakeep server answered 404: List not found');
		const recordId = /Record (\w+) was created from the file \(asset ([0-9a-f-]+)\), its tags \(kept\) were attached; to complete it, add it to list nosuchlist00000000000000 with Bookmark → Add to List\. Running this item again would store the file a second time\./.exec(
			error.description,
		)?.[1];
		expect(recordId).toBeDefined();
		expect((await raw(recordId!)).tags.map((tag: { name: string }) => tag.name)).toEqual(['kept']);
	});
});

/**
 * Half-way failures say what exists by how the failing write ended (nodes/shared/writeOutcome.ts):
 * a lost answer leaves a POST's effect unknown, a failed read after a write leaves the write done.
 */
describe('Create From File and Attach that fail after the upload: the message says what exists', () => {
	const RECORD = /^\/api\/v1\/bookmarks\/[a-z0-9]+$/;

	test('the record’s create whose answer was lost: a record may exist, not "no record was made"', async () => {
		mock.failNext({ method: 'POST', path: /^\/api\/v1\/bookmarks$/, drop: true, afterHandling: true });
		const error = await nodeFailure(
			viaSpec,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data', title: 'Lost create', tags: 'lost' },
			{ binaries: [{ data: inputBinary(pdfBytes(2_000, 31), 'lost.pdf', 'application/pdf') }] },
		);
		expect(error.description).toMatch(/The file was uploaded \(asset [0-9a-f-]+\); whether a record was made of it is unknown, as the answer was lost/);
		expect(error.description).toContain('Either way, its tags (lost) were not attached.');
		expect(error.description).not.toContain('no record was made');
		// Karakeep carried the create out: the record is there.
		const { bookmarks } = (await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { limit: 100 } })).json;
		expect(bookmarks.filter((bookmark: any) => bookmark.title === 'Lost create')).toHaveLength(1);
	});

	test('tags attached and only the read after them failed: says they were attached, not "attach the tags"', async () => {
		// After the upload, the create and the tags, the read of the tagged record.
		mock.failNext({ method: 'GET', path: RECORD, status: 500 });
		const error = await nodeFailure(
			viaSpec,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data', title: 'Read after tags', tags: 'attached' },
			{ binaries: [{ data: inputBinary(pdfBytes(2_000, 32), 'tagged.pdf', 'application/pdf') }] },
		);
		expect(error.description).toMatch(/Record [a-z0-9]+ was created from the file \(asset [0-9a-f-]+\), its tags \(attached\) were attached, as asked; only reading it back failed\./);
		expect(error.description).not.toContain('Add Tags');
	});

	test('an attach whose answer was lost: whether the file is on the record is unknown, not "kept unattached"', async () => {
		const link = await newLink('https://example.org/node-attach-lost');
		mock.failNext({ method: 'POST', path: /^\/api\/v1\/bookmarks\/[a-z0-9]+\/assets$/, drop: true, afterHandling: true });
		const error = await nodeFailure(
			viaSpec,
			{ resource: 'asset', operation: 'attach', recordId: byId(link.id), binaryPropertyName: 'data' },
			{ binaries: [{ data: inputBinary(pngBytes(6), 'lost.png', 'image/png') }] },
		);
		expect(error.description).toMatch(
			new RegExp(`The file was uploaded \\(asset [0-9a-f-]+\\); whether it was put on record ${link.id} is unknown, as the answer was lost`),
		);
		expect(error.description).not.toContain('kept unattached');
		expect((await raw(link.id)).assets).toEqual([expect.objectContaining({ assetType: 'userUploaded', fileName: 'lost.png' })]);
	});
});

describe('Bookmark → Create From File against a storage quota', () => {
	let quotaServer: KarakeepServer;
	beforeAll(async () => {
		quotaServer = await startKarakeep({ env: { FREE_QUOTA_ASSET_SIZE_BYTES: '3000' } });
	}, START_TIMEOUT_MS);
	afterAll(async () => await quotaServer?.stop());

	test("a file over the user's quota: Karakeep's 403 in its words", async () => {
		expect((await upload(pdfBytes(2000), 'first.pdf', 'application/pdf', quotaServer)).status).toBe(200);
		const error = await nodeFailure(
			quotaServer,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data' },
			{ binaries: [{ data: inputBinary(pdfBytes(2000), 'second.pdf', 'application/pdf') }] },
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The Karakeep server answered 403: Storage quota exceeded. Current usage: 0MB, Quota: 0MB, Requested: 0MB');
		expect(error.description).toContain('storage quota');
	});
});

describe('Asset → Download, Attach, Replace, Detach (the node)', () => {
	test('Download: the file into n8n’s binary data, named by its type; as a tool, what it is without its bytes', async () => {
		const pdf = pdfBytes(4000, 11);
		const { json: asset } = await upload(pdf, 'report.pdf', 'application/pdf');
		const { items } = await runNode(viaSpec, { resource: 'asset', operation: 'download', assetId: asset.assetId, binaryPropertyName: 'file' });
		expect(items[0].json).toEqual({ assetId: asset.assetId, fileName: `${asset.assetId}.pdf`, mimeType: 'application/pdf', fileSize: 4000 });
		expect(items[0].binary?.file).toMatchObject({ mimeType: 'application/pdf', fileName: `${asset.assetId}.pdf` });
		expect(Buffer.from(items[0].binary!.file.data, 'base64')).toEqual(pdf);
		const named = await runNode(viaSpec, { resource: 'asset', operation: 'download', assetId: asset.assetId, binaryPropertyName: 'data', options: { fileName: 'Q3/report.pdf' } });
		expect(named.items[0].binary?.data.fileName).toBe('Q3_report.pdf');
		const asTool = await runNode(
			viaSpec,
			{ resource: 'asset', operation: 'download', assetId: asset.assetId, binaryPropertyName: 'data' },
			{ tool: true },
		);
		expect(asTool.items).toEqual([{ json: { assetId: asset.assetId, fileName: `${asset.assetId}.pdf`, mimeType: 'application/pdf', fileSize: 4000 }, pairedItem: { item: 0 } }]);
		expect(asTool.requests.map((request) => request.method)).toEqual(['HEAD']);
		const unknown = await nodeFailure(viaSpec, { resource: 'asset', operation: 'download', assetId: '00000000-0000-0000-0000-000000000000', binaryPropertyName: 'data' });
		expect(unknown.message).toBe('The Karakeep server answered 404: Asset not found');
	});

	test('Attach a screenshot, Replace it, Detach it: each seen in Karakeep', async () => {
		const link = await newLink('https://example.org/node-attach');
		const first = pngBytes(21);
		const [attached] = (
			await runNode(
				viaSpec,
				{ resource: 'asset', operation: 'attach', recordId: byId(link.id), binaryPropertyName: 'data', assetType: 'screenshot' },
				{ binaries: [{ data: inputBinary(first, 'page.png', 'image/png') }] },
			)
		).json;
		expect(attached).toEqual({ recordId: link.id, assetId: expect.stringMatching(UUID), assetType: 'screenshot', fileName: 'page.png', mimeType: 'image/png', fileSize: first.length });
		expect((await raw(link.id)).assets).toEqual([{ id: attached.assetId, assetType: 'screenshot', fileName: 'page.png' }]);
		expect((await download(attached.assetId)).bytes).toEqual(first);

		const second = pngBytes(22);
		const [replaced] = (
			await runNode(
				viaSpec,
				{ resource: 'asset', operation: 'replace', recordId: byId(link.id), assetId: attached.assetId, binaryPropertyName: 'data' },
				{ binaries: [{ data: stored(second, 'page-2.png', 'image/png') }] },
			)
		).json;
		expect(replaced).toMatchObject({ recordId: link.id, replacedAssetId: attached.assetId, assetId: expect.stringMatching(UUID), fileName: 'page-2.png' });
		expect((await download(attached.assetId)).status).toBe(404);
		expect((await raw(link.id)).assets).toEqual([{ id: replaced.assetId, assetType: 'screenshot', fileName: 'page-2.png' }]);
		expect((await download(replaced.assetId)).bytes).toEqual(second);

		expect((await runNode(viaSpec, { resource: 'asset', operation: 'detach', recordId: byId(link.id), assetId: replaced.assetId })).json).toEqual([
			{ detached: true, recordId: link.id, assetId: replaced.assetId, alreadyGone: false },
		]);
		expect((await raw(link.id)).assets).toEqual([]);
		expect((await download(replaced.assetId)).status).toBe(404);
		expect(
			(await runNode(viaSpec, { resource: 'asset', operation: 'detach', recordId: byId(link.id), assetId: replaced.assetId, ifAlreadyGone: 'succeed' })).json,
		).toEqual([{ detached: true, recordId: link.id, assetId: replaced.assetId, alreadyGone: true }]);
	});

	test('an HTML page attached as the page archive; a failed attach says the upload is kept unattached', async () => {
		const link = await newLink('https://example.org/node-archive');
		const page = Buffer.from('<!doctype html><html><body>archived</body></html>');
		const [attached] = (
			await runNode(
				viaSpec,
				{ resource: 'asset', operation: 'attach', recordId: byId(link.id), binaryPropertyName: 'data', assetType: 'precrawledArchive' },
				{ binaries: [{ data: inputBinary(page, 'page.html', 'text/html') }] },
			)
		).json;
		expect(attached).toMatchObject({ assetType: 'precrawledArchive', mimeType: 'text/html' });
		expect((await download(attached.assetId)).bytes).toEqual(page);

		const error = await nodeFailure(
			viaSpec,
			{ resource: 'asset', operation: 'attach', recordId: byId('nosuchrecord000000000000'), binaryPropertyName: 'data' },
			{ binaries: [{ data: inputBinary(pngBytes(5), 'x.png', 'image/png') }] },
		);
		expect(error.message).toBe('The Karakeep server answered 404: Bookmark not found');
		expect(error.description).toMatch(/The file was uploaded \(asset [0-9a-f-]+\) but not put on record nosuchrecord000000000000: it is kept unattached\./);
	});

	test('a PDF record’s preview image: Attach As offers every type Karakeep attaches (isAllowedToAttachAsset), assetScreenshot too', async () => {
		const { json: [record] } = await runNode(
			viaSpec,
			{ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data' },
			{ binaries: [{ data: inputBinary(pdfBytes(2_000, 41), 'preview.pdf', 'application/pdf') }] },
		);
		const [attached] = (
			await runNode(
				viaSpec,
				{ resource: 'asset', operation: 'attach', recordId: byId(record.id), binaryPropertyName: 'data', assetType: 'assetScreenshot' },
				{ binaries: [{ data: inputBinary(pngBytes(7), 'first-page.png', 'image/png') }] },
			)
		).json;
		expect(attached).toMatchObject({ assetType: 'assetScreenshot', mimeType: 'image/png' });
		expect((await raw(record.id)).assets).toContainEqual({ id: attached.assetId, assetType: 'assetScreenshot', fileName: 'first-page.png' });
	});

	test('as a tool, Replace and Detach refuse without the consent switch (they delete a file), before anything is sent', async () => {
		const before = mock.requests.length;
		const detach = await nodeFailure(viaSpec, { resource: 'asset', operation: 'detach', recordId: byId('r'), assetId: 'a' }, { tool: true });
		expect(detach.message).toBe('Detaching files is not allowed for an AI agent');
		const replace = await nodeFailure(
			viaSpec,
			{ resource: 'asset', operation: 'replace', recordId: byId('r'), assetId: 'a', binaryPropertyName: 'data' },
			{ tool: true, binaries: [{ data: inputBinary(pngBytes(), 'x.png', 'image/png') }] },
		);
		expect(replace.message).toBe('Replacing files is not allowed for an AI agent');
		expect(mock.requests.length).toBe(before);
	});
});
