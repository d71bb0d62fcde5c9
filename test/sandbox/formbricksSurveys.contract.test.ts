/**
 * The Formbricks flavour's survey management routes (test/sandbox/formbricks/routesSurveys.ts): v1
 * create, update and delete as apps/web/app/api/v1/management/surveys/… answer at b66c1dd, held to
 * the v1 OpenAPI file and to Formbricks' survey schema (surveySchema.ts); v3 archive, restore and
 * validate as apps/web/app/api/v3/surveys/… answer, held to their zod schemas; a server from before
 * the rename of environments to workspaces, and one without API v3.
 */
import { FORMBRICKS_SEED, startFormbricks, type FormbricksSandbox } from './formbricks';
import { call } from './testkit';

const { surveys, workspaceId } = FORMBRICKS_SEED;

const question = (id: string, extra: Record<string, unknown> = {}) => ({
	id,
	type: 'openText',
	headline: { default: `Question ${id}` },
	required: true,
	...extra,
});
const survey = (extra: Record<string, unknown> = {}) => ({
	workspaceId,
	name: 'Contract survey',
	type: 'link',
	status: 'draft',
	questions: [question('first')],
	...extra,
});

describe('survey management on the Formbricks flavour', () => {
	let fb: FormbricksSandbox;
	const api = async (path: string, init: { method?: string; body?: unknown } = {}) =>
		await call(`${fb.url}${path}`, { ...init, headers: { 'x-api-key': fb.apiKey } });
	const control = async (path: string, method = 'GET', body?: unknown) =>
		await call(`${fb.url}/_sandbox/${path}`, { method, body });

	beforeAll(async () => (fb = await startFormbricks({ rateLimit: null })));
	afterAll(async () => {
		const { json } = await control('spec-violations');
		await fb.stop();
		expect(json.violations).toEqual([]);
	});
	beforeEach(async () => await control('reset', 'POST'));

	it('POST makes one block per question (transformQuestionsToBlocks) and answers as GET does', async () => {
		const created = await api('/api/v1/management/surveys', { method: 'POST', body: survey({ questions: [question('a'), question('b')] }) });
		expect(created.status).toBe(200);
		const data = created.json.data;
		expect(data.blocks.map((block: { name: string; elements: Array<{ id: string }> }) => [block.name, block.elements.map((e) => e.id)])).toEqual([
			['Block 1', ['a']],
			['Block 2', ['b']],
		]);
		expect(data.questions.map((q: { id: string }) => q.id)).toEqual(['a', 'b']);
		expect((await api(`/api/v1/management/surveys/${data.id}`)).json).toEqual(created.json);
	});

	it.each([
		['no questions nor blocks', survey({ questions: [] }), 'Must provide either questions or blocks. Both cannot be empty.', undefined],
		['a choice question with one choice', survey({ questions: [question('c', { type: 'multipleChoiceSingle', choices: [{ id: 'x', label: { default: 'X' } }] })] }), 'Fields are missing or incorrectly formatted', 'questions.0.choices'],
		['two questions with one ID', survey({ questions: [question('same'), question('same')] }), 'Fields are missing or incorrectly formatted', 'questions.1.id'],
		['an unknown question type', survey({ questions: [question('q', { type: 'slider' })] }), 'Fields are missing or incorrectly formatted', 'questions.0.type'],
		['a forbidden question ID', survey({ questions: [question('userId')] }), 'Fields are missing or incorrectly formatted', 'questions.0.id'],
	])('POST refuses %s, as Formbricks does', async (_, body, message, field) => {
		const { status, json } = await api('/api/v1/management/surveys', { method: 'POST', body });
		expect(status).toBe(400);
		expect(json.message).toBe(message);
		if (field) expect(Object.keys(json.details)).toContain(field);
	});

	it('POST without type or status breaks the v1 spec (which requires them) and is refused', async () => {
		const { status, json } = await api('/api/v1/management/surveys', { method: 'POST', body: { workspaceId, name: 'x', questions: [question('a')] } });
		expect(status).toBe(400);
		expect(Object.keys(json.details).sort()).toEqual(['status', 'type']);
	});

	it('PUT merges the fields given; an archived survey is read-only until restored', async () => {
		const updated = await api(`/api/v1/management/surveys/${surveys.residency}`, { method: 'PUT', body: { status: 'paused', autoComplete: 10 } });
		expect(updated.json.data).toMatchObject({ id: surveys.residency, status: 'paused', autoComplete: 10, name: 'Residency application' });
		const archived = await api(`/api/v3/surveys/${surveys.residency}/archive`, { method: 'POST' });
		expect(archived.json.data).toEqual({ id: surveys.residency, status: 'paused', archivedAt: expect.any(String) });
		const refused = await api(`/api/v1/management/surveys/${surveys.residency}`, { method: 'PUT', body: { name: 'x' } });
		expect(refused).toMatchObject({ status: 400, json: { message: 'This survey is archived. Restore it before editing.' } });
		await api(`/api/v3/surveys/${surveys.residency}/restore`, { method: 'POST' });
		expect((await api(`/api/v1/management/surveys/${surveys.residency}`, { method: 'PUT', body: { name: 'x' } })).status).toBe(200);
	});

	it('DELETE removes the survey and its responses (onDelete: Cascade)', async () => {
		const deleted = await api(`/api/v1/management/surveys/${surveys.alumni}`, { method: 'DELETE' });
		expect(deleted.status).toBe(200);
		expect(deleted.json.data.id).toBe(surveys.alumni);
		const responses = await api('/api/v1/management/responses');
		expect(responses.json.data.filter((response: { surveyId: string }) => response.surveyId === surveys.alumni)).toEqual([]);
	});

	it('v3: archive of a survey not there is a 403 problem; validate answers its verdict; a bad request body is a 400 problem', async () => {
		const missing = await api('/api/v3/surveys/cmissing000000000000000000/archive', { method: 'POST' });
		expect(missing).toMatchObject({ status: 403, json: { title: 'Forbidden', status: 403, detail: 'You are not authorized to access this resource' } });
		const doc = { workspaceId, name: 'V3', blocks: [{ name: 'Block 1', elements: [question('a')] }, { name: 'Block 2', elements: [question('a')] }] };
		const verdict = await api('/api/v3/surveys/validate', { method: 'POST', body: { operation: 'create', data: doc } });
		expect(verdict.json.data).toMatchObject({ valid: false, operation: 'create', invalid_params: [expect.objectContaining({ code: 'duplicate_identifier' })] });
		const bad = await api('/api/v3/surveys/validate', { method: 'POST', body: { operation: 'create', data: doc, extra: 1 } });
		expect(bad).toMatchObject({ status: 400, json: { detail: 'Invalid survey validation request' } });
	});

	it('without API v3 (before Formbricks 5.1), the v3 routes answer Next.js’ 404 page', async () => {
		await control('formbricks', 'PUT', { v3Surveys: false });
		const response = await fetch(`${fb.url}/api/v3/surveys/${surveys.residency}/archive`, { method: 'POST', headers: { 'x-api-key': fb.apiKey } });
		expect(response.status).toBe(404);
		expect(await response.text()).toMatch(/<html/);
	});
});

