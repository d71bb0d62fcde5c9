/**
 * The Formbricks flavour of the survey sandbox: each route answers as Formbricks' source does at
 * commit b66c1dd (files named in test/sandbox/formbricks/README.md), requests the specs do not
 * allow are refused in Formbricks' error shapes, and every 2xx answer matches the specs.
 */
import { FORMBRICKS_SEED, startFormbricks, type FormbricksSandbox } from './formbricks';
import { startSandbox } from './index';
import { SPEC_DEVIATIONS } from './formbricks/spec';
import { call } from './testkit';

const { surveys, questions, responses, workspaceId } = FORMBRICKS_SEED;
const residency = surveys.residency;

let fb: FormbricksSandbox;
const api = async (
	path: string,
	init: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
) =>
	await call(`${fb.url}${path}`, {
		...init,
		headers: { 'x-api-key': fb.apiKey, ...init.headers },
	});
const control = async (path: string, method = 'GET', body?: unknown) =>
	await call(`${fb.url}/_sandbox/${path}`, { method, body });

beforeAll(async () => {
	fb = await startFormbricks();
});
afterAll(async () => {
	// Every 2xx answer of the whole file matched Formbricks' spec (a mismatch also fails its test).
	const { json } = await control('spec-violations');
	await fb.stop();
	expect(json.violations).toEqual([]);
});
beforeEach(async () => {
	await control('reset', 'POST');
});

describe('GET /api/v1/management/me', () => {
	it('names the key\'s one workspace: the id to register webhooks with', async () => {
		const { status, json } = await api('/api/v1/management/me');
		expect(status).toBe(200);
		expect(json).toEqual({
			id: workspaceId,
			type: 'production',
			createdAt: expect.any(String),
			updatedAt: expect.any(String),
			appSetupCompleted: true,
			workspace: { id: workspaceId, name: 'Residency programme' },
			project: { id: workspaceId, name: 'Residency programme' },
		});
	});

	it('answers a key with several workspaces 400, pointing at /api/v2/me', async () => {
		await control('formbricks', 'PUT', { extraWorkspaces: 1 });
		const { status, json } = await api('/api/v1/management/me');
		expect(status).toBe(400);
		expect(json.code).toBe('bad_request');
		expect(json.message).toMatch(/only supports API keys that are scoped to a single workspace.*\/api\/v2\/me/);
	});

	it('differs from its spec as Formbricks\' source does (a documented deviation)', async () => {
		const me = await api('/api/v1/management/me');
		const errors = fb.service.specs.checkAnswer('GET', '/api/v1/management/me', 200, me.json);
		expect(errors).toContain('(body) must NOT have additional properties: workspace');
		expect(errors.filter((error) => error.includes('additional properties') && !error.endsWith(': workspace'))).toEqual(
			// The other alternative of the spec's oneOf (an organisation key) refuses every field.
			Object.keys(me.json).filter((field) => field !== 'workspace').map((field) => `(body) must NOT have additional properties: ${field}`),
		);
		const asSpecified = { ...me.json };
		delete asSpecified.workspace;
		expect(fb.service.specs.checkAnswer('GET', '/api/v1/management/me', 200, asSpecified)).toEqual([]);
	});

	it('GET /api/v2/me: the key\'s workspaces and permissions under data', async () => {
		const { json } = await api('/api/v2/me');
		expect(json.data).toEqual({
			workspacePermissions: [{ permissions: 'manage', workspaceId, workspaceName: 'Residency programme' }],
			environmentPermissions: [],
			organizationId: FORMBRICKS_SEED.organizationId,
			organizationAccess: { accessControl: { read: true, write: false } },
		});
	});

	it('answers a pre-Formbricks-5 workspace\'s old environment id, which webhooks accept too', async () => {
		const legacy = await startFormbricks({ legacyEnvironmentId: true });
		try {
			const me = await call(`${legacy.url}/api/v1/management/me`, { headers: { 'x-api-key': legacy.apiKey } });
			expect(me.json.id).not.toBe(workspaceId);
			expect(me.json.workspace.id).toBe(workspaceId);
			const hook = await call(`${legacy.url}/api/v1/webhooks`, {
				method: 'POST',
				headers: { 'x-api-key': legacy.apiKey },
				body: { url: 'https://n8n.example.org/webhook/x', triggers: ['responseFinished'], environmentId: me.json.id },
			});
			expect(hook.status).toBe(200);
			expect(hook.json.data).toMatchObject({ workspaceId, environmentId: me.json.id });
		} finally {
			await legacy.stop();
		}
	});
});

