/* eslint-disable @typescript-eslint/no-explicit-any -- node outputs and Karakeep's answers are JSON; each test states what it expects */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: it finishes a backup in the server's data folder, as Karakeep's worker would */
/**
 * Backup → Create, Get Many, Download, Delete and Feed → Create, Get Many, Update, Delete, Fetch Now
 * (issue 44) on the real Karakeep, each result checked through Karakeep's own API, every request the
 * node sends checked against Karakeep's OpenAPI file by the validating mock in front of it.
 *
 * The test server runs no background workers, so a backup it starts stays `pending`. A finished
 * backup is made as Karakeep's backup worker makes it (apps/workers/workers/backupWorker.ts at
 * 7ca5ee2): the zip written to the asset store (packages/shared/assetdb.ts: `<assetsDir>/<userId>/
 * <assetId>/asset.bin` and `metadata.json`), an `assets` row of type `backup`, the backup set to
 * `success` with its `assetId`. Karakeep then serves the archive itself; the node's download must
 * equal what it serves, byte for byte.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { executeContext } from '../unit/helpers/context';
import { expectStatus } from './api';
import { karakeepBehindSpec, nodeFailure, runNode } from './node';

const execFileAsync = promisify(execFile);
const servers = karakeepBehindSpec();

/** A zip archive of sorts: its bytes are what matters, every value 0-255 in them. */
const ARCHIVE = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(70_000), Buffer.from([...Array(256).keys()])]);

async function finishBackup(backup: { id: string; userId: string }, bytes: Buffer): Promise<string> {
	const assetId = `backupasset${randomBytes(8).toString('hex')}`;
	const dir = path.join(servers.karakeep.dataDir, 'assets', backup.userId, assetId);
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, 'asset.bin'), bytes);
	writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify({ contentType: 'application/zip', fileName: 'karakeep-backup.zip' }));
	const sql = [
		`INSERT INTO assets (id, assetType, size, contentType, fileName, userId) VALUES ('${assetId}', 'backup', ${bytes.length}, 'application/zip', 'karakeep-backup.zip', '${backup.userId}');`,
		`UPDATE backups SET status = 'success', assetId = '${assetId}', size = ${bytes.length}, bookmarkCount = 3 WHERE id = '${backup.id}';`,
	].join(' ');
	await execFileAsync('sqlite3', ['-cmd', '.timeout 10000', path.join(servers.karakeep.dataDir, 'db.db'), sql]);
	return assetId;
}

async function served(assetId: string): Promise<Buffer> {
	const { karakeep } = servers;
	const response = await fetch(`${karakeep.url}/api/v1/assets/${assetId}`, { headers: { authorization: `Bearer ${karakeep.apiKey}` } });
	expect(response.status).toBe(200);
	return Buffer.from(await response.arrayBuffer());
}

const backupsInKarakeep = async () => (await expectStatus(200, servers.karakeep, 'GET', '/backups')).json.backups as any[];
const feedsInKarakeep = async () => (await expectStatus(200, servers.karakeep, 'GET', '/feeds')).json.feeds as any[];

