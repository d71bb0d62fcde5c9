/* eslint-disable @typescript-eslint/no-explicit-any -- execution outputs and Karakeep's answers are JSON; each test states what it expects */
/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// The SDK publishes these paths through package "exports", which the lint resolver does not read.
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { type KarakeepSpecMock, startKarakeepSpecMock } from '../harness/karakeepSpecMock';
import { buildKarakeepDelivery, type KarakeepWebhookOperation, sendKarakeepDelivery } from '../harness/karakeepWebhooks';
import { type N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { callMcpTool } from '../harness/mcp';
import { n8nAtLeast, PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	createCredential,
	createSandboxCredentials,
	type CredentialRefs,
	deactivateWorkflow,
	E2E_SANDBOX_OPTIONS,
	type ExecutionSummary,
	type ImportedWorkflow,
	importWorkflow,
	listExecutions,
	MCP_TOKEN,
	nodeOutput,
	productionWebhookUrl,
	settledExecutions,
	SIGNING_WEBHOOK_SECRET,
	waitUntil,
	withSignedPdfKept,
	type WorkflowFile,
} from '../harness/provision';
import { type Sandbox, startSandbox } from '../sandbox';
import { sandboxControl } from '../unit/helpers/sandbox';
import { call as karakeepCall, expectStatus } from '../karakeep/api';

jest.setTimeout(600_000);

const readWorkflow = (file: string) =>
	JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'workflows', file), 'utf8')) as WorkflowFile;

