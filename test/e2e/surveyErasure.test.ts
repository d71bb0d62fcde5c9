/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// The SDK publishes these paths through package "exports", which the lint resolver does not read.
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { callMcpTool } from '../harness/mcp';
import { PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	createSandboxCredentials,
	CredentialRefs,
	E2E_SANDBOX_OPTIONS,
	ExecutionSummary,
	ImportedWorkflow,
	importWorkflow,
	listExecutions,
	nodeOutput,
	waitUntil,
	WorkflowFile,
} from '../harness/provision';
import { Sandbox, SEED, SEED_COUNTS, startSandbox } from '../sandbox';
import { sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(300_000);

describe('the erasure request sample in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let workflow: ImportedWorkflow;
	let credentials: CredentialRefs;
	const survey = () => sandboxControl(sandbox, 'survey');
	const bookmarks = () => sandboxControl(sandbox, 'bookmark');
	const residencyIds = async () => {
		const answer = await fetch(
			`${sandbox.survey.url}/api/v1/management/surveys/${SEED.residencySurveyId}/responses?limit=250`,
			{
				headers: { 'x-api-key': sandbox.survey.apiKey },
			},
		);
		return ((await answer.json()) as { data: Array<{ id: string }> }).data.map(
			(response) => response.id,
		);
	};
	const apply = async (email: string) =>
		(
			await survey().call<{ data: { id: string } }>(
				'POST',
				`/surveys/${SEED.residencySurveyId}/responses`,
				{
					data: {
						fullName: 'Octavia Example',
						email,
						portfolio: 'https://portfolio.example.org/octavia',
						decision: 'pending',
					},
				},
			)
		).data.id;

	/**
	 * Every execution of a workflow n8n still lists, running ones included (the public API lists
	 * running executions only when asked for them; asked first, none slips between the two).
	 */
	const executionsListed = async (workflowId: string) => {
		const running = await n8n.api<{ data: ExecutionSummary[] }>(
			'GET',
			`/executions?workflowId=${workflowId}&status=running&limit=250`,
		);
		const listed = await n8n.api<{ data: ExecutionSummary[] }>(
			'GET',
			`/executions?workflowId=${workflowId}&limit=250`,
		);
		return [...running.data, ...listed.data];
	};
	/** Waits for the sample's run to end; the sample keeps no execution, so none is left listed. */
	const runEndsLeavingNoExecution = async () =>
		await waitUntil(
			'the erasure run to end, leaving no execution',
			async () => ((await executionsListed(workflow.id)).length === 0 ? true : undefined),
			60_000,
		);
	/** The sample's Get Many read the applications: its run has started. */
	const applicationsRead = async () =>
		await waitUntil(
			'the erasure run to read the applications',
			async () =>
				(await survey().requests()).find(
					(r) =>
						r.method === 'GET' &&
						r.path === `/api/v1/management/surveys/${SEED.residencySurveyId}/responses`,
				),
			60_000,
		);

	beforeAll(async () => {
		sandbox = await startSandbox(E2E_SANDBOX_OPTIONS);
		n8n = await startN8n({ packageTarball: await packPackage() });
		const file = path.join(PROJECT_ROOT, 'workflows', 'erasure-request.json');
		workflow = await importWorkflow(
			n8n,
			JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile,
			(credentials = await createSandboxCredentials(n8n, sandbox)),
			file,
		);
		await activateWorkflow(n8n, workflow.id);
	});
	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
	});

	it('erases exactly the requester’s responses (e-mail compared case-insensitively) and records ids and date only', async () => {
		const mine = [
			await apply('octavia.example@example.org'),
			await apply('  Octavia.Example@EXAMPLE.org '),
		];
		const others = [
			await apply('octavia.example@example.org.uk'),
			await apply('x.octavia.example@example.org'),
		];
		const before = await residencyIds();
		expect(before).toHaveLength(SEED_COUNTS.residencyResponses + 4);
		await bookmarks().clearRequests();

		const request = await survey().call<{ data: { id: string } }>(
			'POST',
			`/surveys/${SEED.erasureSurveyId}/responses`,
			{
				data: { email: 'OCTAVIA.example@example.org', confirmation: 'accepted' },
			},
		);

		const filed = await waitUntil(
			'the erasure bookmark',
			async () =>
				(await bookmarks().requests()).find(
					(r) => r.method === 'POST' && r.path === '/api/v1/bookmarks',
				),
			60_000,
		);
		const after = await residencyIds();
		expect(after.sort()).toEqual(before.filter((id) => !mine.includes(id)).sort());
		for (const id of others) expect(after).toContain(id);

		const body = filed.body as { type: string; title: string; text: string };
		expect(body.type).toBe('text');
		expect(body.title).toContain(request.data.id);
		for (const id of mine) expect(body.text).toContain(id);
		for (const id of others) expect(body.text).not.toContain(id);
		expect(body.text).toMatch(/\d{4}-\d\d-\d\dT/);
		expect(JSON.stringify(body)).not.toMatch(/octavia|example\.org/i);

		// It read every applicant's answers, and n8n keeps none of them (issue 23 §1).
		await runEndsLeavingNoExecution();
	});

	it('erases nothing and files nothing without the confirmation', async () => {
		const id = await apply('someone.else@example.org');
		await bookmarks().clearRequests();
		await survey().clearRequests();
		await survey().call('POST', `/surveys/${SEED.erasureSurveyId}/responses`, {
			data: { email: 'someone.else@example.org' },
		});
		await applicationsRead();
		await runEndsLeavingNoExecution();
		expect(await residencyIds()).toContain(id);
		expect((await bookmarks().requests()).filter((r) => r.method === 'POST')).toEqual([]);
	});

	describe('Survey node run normally and as an agent’s tool', () => {
		const ADA = ['Ada Lovelace', 'ada.lovelace@example.org'];
		let client: Client;
		let reading: ImportedWorkflow;
		const surveyCredential = () => ({ surveyApi: credentials.surveyApi });

		beforeAll(async () => {
			const tools: WorkflowFile = {
				name: 'Survey tools (test)',
				nodes: [
					{
						id: 'b1f0c2d4-0014-4e00-8000-000000000001',
						name: 'MCP Server',
						type: '@n8n/n8n-nodes-langchain.mcpTrigger',
						typeVersion: 2,
						position: [0, 0],
						webhookId: 'b1f0c2d4-0014-4e00-8000-0000000000a1',
						parameters: { path: 'survey-tools-test', authentication: 'none' },
					},
					{
						id: 'b1f0c2d4-0014-4e00-8000-000000000002',
						name: 'read_responses',
						type: 'n8n-nodes-sign-survey-bookmark.surveyTool',
						typeVersion: 1,
						position: [0, 200],
						parameters: {
							descriptionType: 'manual',
							toolDescription:
								'Read every response of the residency application survey with its answers.',
							resource: 'response',
							operation: 'getMany',
							surveyId: { __rl: true, mode: 'id', value: SEED.residencySurveyId },
							returnAll: true,
							options: {},
						},
						credentials: surveyCredential(),
					},
					{
						id: 'b1f0c2d4-0014-4e00-8000-000000000003',
						name: 'erase_response',
						type: 'n8n-nodes-sign-survey-bookmark.surveyTool',
						typeVersion: 1,
						position: [200, 200],
						parameters: {
							descriptionType: 'manual',
							toolDescription: 'Erase one survey response by its id (resp_...).',
							resource: 'response',
							operation: 'delete',
							responseId:
								"={{ $fromAI('responseId', 'The id of the response to erase', 'string') }}",
						},
						credentials: surveyCredential(),
					},
				],
				connections: {
					read_responses: { ai_tool: [[{ node: 'MCP Server', type: 'ai_tool', index: 0 }]] },
					erase_response: { ai_tool: [[{ node: 'MCP Server', type: 'ai_tool', index: 0 }]] },
				},
			};
			const imported = await importWorkflow(n8n, tools, credentials);
			await activateWorkflow(n8n, imported.id);
			// The erasure sample's Get Many as it is, in a workflow that keeps its executions.
			const sampleRead = (
				JSON.parse(
					readFileSync(path.join(PROJECT_ROOT, 'workflows', 'erasure-request.json'), 'utf8'),
				) as WorkflowFile
			).nodes.find((node) => node.name === 'All Applications')!;
			reading = await importWorkflow(
				n8n,
				{
					name: 'Survey read (test)',
					nodes: [
						{
							id: 'b1f0c2d4-0014-4e00-8000-000000000004',
							name: 'Run',
							type: 'n8n-nodes-base.webhook',
							typeVersion: 2,
							position: [0, 0],
							webhookId: 'b1f0c2d4-0014-4e00-8000-0000000000b1',
							parameters: {
								httpMethod: 'POST',
								path: 'survey-read-test',
								responseMode: 'onReceived',
								options: {},
							},
						},
						{ ...sampleRead, position: [200, 0], credentials: surveyCredential() },
					],
					connections: { Run: { main: [[{ node: sampleRead.name, type: 'main', index: 0 }]] } },
				},
				credentials,
			);
			await activateWorkflow(n8n, reading.id);
			client = new Client({ name: 'e2e-survey-tools', version: '1.0.0' });
			await client.connect(
				new StreamableHTTPClientTransport(new URL(`${n8n.baseUrl}/mcp/survey-tools-test`)),
			);
		});
		afterAll(async () => await client?.close());

		const callTool = async (name: string, args: Record<string, unknown>) => await callMcpTool(client, name, args);

		it('run normally (the erasure sample’s Get Many) returns the answers as they are', async () => {
			// Publishing is asynchronous in n8n 2.x: until the webhook is live it answers 404.
			const answer = await waitUntil('the webhook to be live', async () => {
				const sent = await fetch(`${n8n.baseUrl}/webhook/survey-read-test`, { method: 'POST' });
				return sent.status === 404 ? undefined : sent;
			});
			expect(answer.status).toBe(200);
			const [execution] = await waitUntil('the run', async () => {
				const done = await listExecutions(n8n, reading.id, true);
				return done.length ? done : undefined;
			});
			const read = JSON.stringify(nodeOutput(execution, 'All Applications'));
			for (const value of ADA) expect(read).toContain(value);
		});

		it('as a tool, Get Many returns the answers redacted', async () => {
			const { text, isError } = await callTool('read_responses', {});
			expect(isError).toBe(false);
			expect(text).toContain(SEED.adaResponseId);
			for (const value of ADA) expect(text).not.toContain(value);
		});

		it('as a tool, Delete refuses and erases nothing', async () => {
			const { text } = await callTool('erase_response', { responseId: SEED.adaResponseId });
			expect(text).toMatch(/not allowed for an AI agent/);
			expect(await residencyIds()).toContain(SEED.adaResponseId);
		});
	});

	describe('Only New Since Last Run in a real n8n (static data across production executions)', () => {
		let reader: ImportedWorkflow;
		let eager: ImportedWorkflow;

		/** Webhook → Get Many (only new) → Fail? → Stop and Error | Mark as Read. */
		const readerFlow = (
			variant: number,
			path: string,
			webhookId: string,
			options: Record<string, unknown>,
		): WorkflowFile => {
			const flow: WorkflowFile = {
				name: `Only new responses (${path})`,
				nodes: [
					{
						id: `c2a0d3e5-0014-4e00-8${variant}00-000000000001`,
						name: 'Run',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						position: [0, 0],
						webhookId,
						parameters: {
							httpMethod: 'POST',
							path,
							responseMode: 'onReceived',
							options: {},
						},
					},
					{
						id: `c2a0d3e5-0014-4e00-8${variant}00-000000000002`,
						name: 'New Responses',
						type: 'n8n-nodes-sign-survey-bookmark.survey',
						typeVersion: 1,
						position: [200, 0],
						parameters: {
							resource: 'response',
							operation: 'getMany',
							surveyId: { __rl: true, mode: 'id', value: SEED.residencySurveyId },
							returnAll: true,
							options: { onlyNew: true, ...options },
						},
						credentials: { surveyApi: credentials.surveyApi },
					},
					{
						id: `c2a0d3e5-0014-4e00-8${variant}00-000000000003`,
						name: 'Fail?',
						type: 'n8n-nodes-base.if',
						typeVersion: 2.2,
						position: [400, 0],
						parameters: {
							conditions: {
								options: {
									caseSensitive: true,
									leftValue: '',
									typeValidation: 'loose',
									version: 2,
								},
								conditions: [
									{
										id: `c2a0d3e5-0014-4e00-8${variant}00-0000000000c1`,
										leftValue: "={{ $('Run').first().json.body.fail === true }}",
										rightValue: '',
										operator: { type: 'boolean', operation: 'true', singleValue: true },
									},
								],
								combinator: 'and',
							},
							looseTypeValidation: true,
							options: {},
						},
					},
					{
						id: `c2a0d3e5-0014-4e00-8${variant}00-000000000004`,
						name: 'Processing Fails',
						type: 'n8n-nodes-base.stopAndError',
						typeVersion: 1,
						position: [600, -100],
						parameters: { errorMessage: 'A later step failed' },
					},
					{
						id: `c2a0d3e5-0014-4e00-8${variant}00-000000000005`,
						name: 'Mark as Read',
						type: 'n8n-nodes-sign-survey-bookmark.survey',
						typeVersion: 1,
						position: [600, 100],
						parameters: { resource: 'response', operation: 'markAsRead' },
						credentials: { surveyApi: credentials.surveyApi },
					},
				],
				connections: {
					Run: { main: [[{ node: 'New Responses', type: 'main', index: 0 }]] },
					'New Responses': { main: [[{ node: 'Fail?', type: 'main', index: 0 }]] },
					'Fail?': {
						main: [
							[{ node: 'Processing Fails', type: 'main', index: 0 }],
							[{ node: 'Mark as Read', type: 'main', index: 0 }],
						],
					},
				},
			};
			return flow;
		};

		beforeAll(async () => {
			reader = await importWorkflow(
				n8n,
				readerFlow(0, 'survey-only-new', 'c2a0d3e5-0014-4e00-8000-0000000000a1', {}),
				credentials,
			);
			eager = await importWorkflow(
				n8n,
				readerFlow(1, 'survey-only-new-eager', 'c2a0d3e5-0014-4e00-8000-0000000000a2', {
					advanceMark: 'rightAway',
				}),
				credentials,
			);
			await activateWorkflow(n8n, reader.id);
			await activateWorkflow(n8n, eager.id);
		});

		/** One production run; returns the ids Get Many read and the execution's status. */
		const runOnce = async (fail: boolean, flow = reader, path = 'survey-only-new') => {
			const before = (await listExecutions(n8n, flow.id)).length;
			// Publishing is asynchronous in n8n 2.x: until the webhook is live it answers 404.
			const answer = await waitUntil('the webhook to be live', async () => {
				const sent = await fetch(`${n8n.baseUrl}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ fail }),
				});
				return sent.status === 404 ? undefined : sent;
			});
			expect(answer.status).toBe(200);
			const [execution] = await waitUntil('the run', async () => {
				const done = await listExecutions(n8n, flow.id, true);
				return done.length > before ? done : undefined;
			});
			return {
				status: execution.status,
				ids: nodeOutput(execution, 'New Responses').map((response) => String(response.id)),
			};
		};

		it('reads what is new since the last successful run; a failed run is read again', async () => {
			const first = await runOnce(false);
			expect(first.status).toBe('success');
			expect(first.ids.sort()).toEqual((await residencyIds()).sort());

			const a = await apply('only.new.a@example.org');
			const failed = await runOnce(true);
			expect(failed.status).toBe('error');
			expect(failed.ids).toEqual([a]);

			const b = await apply('only.new.b@example.org');
			const next = await runOnce(false);
			expect(next.status).toBe('success');
			expect(next.ids).toEqual([a, b]);

			expect((await runOnce(false)).ids).toEqual([]);
		});

		it('with Advance Mark "Right Away", n8n keeps the mark of a failed run: its responses are not read again', async () => {
			const runEager = async (fail: boolean) => await runOnce(fail, eager, 'survey-only-new-eager');
			expect((await runEager(false)).status).toBe('success');
			const c = await apply('only.new.c@example.org');
			expect((await runEager(true)).ids).toEqual([c]);
			const d = await apply('only.new.d@example.org');
			// n8n saved the static data of the failed execution: why the default waits for Mark as Read.
			expect((await runEager(false)).ids).toEqual([d]);
		});
	});
});
