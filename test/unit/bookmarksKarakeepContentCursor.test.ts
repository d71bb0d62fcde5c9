/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a local HTTP server stands in for a Karakeep whose content cursor misbehaves */
/**
 * Bookmark → Get Content reads Karakeep's `/bookmarks/{id}/content` piece by piece, following
 * `nextCursor` (packages/api/utils/readableContent.ts: each piece starts where the one before
 * ended, `range` always given). Issue 42: a server that repeated its cursor or omitted `range` was
 * read for ever (202 requests until the test's server was stopped). The real Karakeep cannot be
 * made to misbehave, so a server on 127.0.0.1 answers as the test says.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { executeContext } from './helpers/context';

type Piece = { content: string; range?: { start: number; end: number; total: number }; nextCursor: string | null };

let server: Server;
let baseUrl: string;
/** The cursors the node sent, in order (`''` for the first piece). */
let asked: string[] = [];
/** The server's answer to a cursor (`''` for the first piece). */
let answer: (cursor: string) => Piece;

beforeAll(async () => {
	server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		const cursor = url.searchParams.get('cursor') ?? '';
		asked.push(cursor);
		// A runaway read stops here, so that a test without the fix fails instead of running for ever.
		if (asked.length > 50 || url.pathname !== '/api/v1/bookmarks/r1/content') {
			response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'STOP', message: 'Too many reads' }));
			return;
		}
		const body = { bookmarkType: 'text', contentVersion: 'v1', format: 'markdown', ...answer(cursor) };
		response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => (asked = []));

const getContent = async () => {
	const { context } = executeContext({
		parameters: { resource: 'bookmark', operation: 'getContent', recordId: { __rl: true, mode: 'id', value: 'r1' }, format: 'markdown', maxCharacters: 0 },
		credentials: { bookmarkApi: { api: 'karakeep', baseUrl, apiKey: 'key' } },
	});
	const [items] = await new Bookmarks().execute.call(context);
	return items[0].json;
};

/** Ten characters a piece, of `total`, the cursor naming where the next starts. */
const honest = (total: number) => (cursor: string): Piece => {
	const start = cursor === '' ? 0 : Number(cursor.slice(1));
	const end = Math.min(total, start + 10);
	return { content: 'x'.repeat(end - start), range: { start, end, total }, nextCursor: end < total ? `@${end}` : null };
};

test('reads a content whose cursor advances to its end', async () => {
	answer = honest(25);
	expect(await getContent()).toMatchObject({ characters: 25, totalCharacters: 25, complete: true, content: 'x'.repeat(25) });
	expect(asked).toEqual(['', '@10', '@20']);
});

test.each<[string, (cursor: string) => Piece, RegExp, number]>([
	[
		'gives back the cursor it was sent',
		(cursor) => (cursor === '' ? honest(100)('') : { content: 'y', range: { start: 10, end: 20, total: 100 }, nextCursor: cursor }),
		/gave back the cursor it was sent/,
		2,
	],
	['omits range', () => ({ content: 'z', nextCursor: 'again' }), /has no valid range \(null\)/, 1],
	[
		'goes round two cursors, starting again from the beginning',
		(cursor) => (cursor === 'b' ? { content: 'b', range: { start: 10, end: 20, total: 100 }, nextCursor: 'a' } : { content: 'a', range: { start: 0, end: 10, total: 100 }, nextCursor: 'b' }),
		/starts at character 0 of 100, where the one before ended at 20 of 100/,
		3,
	],
	[
		'answers an empty piece with a next cursor',
		(cursor) => (cursor === '' ? honest(100)('') : { content: '', range: { start: 10, end: 10, total: 100 }, nextCursor: `${cursor}+` }),
		/the piece at character 10 is empty/,
		2,
	],
])('refuses a server that %s, after the piece that shows it', async (_, serverAnswer, reason, requests) => {
	answer = serverAnswer;
	const error = await getContent().catch((caught: unknown) => caught);
	expect(error).toBeInstanceOf(NodeOperationError);
	expect((error as NodeOperationError).message).toBe("The Karakeep server's content cursor does not advance");
	expect((error as NodeOperationError).description).toMatch(reason);
	expect(asked).toHaveLength(requests);
});