describe('auth and the sandbox core', () => {
	it('starts from startSandbox({ survey: \'formbricks\' }) beside the other two services', async () => {
		const sandbox = await startSandbox({ survey: 'formbricks' });
		try {
			const surveys = await call(`${sandbox.survey.url}/api/v1/management/surveys`, {
				headers: { 'x-api-key': sandbox.survey.apiKey },
			});
			expect(surveys.json.data).toHaveLength(4);
			expect((await call(`${sandbox.signing.url}/_sandbox/health`)).json.service).toBe('signing');
		} finally {
			await sandbox.stop();
		}
	});

	it('refuses a wrong key in each version\'s shape', async () => {
		const one = await api('/api/v1/management/surveys', { headers: { 'x-api-key': 'wrong' } });
		expect(one.status).toBe(401);
		expect(one.json).toEqual({
			code: 'not_authenticated',
			message: 'Not authenticated',
			details: { 'x-Api-Key': 'Header not provided or API Key invalid' },
		});
		const two = await api('/api/v2/management/responses', { headers: { 'x-api-key': 'wrong' } });
		expect(two.status).toBe(401);
		expect(two.json).toEqual({ error: { code: 401, message: 'Unauthorized' } });
	});

	it('refuses Authorization: Bearer fbk_… without x-api-key: Formbricks takes it, its specs do not describe it', async () => {
		const { status, json } = await call(`${fb.url}/api/v1/management/surveys`, {
			headers: { authorization: `Bearer ${fb.apiKey}` },
		});
		expect(status).toBe(400);
		expect(json.details).toEqual({ 'x-api-key': "must have required property 'x-api-key'" });
	});

	it('limits a key to 100 requests a minute, answering 429 without Retry-After as Formbricks does', async () => {
		await call(`${fb.url}/_sandbox/rate-limit`, { method: 'PUT', body: { limit: 2 } });
		await api('/api/v1/webhooks');
		await api('/api/v1/webhooks');
		const one = await api('/api/v1/webhooks');
		expect(one.status).toBe(429);
		expect(one.headers.get('retry-after')).toBeNull();
		expect(one.json).toEqual({
			code: 'too_many_requests',
			message: 'Maximum number of requests reached. Please try again later.',
			details: {},
		});
		const two = await api('/api/v2/management/webhooks');
		expect(two.json).toEqual({ error: { code: 429, message: 'Too Many Requests' } });
		await control('formbricks', 'PUT', { retryAfter: true });
		expect((await api('/api/v1/webhooks')).headers.get('retry-after')).toMatch(/^\d+$/);
	});

	it('injects faults in Formbricks\' shape and logs requests', async () => {
		await call(`${fb.url}/_sandbox/faults`, { method: 'PUT', body: { status: 503, count: 1 } });
		const fault = await api(`/api/v1/management/surveys/${residency}`);
		expect(fault.status).toBe(503);
		expect(fault.json).toMatchObject({ code: 'internal_server_error', message: 'Simulated fault 503' });
		const { json } = await call(`${fb.url}/_sandbox/requests`);
		expect(json.requests.map((request: { path: string }) => request.path)).toEqual([
			`/api/v1/management/surveys/${residency}`,
		]);
	});

	it('answers a path Formbricks has no route for with Next.js\' HTML 404 page (the documented API\'s responses path)', async () => {
		const { status, headers, text } = await api(`/api/v1/management/surveys/${residency}/responses`);
		expect(status).toBe(404);
		expect(headers.get('content-type')).toMatch(/^text\/html/);
		expect(text).toContain('This page could not be found');
	});

	it('answers a body that is not JSON as Formbricks words it', async () => {
		const { status, json } = await api('/api/v1/webhooks', {
			method: 'POST',
			rawBody: '{"url":',
			headers: { 'content-type': 'application/json' },
		});
		expect(status).toBe(400);
		expect(json.message).toBe('Malformed JSON input, please check your request body');
	});

	it('answers its health checks without a key', async () => {
		expect((await call(`${fb.url}/health`)).json).toEqual({ status: 'ok' });
		expect((await call(`${fb.url}/api/v2/health`)).json).toEqual({
			data: { main_database: true, cache_database: true },
		});
	});
});

