/* eslint-disable @n8n/community-nodes/no-restricted-imports */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	createSandboxCredentials,
	ImportedWorkflow,
	importWorkflow,
	listExecutions,
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

	beforeAll(async () => {
		sandbox = await startSandbox({ webhookRetryDelayMs: 200 });
		n8n = await startN8n({ packageTarball: await packPackage() });
		const file = path.join(PROJECT_ROOT, 'workflows', 'erasure-request.json');
		workflow = await importWorkflow(
			n8n,
			JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile,
			await createSandboxCredentials(n8n, sandbox),
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

		const [execution] = await waitUntil('a finished execution', async () => {
			const done = await listExecutions(n8n, workflow.id);
			return done.length ? done : undefined;
		});
		expect(execution.status).toBe('success');
	});

	it('erases nothing and files nothing without the confirmation', async () => {
		const id = await apply('someone.else@example.org');
		await bookmarks().clearRequests();
		const executions = (await listExecutions(n8n, workflow.id)).length;
		await survey().call('POST', `/surveys/${SEED.erasureSurveyId}/responses`, {
			data: { email: 'someone.else@example.org' },
		});
		await waitUntil(
			'the execution',
			async () => (await listExecutions(n8n, workflow.id)).length > executions || undefined,
			60_000,
		);
		expect(await residencyIds()).toContain(id);
		expect((await bookmarks().requests()).filter((r) => r.method === 'POST')).toEqual([]);
	});
});
