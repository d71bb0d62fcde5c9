import { createHash } from 'node:crypto';

import { N8nInstance, PACKAGE_NAME } from '../harness/n8n';
import {
	activateWorkflow,
	CredentialRefs,
	deactivateWorkflow,
	importWorkflow,
	listExecutions,
	nodeOutput,
	productionWebhookUrl,
	settledExecutions,
	Stack,
	startStack,
	waitUntil,
} from '../harness/provision';
import { Sandbox, SEED } from '../sandbox';
import { sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(300_000);

describe('Bookmarks and Survey nodes in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let credentials: CredentialRefs;

	let stack: Stack;

	beforeAll(async () => {
		stack = await startStack();
		({ sandbox, n8n, credentials } = stack);
	});
	afterAll(async () => await stack?.stop());

	it('a workflow creates, searches and gets bookmark records', async () => {
		const bookmark = (name: string, x: number, parameters: Record<string, unknown>) => ({
			name,
			type: `${PACKAGE_NAME}.bookmarks`,
			typeVersion: 1,
			position: [x, 0],
			parameters,
			credentials: { bookmarkApi: credentials.bookmarkApi },
		});
		const workflow = await importWorkflow(
			n8n,
			{
				name: 'E2E bookmarks',
				nodes: [
					{
						name: 'Webhook',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						position: [0, 0],
						webhookId: 'e2e-bookmarks',
						parameters: { httpMethod: 'POST', path: 'e2e-bookmarks', responseMode: 'lastNode', options: {} },
					},
					bookmark('Create', 200, {
						resource: 'bookmark',
						operation: 'create',
						type: 'link',
						url: '={{ $json.body.url }}',
						title: 'E2E record',
						tags: 'e2e, n8n',
						notes: 'Made by the end-to-end test',
					}),
					bookmark('Search', 400, {
						resource: 'bookmark',
						operation: 'search',
						query: 'end-to-end test',
						limit: 5,
						filters: { tag: 'e2e' },
					}),
					bookmark('Get', 600, { resource: 'bookmark', operation: 'get', recordId: '={{ $json.id }}' }),
				],
				connections: {
					Webhook: { main: [[{ node: 'Create', type: 'main', index: 0 }]] },
					Create: { main: [[{ node: 'Search', type: 'main', index: 0 }]] },
					Search: { main: [[{ node: 'Get', type: 'main', index: 0 }]] },
				},
			},
			credentials,
		);
		await activateWorkflow(n8n, workflow.id);
		const control = sandboxControl(sandbox, 'bookmark');
		await control.clearRequests();
		const response = await waitUntil('the webhook', async () => {
			const answer = await fetch(`${n8n.baseUrl}/webhook/e2e-bookmarks`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ url: 'https://example.org/e2e/record' }),
			});
			return answer.status === 404 ? undefined : answer;
		});
		expect(response.status).toBe(200);
		const record = (await response.json()) as Record<string, unknown>;
		expect(record).toMatchObject({
			title: 'E2E record',
			note: 'Made by the end-to-end test',
			content: expect.objectContaining({ url: 'https://example.org/e2e/record' }),
		});
		const requests = await control.requests();
		expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /api/v1/bookmarks',
			'GET /api/v1/bookmarks',
			`GET /api/v1/bookmarks/${String(record.id)}`,
		]);
		expect(requests[1].query).toEqual({ q: 'end-to-end test', tags: 'e2e', limit: '5' });
	});

	it('the polling trigger, active, starts an execution for records added in the sandbox', async () => {
		const workflow = await importWorkflow(
			n8n,
			{
				name: 'E2E bookmarks trigger',
				nodes: [
					{
						name: 'Bookmarks Trigger',
						type: `${PACKAGE_NAME}.bookmarksTrigger`,
						typeVersion: 1,
						position: [0, 0],
						parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, filters: {} },
						credentials: { bookmarkApi: credentials.bookmarkApi },
					},
				],
				connections: {},
			},
			credentials,
		);
		await activateWorkflow(n8n, workflow.id);
		// Activation takes the first poll, which only remembers where "now" is.
		await waitUntil('the first poll', async () => (await sandboxControl(sandbox, 'bookmark').requests()).some(
			(r) => r.method === 'GET' && r.path === '/api/v1/bookmarks',
		), 60_000);
		const added = await Promise.all(
			['https://example.org/polled/1', 'https://example.org/polled/2'].map(async (url) =>
				(await fetch(`${sandbox.bookmark.url}/api/v1/bookmarks`, {
					method: 'POST',
					headers: { authorization: `Bearer ${sandbox.bookmark.apiKey}`, 'content-type': 'application/json' },
					body: JSON.stringify({ type: 'link', url }),
				}).then(async (r) => await r.json())) as { id: string },
			),
		);
		const [execution] = await waitUntil(
			'an execution of the polling trigger',
			async () => {
				const executions = await listExecutions(n8n, workflow.id, true);
				return executions.length ? executions : undefined;
			},
			130_000,
			2_000,
		);
		const emitted = nodeOutput(execution, 'Bookmarks Trigger').map((item) => item.id);
		expect(emitted.sort()).toEqual(added.map((record) => record.id).sort());
		await deactivateWorkflow(n8n, workflow.id);
	});

	describe('Survey Trigger', () => {
		let workflowId: string;
		let webhookUrl: string;
		const hooks = async () =>
			(
				(await fetch(`${sandbox.survey.url}/api/v1/webhooks`, {
					headers: { 'x-api-key': sandbox.survey.apiKey },
				}).then(async (r) => await r.json())) as { data: Array<{ id: string; url: string; triggers: string[] }> }
			).data;

		beforeAll(async () => {
			const workflow = await importWorkflow(
				n8n,
				{
					name: 'E2E survey trigger',
					nodes: [
						{
							name: 'Survey Trigger',
							type: `${PACKAGE_NAME}.surveyTrigger`,
							typeVersion: 1,
							position: [0, 0],
							webhookId: 'e2e-survey-trigger',
							parameters: { registration: 'automatic', events: ['responseFinished'], allSurveys: true },
							credentials: { surveyApi: credentials.surveyApi },
						},
					],
					connections: {},
				},
				credentials,
			);
			workflowId = workflow.id;
			webhookUrl = productionWebhookUrl(n8n, workflow.nodes[0]);
			await activateWorkflow(n8n, workflowId);
		});

		it('registers a hook in the sandbox on activation', async () => {
			const registered = await waitUntil('the hook', async () => {
				const all = await hooks();
				return all.length ? all : undefined;
			});
			expect(registered).toEqual([expect.objectContaining({ url: webhookUrl, triggers: ['responseFinished'] })]);
		});

		it('starts exactly one execution with the answers for a submitted response', async () => {
			const answers = { fullName: 'Emmy Example', email: 'emmy@example.org', decision: 'approved' };
			const { json } = await sandboxControl(sandbox, 'survey')
				.call<{ data: { id: string } }>('POST', `/surveys/${SEED.residencySurveyId}/responses`, { data: answers })
				.then((data) => ({ json: data }));
			// Every delivery made (a retry included) and every execution n8n started for them finished:
			// a duplicate would be in the list now, without waiting for it.
			await sandboxControl(sandbox, 'survey').settledDeliveries();
			const executions = await settledExecutions(n8n, workflowId, 1, true);
			expect(executions).toHaveLength(1);
			const [execution] = executions;
			expect(nodeOutput(execution, 'Survey Trigger')[0]).toMatchObject({
				event: 'responseFinished',
				surveyId: SEED.residencySurveyId,
				responseId: json.data.id,
				data: answers,
			});
		});

		it('starts nothing for a forged delivery', async () => {
			const body = JSON.stringify({ event: 'responseFinished', surveyId: 'srv_x', responseId: 'resp_x', createdAt: new Date().toISOString(), data: {} });
			const timestamp = String(Math.floor(Date.now() / 1000));
			const forgedSignature = createHash('sha256').update(body).digest('base64');
			const answer = await fetch(webhookUrl, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'webhook-id': 'msg_forged',
					'webhook-timestamp': timestamp,
					'webhook-signature': `v1,${forgedSignature}`,
				},
				body,
			});
			expect(answer.status).toBe(401);
			// n8n 2.x stores an execution before it answers: a 401 that had started one would show it now.
			expect(await settledExecutions(n8n, workflowId)).toHaveLength(1);
		});

		it('removes the hook on deactivation', async () => {
			await deactivateWorkflow(n8n, workflowId);
			await waitUntil('the hook to be removed', async () => (await hooks()).length === 0);
			expect(await hooks()).toEqual([]);
		});
	});
});