describe('a Formbricks from before the rename of environments to workspaces', () => {
	let fb: FormbricksSandbox;
	beforeAll(async () => (fb = await startFormbricks({ rateLimit: null, preWorkspaceRename: true })));
	afterAll(async () => await fb.stop());
	const api = async (path: string, init: { method?: string; body?: unknown } = {}) =>
		await call(`${fb.url}${path}`, { ...init, headers: { 'x-api-key': fb.apiKey } });

	it('GET /me answers the key’s environment, without a workspace', async () => {
		const { json } = await api('/api/v1/management/me');
		expect(json).not.toHaveProperty('workspace');
		expect(json.project).toEqual({ id: workspaceId, name: 'Residency programme' });
	});

	it('bodies name the environment: environmentId is taken, workspaceId alone is refused', async () => {
		const { json: me } = await api('/api/v1/management/me');
		const refused = await api('/api/v1/management/surveys', { method: 'POST', body: survey() });
		expect(refused).toMatchObject({ status: 400, json: { details: { environmentId: 'Required' } } });
		const withoutWorkspace: Record<string, unknown> = survey();
		delete withoutWorkspace.workspaceId;
		const made = await api('/api/v1/management/surveys', { method: 'POST', body: { ...withoutWorkspace, environmentId: me.id } });
		expect(made.status).toBe(200);
		const hook = await api('/api/v1/webhooks', { method: 'POST', body: { url: 'https://example.org/hook', triggers: ['responseFinished'], workspaceId } });
		expect(hook).toMatchObject({ status: 400, json: { details: { environmentId: 'Required' } } });
	});
});