describe('Backup', () => {
	test('Create: a pending backup, seen in Karakeep; Get Many: the backups, newest first, Limit respected', async () => {
		const { json: created } = await runNode(servers.viaSpec, { resource: 'backup', operation: 'create' });
		expect(created).toEqual([expect.objectContaining({ id: expect.any(String), status: 'pending', assetId: null })]);
		expect((await backupsInKarakeep()).map((backup) => backup.id)).toContain(created[0].id);
		const { json: second } = await runNode(servers.viaSpec, { resource: 'backup', operation: 'create' });
		const { json: all } = await runNode(servers.viaSpec, { resource: 'backup', operation: 'getMany', returnAll: true });
		expect(all.map((backup) => backup.id)).toEqual((await backupsInKarakeep()).map((backup) => backup.id));
		expect(all.map((backup) => backup.id)).toEqual(expect.arrayContaining([created[0].id, second[0].id]));
		const { json: one } = await runNode(servers.viaSpec, { resource: 'backup', operation: 'getMany', returnAll: false, limit: 1 });
		expect(one).toEqual([all[0]]);
	});

	test('Download: the archive as binary data, byte for byte what Karakeep serves; a pending backup: an error saying so; as a tool: what it is, not its bytes', async () => {
		const { json: created } = await runNode(servers.viaSpec, { resource: 'backup', operation: 'create' });
		const pending = await nodeFailure(servers.viaSpec, { resource: 'backup', operation: 'download', backupId: created[0].id, binaryPropertyName: 'data' });
		expect(pending.message).toBe(`Backup ${created[0].id} has no archive to download: its status is pending`);
		expect(pending.description).toContain('still making it');
		const assetId = await finishBackup(created[0], ARCHIVE);
		const { items } = await runNode(servers.viaSpec, { resource: 'backup', operation: 'download', backupId: created[0].id, binaryPropertyName: 'archive' });
		const day = String(created[0].createdAt).slice(0, 10);
		expect(items[0].json).toEqual({
			backupId: created[0].id,
			createdAt: created[0].createdAt,
			bookmarkCount: 3,
			fileName: `karakeep-backup-${day}.zip`,
			mimeType: 'application/zip',
			fileSize: ARCHIVE.length,
		});
		const bytes = Buffer.from(items[0].binary!.archive.data, 'base64');
		expect(bytes.equals(await served(assetId))).toBe(true);
		expect(bytes.equals(ARCHIVE)).toBe(true);
		const asTool = await runNode(servers.viaSpec, { resource: 'backup', operation: 'download', backupId: created[0].id, binaryPropertyName: 'data' }, { tool: true });
		expect(asTool.items).toEqual([{ json: { ...items[0].json }, pairedItem: { item: 0 } }]);
		expect(asTool.requests.map((request) => request.method)).toEqual(['GET', 'HEAD']);
	});

	test('Delete: gone from Karakeep (its archive too); again: Karakeep’s 404, or alreadyGone; as a tool only with consent', async () => {
		const { json: created } = await runNode(servers.viaSpec, { resource: 'backup', operation: 'create' });
		const assetId = await finishBackup(created[0], Buffer.from('PK\u0003\u0004 small'));
		const before = servers.mock.requests.length;
		const refused = await nodeFailure(servers.viaSpec, { resource: 'backup', operation: 'delete', backupId: created[0].id }, { tool: true });
		expect(refused.message).toBe('Deleting backups is not allowed for an AI agent');
		expect(servers.mock.requests.length).toBe(before);
		const { json } = await runNode(servers.viaSpec, { resource: 'backup', operation: 'delete', backupId: created[0].id });
		expect(json).toEqual([{ deleted: true, id: created[0].id, alreadyGone: false }]);
		expect((await backupsInKarakeep()).map((backup) => backup.id)).not.toContain(created[0].id);
		const { karakeep } = servers;
		expect((await fetch(`${karakeep.url}/api/v1/assets/${assetId}`, { headers: { authorization: `Bearer ${karakeep.apiKey}` } })).status).toBe(404);
		const again = await nodeFailure(servers.viaSpec, { resource: 'backup', operation: 'delete', backupId: created[0].id });
		expect(again.message).toContain('404');
		const settled = await runNode(servers.viaSpec, { resource: 'backup', operation: 'delete', backupId: created[0].id, ifAlreadyGone: 'succeed' });
		expect(settled.json).toEqual([{ deleted: true, id: created[0].id, alreadyGone: true }]);
	});
});

