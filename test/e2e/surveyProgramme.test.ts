/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// The SDK publishes these paths through package "exports", which the lint resolver does not read.
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { callMcpTool } from '../harness/mcp';
import { n8nAtLeast, PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	createSandboxCredentials,
	type CredentialRefs,
	E2E_SANDBOX_OPTIONS,
	importWorkflow,
	MCP_TOKEN,
	nodeOutput,
	settledExecutions,
	type WorkflowFile,
} from '../harness/provision';
import { type Sandbox, startSandbox } from '../sandbox';
import { formbricksSpecProblems } from '../unit/helpers/formbricks';

jest.setTimeout(300_000);

/** A brief turned into Formbricks' survey JSON, as an agent writes it for `create_survey_draft`. */
const DRAFT = {
	name: 'Studio feedback, spring residency',
	type: 'link',
	questions: [
		{ id: 'studio', type: 'rating', headline: { default: 'How well did the studio suit your work?' }, required: true, scale: 'star', range: 5 },
		{
			id: 'return',
			type: 'multipleChoiceSingle',
			headline: { default: 'Would you apply again?' },
			required: true,
			choices: [
				{ id: 'yes', label: { default: 'Yes' } },
				{ id: 'no', label: { default: 'No' } },
			],
		},
		{ id: 'improve', type: 'openText', headline: { default: 'What should we improve?' }, required: false },
	],
};

/** A Survey node of a workflow, its parameters as the editor saves them (defaults and hidden ones left out). */
const surveyNode = (name: string, x: number, parameters: Record<string, unknown>, credentials: CredentialRefs) => ({
	name,
	type: 'n8n-nodes-sign-survey-bookmark.survey',
	typeVersion: 2,
	position: [x, 0],
	parameters: { resource: 'survey', ...parameters },
	credentials: { surveyApi: credentials.surveyApi },
});
const idOf = (node: string) => ({ __rl: true, mode: 'id', value: `={{ $('${node}').item.json.id }}` });
const QUESTION_LIST = {
	question: [
		{ headline: 'What did you make here?', id: 'made' },
		{ type: 'multipleChoiceSingle', headline: 'Which studio?', choices: 'North\nSouth' },
		{ type: 'nps', headline: 'Would you recommend us?' },
	],
};

/**
 * The sample "Survey programme tools" (workflows/survey-programme-tools.json) in a real n8n, driven
 * by a real MCP client over Streamable HTTP with the sample's bearer token, against the Formbricks
 * flavour of the sandbox: a draft made from a brief, published, answered through Response → Create,
 * measured and completed; what Formbricks then holds is read from it directly.
 */
