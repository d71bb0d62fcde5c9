/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a local HTTP server stands in for a Karakeep that pages its tags */
/**
 * Get Many by tag on Karakeep finds the tag's id by its name on `GET /tags`, which Karakeep answers
 * all at once today but pages once its limit is enforced (packages/api/routes/tags.ts,
 * packages/shared/types/tags.ts: `// TODO: Remove the optional to enforce a limit`). The real
 * Karakeep cannot be made to page here, so a server on 127.0.0.1 answers the tags in two pages,
 * the one asked for on the second.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { executeContext } from './helpers/context';

const RECORD = {
	id: 'r1',
	createdAt: '2026-01-02T03:04:05.000Z',
	modifiedAt: '2026-01-02T03:04:05.000Z',
	title: null,
	note: null,
	archived: false,
	favourited: false,
	tags: [{ id: 't-wanted', name: 'wanted', attachedBy: 'human' }],
	content: { type: 'link', url: 'https://example.org/tagged' },
	assets: [],
};

let server: Server;
let baseUrl: string;
const asked: string[] = [];

beforeAll(async () => {
	server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		asked.push(`${url.pathname}${url.search}`);
		const send = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		if (url.pathname === '/api/v1/tags') {
			// Names that contain "wanted": another one first, the exact one on the next page.
			if (!url.searchParams.get('cursor')) send({ tags: [{ id: 't-other', name: 'unwanted', numBookmarks: 0 }], nextCursor: 'page-2' });
			else send({ tags: [{ id: 't-wanted', name: 'wanted', numBookmarks: 1 }], nextCursor: null });
		} else if (url.pathname === '/api/v1/tags/t-wanted/bookmarks') send({ bookmarks: [RECORD], nextCursor: null });
		else if (url.pathname === '/api/v1/bookmarks/r1/lists') send({ lists: [] });
		else response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'NOT_FOUND', message: 'Not found' }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

test('Get Many by tag follows the pages of GET /tags to find the tag by its exact name', async () => {
	const { context } = executeContext({
		parameters: { resource: 'bookmark', operation: 'getMany', returnAll: true, filters: { tag: 'wanted' } },
		credentials: { bookmarkApi: { api: 'karakeep', baseUrl, apiKey: 'key' } },
	});
	const [items] = await new Bookmarks().execute.call(context);
	expect(items.map((item) => item.json.id)).toEqual(['r1']);
	expect(asked.filter((path) => path.startsWith('/api/v1/tags?'))).toEqual([
		'/api/v1/tags?nameContains=wanted&limit=1000',
		'/api/v1/tags?nameContains=wanted&limit=1000&cursor=page-2',
	]);
});