describe('Feed', () => {
	test('Create, Update, Fetch Now, Delete: each seen through Karakeep’s API; Get Many as Karakeep lists them', async () => {
		const { json: created } = await runNode(servers.viaSpec, {
			resource: 'feed',
			operation: 'create',
			name: 'Tides weekly',
			url: 'https://example.org/tides.xml',
			additionalFields: { importTags: true },
		});
		expect(created).toEqual([
			expect.objectContaining({ id: expect.any(String), name: 'Tides weekly', url: 'https://example.org/tides.xml', enabled: true, importTags: true }),
		]);
		const id = created[0].id;
		expect((await feedsInKarakeep()).find((feed) => feed.id === id)).toMatchObject({ name: 'Tides weekly', enabled: true, importTags: true });

		const { json: updated } = await runNode(servers.viaSpec, {
			resource: 'feed',
			operation: 'update',
			feedId: id,
			updateFields: { enabled: false, name: 'Tides (paused)' },
		});
		expect(updated).toEqual([expect.objectContaining({ id, name: 'Tides (paused)', enabled: false, url: 'https://example.org/tides.xml' })]);
		expect((await feedsInKarakeep()).find((feed) => feed.id === id)).toMatchObject({ name: 'Tides (paused)', enabled: false, importTags: true });

		const { json: all } = await runNode(servers.viaSpec, { resource: 'feed', operation: 'getMany', returnAll: true });
		expect(all).toEqual(await feedsInKarakeep());

		const { json: fetched } = await runNode(servers.viaSpec, { resource: 'feed', operation: 'fetchNow', feedId: id });
		expect(fetched).toEqual([{ fetchRequested: true, id }]);
		const unknown = await nodeFailure(servers.viaSpec, { resource: 'feed', operation: 'fetchNow', feedId: 'nosuchfeed' });
		expect(unknown.message).toContain('404');

		const { json: deleted } = await runNode(servers.viaSpec, { resource: 'feed', operation: 'delete', feedId: id });
		expect(deleted).toEqual([{ deleted: true, id, alreadyGone: false }]);
		expect((await feedsInKarakeep()).map((feed) => feed.id)).not.toContain(id);
		const settled = await runNode(servers.viaSpec, { resource: 'feed', operation: 'delete', feedId: id, ifAlreadyGone: 'succeed' });
		expect(settled.json).toEqual([{ deleted: true, id, alreadyGone: true }]);
	});

	test('bad input refused naming the field, before any request; Delete as a tool only with consent', async () => {
		const before = servers.mock.requests.length;
		const notUrl = await nodeFailure(servers.viaSpec, { resource: 'feed', operation: 'create', name: 'Feed', url: 'tides.xml' });
		expect(notUrl.message).toContain('Feed URL');
		const longName = await nodeFailure(servers.viaSpec, { resource: 'feed', operation: 'create', name: 'x'.repeat(101), url: 'https://example.org/a.xml' });
		expect(longName.message).toContain('Name');
		const nothing = await nodeFailure(servers.viaSpec, { resource: 'feed', operation: 'update', feedId: 'f1', updateFields: {} });
		expect(nothing.message).toContain('Update Fields');
		const refused = await nodeFailure(servers.viaSpec, { resource: 'feed', operation: 'delete', feedId: 'f1' }, { tool: true });
		expect(refused.message).toBe('Deleting feeds is not allowed for an AI agent');
		expect(servers.mock.requests.length).toBe(before);
	});

	test('the documented API: the shared error, nothing sent', async () => {
		const before = servers.mock.requests.length;
		const { context } = executeContext({
			parameters: { resource: 'feed', operation: 'getMany', returnAll: true },
			credentials: { bookmarkApi: { api: 'documented', baseUrl: servers.viaSpec.url, apiKey: servers.viaSpec.apiKey } },
		});
		const error = await new Bookmarks().execute.call(context).then(
			() => new Error('Expected the node to fail'),
			(caught: Error) => caught,
		);
		expect(error.message).toMatch(/^Feed → Get Many is available with the Karakeep API; this credential uses/);
		expect(servers.mock.requests.length).toBe(before);
	});
});