describe('surveys (v1)', () => {
	it('lists every survey of the workspace, last updated first, with questions derived from the blocks and no response count', async () => {
		const { status, json } = await api('/api/v1/management/surveys');
		expect(status).toBe(200);
		expect(json.data.map((survey: { id: string }) => survey.id)).toEqual([
			surveys.mentor,
			surveys.erasure,
			surveys.residency,
			surveys.alumni,
		]);
		for (const survey of json.data) {
			expect(survey).not.toHaveProperty('responseCount');
			expect(survey.environmentId).toBe(workspaceId);
			expect(survey.questions.map((question: { id: string }) => question.id)).toEqual(
				survey.blocks.flatMap((block: { elements: Array<{ id: string }> }) => block.elements.map(({ id }) => id)),
			);
		}
	});

	it('refuses limit and offset: Formbricks reads them, its spec lists no parameter', async () => {
		const { status, json } = await api('/api/v1/management/surveys?limit=2');
		expect(status).toBe(400);
		expect(json).toEqual({
			code: 'bad_request',
			message: 'Fields are missing or incorrectly formatted',
			details: { limit: 'is not in the spec' },
		});
	});

	it('gives one survey with random question ids whose meaning is only in the headline, in each language', async () => {
		const { json } = await api(`/api/v1/management/surveys/${residency}`);
		const fullName = json.data.questions[0];
		expect(fullName).toMatchObject({
			id: questions.residency.fullName,
			type: 'openText',
			headline: { default: 'Your full name', de: 'Ihr vollständiger Name' },
			required: true,
		});
		expect(json.data.questions.every((question: { id: string }) => /^[a-z][a-z0-9]{23}$/.test(question.id))).toBe(true);
		const decision = json.data.questions.find((question: { id: string }) => question.id === questions.residency.decision);
		expect(decision.choices.map((choice: { label: { default: string } }) => choice.label.default)).toEqual([
			'approved',
			'rejected',
			'pending',
		]);
		expect(json.data.languages.map((language: { language: { code: string } }) => language.language.code)).toEqual(['en', 'de']);
	});

	it('keeps the question ids an author set in the editor, checked as Formbricks checks them (ZSurveyElementId)', async () => {
		const made = await control('surveys', 'POST', {
			name: 'Authored ids',
			questions: [
				{ id: 'fullName', headline: 'Your full name', type: 'openText' },
				{ headline: 'Anything else?', type: 'openText' },
			],
		});
		expect(made.status).toBe(200);
		const { json } = await api(`/api/v1/management/surveys/${made.json.data.id}`);
		expect(json.data.questions[0].id).toBe('fullName');
		expect(json.data.questions[1].id).toMatch(/^[a-z][a-z0-9]{23}$/);
		for (const [id, issue] of [
			['userId', 'Element id is not allowed'],
			['full name', 'use only alphanumeric characters'],
		]) {
			const refused = await control('surveys', 'POST', {
				name: 'Refused',
				questions: [{ id, headline: 'Name', type: 'openText' }],
			});
			expect(refused.status).toBe(400);
			expect(JSON.stringify(refused.json)).toContain(issue);
		}
		const repeated = await control('surveys', 'POST', {
			name: 'Repeated',
			questions: [
				{ id: 'email', headline: 'E-mail', type: 'openText' },
				{ id: 'email', headline: 'E-mail again', type: 'openText' },
			],
		});
		expect(repeated.status).toBe(400);
	});

	it('answers an unknown survey 404 and an id that is no cuid 400, in the v1 shape', async () => {
		const missing = await api('/api/v1/management/surveys/cnosuchsurvey000000000000');
		expect(missing.status).toBe(404);
		expect(missing.json).toEqual({
			code: 'not_found',
			message: 'Survey not found',
			details: { resource_id: 'cnosuchsurvey000000000000', resource_type: 'Survey' },
		});
		const invalid = await api('/api/v1/management/surveys/srv_residency_2026');
		expect(invalid.status).toBe(400);
		expect(invalid.json.message).toBe('Validation failed: Invalid cuid2');
	});
});

