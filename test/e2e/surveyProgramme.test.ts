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
	E2E_SANDBOX_OPTIONS,
	importWorkflow,
	MCP_TOKEN,
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
		const credentials = await createSandboxCredentials(n8n, sandbox);
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
});