(n8nAtLeast('1.99.0') ? describe : describe.skip)('Survey programme tools over MCP, on Formbricks, in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let client: Client;
	let credentials: CredentialRefs;
	const call = async (name: string, args: Record<string, unknown>) => {
		const { text, isError } = await callMcpTool(client, name, args);
		expect({ name, isError, text: isError ? text : '' }).toEqual({ name, isError: false, text: '' });
		const [first] = [JSON.parse(text) as unknown].flat(2) as Array<Record<string, unknown>>;
		return first;
	};
	const formbricks = async <T>(route: string) =>
		(await (await fetch(`${sandbox.survey.url}${route}`, { headers: { 'x-api-key': sandbox.survey.apiKey } })).json()) as T;

	beforeAll(async () => {
		sandbox = await startSandbox({ ...E2E_SANDBOX_OPTIONS, survey: 'formbricks' });
		n8n = await startN8n({ packageTarball: await packPackage() });
		credentials = await createSandboxCredentials(n8n, sandbox);
		const file = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'workflows', 'survey-programme-tools.json'), 'utf8')) as WorkflowFile;
		const workflow = await importWorkflow(n8n, file, credentials);
		await activateWorkflow(n8n, workflow.id);
		client = new Client({ name: 'e2e-survey-programme', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${n8n.baseUrl}/mcp/survey-programme`), {
				requestInit: { headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
			}),
		);
	});
	afterAll(async () => {
		await client?.close();
		await n8n?.stop();
		await sandbox?.stop();
	});

	it('offers the five tools of the programme', async () => {
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual([
			'complete_survey',
			'create_survey_draft',
			'get_survey_metrics',
			'publish_survey',
			'record_response',
		]);
	});

	it('draft, publish, answer, measure, complete: Formbricks holds what the agent did', async () => {
		const draft = await call('create_survey_draft', { survey: DRAFT });
		expect(draft).toMatchObject({ name: DRAFT.name, status: 'draft', type: 'link' });
		const surveyId = String(draft.id);

		expect(await call('publish_survey', { surveyId })).toMatchObject({ id: surveyId, status: 'inProgress' });

		const answers = [
			{ studio: 5, return: 'Yes', improve: 'More evening hours' },
			{ studio: 3, return: 'No' },
		];
		for (const answer of answers) {
			expect(await call('record_response', { surveyId, answers: answer })).toMatchObject({ surveyId, finished: true });
		}

		expect(await call('get_survey_metrics', { surveyId })).toMatchObject({
			surveyId,
			status: 'inProgress',
			responseCount: 2,
			finishedCount: 2,
			completionRate: 1,
		});

		expect(await call('complete_survey', { surveyId })).toMatchObject({ id: surveyId, status: 'completed' });

		const { data: survey } = await formbricks<{ data: Record<string, unknown> }>(`/api/v1/management/surveys/${surveyId}`);
		expect(survey).toMatchObject({ name: DRAFT.name, status: 'completed' });
		expect((survey.questions as Array<{ id: string }>).map((question) => question.id)).toEqual(['studio', 'return', 'improve']);
		const { data: responses } = await formbricks<{ data: Array<{ data: Record<string, unknown>; finished: boolean }> }>(
			`/api/v1/management/responses?surveyId=${surveyId}`,
		);
		expect(responses.map((response) => response.data).sort((a, b) => Number(b.studio) - Number(a.studio))).toEqual(answers);
		expect(responses.every((response) => response.finished)).toBe(true);
		expect(await formbricksSpecProblems(sandbox.survey.url)).toEqual([]);
	});

	it('a definition Formbricks would refuse reaches the agent as an error naming the question, and nothing is created', async () => {
		const before = await formbricks<{ data: unknown[] }>('/api/v1/management/surveys');
		const { text, isError } = await callMcpTool(client, 'create_survey_draft', {
			survey: { ...DRAFT, questions: [...DRAFT.questions, { ...DRAFT.questions[2], headline: { default: 'Anything else?' } }] },
		});
		expect(isError || /error/i.test(text)).toBe(true);
		expect(text).toContain('question 4 "improve" (Anything else?) has the same ID as question 3');
		const after = await formbricks<{ data: unknown[] }>('/api/v1/management/surveys');
		expect(after.data).toHaveLength(before.data.length);
	});
	it('the other operations in a workflow, their parameters as the editor saves them: validate, create, update, pause, duplicate, archive, restore, complete, delete', async () => {
		const chain = [
			surveyNode('Validate', 200, { operation: 'validate', name: 'Open studios 2027', questions: QUESTION_LIST }, credentials),
			surveyNode('Create', 400, { operation: 'create', name: 'Open studios 2027', questions: QUESTION_LIST }, credentials),
			surveyNode('Update', 600, {
				operation: 'update',
				surveyId: idOf('Create'),
				updateFields: { name: 'Open studios 2027 (final)', hiddenFieldIds: 'cohort', responseLimit: 50, closeOn: '2027-06-30T00:00:00.000Z' },
			}, credentials),
			surveyNode('Publish', 800, { operation: 'publish', surveyId: idOf('Create') }, credentials),
			surveyNode('Pause', 1000, { operation: 'pause', surveyId: idOf('Create') }, credentials),
			surveyNode('Duplicate', 1200, { operation: 'duplicate', surveyId: idOf('Create'), newName: 'Open studios 2028' }, credentials),
			surveyNode('Archive', 1400, { operation: 'archive', surveyId: idOf('Duplicate') }, credentials),
			surveyNode('Restore', 1600, { operation: 'restore', surveyId: idOf('Duplicate') }, credentials),
			surveyNode('Complete', 1800, { operation: 'complete', surveyId: idOf('Create') }, credentials),
			surveyNode('Delete', 2000, { operation: 'delete', surveyId: idOf('Duplicate') }, credentials),
		];
		const names = ['Start', ...chain.map((node) => node.name)];
		const workflow: WorkflowFile = {
			name: 'E2E survey programme',
			nodes: [
				{
					name: 'Start',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: 'e2e-survey-programme',
					parameters: { httpMethod: 'POST', path: 'e2e-survey-programme', options: {} },
				},
				...chain,
			],
			connections: Object.fromEntries(
				names.slice(0, -1).map((name, index) => [name, { main: [[{ node: names[index + 1], type: 'main', index: 0 }]] }]),
			),
		};
		const imported = await importWorkflow(n8n, workflow, credentials);
		await activateWorkflow(n8n, imported.id);
		expect((await fetch(`${n8n.baseUrl}/webhook/e2e-survey-programme`, { method: 'POST' })).status).toBe(200);
		const [execution] = await settledExecutions(n8n, imported.id, 1, true);
		expect({ status: execution.status, error: execution.data?.resultData.error?.message }).toEqual({ status: 'success', error: undefined });

		expect(nodeOutput(execution, 'Validate')[0]).toMatchObject({ valid: true });
		const [created] = nodeOutput(execution, 'Create');
		expect(created).toMatchObject({ name: 'Open studios 2027', status: 'draft' });
		expect((created.questions as Array<{ id: string }>)[0].id).toBe('made');
		expect(nodeOutput(execution, 'Update')[0]).toMatchObject({ name: 'Open studios 2027 (final)', autoComplete: 50, hiddenFields: { enabled: true, fieldIds: ['cohort'] } });
		expect(nodeOutput(execution, 'Publish')[0]).toMatchObject({ status: 'inProgress' });
		expect(nodeOutput(execution, 'Pause')[0]).toMatchObject({ status: 'paused' });
		const [copy] = nodeOutput(execution, 'Duplicate');
		expect(copy).toMatchObject({ name: 'Open studios 2028', status: 'draft' });
		expect(nodeOutput(execution, 'Archive')[0]).toMatchObject({ id: copy.id, archivedAt: expect.any(String) });
		expect(nodeOutput(execution, 'Restore')[0]).toMatchObject({ id: copy.id, archivedAt: null });
		expect(nodeOutput(execution, 'Delete')[0]).toEqual({ deleted: true, surveyId: copy.id, name: 'Open studios 2028' });

		const { data: stored } = await formbricks<{ data: Record<string, unknown> }>(`/api/v1/management/surveys/${String(created.id)}`);
		expect(stored).toMatchObject({ name: 'Open studios 2027 (final)', status: 'completed', autoComplete: 50 });
		const gone = await fetch(`${sandbox.survey.url}/api/v1/management/surveys/${String(copy.id)}`, { headers: { 'x-api-key': sandbox.survey.apiKey } });
		expect(gone.status).toBe(404);
		expect(await formbricksSpecProblems(sandbox.survey.url)).toEqual([]);
	});
});