describe('responses (v1)', () => {
	it('pages a survey\'s responses newest first, 25 by default, with skip and no total', async () => {
		await control(`surveys/${residency}/generate-responses`, 'POST', { count: 30 });
		const first = await api(`/api/v1/management/responses?surveyId=${residency}`);
		expect(first.json).toEqual({ data: expect.any(Array) });
		expect(first.json.data).toHaveLength(25);
		const rest = await api(`/api/v1/management/responses?surveyId=${residency}&limit=25&skip=25`);
		const all = [...first.json.data, ...rest.json.data];
		expect(all).toHaveLength(36);
		expect(new Set(all.map((response: { id: string }) => response.id)).size).toBe(36);
		const order = all.map((response: { createdAt: string; id: string }) => `${response.createdAt}|${response.id}`);
		expect(order).toEqual([...order].sort().reverse());
	});

	it('refuses offset (the documented API\'s name for skip) instead of ignoring it as Formbricks would', async () => {
		const { status, json } = await api(`/api/v1/management/responses?surveyId=${residency}&offset=5`);
		expect(status).toBe(400);
		expect(json.details).toEqual({ offset: 'is not in the spec' });
	});

	it('without surveyId gives every response of the key\'s workspaces, not paged unless limit is given', async () => {
		const { json } = await api('/api/v1/management/responses');
		expect(json.data).toHaveLength(9);
		expect(new Set(json.data.map((response: { surveyId: string }) => response.surveyId))).toEqual(
			new Set([surveys.residency, surveys.alumni]),
		);
		expect((await api('/api/v1/management/responses?limit=2&skip=1')).json.data).toEqual(json.data.slice(1, 3));
	});

	it('answers an unknown survey 404', async () => {
		const { status, json } = await api('/api/v1/management/responses?surveyId=cnosuchsurvey000000000000');
		expect(status).toBe(404);
		expect(json.message).toBe('Survey not found');
	});

	it('gives one response as Formbricks stores it: answers by random question id, meta, ttc, contact', async () => {
		const ada = await api(`/api/v1/management/responses/${responses.ada}`);
		expect(Object.keys(ada.json.data)).toEqual([
			'id', 'createdAt', 'updatedAt', 'surveyId', 'finished', 'endingId', 'data', 'meta', 'ttc',
			'variables', 'contactAttributes', 'singleUseId', 'language', 'displayId', 'contact', 'tags',
		]);
		expect(ada.json.data).toMatchObject({
			surveyId: residency,
			finished: true,
			data: {
				[questions.residency.fullName]: 'Ada Lovelace',
				[questions.residency.email]: 'ada.lovelace@example.org',
				[questions.residency.decision]: 'approved',
			},
			meta: {
				source: 'newsletter',
				url: expect.stringContaining(`/s/${residency}`),
				userAgent: { browser: 'Chrome', os: 'macOS', device: 'desktop' },
				country: 'GB',
			},
			contact: null,
			contactAttributes: null,
		});
		expect(ada.json.data.ttc._total).toBeGreaterThan(0);
		const alumni = await api(`/api/v1/management/responses?surveyId=${surveys.alumni}&limit=1`);
		expect(alumni.json.data[0].contact).toEqual({ id: expect.any(String), userId: 'alumni-3' });
		expect(alumni.json.data[0].contactAttributes).toEqual({
			userId: 'alumni-3',
			email: 'emmy.noether@example.org',
			firstName: 'Emmy',
			lastName: 'Noether',
		});
	});

	it('deletes a response only with a manage key, answering it as it was', async () => {
		await control('formbricks', 'PUT', { permission: 'write' });
		const refused = await api(`/api/v1/management/responses/${responses.ada}`, { method: 'DELETE' });
		expect(refused.status).toBe(401);
		expect(refused.json).toEqual({
			code: 'unauthorized',
			message: 'You are not authorized to access this resource',
			details: {},
		});
		await control('formbricks', 'PUT', { permission: 'manage' });
		const deleted = await api(`/api/v1/management/responses/${responses.ada}`, { method: 'DELETE' });
		expect(deleted.status).toBe(200);
		expect(deleted.json.data.id).toBe(responses.ada);
		const gone = await api(`/api/v1/management/responses/${responses.ada}`);
		expect(gone.status).toBe(404);
		expect(gone.json.details).toEqual({ resource_id: responses.ada, resource_type: 'Response' });
	});
});

