/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// The SDK publishes these paths through package "exports", which the lint resolver does not read.
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';

import { listWorkflowFiles, N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { callMcpTool } from '../harness/mcp';
import { N8N_MAJOR, n8nAtLeast } from '../harness/paths';
import {
	activateWorkflow,
	createSandboxCredentials,
	E2E_SANDBOX_OPTIONS,
	hasTrigger,
	ImportedWorkflow,
	importWorkflowFiles,
	listExecutions,
	MCP_TOKEN,
	needsKarakeep,
	nodesOfType,
	productionWebhookUrl,
	settledExecutions,
	SIGNING_WEBHOOK_SECRET,
	waitUntil,
	WorkflowFile,
} from '../harness/provision';
import { Sandbox, startSandbox } from '../sandbox';
import { RecordedRequest, sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(300_000);

/**
 * The MCP sample uses the MCP Server Trigger's version 2 (Streamable HTTP, which the test's
 * client speaks): n8n 1.99.1 has it, 1.97.1 only versions 1 and 1.1 (SSE; the trigger itself
 * came with 1.88.0). In an older n8n the sample is left out; the others need nothing newer.
 */
const MCP_SERVER_TRIGGER_V2_SINCE = '1.99.0';
const hasMcpServerTrigger = n8nAtLeast(MCP_SERVER_TRIGGER_V2_SINCE);
const usesMcpServerTrigger = (file: string) =>
	(JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile).nodes.some(
		(node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger',
	);
/** A Karakeep-only sample needs a Karakeep, which this suite's sandbox is not: it is imported and checked, not activated. */
const runsHere = (file: string) =>
	(hasMcpServerTrigger || !usesMcpServerTrigger(file)) && !needsKarakeep(JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile);

const SIX_TOOLS = [
	'export_applicant_records',
	'get_record_details',
	'get_survey_metrics',
	'ingest_record',
	'list_surveys',
	'search_attunement',
];

/**
 * The version n8n runs a sample's node as. n8n 1.x has Read/Write Files from Disk 1 only and runs the
 * contacts sample's 1.1 (which says "No file(s) found" on 2.x) as version 1, where Always Output Data
 * makes the next node stop: test/e2e/startFormbricksFlavour.test.ts runs it on both.
 */
const runsAs = (node: { type: string; typeVersion?: number }) =>
	N8N_MAJOR < 2 && node.type === 'n8n-nodes-base.readWriteFile' && node.typeVersion === 1.1 ? 1 : node.typeVersion;

describe('the sample workflows, as shipped, in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let workflows: ImportedWorkflow[];
	const byFile = (name: string) => {
		const workflow = workflows.find((w) => w.file.endsWith(name));
		if (!workflow) throw new Error(`workflows/${name} was not imported`);
		return workflow;
	};
	const signing = () => sandboxControl(sandbox, 'signing');
	const bookmarks = () => sandboxControl(sandbox, 'bookmark');
	const survey = () => sandboxControl(sandbox, 'survey');
	const posts = (requests: RecordedRequest[], path: RegExp) =>
		requests.filter((request) => request.method === 'POST' && path.test(request.path));

	beforeAll(async () => {
		sandbox = await startSandbox(E2E_SANDBOX_OPTIONS);
		n8n = await startN8n({ packageTarball: await packPackage() });
		workflows = await importWorkflowFiles(n8n, await createSandboxCredentials(n8n, sandbox));
		for (const workflow of workflows) {
			for (const node of nodesOfType(workflow, 'signingTrigger')) {
				await signing().call('POST', '/webhook-endpoints', {
					url: productionWebhookUrl(n8n, node),
					secret: SIGNING_WEBHOOK_SECRET,
				});
			}
			if (hasTrigger(workflow) && runsHere(workflow.file)) await activateWorkflow(n8n, workflow.id);
		}
	});

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
	});

	it('imports every workflow file with no missing node type and no broken connection', async () => {
		const response = await fetch(`${n8n.baseUrl}/types/nodes.json`, { headers: { cookie: n8n.ownerCookie } });
		const known = new Map<string, number[]>();
		for (const type of (await response.json()) as Array<{ name: string; version: number | number[] }>) {
			known.set(type.name, [...(known.get(type.name) ?? []), ...[type.version].flat()]);
		}
		const files = listWorkflowFiles();
		expect(files.length).toBeGreaterThanOrEqual(4);
		expect(workflows).toHaveLength(files.length);
		expect(known.get('@n8n/n8n-nodes-langchain.mcpTrigger')?.includes(2) ?? false).toBe(hasMcpServerTrigger);
		for (const file of files.filter(runsHere)) {
			const workflow = JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile;
			const names = new Set(workflow.nodes.map((node) => node.name));
			for (const node of workflow.nodes) {
				expect({ file, node: node.name, versions: known.get(node.type) }).toEqual({
					file,
					node: node.name,
					versions: expect.arrayContaining([runsAs(node)]),
				});
				// Webhook-based triggers need a fixed webhookId for a stable URL.
				if (/\.(signingTrigger|surveyTrigger|bookmarksWebhookTrigger|mcpTrigger|webhook)$/.test(node.type)) {
					expect({ file, node: node.name, webhookId: node.webhookId }).toEqual({
						file,
						node: node.name,
						webhookId: expect.any(String),
					});
				}
			}
			for (const [source, outputs] of Object.entries(workflow.connections)) {
				expect(names).toContain(source);
				for (const targets of Object.values(outputs as Record<string, Array<Array<{ node: string }>>>)) {
					for (const target of targets.flat()) expect(names).toContain(target.node);
				}
			}
		}
		const stored = await n8n.api<{ data: Array<{ id: string; active: boolean }> }>('GET', '/workflows');
		for (const workflow of workflows.filter((w) => hasTrigger(w) && runsHere(w.file))) {
			expect(stored.data.find((w) => w.id === workflow.id)?.active).toBe(true);
		}
	});

	describe('Application approved → signing envelope', () => {
		const residencySurvey = () =>
			String(
				(byFile('application-approved-to-signing.json').nodes.find((n) => n.name === 'Application Finished')
					?.parameters as { surveyIds: string[] }).surveyIds[0],
			);
		const submit = async (decision: string, who: string) =>
			await survey().call<{ id?: string; data?: { id: string } }>('POST', `/surveys/${residencySurvey()}/responses`, {
				data: {
					fullName: `${who} Example`,
					email: `${who.toLowerCase()}@example.org`,
					phone: '+44 20 7946 0000',
					portfolio: `https://portfolio.example.org/${who.toLowerCase()}`,
					statement: 'I would like to join the residency.',
					decision,
				},
				finished: true,
			});
		const executionsOf = async () =>
			await listExecutions(n8n, byFile('application-approved-to-signing.json').id);

		it('starts exactly one envelope and files one bookmark for an approved application', async () => {
			await signing().clearRequests();
			await bookmarks().clearRequests();
			const before = (await executionsOf()).length;
			await submit('approved', 'Octavia');
			const generated = await waitUntil('the generate-document request', async () => {
				const found = posts(await signing().requests(), /generate-document$/);
				return found.length ? found : undefined;
			});
			// Every delivery made and every run it started finished: a duplicate would show now.
			await survey().settledDeliveries();
			await settledExecutions(n8n, byFile('application-approved-to-signing.json').id, before + 1);
			const filed = posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/);
			expect(posts(await signing().requests(), /generate-document$/)).toHaveLength(1);
			expect(generated).toHaveLength(1);
			expect(generated[0].path).toBe('/api/v2/templates/tpl_residency_agreement/generate-document');
			expect(generated[0].body).toEqual({
				title: 'Residency agreement – Octavia Example',
				recipients: [{ name: 'Octavia Example', email: 'octavia@example.org', role: 'SIGNER' }],
			});
			expect(posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/)).toHaveLength(1);
			expect(filed[0].body).toMatchObject({
				type: 'link',
				url: 'https://portfolio.example.org/octavia',
				tags: expect.arrayContaining(['residency', 'application']),
			});
			// Bookmarks are searchable by agents: they name the application by id, never the applicant.
			const { title, note } = filed[0].body as { title: string; note: string };
			expect(title).toMatch(/resp_/);
			expect(`${title} ${note}`).not.toMatch(/octavia/i);
		});

		it('starts no envelope for a rejected application', async () => {
			await signing().clearRequests();
			await bookmarks().clearRequests();
			const before = (await executionsOf()).length;
			await submit('rejected', 'Rufus');
			await waitUntil('the execution to end', async () => (await executionsOf()).length > before);
			expect(posts(await signing().requests(), /generate-document$/)).toHaveLength(0);
			expect(posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/)).toHaveLength(0);
		});
	});

	it('Signed → archived: files one bookmark with the certified package once everyone signed', async () => {
		await bookmarks().clearRequests();
		const generated = (await fetch(
			`${sandbox.signing.url}/api/v2/templates/tpl_residency_agreement/generate-document`,
			{
				method: 'POST',
				headers: { authorization: `Bearer ${sandbox.signing.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({
					title: 'Residency agreement – Ida Example',
					recipients: [
						{ name: 'Ida Example', email: 'ida@example.org', role: 'SIGNER' },
						{ name: 'Residency Director', email: 'director@example.org', role: 'APPROVER' },
					],
				}),
			},
		).then(async (response) => await response.json())) as { documentId: string };
		const archive = byFile('signed-to-archived.json').id;
		const before = (await settledExecutions(n8n, archive, 0)).length;
		await signing().call('POST', `/documents/${generated.documentId}/complete`, {});
		// Every delivery made (a retry included) and every run n8n started for them finished:
		// a duplicate bookmark would have been filed by now, without waiting for it.
		await signing().settledDeliveries();
		await settledExecutions(n8n, archive, before + 1);
		const filed = posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/);
		expect(filed).toHaveLength(1);
		expect(filed[0].body).toMatchObject({
			type: 'link',
			url: expect.stringMatching(new RegExp(`^https://.*${generated.documentId}`)),
			title: `Signed document ${generated.documentId}`,
			tags: expect.arrayContaining(['signed']),
			note: expect.stringMatching(/^Signed by 2 of 2 recipients/),
		});
		// No signer's name in the bookmark: agents can search it.
		expect(JSON.stringify(filed[0].body)).not.toMatch(/Ida|Residency Director/);
	});

	it('Signed → archived: a second document.completed for the same document, as a new delivery, files nothing more (issue 42)', async () => {
		await bookmarks().clearRequests();
		const generated = (await fetch(`${sandbox.signing.url}/api/v2/templates/tpl_residency_agreement/generate-document`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.signing.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				title: 'Residency agreement – Jo Example',
				recipients: [{ name: 'Jo Example', email: 'jo@example.org', role: 'SIGNER' }],
			}),
		}).then(async (response) => await response.json())) as { documentId: string };
		// The service sends the event again under a new delivery id: a second endpoint with the trigger's URL and secret.
		const { endpoints } = await signing().call<{ endpoints: Array<{ id: string; url: string; secret?: string }> }>('GET', '/webhook-endpoints');
		const archive = byFile('signed-to-archived.json').id;
		// The sample's trigger keeps its webhookId when imported: n8n's URL for it carries that id.
		const original = endpoints.find((endpoint) => endpoint.url.includes('7c1f9b63-6b6f-4e2c-8b68-7b8d2a4b1b02'));
		if (!original) throw new Error(`No endpoint of the sample's trigger among ${endpoints.map((endpoint) => endpoint.url).join(', ')}`);
		const again = await signing().call<{ id: string }>('POST', '/webhook-endpoints', { url: original.url, secret: original.secret });
		try {
			const before = (await settledExecutions(n8n, archive, 0)).length;
			await signing().call('POST', `/documents/${generated.documentId}/complete`, {});
			await signing().settledDeliveries();
			await settledExecutions(n8n, archive, before + 2);
			const filed = posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/);
			expect(filed).toHaveLength(1);
			expect(filed[0].body).toMatchObject({ title: `Signed document ${generated.documentId}` });
		} finally {
			await signing().call('DELETE', `/webhook-endpoints/${again.id}`);
		}
	});

	(hasMcpServerTrigger ? describe : describe.skip)('Agent tools over MCP', () => {
		let client: Client;
		const mcpUrl = () => new URL(`${n8n.baseUrl}/mcp/attunement-tools`);
		const transport = (headers: Record<string, string> = {}) =>
			new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers } });

		beforeAll(async () => {
			client = new Client({ name: 'e2e-test', version: '1.0.0' });
			await client.connect(transport({ Authorization: `Bearer ${MCP_TOKEN}` }));
		});
		afterAll(async () => await client?.close());

		it.each([
			['no token', {}],
			['a wrong token', { Authorization: 'Bearer not-the-token' }],
		])('refuses a client with %s', async (_case, headers: Record<string, string>) => {
			const stranger = new Client({ name: 'e2e-stranger', version: '1.0.0' });
			await expect(stranger.connect(transport(headers))).rejects.toThrow(/403|Forbidden|Authorization/i);
			await stranger.close().catch(() => undefined);
			const raw = await fetch(mcpUrl(), {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
			});
			expect(raw.status).toBe(403);
			expect(await raw.text()).not.toMatch(/export_applicant_records/);
		});

		const call = async (name: string, args: Record<string, unknown>) => {
			const { text, isError } = await callMcpTool(client, name, args);
			expect(isError).toBeFalsy();
			return { text, json: JSON.parse(text) as unknown };
		};
		const asList = (value: unknown) => [value].flat(2) as Array<Record<string, unknown>>;

		it('lists exactly the six tools, each with a description', async () => {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual(SIX_TOOLS);
			for (const tool of tools) expect((tool.description ?? '').length).toBeGreaterThan(40);
		});

		it('ingests, searches and reads a record in the bookmark service', async () => {
			const ingested = asList((await call('ingest_record', {
				url: 'https://example.org/essays/mcp-attunement',
				tags: 'essay, mcp',
				notes: 'Filed by an agent over MCP',
			})).json)[0];
			expect(ingested).toMatchObject({ id: expect.stringMatching(/^bm_/), alreadyExists: false });
			const found = asList((await call('search_attunement', { query: 'Filed by an agent', limit: 5 })).json);
			expect(found.map((record) => record.id)).toContain(ingested.id);
			const details = asList((await call('get_record_details', { recordId: ingested.id })).json)[0];
			expect(details).toMatchObject({ id: ingested.id, note: 'Filed by an agent over MCP' });
		});

		it('gives the agent a record’s personal data redacted, and stores it as the agent gave it', async () => {
			const notes = 'Applicant: Ida Example\nE-mail: ida.example@example.org\nPhone: +44 20 7946 0321\nStatus: shortlisted';
			const ingested = asList((await call('ingest_record', {
				url: 'https://portfolio.example.org/ida-example',
				tags: 'residency',
				notes,
			})).json)[0];
			const redactedNote = 'Applicant: NAME_1\nE-mail: EMAIL_1\nPhone: PHONE_1\nStatus: shortlisted';
			expect(ingested).toMatchObject({ id: expect.stringMatching(/^bm_/), note: redactedNote });
			const details = await call('get_record_details', { recordId: ingested.id });
			expect(asList(details.json)[0]).toMatchObject({
				id: ingested.id,
				note: redactedNote,
				content: { url: 'https://portfolio.example.org/NAME_1' },
				tags: [{ name: 'residency' }],
			});
			const found = await call('search_attunement', { query: 'shortlisted', limit: 5 });
			expect(asList(found.json).map((record) => record.id)).toContain(ingested.id);
			for (const text of [details.text, found.text]) {
				expect(text).not.toMatch(/Ida|ida\.example@|7946 0321|ida-example/i);
			}
			const stored = (await fetch(`${sandbox.bookmark.url}/api/v1/bookmarks/${String(ingested.id)}`, {
				headers: { authorization: `Bearer ${sandbox.bookmark.apiKey}` },
			}).then(async (response) => await response.json())) as { note: string };
			expect(stored.note).toBe(notes);
		});

		it('lists surveys, gives metrics and exports applicants without e-mail addresses', async () => {
			const surveys = asList((await call('list_surveys', {})).json);
			const direct = (await fetch(`${sandbox.survey.url}/api/v1/management/surveys`, {
				headers: { 'x-api-key': sandbox.survey.apiKey },
			}).then(async (response) => await response.json())) as { data: Array<Record<string, unknown>> };
			expect(surveys.map((s) => s.id).sort()).toEqual(direct.data.map((s) => s.id).sort());
			const residency = direct.data.find((s) => /residency/i.test(String(s.name)))!;

			const metrics = asList((await call('get_survey_metrics', { surveyId: residency.id })).json)[0];
			expect(metrics).toMatchObject({ surveyId: residency.id, responseCount: residency.responseCount });

			const exported = await call('export_applicant_records', { surveyId: residency.id });
			expect(asList(exported.json).length).toBeGreaterThan(0);
			expect(exported.text).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
			expect(exported.text).toMatch(/EMAIL_\d+/);
			// None of the seed applicants' personal values, nor their names as URL slugs.
			const responses = (await fetch(
				`${sandbox.survey.url}/api/v1/management/surveys/${String(residency.id)}/responses?limit=250`,
				{ headers: { 'x-api-key': sandbox.survey.apiKey } },
			).then(async (response) => await response.json())) as { data: Array<{ data: Record<string, string> }> };
			const personal = responses.data.flatMap(({ data }) =>
				[data.fullName, data.email, data.phone, data.fullName?.toLowerCase().replace(/ /g, '-')].filter(Boolean),
			);
			expect(personal.length).toBeGreaterThanOrEqual(12);
			const text = exported.text.toLowerCase();
			expect(personal.filter((value) => text.includes(value.toLowerCase()))).toEqual([]);
		});
	});
});