/** Every event of Karakeep, received by one trigger with its record included. */
const EVENTS_WORKFLOW: WorkflowFile = {
	name: 'Karakeep events (e2e)',
	nodes: [
		{
			id: randomUUID(),
			name: 'Bookmark Event',
			type: 'n8n-nodes-sign-survey-bookmark.bookmarksWebhookTrigger',
			typeVersion: 1,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { events: ['created', 'edited', 'crawled', 'ai tagged', 'deleted'], includeRecord: true },
			credentials: { bookmarkApi: { id: 'karakeep', name: 'Karakeep' } },
		},
		{ id: randomUUID(), name: 'Received', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [240, 0], parameters: {} },
	],
	connections: { 'Bookmark Event': { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
} as WorkflowFile;

/**
 * The Bookmarks nodes with the credential's API set to Karakeep, in a real n8n: the Bookmarks
 * Webhook Trigger receiving the real Karakeep's webhook worker, the flagship flow filing the signed
 * package into Karakeep, and the three bookmark MCP tools. Search goes through the validating mock of
 * Karakeep's spec in front of the real server (search needs Meilisearch, which does not run here).
 * n8n 2.x only: the 1.x e2e run covers the documented API.
 */
(n8nAtLeast('2.0.0') ? describe : describe.skip)('Bookmarks nodes on Karakeep, in a real n8n', () => {
	const token = `token-${randomUUID()}`;
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let karakeep: KarakeepServer;
	let mock: KarakeepSpecMock;
	let credentials: CredentialRefs;
	let events: ImportedWorkflow;
	let hookUrl: string;

	beforeAll(async () => {
		sandbox = await startSandbox(E2E_SANDBOX_OPTIONS);
		n8n = await startN8n({ packageTarball: await packPackage() });
		hookUrl = productionWebhookUrl(n8n, EVENTS_WORKFLOW.nodes[0]);
		// Karakeep waits a minute for n8n's answer, not its default 5 s: on a busy machine a later answer
		// makes it send the event again, a duplicate its at-least-once delivery allows but not one these tests look for.
		karakeep = await startKarakeep({ webhook: { url: hookUrl, token }, env: { WEBHOOK_TIMEOUT_SEC: '60' } });
		mock = await startKarakeepSpecMock({ upstream: karakeep });
		credentials = await createSandboxCredentials(n8n, sandbox);
		credentials.bookmarkApi = await createCredential(n8n, 'Karakeep', 'bookmarkApi', {
			api: 'karakeep',
			baseUrl: mock.url,
			apiKey: karakeep.apiKey,
			webhookToken: token,
		});
		events = await importWorkflow(n8n, EVENTS_WORKFLOW, credentials);
		await activateWorkflow(n8n, events.id);
	});
	afterAll(async () => {
		await n8n?.stop();
		await mock?.stop();
		await karakeep?.stop();
		await sandbox?.stop();
	});
	afterEach(() => {
		// Every request n8n sent to Karakeep validates against Karakeep's own spec (lists.stats is
		// Karakeep's tRPC, outside it).
		expect(mock.requests.filter((request) => !request.valid && !request.path.startsWith('/api/trpc/'))).toEqual([]);
	});

	const eventsOf = (executions: ExecutionSummary[]) =>
		executions
			.map((execution) => nodeOutput(execution, 'Bookmark Event')[0] as Record<string, any>)
			.sort((a, b) => Number(a.jobId) - Number(b.jobId));

	describe('Bookmarks Webhook Trigger, from the real webhook worker', () => {
		let delivered: Array<Record<string, any>>;

		it('created, edited and deleted records each start one execution, with the record included', async () => {
			const record = (await expectStatus(201, karakeep, 'POST', '/bookmarks', {
				body: { type: 'link', url: 'https://example.org/e2e/hooked', title: 'Hooked' },
			})).json;
			await settledExecutions(n8n, events.id, 1);
			await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${record.id}`, { body: { title: 'Hooked again' } });
			await settledExecutions(n8n, events.id, 2);
			await expectStatus(204, karakeep, 'DELETE', `/bookmarks/${record.id}`);
			const executions = await settledExecutions(n8n, events.id, 3, true);
			expect(executions.map((execution) => execution.status)).toEqual(['success', 'success', 'success']);
			delivered = eventsOf(executions);
			expect(delivered.map((event) => [event.event, event.recordId])).toEqual([
				['created', record.id],
				['edited', record.id],
				['deleted', record.id],
			]);
			expect(delivered[0]).toMatchObject({
				deliveryId: `${delivered[0].jobId}:created`,
				url: 'https://example.org/e2e/hooked',
				type: 'link',
				recordStatus: 'found',
				record: { id: record.id, url: 'https://example.org/e2e/hooked' },
			});
			expect(delivered[1].record).toMatchObject({ title: 'Hooked again' });
			expect(delivered[2]).toMatchObject({ url: null, type: null, record: null, recordStatus: 'deleted' });
		});

		it('a redelivery starts nothing; a wrong or missing token is refused (401); crawled and ai tagged start one each', async () => {
			const [created] = delivered;
			const send = async (operation: KarakeepWebhookOperation, jobId: string, withToken: string | null = token) =>
				await sendKarakeepDelivery(
					hookUrl,
					buildKarakeepDelivery({
						jobId,
						bookmarkId: created.recordId,
						userId: created.userId,
						operation,
						bookmark: { type: 'link', url: created.url },
						token: withToken,
					}),
				);
			expect((await send('created', created.jobId)).status).toBe(200);
			expect((await send('crawled', '900001', 'wrong-token')).status).toBe(401);
			expect((await send('crawled', '900001', null)).status).toBe(401);
			expect((await send('crawled', '900001')).status).toBe(200);
			expect((await send('ai tagged', '900002')).status).toBe(200);
			// The two new events ran; the redelivery sent before them did not.
			const executions = await settledExecutions(n8n, events.id, 5, true);
			expect(executions).toHaveLength(5);
			expect(eventsOf(executions).slice(3).map((event) => event.event)).toEqual(['crawled', 'ai tagged']);
		});
	});

	it('Update\'s Saved At and Date Published are read in the workflow\'s time zone; Get Many by list brings the records\' content (issue 42)', async () => {
		const record = await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'link', url: 'https://example.org/e2e/dated' } });
		const list = await expectStatus(201, karakeep, 'POST', '/lists', { body: { name: 'E2E dated', icon: '📅' } });
		await expectStatus(204, karakeep, 'PUT', `/lists/${list.json.id}/bookmarks/${record.json.id}`);
		const byId = (value: string) => ({ __rl: true, mode: 'id', value });
		const workflow = await importWorkflow(
			n8n,
			{
				name: 'E2E Karakeep dates',
				nodes: [
					{
						id: randomUUID(),
						name: 'Webhook',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						position: [0, 0],
						webhookId: 'e2e-karakeep-dates',
						parameters: { httpMethod: 'POST', path: 'e2e-karakeep-dates', responseMode: 'lastNode', options: {} },
					},
					{
						id: randomUUID(),
						name: 'Update',
						type: 'n8n-nodes-sign-survey-bookmark.bookmarks',
						typeVersion: 2,
						position: [240, 0],
						// As the editor saves the text fields: strings, hidden parameters absent.
						parameters: {
							resource: 'bookmark',
							operation: 'update',
							recordId: byId(record.json.id),
							updateFields: { createdAt: '2026-10-06T18:30', datePublished: '2026-03-15' },
						},
						credentials: { bookmarkApi: { id: 'karakeep', name: 'Karakeep' } },
					},
					{
						id: randomUUID(),
						name: 'In List',
						type: 'n8n-nodes-sign-survey-bookmark.bookmarks',
						typeVersion: 2,
						position: [480, 0],
						parameters: {
							resource: 'bookmark',
							operation: 'getMany',
							returnAll: true,
							filters: { list: byId(list.json.id) },
							options: { simplify: false },
						},
						credentials: { bookmarkApi: { id: 'karakeep', name: 'Karakeep' } },
					},
				],
				connections: {
					Webhook: { main: [[{ node: 'Update', type: 'main', index: 0 }]] },
					Update: { main: [[{ node: 'In List', type: 'main', index: 0 }]] },
				},
				settings: { executionOrder: 'v1', timezone: 'Europe/Berlin' },
			} as WorkflowFile,
			credentials,
		);
		await activateWorkflow(n8n, workflow.id);
		mock.requests.length = 0;
		const response = await waitUntil('the webhook', async () => {
			const answer = await fetch(`${n8n.baseUrl}/webhook/e2e-karakeep-dates`, { method: 'POST' });
			return answer.status === 404 ? undefined : answer;
		});
		expect(response.status).toBe(200);
		const stored = await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.json.id}`);
		expect(stored.json.createdAt).toBe('2026-10-06T16:30:00.000Z');
		expect(stored.json.content.datePublished).toBe('2026-03-14T23:00:00.000Z');
		const listRead = mock.requests.find((request) => request.path === `/api/v1/lists/${list.json.id}/bookmarks`);
		expect(listRead?.query).toMatchObject({ includeContent: 'true' });
		await deactivateWorkflow(n8n, workflow.id);
	});

	describe('the flagship flow files the signed package into Karakeep (workflows/signed-to-archived.json)', () => {
		let linkWorkflow: ImportedWorkflow;
		/** A residency agreement for one signer, generated in the signing sandbox. */
		const generateAgreement = async (name: string, email: string) =>
			(await fetch(`${sandbox.signing.url}/api/v2/templates/tpl_residency_agreement/generate-document`, {
				method: 'POST',
				headers: { authorization: `Bearer ${sandbox.signing.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ title: `Residency agreement – ${name}`, recipients: [{ name, email, role: 'SIGNER' }] }),
			}).then(async (response) => await response.json())) as { documentId: string };

		it('one bookmark with its tags really attached, no signer named', async () => {
			const workflow = await importWorkflow(n8n, readWorkflow('signed-to-archived.json'), credentials, 'signed-to-archived.json');
			linkWorkflow = workflow;
			const trigger = workflow.nodes.find((node) => node.type.endsWith('.signingTrigger'))!;
			await sandboxControl(sandbox, 'signing').call('POST', '/webhook-endpoints', {
				url: productionWebhookUrl(n8n, trigger),
				secret: SIGNING_WEBHOOK_SECRET,
			});
			await activateWorkflow(n8n, workflow.id);
			const generated = await generateAgreement('Ida Example', 'ida@example.org');
			await sandboxControl(sandbox, 'signing').call('POST', `/documents/${generated.documentId}/complete`, {});
			await sandboxControl(sandbox, 'signing').settledDeliveries();
			const [execution] = await settledExecutions(n8n, workflow.id, 1);
			expect(execution.status).toBe('success');
			const filed = await waitUntil('the bookmark in Karakeep', async () => {
				const { bookmarks } = (await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { limit: 100 } })).json;
				const found = (bookmarks as Array<Record<string, any>>).filter((bookmark) => bookmark.title === `Signed document ${generated.documentId}`);
				return found.length ? found : undefined;
			});
			expect(filed).toHaveLength(1);
			expect(filed[0].tags.map((tag: { name: string }) => tag.name).sort()).toEqual(['certified-package', 'signed', 'tpl_residency_agreement']);
			expect(filed[0].note).toMatch(/^Signed by 1 of 1 recipients/);
			expect(JSON.stringify(filed[0])).not.toContain('Ida');
			// Its creation reached the events workflow as well.
			await waitUntil('the created event of the filed bookmark', async () => {
				const all = eventsOf(await listExecutions(n8n, events.id, true));
				return all.some((event) => event.event === 'created' && event.recordId === filed[0].id) || undefined;
			});
		});

		it('Archive As → keepSignedPdf: the signed PDF itself, byte for byte, a PDF bookmark with its tags', async () => {
			// What a Karakeep user does, and `BOOKMARKS=karakeep npm start` imports: the sample as
			// shipped, its one option switched on.
			const sample = withSignedPdfKept(readWorkflow('signed-to-archived.json'));
			await deactivateWorkflow(n8n, linkWorkflow.id);
			const workflow = await importWorkflow(n8n, sample, credentials, 'signed-to-archived.json');
			await activateWorkflow(n8n, workflow.id);
			const generated = await generateAgreement('Uma Example', 'uma@example.org');
			const signing = sandboxControl(sandbox, 'signing');
			// About a megabyte, so that the file goes up in many pieces.
			await signing.call('PUT', `/documents/${generated.documentId}/pdf-padding`, { bytes: 1_000_000 });
			const uploadsBefore = mock.requests.filter((request) => request.operationId === 'uploadAsset').length;
			await signing.call('POST', `/documents/${generated.documentId}/complete`, {});
			await signing.settledDeliveries();
			const [execution] = await settledExecutions(n8n, workflow.id, 1);
			expect(execution.status).toBe('success');

			const title = `Signed document ${generated.documentId}`;
			const { bookmarks } = (await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { limit: 100 } })).json;
			const filed = (bookmarks as Array<Record<string, any>>).filter((bookmark) => bookmark.title === title);
			expect(filed).toHaveLength(1);
			expect(filed[0]).toMatchObject({ content: { type: 'asset', assetType: 'pdf', fileName: `signed-${generated.documentId}.pdf` } });
			expect(filed[0].tags.map((tag: { name: string }) => tag.name).sort()).toEqual(['signed', 'signed-pdf', 'tpl_residency_agreement']);
			expect(filed[0].note).toMatch(/^Signed by 1 of 1 recipients/);
			expect(JSON.stringify(filed[0])).not.toContain('Uma');

			// The PDF Karakeep keeps is the signed PDF the signing service gives, byte for byte.
			const bytesOf = async (url: string, apiKey: string) =>
				Buffer.from(await (await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } })).arrayBuffer());
			const signed = await bytesOf(`${sandbox.signing.url}/api/v2/documents/${generated.documentId}/download?version=signed`, sandbox.signing.apiKey);
			const kept = await bytesOf(`${karakeep.url}/api/v1/assets/${String(filed[0].content.assetId)}`, karakeep.apiKey);
			expect(signed.length).toBeGreaterThan(1_000_000);
			expect(kept.equals(signed)).toBe(true);
			// n8n's own HTTP client sent it as one multipart part, as Karakeep's spec describes.
			const uploads = mock.requests.filter((request) => request.operationId === 'uploadAsset').slice(uploadsBefore);
			expect(uploads).toHaveLength(1);
			expect(uploads[0]).toMatchObject({ valid: true, status: 200, parts: [{ name: 'file', contentType: 'application/pdf' }] });
			expect(uploads[0].parts![0].body.equals(signed)).toBe(true);
			await deactivateWorkflow(n8n, workflow.id);
		});
	});

	describe('the flagship flow files the approved applicant’s portfolio into Karakeep (workflows/application-approved-to-signing.json)', () => {
		it('one bookmark, its tags attached, the application named by id and not the applicant', async () => {
			const workflow = await importWorkflow(
				n8n,
				readWorkflow('application-approved-to-signing.json'),
				credentials,
				'application-approved-to-signing.json',
			);
			await activateWorkflow(n8n, workflow.id);
			const trigger = workflow.nodes.find((node) => node.type.endsWith('.surveyTrigger'))!;
			const surveyId = String((trigger.parameters as { surveyIds: string[] }).surveyIds[0]);
			const response = await sandboxControl(sandbox, 'survey').call<{ id?: string; data?: { id: string } }>(
				'POST',
				`/surveys/${surveyId}/responses`,
				{
					data: {
						fullName: 'Octavia Example',
						email: 'octavia@example.org',
						phone: '+44 20 7946 0000',
						portfolio: 'https://portfolio.example.org/octavia',
						statement: 'I would like to join the residency.',
						decision: 'approved',
					},
					finished: true,
				},
			);
			const responseId = String(response.id ?? response.data?.id);
			await sandboxControl(sandbox, 'survey').settledDeliveries();
			const [execution] = await settledExecutions(n8n, workflow.id, 1);
			expect(execution.status).toBe('success');
			const { bookmarks } = (await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { limit: 100 } })).json;
			const filed = (bookmarks as Array<Record<string, any>>).filter(
				(bookmark) => bookmark.content?.url === 'https://portfolio.example.org/octavia',
			);
			expect(filed).toHaveLength(1);
			expect(filed[0].title).toContain(responseId);
			expect(filed[0].tags.map((tag: { name: string }) => tag.name)).toEqual(expect.arrayContaining(['residency', 'application']));
			expect(`${String(filed[0].title)} ${String(filed[0].note)}`).not.toMatch(/octavia/i);
		});
	});

	describe('the three bookmark MCP tools (workflows/mcp-agent-tools.json)', () => {
		let client: Client;
		const tool = async (name: string, args: Record<string, unknown>) => {
			const { text, isError } = await callMcpTool(client, name, args);
			expect({ name, isError, text: isError ? text : '' }).toEqual({ name, isError: false, text: '' });
			return [JSON.parse(text) as unknown].flat(2) as Array<Record<string, any>>;
		};

		beforeAll(async () => {
			const workflow = await importWorkflow(n8n, readWorkflow('mcp-agent-tools.json'), credentials, 'mcp-agent-tools.json');
			await activateWorkflow(n8n, workflow.id);
			client = new Client({ name: 'e2e-karakeep', version: '1.0.0' });
			await client.connect(
				new StreamableHTTPClientTransport(new URL(`${n8n.baseUrl}/mcp/attunement-tools`), {
					requestInit: { headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
				}),
			);
		});
		afterAll(async () => await client?.close());

		it('ingest_record stores with its tags, search_attunement finds it, get_record_details reads it', async () => {
			const [ingested] = await tool('ingest_record', {
				url: 'https://example.org/essays/karakeep-mcp',
				tags: 'essay, mcp',
				notes: 'Filed by an agent over MCP',
			});
			expect(ingested).toMatchObject({ alreadyExists: false, tags: expect.arrayContaining(['essay', 'mcp']) });
			const stored = (await karakeepCall(karakeep, 'GET', `/bookmarks/${String(ingested.id)}`)).json;
			expect(stored.tags.map((tag: { name: string }) => tag.name).sort()).toEqual(['essay', 'mcp']);
			expect(stored.note).toBe('Filed by an agent over MCP');

			const found = await tool('search_attunement', { query: 'Filed by an agent', limit: 5 });
			expect(found.map((record) => record.id)).toContain(ingested.id);
			expect(mock.requests.some((request) => request.operationId === 'searchBookmarks' && request.valid)).toBe(true);

			const [details] = await tool('get_record_details', { recordId: ingested.id });
			expect(details).toMatchObject({ id: ingested.id, note: 'Filed by an agent over MCP', listIds: [] });
		});
	});
});