describe('responses (v2)', () => {
	const list = async (query: string) => await api(`/api/v2/management/responses?surveyId=${residency}&${query}`);

	it('answers { data } only: the total the route computes never reaches the client', async () => {
		const { status, json } = await list('limit=2');
		expect(status).toBe(200);
		expect(Object.keys(json)).toEqual(['data']);
		expect(json.data).toHaveLength(2);
		expect(Object.keys(json.data[0])).toEqual([
			'id', 'createdAt', 'updatedAt', 'finished', 'surveyId', 'contactId', 'endingId', 'data',
			'variables', 'ttc', 'meta', 'contactAttributes', 'singleUseId', 'language', 'displayId',
		]);
	});

	it('sorts by createdAt or updatedAt, either way, and pages with skip', async () => {
		const ascending = await list('order=asc&limit=250');
		const times = ascending.json.data.map((response: { createdAt: string }) => response.createdAt);
		expect(times).toEqual([...times].sort());
		expect(ascending.json.data[0].id).toBe(responses.ada);
		const second = await list('order=asc&limit=1&skip=1');
		expect(second.json.data[0].id).toBe(ascending.json.data[1].id);
		const byUpdate = await list('sortBy=updatedAt&order=desc&limit=250');
		const updated = byUpdate.json.data.map((response: { updatedAt: string }) => response.updatedAt);
		expect(updated).toEqual([...updated].sort().reverse());
	});

	it('filters on one date field, bounds inclusive', async () => {
		const all = (await list('order=asc&limit=250')).json.data as Array<{ id: string; createdAt: string; updatedAt: string }>;
		const from = all[2].createdAt;
		const to = all[4].createdAt;
		const created = await list(`order=asc&startDate=${from}&endDate=${to}`);
		expect(created.json.data.map((response: { id: string }) => response.id)).toEqual(all.slice(2, 5).map(({ id }) => id));
		const updated = await list(`order=asc&filterDateField=updatedAt&startDate=${all[5].updatedAt}`);
		expect(updated.json.data.map((response: { id: string }) => response.id)).toEqual([all[5].id]);
	});

	it('refuses what its zod schemas and its spec refuse, with 422 and [{field, issue}]', async () => {
		const reversed = await list('startDate=2026-10-06&endDate=2026-10-01');
		expect(reversed.status).toBe(422);
		expect(reversed.json).toEqual({
			error: { code: 422, message: 'Unprocessable Entity', details: [{ field: '', issue: 'startDate must be before endDate' }] },
		});
		const tooMany = await list('limit=251');
		expect(tooMany.json.error.details).toEqual([{ field: 'limit', issue: 'must be <= 250' }]);
		const notCuid = await api('/api/v2/management/responses?surveyId=srv_residency_2026');
		expect(notCuid.json.error.details).toEqual([{ field: 'surveyId', issue: 'Invalid cuid2' }]);
		const unknown = await list('page=2');
		expect(unknown.json.error.details).toEqual([{ field: 'page', issue: 'is not in the spec' }]);
	});

	it('gets and deletes one response, { data } around the row, where the spec has the row alone (a documented deviation)', async () => {
		const path = `/api/v2/management/responses/${responses.ada}`;
		const got = await api(path);
		expect(got.json.data).toMatchObject({ id: responses.ada, contactId: null });
		expect(fb.service.specs.checkAnswer('GET', path, 200, got.json)).not.toEqual([]);
		expect(fb.service.specs.checkAnswer('GET', path, 200, got.json.data)).toEqual([]);
		expect(Object.keys(SPEC_DEVIATIONS)).toEqual([
			'GET /api/v1/management/me',
			'GET /api/v2/management/responses/{id}',
			'DELETE /api/v2/management/responses/{id}',
			// formbricksContacts.contract.test.ts shows these three.
			'POST /api/v2/management/responses',
			'PUT /api/v2/management/responses/{id}',
			'PUT /api/v2/management/contacts/bulk',
		]);
		await control('formbricks', 'PUT', { permission: 'read' });
		const refused = await api(`/api/v2/management/responses/${responses.ada}`, { method: 'DELETE' });
		expect(refused.status).toBe(401);
		await control('formbricks', 'PUT', { permission: 'manage' });
		const deleted = await api(`/api/v2/management/responses/${responses.ada}`, { method: 'DELETE' });
		expect(deleted.json.data.id).toBe(responses.ada);
		const gone = await api(`/api/v2/management/responses/${responses.ada}`);
		expect(gone.status).toBe(404);
		expect(gone.json).toEqual({
			error: { code: 404, message: 'Not Found', details: [{ field: 'response', issue: 'not found' }] },
		});
	});
});

