/**
 * The Bookmarks operations only Karakeep has, on a credential of the documented API: each fails at
 * once, before anything is sent, with the shared "… is available with the Karakeep API" error
 * (bookmarkApis.capability). What they do on Karakeep is tested against the real Karakeep
 * (test/karakeep/). The documented API's own operations are in bookmarks*.test.ts.
 */
import { NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { executeContext, inputBinary, type Parameters, pollContext } from './helpers/context';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const PDF = inputBinary(Buffer.from('%PDF-1.4\n%%EOF\n'), 'a.pdf', 'application/pdf');

/** Each operation with the parameters it needs, and the name the error gives it. */
const KARAKEEP_ONLY: Array<[string, Parameters]> = [
	['Bookmark → Create From File', { resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data' }],
	['Bookmark → Get Content', { resource: 'bookmark', operation: 'getContent', recordId: byId('r1') }],
	['Bookmark → Check URL', { resource: 'bookmark', operation: 'checkUrl', url: 'https://example.org/' }],
	['Bookmark → Summarize', { resource: 'bookmark', operation: 'summarize', recordId: byId('r1') }],
	['Bookmark → Update of Saved At, Summary', {
		resource: 'bookmark',
		operation: 'update',
		recordId: byId('r1'),
		updateFields: { summary: 'Short', createdAt: '2026-01-02T03:04:05Z' },
	}],
	['Asset → Download', { resource: 'asset', operation: 'download', assetId: 'a1', binaryPropertyName: 'data' }],
	['Asset → Attach', { resource: 'asset', operation: 'attach', recordId: byId('r1'), binaryPropertyName: 'data' }],
	['Asset → Replace', { resource: 'asset', operation: 'replace', recordId: byId('r1'), assetId: 'a1', binaryPropertyName: 'data' }],
	['Asset → Detach', { resource: 'asset', operation: 'detach', recordId: byId('r1'), assetId: 'a1' }],
	['Tag → Create', { resource: 'tag', operation: 'create', name: 'new' }],
	['Tag → Get', { resource: 'tag', operation: 'get', tagId: byId('t1') }],
	['Tag → Rename', { resource: 'tag', operation: 'rename', tagId: byId('t1'), name: 'other' }],
	['Tag → Delete', { resource: 'tag', operation: 'delete', tagId: byId('t1') }],
	['Highlight → Create', {
		resource: 'highlight',
		operation: 'create',
		recordId: byId('r1'),
		text: 'Hello',
		startOffset: 0,
		endOffset: 5,
	}],
	['Highlight → Get', { resource: 'highlight', operation: 'get', highlightId: 'h1' }],
	['Highlight → Get Many', { resource: 'highlight', operation: 'getMany', returnAll: true }],
	['Highlight → Update', { resource: 'highlight', operation: 'update', highlightId: 'h1', updateFields: { note: 'n' } }],
	['Highlight → Delete', { resource: 'highlight', operation: 'delete', highlightId: 'h1' }],
	['List → Get', { resource: 'list', operation: 'get', listId: byId('l1') }],
	['List → Create with a Smart List Query or Parent List', {
		resource: 'list',
		operation: 'create',
		name: 'Smart',
		additionalFields: { query: '#to-review' },
	}],
	['List → Update of a Smart List Query or Parent List', {
		resource: 'list',
		operation: 'update',
		listId: byId('l1'),
		updateFields: { parentId: byId('l2') },
	}],
	['User → Get Stats', { resource: 'user', operation: 'getStats' }],
	['Backup → Create', { resource: 'backup', operation: 'create' }],
	['Backup → Get Many', { resource: 'backup', operation: 'getMany', returnAll: true }],
	['Backup → Download', { resource: 'backup', operation: 'download', backupId: 'b1', binaryPropertyName: 'data' }],
	['Backup → Delete', { resource: 'backup', operation: 'delete', backupId: 'b1' }],
	['Feed → Create', { resource: 'feed', operation: 'create', name: 'News', url: 'https://example.org/feed.xml' }],
	['Feed → Get Many', { resource: 'feed', operation: 'getMany', returnAll: true }],
	['Feed → Update', { resource: 'feed', operation: 'update', feedId: 'f1', updateFields: { enabled: false } }],
	['Feed → Delete', { resource: 'feed', operation: 'delete', feedId: 'f1' }],
	['Feed → Fetch Now', { resource: 'feed', operation: 'fetchNow', feedId: 'f1' }],
];

describe('Karakeep-only Bookmarks operations on the documented API', () => {
	it.each(KARAKEEP_ONLY)('%s fails at once, naming the Karakeep API, and sends nothing', async (operation, parameters) => {
		const { context, requests } = executeContext({
			parameters,
			binaries: [{ data: PDF }],
			// Nothing may be sent: a request to this port would fail with another error.
			credentials: { bookmarkApi: { baseUrl: 'http://127.0.0.1:9', apiKey: 'key' } },
		});
		const error = await new Bookmarks().execute.call(context).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error).toMatchObject({
			message: `${operation} is available with the Karakeep API; this credential uses the documented API`,
			description: expect.stringContaining('choose that under API in the credential'),
		});
		expect(requests).toEqual([]);
	});

	it('Update of the documented fields alone still goes to the documented API', async () => {
		const { context, requests } = executeContext({
			parameters: { resource: 'bookmark', operation: 'update', recordId: byId('r1'), updateFields: { title: 'T' } },
			credentials: { bookmarkApi: { baseUrl: 'http://127.0.0.1:9', apiKey: 'key' } },
		});
		// Sent, and so failed on the unreachable port.
		await expect(new Bookmarks().execute.call(context)).rejects.toThrow(/bookmark service/);
		expect(requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toContain('PATCH /api/v1/bookmarks/r1');
	});

	it('the Bookmarks Trigger’s Bookmark Changes fails at once, naming the Karakeep API, and sends nothing', async () => {
		const { context, requests } = pollContext({
			parameters: { watch: 'changes', changeEvents: ['archived'] },
			credentials: { bookmarkApi: { baseUrl: 'http://127.0.0.1:9', apiKey: 'key' } },
			typeVersion: 2,
		});
		const error = await new BookmarksTrigger().poll.call(context).catch((caught: unknown) => caught);
		expect(error).toMatchObject({
			message: 'Trigger On: Bookmark Changes is available with the Karakeep API; this credential uses the documented API',
		});
		expect(requests).toEqual([]);
	});
});
