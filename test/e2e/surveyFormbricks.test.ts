/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// The SDK publishes these paths through package "exports", which the lint resolver does not read.
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

import { N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { callMcpTool } from '../harness/mcp';
import { n8nAtLeast, PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	createSandboxCredentials,
	type CredentialRefs,
	deactivateWorkflow,
	E2E_SANDBOX_OPTIONS,
	type ImportedWorkflow,
	importWorkflow,
	MCP_TOKEN,
	productionWebhookUrl,
	waitUntil,
	type WorkflowFile,
} from '../harness/provision';
import { FORMBRICKS_SEED, type Sandbox, startSandbox } from '../sandbox';
import { formbricksSpecProblems } from '../unit/helpers/formbricks';
import { sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(300_000);

const hasMcpServerTrigger = n8nAtLeast('1.99.0');
const readWorkflow = (file: string) =>
	JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'workflows', file), 'utf8')) as WorkflowFile;

interface Execution {
	id: string;
	status: string;
}

/**
 * The flagship flow and the survey MCP tools in a real n8n with the Survey API credential set to
 * Formbricks, against the Formbricks flavour of the sandbox: Formbricks' own routes, every request
 * checked against its OpenAPI files, webhooks sent as its response pipeline sends them (nested
 * body, Standard Webhooks signature, the same webhook-id on every attempt of a job).
 */