describe('webhooks', () => {
	const hookBody = { url: 'https://n8n.example.org/webhook/abc', triggers: ['responseFinished'], source: 'n8n' };

	it('v1: requires workspaceId, answers 200 with the secret once, lists and deletes without it', async () => {
		const missing = await api('/api/v1/webhooks', { method: 'POST', body: hookBody });
		expect(missing.status).toBe(400);
		expect(missing.json).toEqual({ code: 'bad_request', message: 'workspaceId must be provided', details: {} });

		const created = await api('/api/v1/webhooks', { method: 'POST', body: { ...hookBody, workspaceId } });
		expect(created.status).toBe(200);
		expect(created.json.data).toEqual({
			id: expect.stringMatching(/^c[a-z0-9]{24}$/),
			name: null,
			createdAt: expect.any(String),
			updatedAt: expect.any(String),
			url: hookBody.url,
			source: 'n8n',
			workspaceId,
			triggers: ['responseFinished'],
			surveyIds: [],
			secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
			environmentId: workspaceId,
		});
		const { id } = created.json.data;
		const listed = await api('/api/v1/webhooks');
		const withoutSecret = { ...created.json.data };
		delete withoutSecret.secret;
		expect(listed.json.data).toEqual([withoutSecret]);
		expect((await api(`/api/v1/webhooks/${id}`)).json.data).not.toHaveProperty('secret');

		await control('formbricks', 'PUT', { permission: 'write' });
		expect((await api(`/api/v1/webhooks/${id}`, { method: 'DELETE' })).status).toBe(401);
		await control('formbricks', 'PUT', { permission: 'manage' });
		const deleted = await api(`/api/v1/webhooks/${id}`, { method: 'DELETE' });
		expect(deleted.json.data).toMatchObject({ id, url: hookBody.url });
		expect((await api(`/api/v1/webhooks/${id}`, { method: 'DELETE' })).json).toMatchObject({
			code: 'not_found',
			message: 'Webhook not found',
		});
	});

	it('v1: refuses empty triggers, an unknown event, an unknown field and, on a server that forbids it, a private address', async () => {
		const empty = await api('/api/v1/webhooks', { method: 'POST', body: { ...hookBody, workspaceId, triggers: [] } });
		expect(empty.json).toEqual({
			code: 'bad_request',
			message: 'Fields are missing or incorrectly formatted',
			details: { triggers: 'At least one trigger is required' },
		});
		const unknownEvent = await api('/api/v1/webhooks', {
			method: 'POST',
			body: { ...hookBody, workspaceId, triggers: ['responseDeleted'] },
		});
		expect(unknownEvent.json.details).toEqual({ 'triggers.0': 'must be equal to one of the allowed values' });
		const unknownField = await api('/api/v1/webhooks', { method: 'POST', body: { ...hookBody, workspaceId, events: [] } });
		expect(unknownField.json.details).toEqual({ events: 'Formbricks does not read this field' });
		await control('formbricks', 'PUT', { allowInternalWebhookUrls: false });
		const internal = await api('/api/v1/webhooks', {
			method: 'POST',
			body: { ...hookBody, workspaceId, url: 'http://127.0.0.1:5678/webhook/abc' },
		});
		expect(internal.json).toEqual({
			code: 'bad_request',
			message: 'Webhook URL must not point to private or internal IP addresses',
			details: {},
		});
	});

	it('v2: answers 201 with the secret, lists with meta.total, deletes', async () => {
		const invalid = await api('/api/v2/management/webhooks', { method: 'POST', body: { ...hookBody, workspaceId } });
		expect(invalid.status).toBe(422);
		expect(invalid.json.error.details).toEqual([
			{ field: 'name', issue: "must have required property 'name'" },
			{ field: 'surveyIds', issue: "must have required property 'surveyIds'" },
		]);
		const created = await api('/api/v2/management/webhooks', {
			method: 'POST',
			body: { ...hookBody, workspaceId, name: 'n8n', surveyIds: [residency] },
		});
		expect(created.status).toBe(201);
		expect(created.json.data).toMatchObject({ name: 'n8n', surveyIds: [residency], secret: expect.stringMatching(/^whsec_/) });
		expect(created.json.data).not.toHaveProperty('environmentId');
		const listed = await api('/api/v2/management/webhooks');
		expect(listed.json.meta).toEqual({ total: 1, limit: 50, offset: 0 });
		expect(listed.json.data[0]).not.toHaveProperty('secret');
		const got = await api(`/api/v2/management/webhooks/${created.json.data.id}`);
		expect(got.json).toEqual({ data: listed.json.data[0] });
		const filtered = await api(`/api/v2/management/webhooks?surveyIds=${residency}`);
		expect(filtered.json.error.details).toEqual([
			{ field: 'surveyIds', issue: 'Invalid input: expected array, received string' },
		]);
		const deleted = await api(`/api/v2/management/webhooks/${created.json.data.id}`, { method: 'DELETE' });
		expect(deleted.json.data.id).toBe(created.json.data.id);
		expect((await api('/api/v2/management/webhooks')).json.meta.total).toBe(0);
	});
});
