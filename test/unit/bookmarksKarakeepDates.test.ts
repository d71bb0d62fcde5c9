/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a local HTTP server stands in for Karakeep, recording what the node sends */
/**
 * Issue 42, dates on Karakeep. Bookmark → Update's *Saved At*, *Date Published* and *Date Modified*
 * are read as every other date of the pack is (nodes/shared/dates.ts): a time without a zone in the
 * workflow's time zone, a date alone as its first instant there, an impossible date refused naming
 * the field before anything is sent. And Get Many by list asks the list route for what Karakeep
 * leaves out unless asked (`includeContent=true`, which packages/api/routes/lists.ts accepts through
 * `zGetBookmarkQueryParamsSchema`, packages/api/utils/types.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { type IDataObject, NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { executeContext, type Parameters } from './helpers/context';

const RECORD = {
	id: 'r1',
	createdAt: '2026-01-02T03:04:05.000Z',
	modifiedAt: '2026-01-02T03:04:05.000Z',
	title: null,
	note: null,
	archived: false,
	favourited: false,
	tags: [],
	content: { type: 'asset', assetType: 'image', assetId: 'a1' },
	assets: [],
};

let server: Server;
let baseUrl: string;
let sent: Array<{ method: string; path: string; query: Record<string, string>; body?: IDataObject }> = [];

beforeAll(async () => {
	server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			sent.push({
				method: String(request.method),
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				...(text ? { body: JSON.parse(text) as IDataObject } : {}),
			});
			const send = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
			if (url.pathname === '/api/v1/bookmarks/r1') send(RECORD);
			else if (url.pathname === '/api/v1/bookmarks/r1/lists') send({ lists: [] });
			else if (url.pathname === '/api/v1/lists/l1/bookmarks') {
				// As Karakeep: an asset's extracted text only with includeContent=true.
				const content = url.searchParams.get('includeContent') === 'true' ? { ...RECORD.content, content: 'Scanned words' } : RECORD.content;
				send({ bookmarks: [{ ...RECORD, content }], nextCursor: null });
			}
			else if (url.pathname === '/api/v1/lists/l1') send({ id: 'l1', name: 'Scans', icon: '📄', parentId: null, type: 'manual' });
			else response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'NOT_FOUND', message: 'Not found' }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => (sent = []));

const run = async (parameters: Parameters, timezone = 'Europe/Berlin') => {
	const { context } = executeContext({ parameters, credentials: { bookmarkApi: { api: 'karakeep', baseUrl, apiKey: 'key' } }, timezone });
	return (await new Bookmarks().execute.call(context))[0];
};

const update = (updateFields: IDataObject): Parameters => ({
	resource: 'bookmark',
	operation: 'update',
	recordId: { __rl: true, mode: 'id', value: 'r1' },
	updateFields,
});

const patched = () => sent.find((request) => request.method === 'PATCH')?.body;

describe('Bookmark → Update on Karakeep: dates in the workflow\'s time zone', () => {
	it('Saved At without a zone is the wall clock of the workflow\'s time zone; a date alone its first instant there', async () => {
		await run(update({ createdAt: '2026-10-06T18:30', datePublished: '2026-03-15', dateModified: '2026-03-16 09:00' }));
		expect(patched()).toMatchObject({
			createdAt: '2026-10-06T16:30:00.000Z',
			datePublished: '2026-03-14T23:00:00.000Z',
			dateModified: '2026-03-16T08:00:00.000Z',
		});
	});

	it('a zone given wins; a Date from an expression is taken as it is', async () => {
		await run(update({ createdAt: '2026-10-06T18:30:00Z', datePublished: new Date('2026-03-15T12:00:00.000Z') as unknown as string }));
		expect(patched()).toMatchObject({ createdAt: '2026-10-06T18:30:00.000Z', datePublished: '2026-03-15T12:00:00.000Z' });
	});

	it('an impossible date is refused naming the field, before anything is sent', async () => {
		const error = await run(update({ datePublished: '2026-02-30' })).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/^Date Published: February 30, 2026 does not exist/);
		expect(sent).toEqual([]);
	});

	it('an emptied Date Published clears it', async () => {
		await run(update({ datePublished: '' }));
		expect(patched()).toMatchObject({ datePublished: null });
	});
});

describe('Bookmark → Get Many by list on Karakeep', () => {
	it('asks the list route for the records\' content: a file\'s extracted text comes with it', async () => {
		const items = await run({ resource: 'bookmark', operation: 'getMany', returnAll: true, filters: { list: { __rl: true, mode: 'id', value: 'l1' } }, simplify: false }).catch((error: unknown) => {
			throw new Error(`${String(error)} after ${JSON.stringify(sent)}`);
		});
		const listReads = sent.filter((request) => request.path === '/api/v1/lists/l1/bookmarks');
		expect(listReads.map((request) => request.query.includeContent)).toEqual(['true']);
		expect((items[0].json.content as IDataObject).ocrText).toBe('Scanned words');
	});
});