describe('Survey nodes on Formbricks, in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let credentials: CredentialRefs;
	const formbricks = () => sandboxControl(sandbox, 'survey');
	const signing = () => sandboxControl(sandbox, 'signing');
	const bookmarks = () => sandboxControl(sandbox, 'bookmark');
	const api = async <T>(route: string, init: { method?: string; body?: unknown } = {}) =>
		(await fetch(`${sandbox.survey.url}${route}`, {
			method: init.method ?? 'GET',
			headers: {
				'x-api-key': sandbox.survey.apiKey,
				...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: init.body === undefined ? undefined : JSON.stringify(init.body),
		}).then(async (response) => await response.json())) as T;

	beforeAll(async () => {
		sandbox = await startSandbox({ ...E2E_SANDBOX_OPTIONS, survey: 'formbricks' });
		n8n = await startN8n({ packageTarball: await packPackage() });
		credentials = await createSandboxCredentials(n8n, sandbox);
	});
	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
	});
	afterEach(async () => {
		// Every request n8n sent to Formbricks validates against its specs; no answer broke them.
		expect(await formbricksSpecProblems(sandbox.survey.url)).toEqual([]);
	});

	describe('Application approved → signing envelope (workflows/application-approved-to-signing.json)', () => {
		let workflow: ImportedWorkflow;
		let surveyId: string;
		let receiver: Server | undefined;
		const executions = async () =>
			(await n8n.api<{ data: Execution[] }>('GET', `/executions?workflowId=${workflow.id}&limit=250`)).data;
		const finished = async (count: number) =>
			await waitUntil(`${count} finished executions`, async () => {
				const all = await executions();
				return all.length >= count && all.every((execution) => !['new', 'running', 'waiting'].includes(execution.status))
					? all
					: undefined;
			});
		const apply = async (decision: string, who: string) =>
			await formbricks().call<{ data: { id: string } }>('POST', `/surveys/${surveyId}/responses`, {
				data: {
					fullName: `${who} Example`,
					email: `${who.toLowerCase()}@example.org`,
					portfolio: `https://portfolio.example.org/${who.toLowerCase()}`,
					decision,
				},
				finished: true,
			});
		const generated = async () =>
			(await signing().requests()).filter((request) => request.method === 'POST' && /generate-document$/.test(request.path));

		beforeAll(async () => {
			// The residency form as a Formbricks user builds it for the sample: the questions' IDs set
			// in Formbricks' editor (Advanced settings → Question ID), so the workflow's expressions work.
			const made = await formbricks().call<{ data: { id: string } }>('POST', '/surveys', {
				name: 'Residency application 2027',
				questions: [
					{ id: 'fullName', headline: 'Your full name', type: 'openText' },
					{ id: 'email', headline: 'Your e-mail address', type: 'openText', inputType: 'email' },
					{ id: 'portfolio', headline: 'Link to your portfolio', type: 'openText', inputType: 'url' },
					{ id: 'decision', headline: 'Decision', type: 'multipleChoiceSingle', choices: ['approved', 'rejected', 'pending'] },
				],
			});
			surveyId = made.data.id;
			const file = readWorkflow('application-approved-to-signing.json');
			// The one change a Formbricks user makes: their own survey in the trigger.
			const nodes = file.nodes.map((node) =>
				node.name === 'Application Finished'
					? { ...node, parameters: { ...(node.parameters as object), surveyIds: [surveyId] } }
					: node,
			);
			workflow = await importWorkflow(n8n, { ...file, nodes }, credentials);
			await activateWorkflow(n8n, workflow.id);
		});
		afterAll(async () => {
			receiver?.close();
		});

		it('registered its webhook in the workspace through Formbricks’ API', async () => {
			const trigger = workflow.nodes.find((node) => node.name === 'Application Finished')!;
			const { data: hooks } = await formbricks().call<{ data: Array<Record<string, unknown>> }>('GET', '/webhooks');
			expect(hooks).toEqual([
				expect.objectContaining({
					url: productionWebhookUrl(n8n, trigger),
					workspaceId: FORMBRICKS_SEED.workspaceId,
					source: 'n8n',
					triggers: ['responseFinished'],
					surveyIds: [surveyId],
					secret: expect.stringMatching(/^whsec_/),
				}),
			]);
		});

		it('an approved application: one envelope for the applicant and one bookmark', async () => {
			await signing().clearRequests();
			await bookmarks().clearRequests();
			const before = (await executions()).length;
			const response = await apply('approved', 'Octavia');
			const [envelope] = await waitUntil('the envelope', async () => {
				const found = await generated();
				return found.length ? found : undefined;
			});
			await finished(before + 1);
			expect(envelope.body).toEqual({
				title: 'Residency agreement – Octavia Example',
				recipients: [{ name: 'Octavia Example', email: 'octavia@example.org', role: 'SIGNER' }],
			});
			const filed = await waitUntil('the bookmark', async () => {
				const found = (await bookmarks().requests()).filter((request) => request.method === 'POST');
				return found.length ? found : undefined;
			});
			expect(filed[0].body).toMatchObject({
				url: 'https://portfolio.example.org/octavia',
				title: `Portfolio – application ${response.data.id}`,
			});
		});

		it('a rejected application: no envelope', async () => {
			await signing().clearRequests();
			const before = (await executions()).length;
			await apply('rejected', 'Rufus');
			await finished(before + 1);
			expect(await generated()).toEqual([]);
		});

		it('a delivery Formbricks sends again (another hook of the job failed): one execution, one envelope', async () => {
			// A second hook that fails makes Formbricks retry the whole job, so n8n's hook gets the
			// event again with the same webhook-id (process-response-pipeline-job.ts at b66c1dd).
			receiver = createServer((_, response) => response.writeHead(500).end('down'));
			await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
			const failing = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
			const { data: failingHook } = await api<{ data: { id: string } }>('/api/v1/webhooks', {
				method: 'POST',
				body: { url: failing, triggers: ['responseFinished'], surveyIds: [surveyId], workspaceId: FORMBRICKS_SEED.workspaceId },
			});
			try {
				await signing().clearRequests();
				const before = (await executions()).length;
				const trigger = workflow.nodes.find((node) => node.name === 'Application Finished')!;
				const n8nUrl = productionWebhookUrl(n8n, trigger);
				await apply('approved', 'Grace');
				const attempts = await waitUntil('three answered attempts to n8n', async () => {
					const { deliveries } = await formbricks().call<{
						deliveries: Array<{ url: string; deliveryId: string; status?: number }>;
					}>('GET', '/deliveries');
					const toN8n = deliveries.filter((delivery) => delivery.url === n8nUrl && delivery.status !== undefined);
					const last = toN8n.slice(-3);
					return last.length === 3 && new Set(last.map((delivery) => delivery.deliveryId)).size === 1 ? last : undefined;
				});
				expect(attempts.map((attempt) => attempt.status)).toEqual([200, 200, 200]);
				const all = await finished(before + 1);
				expect(all).toHaveLength(before + 1);
				expect(await generated()).toHaveLength(1);
			} finally {
				await api(`/api/v1/webhooks/${failingHook.id}`, { method: 'DELETE' });
			}
		});

		it('deactivating removes its webhook from Formbricks', async () => {
			await deactivateWorkflow(n8n, workflow.id);
			await waitUntil('the hook to be removed', async () => {
				const { data } = await formbricks().call<{ data: unknown[] }>('GET', '/webhooks');
				return data.length === 0 ? true : undefined;
			});
		});
	});

	(hasMcpServerTrigger ? describe : describe.skip)('Agent tools over MCP (workflows/mcp-agent-tools.json)', () => {
		let client: Client;
		const call = async (name: string, args: Record<string, unknown>) => {
			const { text, isError } = await callMcpTool(client, name, args);
			expect({ name, isError, text: isError ? text : '' }).toEqual({ name, isError: false, text: '' });
			return { text, json: JSON.parse(text) as unknown };
		};
		const asList = (value: unknown) => [value].flat(2) as Array<Record<string, unknown>>;

		beforeAll(async () => {
			const workflow = await importWorkflow(n8n, readWorkflow('mcp-agent-tools.json'), credentials);
			await activateWorkflow(n8n, workflow.id);
			client = new Client({ name: 'e2e-formbricks', version: '1.0.0' });
			await client.connect(
				new StreamableHTTPClientTransport(new URL(`${n8n.baseUrl}/mcp/attunement-tools`), {
					requestInit: { headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
				}),
			);
		});
		afterAll(async () => await client?.close());

		it('list_surveys: every survey, with its response count counted on Formbricks', async () => {
			const surveys = asList((await call('list_surveys', {})).json);
			const residency = surveys.find((survey) => survey.id === FORMBRICKS_SEED.surveys.residency);
			expect(residency).toMatchObject({ name: 'Residency application', status: 'inProgress', type: 'link', responseCount: 6 });
			expect(surveys.find((survey) => survey.id === FORMBRICKS_SEED.surveys.alumni)).toMatchObject({ responseCount: 3 });
		});

		it('get_survey_metrics: counts and times from the responses Formbricks lists', async () => {
			const [metrics] = asList((await call('get_survey_metrics', { surveyId: FORMBRICKS_SEED.surveys.residency })).json);
			expect(metrics).toMatchObject({ surveyId: FORMBRICKS_SEED.surveys.residency, responseCount: 6, finishedCount: 5 });
		});

		it('export_applicant_records: no name, e-mail address or phone number of an applicant reaches the agent', async () => {
			const exported = await call('export_applicant_records', { surveyId: FORMBRICKS_SEED.surveys.residency });
			expect(asList(exported.json)).toHaveLength(5);
			const { data } = await api<{ data: Array<{ data: Record<string, string> }> }>(
				`/api/v2/management/responses?surveyId=${FORMBRICKS_SEED.surveys.residency}&limit=250`,
			);
			const q = FORMBRICKS_SEED.questions.residency;
			const personal = data.flatMap((response) =>
				[response.data[q.fullName], response.data[q.email], response.data[q.phone]].filter(Boolean),
			);
			expect(personal.length).toBeGreaterThanOrEqual(15);
			const text = exported.text.toLowerCase();
			expect(personal.filter((value) => text.includes(value.toLowerCase()))).toEqual([]);
			expect(exported.text).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
			expect(exported.text).toMatch(/NAME_\d+/);
		});
	});
});
