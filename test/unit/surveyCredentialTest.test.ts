/**
 * "Test credential" of the Survey API with either API chosen, against the documented sandbox and
 * the Formbricks flavour: it asks the chosen API, and when the server answers like the other one,
 * says which to choose.
 */
import type { ICredentialsDecrypted } from 'n8n-workflow';

import { surveyApiTest } from '../../nodes/Survey/credentialTest';
import { FORMBRICKS_SEED, type Sandbox, startSandbox } from '../sandbox';
import { credentialTestContext } from './helpers/context';
import { startFormbricksHarness, type FormbricksHarness } from './helpers/formbricks';

jest.setTimeout(60_000);

describe('"Test credential" of the Survey API, per API', () => {
	let documented: Sandbox;
	let fb: FormbricksHarness;

	beforeAll(async () => {
		documented = await startSandbox();
		fb = await startFormbricksHarness();
	});
	afterAll(async () => {
		await documented?.stop();
		await fb?.stop();
	});
	beforeEach(async () => await fb.control('reset', 'POST'));

	const test = async (data: Record<string, string>) => {
		const context = credentialTestContext();
		const result = await surveyApiTest.call(context, { id: 't', name: 't', type: 'surveyApi', data } as ICredentialsDecrypted);
		return { ...result, requests: context.requests };
	};

	it('Formbricks chosen, a Formbricks server: connected, naming the workspace', async () => {
		const result = await test({ api: 'formbricks', baseUrl: fb.fb.url, apiKey: fb.fb.apiKey });
		expect(result).toMatchObject({
			status: 'OK',
			message: `Connected to Formbricks, workspace "Residency programme" (${FORMBRICKS_SEED.workspaceId})`,
		});
		expect(result.requests).toEqual(['GET /api/v1/management/me']);
		expect(await fb.specProblems()).toEqual([]);
	});

	it('the documented API chosen, a Formbricks server: “choose Formbricks under API”', async () => {
		const result = await test({ baseUrl: fb.fb.url, apiKey: fb.fb.apiKey });
		expect(result).toEqual({
			status: 'Error',
			message: 'This server answers like Formbricks: choose "Formbricks" under API in this credential.',
			requests: ['GET /api/v1/management/surveys', 'GET /api/v1/management/me'],
		});
	});

	it('Formbricks chosen, a server of the documented API: “choose the documented API”', async () => {
		const result = await test({ api: 'formbricks', baseUrl: documented.survey.url, apiKey: documented.survey.apiKey });
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			'This server answers like the documented survey API: choose "Documented API (the Sandbox, or a Server Built to the README)" under API in this credential.',
		);
	});

	it('the documented API chosen, its own server: connected, as before', async () => {
		const result = await test({ api: 'documented', baseUrl: documented.survey.url, apiKey: documented.survey.apiKey });
		expect(result).toMatchObject({ status: 'OK', message: 'Connected to the survey service' });
		expect(result.requests).toEqual(['GET /api/v1/management/surveys']);
	});

	it('Formbricks chosen, a wrong key: Formbricks refused the key', async () => {
		const result = await test({ api: 'formbricks', baseUrl: fb.fb.url, apiKey: 'fbk_wrong' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The Formbricks server refused the API key \(401\)\. Check the API Key/);
		expect(result.message).not.toContain('fbk_wrong');
	});

	it('a key with several workspaces: asks for the Workspace ID, lists the key’s workspaces, and checks the one given', async () => {
		await fb.control('formbricks', 'PUT', { extraWorkspaces: 1 });
		const without = await test({ api: 'formbricks', baseUrl: fb.fb.url, apiKey: fb.fb.apiKey });
		expect(without.status).toBe('Error');
		expect(without.message).toMatch(/reaches more than one workspace: give the one .* as Workspace ID/);
		expect(without.message).toContain(`"Residency programme" (${FORMBRICKS_SEED.workspaceId})`);
		const given = await test({
			api: 'formbricks',
			baseUrl: fb.fb.url,
			apiKey: fb.fb.apiKey,
			workspaceId: FORMBRICKS_SEED.workspaceId,
		});
		expect(given).toMatchObject({ status: 'OK' });
		const unknown = await test({ api: 'formbricks', baseUrl: fb.fb.url, apiKey: fb.fb.apiKey, workspaceId: 'cmnotmine0000000000000000' });
		expect(unknown.status).toBe('Error');
		expect(unknown.message).toMatch(/no access to the Workspace ID cmnotmine0000000000000000/);
	});

	it('a Workspace ID that is not the key’s own workspace is named', async () => {
		const result = await test({ api: 'formbricks', baseUrl: fb.fb.url, apiKey: fb.fb.apiKey, workspaceId: 'cmnotmine0000000000000000' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/belongs to the workspace "Residency programme"/);
	});

	it('Formbricks chosen, a server that is neither (the signing sandbox): not the Formbricks server API', async () => {
		const result = await test({ api: 'formbricks', baseUrl: documented.signing.url, apiKey: 'x' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Something answers at .*, but it is not the Formbricks server API \(GET \/api\/v1\/management\/me answered 40\d\)/);
	});
});
