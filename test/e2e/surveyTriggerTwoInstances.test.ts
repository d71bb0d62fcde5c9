/**
 * Issue 42: a staging and a production n8n running the same imported Survey Trigger workflow (same
 * workflow and node IDs, so the same mark in their hooks' names, and here even the same encryption
 * key) against one Formbricks workspace. The trigger removed every hook carrying its mark on
 * activation, so each activation deleted the other n8n's hook and that n8n silently stopped
 * receiving. Two real n8n processes, one Formbricks flavour of the sandbox.
 */
import { N8nInstance, PACKAGE_NAME, packPackage, startN8n } from '../harness/n8n';
import { n8nAtLeast } from '../harness/paths';
import {
	activateWorkflow,
	createSandboxCredentials,
	deactivateWorkflow,
	E2E_SANDBOX_OPTIONS,
	settledExecutions,
	waitUntil,
} from '../harness/provision';
import { FORMBRICKS_SEED, type Sandbox, startSandbox } from '../sandbox';
import { formbricksSpecProblems } from '../unit/helpers/formbricks';
import { sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(600_000);

/** The workflow as both n8n instances have it: imported with its IDs. */
const WORKFLOW_ID = 'SurveyTwinFlow01';
const NODE_ID = '9d3c6f0e-42aa-4c1e-9f5e-4242a0b1c001';
const WEBHOOK_ID = '9d3c6f0e-42aa-4c1e-9f5e-4242a0b1c002';

interface FormbricksHook {
	id: string;
	url: string;
	name: string | null;
}

describe('Survey Trigger: two n8n instances, one Formbricks workspace', () => {
	let sandbox: Sandbox;
	const instances: N8nInstance[] = [];
	/** The workflow's ID in each instance: WORKFLOW_ID where n8n keeps it (2.x); n8n 1.x gives its own. */
	const workflowIds: string[] = [];
	const formbricks = () => sandboxControl(sandbox, 'survey');
	const hooks = async () => (await formbricks().call<{ data: FormbricksHook[] }>('GET', '/webhooks')).data;
	const urlOf = (n8n: N8nInstance) => `${n8n.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
	const respond = async () =>
		await formbricks().call('POST', `/surveys/${FORMBRICKS_SEED.surveys.residency}/responses`, { data: {}, finished: true });

	beforeAll(async () => {
		sandbox = await startSandbox({ ...E2E_SANDBOX_OPTIONS, survey: 'formbricks' });
		const packageTarball = await packPackage();
		for (let index = 0; index < 2; index++) {
			const n8n = await startN8n({ packageTarball });
			instances.push(n8n);
			const credentials = await createSandboxCredentials(n8n, sandbox);
			// The editor's own route keeps a workflow's ID on n8n 2.x, as an import does; n8n 1.x gives its own either way.
			const workflow = {
				name: 'Survey responses (imported)',
				nodes: [
					{
						id: NODE_ID,
						name: 'Survey Trigger',
						type: `${PACKAGE_NAME}.surveyTrigger`,
						typeVersion: 1,
						position: [0, 0],
						webhookId: WEBHOOK_ID,
						parameters: { registration: 'automatic', events: ['responseFinished'], allSurveys: true },
						credentials: { surveyApi: credentials.surveyApi },
					},
				],
				connections: {},
				settings: { executionOrder: 'v1' },
			};
			const created = n8nAtLeast('2.0.0')
				? await n8n.rest<{ id: string }>('POST', '/workflows', { id: WORKFLOW_ID, ...workflow })
				: await n8n.api<{ id: string }>('POST', '/workflows', workflow);
			workflowIds.push(created.id);
		}
	});
	afterAll(async () => {
		for (const n8n of instances) await n8n.stop();
		await sandbox?.stop();
	});

	it('both receive after both activate; each deactivation removes only its own hook', async () => {
		const [staging, production] = instances;
		const [stagingId, productionId] = workflowIds;
		// Where n8n keeps the IDs, both hooks carry the same mark: the case the trigger got wrong.
		if (n8nAtLeast('2.0.0')) expect(workflowIds).toEqual([WORKFLOW_ID, WORKFLOW_ID]);
		await activateWorkflow(staging, stagingId);
		await activateWorkflow(production, productionId);
		// Production's activation left staging's hook: both are registered, each with its own URL.
		const registered = await hooks();
		expect(registered.map((hook) => hook.url).sort()).toEqual([urlOf(staging), urlOf(production)].sort());
		if (stagingId === productionId) expect(registered.every((hook) => hook.name?.endsWith(`[n8n ${WORKFLOW_ID}/${NODE_ID}]`))).toBe(true);

		await respond();
		await formbricks().settledDeliveries();
		await settledExecutions(staging, stagingId, 1);
		await settledExecutions(production, productionId, 1);

		await deactivateWorkflow(staging, stagingId);
		await waitUntil('staging\'s hook removed', async () => (await hooks()).length === 1);
		expect((await hooks()).map((hook) => hook.url)).toEqual([urlOf(production)]);
		await respond();
		await formbricks().settledDeliveries();
		expect(await settledExecutions(production, productionId, 2)).toHaveLength(2);
		expect(await settledExecutions(staging, stagingId, 1)).toHaveLength(1);

		await deactivateWorkflow(production, productionId);
		await waitUntil('production\'s hook removed', async () => (await hooks()).length === 0);
		expect(await formbricksSpecProblems(sandbox.survey.url)).toEqual([]);
	});
});
