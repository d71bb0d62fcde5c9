/* eslint-disable @typescript-eslint/no-explicit-any -- execution outputs are JSON; each test states what it expects */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: it finishes a backup in the server's data folder, as Karakeep's worker would */
/**
 * Backup and Feed (issue 44) in a real n8n, with their parameters as the editor saves them (hidden
 * ones absent): one workflow, started by a webhook, creates, updates, fetches and lists a feed and
 * downloads and deletes a finished backup on the real Karakeep; every request n8n sends goes
 * through the validating mock of Karakeep's spec. What each step did is read back through Karakeep's API.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { type KarakeepSpecMock, startKarakeepSpecMock } from '../harness/karakeepSpecMock';
import { type N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	createCredential,
	type CredentialRefs,
	importWorkflow,
	nodeOutput,
	settledExecutions,
	type WorkflowFile,
} from '../harness/provision';
import { expectStatus } from '../karakeep/api';

jest.setTimeout(600_000);

const execFileAsync = promisify(execFile);
const HOOK_PATH = `karakeep-ops-${randomUUID()}`;
const credential = { bookmarkApi: { id: 'karakeep', name: 'Karakeep' } };
const step = (name: string, x: number, parameters: Record<string, unknown>) => ({
	id: randomUUID(),
	name,
	type: 'n8n-nodes-sign-survey-bookmark.bookmarks',
	typeVersion: 2,
	position: [x, 0],
	parameters,
	credentials: credential,
});

const WORKFLOW = {
	name: 'Karakeep backups and feeds (e2e)',
	nodes: [
		{
			id: randomUUID(),
			name: 'Start',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: HOOK_PATH, options: {} },
		},
		step('Create Feed', 200, { resource: 'feed', operation: 'create', name: 'Tides weekly', url: 'https://example.org/tides.xml' }),
		step('Update Feed', 400, { resource: 'feed', operation: 'update', feedId: '={{ $json.id }}', updateFields: { enabled: false } }),
		step('Fetch Feed Now', 600, { resource: 'feed', operation: 'fetchNow', feedId: '={{ $json.id }}' }),
		step('Get Many Feeds', 800, { resource: 'feed', operation: 'getMany', returnAll: true }),
		step('Get Many Backups', 1000, { resource: 'backup', operation: 'getMany', limit: 1 }),
		step('Download Backup', 1200, { resource: 'backup', operation: 'download', backupId: "={{ $('Start').item.json.body.backupId }}" }),
		step('Delete Backup', 1400, { resource: 'backup', operation: 'delete', backupId: '={{ $json.backupId }}' }),
	],
	connections: Object.fromEntries(
		[
			['Start', 'Create Feed'],
			['Create Feed', 'Update Feed'],
			['Update Feed', 'Fetch Feed Now'],
			['Fetch Feed Now', 'Get Many Feeds'],
			['Get Many Feeds', 'Get Many Backups'],
			['Get Many Backups', 'Download Backup'],
			['Download Backup', 'Delete Backup'],
		].map(([from, to]) => [from, { main: [[{ node: to, type: 'main', index: 0 }]] }]),
	),
	settings: { executionOrder: 'v1' },
} as unknown as WorkflowFile;

describe('Backup and Feed in a real n8n, on the real Karakeep', () => {
	let n8n: N8nInstance;
	let karakeep: KarakeepServer;
	let mock: KarakeepSpecMock;

	beforeAll(async () => {
		n8n = await startN8n({ packageTarball: await packPackage() });
		karakeep = await startKarakeep();
		mock = await startKarakeepSpecMock({ upstream: karakeep });
	});
	afterAll(async () => {
		await n8n?.stop();
		await mock?.stop();
		await karakeep?.stop();
	});

	/** A backup finished as Karakeep's backup worker finishes one (see test/karakeep/backupsAndFeeds.test.ts). */
	async function finishedBackup(bytes: Buffer): Promise<any> {
		const backup = (await expectStatus(201, karakeep, 'POST', '/backups')).json;
		const assetId = `backupasset${randomBytes(8).toString('hex')}`;
		const dir = path.join(karakeep.dataDir, 'assets', backup.userId, assetId);
		mkdirSync(dir, { recursive: true });
		writeFileSync(path.join(dir, 'asset.bin'), bytes);
		writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify({ contentType: 'application/zip', fileName: 'karakeep-backup.zip' }));
		const sql = `INSERT INTO assets (id, assetType, size, contentType, fileName, userId) VALUES ('${assetId}', 'backup', ${bytes.length}, 'application/zip', 'karakeep-backup.zip', '${backup.userId}'); UPDATE backups SET status = 'success', assetId = '${assetId}', size = ${bytes.length}, bookmarkCount = 0 WHERE id = '${backup.id}';`;
		await execFileAsync('sqlite3', ['-cmd', '.timeout 10000', path.join(karakeep.dataDir, 'db.db'), sql]);
		return backup;
	}

	it('each operation runs as saved, and Karakeep shows what it did', async () => {
		const archive = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(20_000)]);
		const backup = await finishedBackup(archive);
		const credentials = {
			bookmarkApi: await createCredential(n8n, 'Karakeep', 'bookmarkApi', { api: 'karakeep', baseUrl: mock.url, apiKey: karakeep.apiKey }),
		} as unknown as CredentialRefs;
		const workflow = await importWorkflow(n8n, WORKFLOW, credentials);
		await activateWorkflow(n8n, workflow.id);
		const response = await fetch(`${n8n.baseUrl}/webhook/${HOOK_PATH}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ backupId: backup.id }),
		});
		expect(response.status).toBe(200);
		const [execution] = await settledExecutions(n8n, workflow.id, 1, true);
		expect(execution.status).toBe('success');

		const [created] = nodeOutput(execution, 'Create Feed') as any[];
		expect(created).toMatchObject({ name: 'Tides weekly', url: 'https://example.org/tides.xml', enabled: true, importTags: false });
		expect(nodeOutput(execution, 'Update Feed')).toEqual([expect.objectContaining({ id: created.id, enabled: false })]);
		expect(nodeOutput(execution, 'Fetch Feed Now')).toEqual([{ fetchRequested: true, id: created.id }]);
		const feeds = (await expectStatus(200, karakeep, 'GET', '/feeds')).json.feeds;
		expect(feeds).toEqual([expect.objectContaining({ id: created.id, name: 'Tides weekly', enabled: false })]);
		expect(nodeOutput(execution, 'Get Many Feeds')).toEqual(feeds);
		expect(nodeOutput(execution, 'Get Many Backups')).toEqual([expect.objectContaining({ id: backup.id, status: 'success' })]);
		expect(nodeOutput(execution, 'Download Backup')).toEqual([
			expect.objectContaining({ backupId: backup.id, mimeType: 'application/zip', fileSize: archive.length }),
		]);
		expect(nodeOutput(execution, 'Delete Backup')).toEqual([{ deleted: true, id: backup.id, alreadyGone: false }]);
		expect((await expectStatus(200, karakeep, 'GET', '/backups')).json.backups).toEqual([]);
		expect(mock.requests.filter((request) => !request.valid && !request.path.startsWith('/api/trpc/'))).toEqual([]);
	});

	it('the sample karakeep-favourite-summary-and-backup.json activates on Karakeep: its Bookmark Changes trigger takes its first poll', async () => {
		const sample = JSON.parse(
			readFileSync(path.join(PROJECT_ROOT, 'workflows', 'karakeep-favourite-summary-and-backup.json'), 'utf8'),
		) as WorkflowFile;
		const credentials = {
			bookmarkApi: await createCredential(n8n, 'Karakeep (sample)', 'bookmarkApi', { api: 'karakeep', baseUrl: mock.url, apiKey: karakeep.apiKey }),
		} as unknown as CredentialRefs;
		const listReads = () => mock.requests.filter((request) => request.path === '/api/v1/lists').length;
		const before = listReads();
		const workflow = await importWorkflow(n8n, sample, credentials);
		// Activation fails when a trigger fails (a poll on the documented API would, at once).
		await activateWorkflow(n8n, workflow.id);
		expect(listReads()).toBeGreaterThan(before);
		expect(mock.requests.filter((request) => !request.valid && !request.path.startsWith('/api/trpc/'))).toEqual([]);
	});
});
