/* eslint-disable @typescript-eslint/no-explicit-any -- execution outputs are JSON; each test states what it expects */
/**
 * Change events (issue 44) in a real n8n: the real Karakeep's webhook worker sends its `edited`
 * deliveries to the Bookmarks Webhook Trigger, which turns each into the precise events (Archived,
 * Favourited, Tags Added, Title or Note Changed) by comparing the record with what it last knew.
 * Every request n8n sends to Karakeep goes through the validating mock of Karakeep's spec.
 */
import { randomUUID } from 'node:crypto';

import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { type KarakeepSpecMock, startKarakeepSpecMock } from '../harness/karakeepSpecMock';
import { buildKarakeepDelivery, sendKarakeepDelivery } from '../harness/karakeepWebhooks';
import { type N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { n8nAtLeast } from '../harness/paths';
import {
	activateWorkflow,
	createCredential,
	type CredentialRefs,
	type ExecutionSummary,
	type ImportedWorkflow,
	importWorkflow,
	nodeOutput,
	productionWebhookUrl,
	settledExecutions,
	waitUntil,
	type WorkflowFile,
} from '../harness/provision';
import { expectStatus } from '../karakeep/api';

jest.setTimeout(600_000);

/** The trigger as the editor saves it: Karakeep's Created and four change events, Simplify left at its default. */
const CHANGES_WORKFLOW: WorkflowFile = {
	name: 'Karakeep change events (e2e)',
	nodes: [
		{
			id: randomUUID(),
			name: 'Bookmark Changed',
			type: 'n8n-nodes-sign-survey-bookmark.bookmarksWebhookTrigger',
			typeVersion: 1,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { events: ['created', 'archived', 'favourited', 'tagsAdded', 'titleOrNoteChanged'] },
			credentials: { bookmarkApi: { id: 'karakeep', name: 'Karakeep' } },
		},
		{ id: randomUUID(), name: 'Received', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [240, 0], parameters: {} },
	],
	connections: { 'Bookmark Changed': { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
} as WorkflowFile;

(n8nAtLeast('2.0.0') ? describe : describe.skip)('Karakeep change events from the real webhook worker, in a real n8n', () => {
	const token = `token-${randomUUID()}`;
	let n8n: N8nInstance;
	let karakeep: KarakeepServer;
	let mock: KarakeepSpecMock;
	let workflow: ImportedWorkflow;
	let hookUrl: string;
	let credentialsRef: CredentialRefs;

	beforeAll(async () => {
		n8n = await startN8n({ packageTarball: await packPackage() });
		hookUrl = productionWebhookUrl(n8n, CHANGES_WORKFLOW.nodes[0]);
		// A minute for n8n's answer (Karakeep's default is 5 s): on a busy machine a later answer would be sent again.
		karakeep = await startKarakeep({ webhook: { url: hookUrl, token }, env: { WEBHOOK_TIMEOUT_SEC: '60' } });
		mock = await startKarakeepSpecMock({ upstream: karakeep });
		const credentials = (credentialsRef = {
			bookmarkApi: await createCredential(n8n, 'Karakeep', 'bookmarkApi', {
				api: 'karakeep',
				baseUrl: mock.url,
				apiKey: karakeep.apiKey,
				webhookToken: token,
			}),
		} as unknown as CredentialRefs);
		workflow = await importWorkflow(n8n, CHANGES_WORKFLOW, credentials);
		await activateWorkflow(n8n, workflow.id);
	});
	afterAll(async () => {
		await n8n?.stop();
		await mock?.stop();
		await karakeep?.stop();
	});
	afterEach(() => {
		expect(mock.requests.filter((request) => !request.valid && !request.path.startsWith('/api/trpc/'))).toEqual([]);
	});

	const itemsOf = (executions: ExecutionSummary[]) =>
		[...executions]
			.sort((a, b) => Number(a.id) - Number(b.id))
			.map((execution) => nodeOutput(execution, 'Bookmark Changed') as Array<Record<string, any>>);

	it('each edited delivery becomes the precise events, once; a redelivery starts nothing', async () => {
		const record = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: 'Watched by n8n' } })).json;
		// The created delivery: one execution, and the trigger now knows the record.
		await settledExecutions(n8n, workflow.id, 1);

		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { archived: true } });
		await settledExecutions(n8n, workflow.id, 2);
		// Two changes in one request: one delivery, two events.
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { favourited: true, title: 'Named in Karakeep' } });
		await settledExecutions(n8n, workflow.id, 3);
		await expectStatus(200, karakeep, 'POST', `/bookmarks/${record.id}/tags`, { body: { tags: [{ tagName: 'from-n8n-e2e' }] } });
		await settledExecutions(n8n, workflow.id, 4);
		// An edit no chosen event watches (the text): Karakeep sends edited, nothing starts for it. Whichever
		// of the two deliveries reads the record after the rename tells it, once.
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { text: 'Its text, edited' } });
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { title: 'Renamed in Karakeep' } });
		const executions = await settledExecutions(n8n, workflow.id, 5, true);
		const items = itemsOf(executions);
		expect(items.map((run) => run.map((item) => item.event))).toEqual([
			['created'],
			['archived'],
			['favourited', 'titleOrNoteChanged'],
			['tagsAdded'],
			['titleOrNoteChanged'],
		]);
		expect(items[4][0].changes).toEqual({ title: { from: 'Named in Karakeep', to: 'Renamed in Karakeep' } });
		expect(items[1][0]).toMatchObject({
			recordId: record.id,
			changes: { archived: { from: false, to: true } },
			recordStatus: 'found',
			record: { id: record.id, archived: true },
		});
		expect(items[2][1].changes).toEqual({ title: { from: null, to: 'Named in Karakeep' } });
		expect(items[3][0].changes).toEqual({
			tags: { added: [{ id: expect.any(String), name: 'from-n8n-e2e', attachedBy: 'human' }] },
		});

		// Karakeep's worker sending the archive's delivery again (its retry, same job): nothing new starts.
		const archived = items[1][0];
		const again = await sendKarakeepDelivery(
			hookUrl,
			buildKarakeepDelivery({
				jobId: String(archived.jobId),
				bookmarkId: record.id,
				userId: String(archived.userId),
				operation: 'edited',
				bookmark: { type: 'text' },
				token,
			}),
		);
		expect(again.status).toBe(200);
		// One more change after it: its execution is the sixth, so the redelivery started none.
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { note: 'A note after the redelivery' } });
		const after = itemsOf(await settledExecutions(n8n, workflow.id, 6, true));
		expect(after).toHaveLength(6);
		expect(after[5].map((item) => item.event)).toEqual(['titleOrNoteChanged']);
	});

	it('the polling Bookmarks Trigger, Trigger On: Bookmark Changes, as the editor saves it: archived, added to a list, highlighted', async () => {
		const record = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: 'Polled by n8n' } })).json;
		const list = (await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'Polled', icon: '📁' } })).json;
		const checkedUrl = 'https://example.org/e2e/checked/';
		const saved = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: `${checkedUrl}archived` } })).json;
		const polling = await importWorkflow(
			n8n,
			{
				name: 'Karakeep changes, polled (e2e)',
				nodes: [
					{
						id: randomUUID(),
						name: 'Bookmark Changes',
						type: 'n8n-nodes-sign-survey-bookmark.bookmarksTrigger',
						typeVersion: 2,
						position: [0, 0],
						parameters: {
							pollTimes: { item: [{ mode: 'everyMinute' }] },
							watch: 'changes',
							changeEvents: ['addedToList', 'archived', 'highlightAdded'],
						},
						credentials: { bookmarkApi: { id: 'karakeep', name: 'Karakeep' } },
					},
					{
						// Bookmark → Check URL as the editor saves it: is the record's link (none: a text record) saved?
						id: randomUUID(),
						name: 'Check URL',
						type: 'n8n-nodes-sign-survey-bookmark.bookmarks',
						typeVersion: 2,
						position: [240, 0],
						parameters: { resource: 'bookmark', operation: 'checkUrl', url: `=${checkedUrl}{{ $json.event }}` },
						credentials: { bookmarkApi: { id: 'karakeep', name: 'Karakeep' } },
					},
				],
				connections: { 'Bookmark Changes': { main: [[{ node: 'Check URL', type: 'main', index: 0 }]] } },
				settings: { executionOrder: 'v1' },
			} as WorkflowFile,
			credentialsRef,
		);
		const highlightReads = () => mock.requests.filter((request) => request.path === '/api/v1/highlights').length;
		const before = highlightReads();
		await activateWorkflow(n8n, polling.id);
		// Activation takes the first poll, which learns the library (its last read is the newest highlight).
		await waitUntil('the first poll', async () => highlightReads() > before, 120_000);
		await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { archived: true } });
		await expectStatus(204, karakeep, 'PUT', `/lists/${list.id}/bookmarks/${record.id}`);
		await expectStatus(201, karakeep, 'POST', '/highlights', {
			body: { bookmarkId: record.id, startOffset: 0, endOffset: 6, text: 'Polled', note: null },
		});
		const [execution] = await settledExecutions(n8n, polling.id, 1, true);
		const items = nodeOutput(execution, 'Bookmark Changes') as Array<Record<string, any>>;
		expect(items.map((item) => item.event).sort()).toEqual(['addedToList', 'archived', 'highlightAdded']);
		expect(items.every((item) => item.id === record.id)).toBe(true);
		expect(items.find((item) => item.event === 'addedToList')!.changes).toEqual({ list: { id: list.id, name: 'Polled' } });
		// Check URL, one item per event, in the events' order: only the archived one's link is saved.
		expect(nodeOutput(execution, 'Check URL')).toEqual(
			items.map((item) => ({
				url: `${checkedUrl}${String(item.event)}`,
				saved: item.event === 'archived',
				recordId: item.event === 'archived' ? saved.id : null,
			})),
		);
	});
});
