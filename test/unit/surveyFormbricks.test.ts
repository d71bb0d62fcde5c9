/**
 * Every Survey operation with the Survey API credential set to Formbricks, run against the
 * Formbricks flavour of the sandbox (test/sandbox/formbricks): it answers as Formbricks' source
 * does at commit b66c1dd, refuses each request its OpenAPI files do not allow, and holds each 2xx
 * answer to them. After every test, each request the node sent is checked against the specs
 * again and no answer may have broken them.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { computeMetrics } from '../../nodes/Survey/resources/survey/metrics';
import { Survey } from '../../nodes/Survey/Survey.node';
import { FORMBRICKS_SEED } from '../sandbox';
import { executeContext, type ExecuteOptions, type Parameters } from './helpers/context';
import { startFormbricksHarness, type FormbricksHarness } from './helpers/formbricks';

jest.setTimeout(120_000);

const { surveys, questions, responses } = FORMBRICKS_SEED;
const survey = (id: string) => ({ mode: 'id', value: id });

describe('Survey node with the credential set to Formbricks', () => {
	let h: FormbricksHarness;
	const node = new Survey();
	let bulk: string;

	const run = async (parameters: Parameters | Parameters[], options: Partial<ExecuteOptions> = {}) => {
		const { context } = executeContext({ parameters, credentials: h.credentials(), ...options });
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	/** The survey's responses as Formbricks' v2 lists them, oldest first, read directly. */
	const direct = async (surveyId: string): Promise<IDataObject[]> => {
		const all: IDataObject[] = [];
		for (let skip = 0; ; skip += 250) {
			const { json } = await h.api<{ data: IDataObject[] }>(
				`/api/v2/management/responses?surveyId=${surveyId}&limit=250&skip=${skip}&sortBy=createdAt&order=asc`,
			);
			all.push(...json.data);
			if (json.data.length < 250) return all;
		}
	};
	const v2Queries = async () =>
		(await h.requests()).filter((request) => request.path === '/api/v2/management/responses').map((request) => request.query);

	beforeAll(async () => {
		h = await startFormbricksHarness();
	});
	afterAll(async () => await h?.stop());
	beforeEach(async () => {
		await h.control('reset', 'POST');
		const made = await h.control<{ data: IDataObject }>('surveys', 'POST', {
			name: 'Bulk survey',
			status: 'completed',
			type: 'app',
			questions: [
				{ headline: 'Your full name', type: 'openText' },
				{ headline: 'Your e-mail address', type: 'openText', inputType: 'email' },
			],
		});
		bulk = String(made.data.id);
		await h.control(`surveys/${bulk}/generate-responses`, 'POST', { count: 2_345 });
		await h.control('requests', 'DELETE');
	});
	afterEach(async () => {
		// Every request the node sent validates against Formbricks' specs; every answer matched them.
		expect(await h.specProblems()).toEqual([]);
	});

	describe('Survey → Get Many', () => {
		it('lists every survey in the documented shape, headlines as text, and counts their responses', async () => {
			const listed = await run({ resource: 'survey', operation: 'getMany', returnAll: true });
			expect(listed.map((s) => s.id).sort()).toEqual([...Object.values(surveys), bulk].sort());
			const counts = Object.fromEntries(listed.map((s) => [s.id, s.responseCount]));
			expect(counts).toEqual({
				[surveys.residency]: 6,
				[surveys.alumni]: 3,
				[surveys.mentor]: 0,
				[surveys.erasure]: 0,
				[bulk]: 2_345,
			});
			const residency = listed.find((s) => s.id === surveys.residency)!;
			expect(residency).toMatchObject({ name: 'Residency application', status: 'inProgress', type: 'link' });
			expect(typeof residency.createdAt).toBe('string');
			// Nothing dropped: Formbricks' own fields stay beside the documented ones.
			expect(residency).toHaveProperty('blocks');
			expect(residency).toHaveProperty('environmentId');
			const fullName = (residency.questions as IDataObject[])[0];
			expect(fullName.headline).toBe('Your full name');
			expect(fullName.translations).toMatchObject({ headline: { default: 'Your full name', de: 'Ihr vollständiger Name' } });
		});

		it('counts 2,345 responses with a few small requests, not by reading them all', async () => {
			await run({ resource: 'survey', operation: 'getMany', returnAll: false, limit: 1, filters: { status: 'completed', type: 'app' } });
			const queries = (await v2Queries()).filter((query) => query.surveyId === bulk);
			// One page of 250, then positions probed with pages of one: 499, 999, 1999, 3999, and halving the gap.
			expect(queries[0]).toMatchObject({ limit: '250', skip: '0' });
			expect(queries.slice(1).every((query) => query.limit === '1')).toBe(true);
			expect(queries.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(2_345 / 250)) + 2 + 11);
			// Only the survey returned is counted.
			expect(new Set((await v2Queries()).map((query) => query.surveyId))).toEqual(new Set([bulk]));
		});

		it('filters by status and type in the node', async () => {
			const drafts = await run({ resource: 'survey', operation: 'getMany', returnAll: true, filters: { status: 'draft' } });
			expect(drafts.map((s) => s.id)).toEqual([surveys.mentor]);
			const apps = await run({ resource: 'survey', operation: 'getMany', returnAll: true, filters: { type: 'app' } });
			expect(apps.map((s) => s.id).sort()).toEqual([surveys.alumni, bulk].sort());
		});
	});

	describe('Survey → Get and the pickers', () => {
		it('gives the questions with plain-text headlines and choice labels, the translations kept', async () => {
			const [one] = await run({ resource: 'survey', operation: 'get', surveyId: survey(surveys.residency) });
			const byId = Object.fromEntries((one.questions as IDataObject[]).map((question) => [question.id, question]));
			expect(byId[questions.residency.fullName]).toMatchObject({
				type: 'openText',
				headline: 'Your full name',
				required: true,
				placeholder: 'Type your answer here...',
			});
			const decision = byId[questions.residency.decision];
			expect(decision.headline).toBe('Decision');
			expect((decision.choices as IDataObject[]).map((choice) => choice.label)).toEqual(['approved', 'rejected', 'pending']);
			expect((decision.translations as IDataObject).headline).toEqual({ default: 'Decision', de: 'Entscheidung' });
			expect(one).toMatchObject({ id: surveys.residency, name: 'Residency application', status: 'inProgress', type: 'link' });
			expect(one.languages).toHaveLength(2);
		});

		it('keeps question types beyond the documented eight, with their nested texts as text', async () => {
			const [mentor] = await run({ resource: 'survey', operation: 'get', surveyId: survey(surveys.mentor) });
			const contact = (mentor.questions as IDataObject[]).find((question) => question.type === 'contactInfo')!;
			expect(contact.headline).toBe('How can we reach you?');
			expect((contact.firstName as IDataObject).placeholder).toBe('firstName');
		});

		it('answers an unknown survey with Formbricks’ 404', async () => {
			const error = await run({ resource: 'survey', operation: 'get', surveyId: survey('cnosuchsurvey000000000000') }).catch(
				(e) => e,
			);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('404');
			expect(error.message).toBe('The Formbricks server answered 404: Survey not found');
		});

		it('lists surveys in the picker by name and status, without counting responses', async () => {
			const { context } = executeContext({ parameters: {}, credentials: h.credentials() });
			const found = await node.methods.listSearch.searchSurveys.call(context as never, 'resid');
			expect(found.results).toEqual([{ name: 'Residency application (In progress)', value: surveys.residency }]);
			expect(await v2Queries()).toEqual([]);
		});
	});

	describe('Survey → Get Metrics', () => {
		it('matches metrics computed from Formbricks’ own list of the responses', async () => {
			const [metrics] = await run({ resource: 'survey', operation: 'getMetrics', surveyId: survey(surveys.residency) });
			const all = await direct(surveys.residency);
			expect(metrics).toMatchObject({ surveyId: surveys.residency, name: 'Residency application', ...computeMetrics(all, Date.now()) });
			expect(metrics).toMatchObject({ responseCount: 6, finishedCount: 5, unfinishedCount: 1 });
		});

		it('gives one item per survey for All Surveys, 2,345 responses read page by page', async () => {
			const metrics = await run({ resource: 'survey', operation: 'getMetrics', allSurveys: true });
			expect(metrics.find((m) => m.surveyId === bulk)?.responseCount).toBe(2_345);
			expect(metrics.find((m) => m.surveyId === surveys.mentor)?.responseCount).toBe(0);
		});
	});

	describe('Response → Get Many', () => {
		it('asks v2 for 50, oldest first, by default', async () => {
			const out = await run({ resource: 'response', operation: 'getMany', surveyId: survey(bulk) });
			expect(out).toHaveLength(50);
			expect(await v2Queries()).toEqual([
				{ surveyId: bulk, limit: '50', skip: '0', sortBy: 'createdAt', order: 'asc' },
			]);
			expect(out.map((r) => r.id)).toEqual((await direct(bulk)).slice(0, 50).map((r) => r.id));
		});

		it('Return All: every response exactly once, in Formbricks’ order, pages overlapping by one', async () => {
			const out = await run({ resource: 'response', operation: 'getMany', surveyId: survey(bulk), returnAll: true });
			expect((await v2Queries()).map((query) => [query.skip, query.limit])).toEqual([
				['0', '250'],
				...Array.from({ length: 9 }, (_, page) => [String(250 + page * 249 - 1), '250']),
			]);
			expect(out.map((r) => r.id)).toEqual((await direct(bulk)).map((r) => r.id));
			expect(new Set(out.map((r) => r.id)).size).toBe(2_345);
		});

		it('Limit and Offset become v2’s limit and skip', async () => {
			const out = await run({
				resource: 'response',
				operation: 'getMany',
				surveyId: survey(bulk),
				returnAll: false,
				limit: 300,
				options: { offset: 10 },
			});
			expect(out.map((r) => r.id)).toEqual((await direct(bulk)).slice(10, 310).map((r) => r.id));
		});

		it('returns each response exactly once when one before the current page is deleted while reading', async () => {
			const before = await direct(bulk);
			let deleted = false;
			const out = await run(
				{ resource: 'response', operation: 'getMany', surveyId: survey(bulk), returnAll: true },
				{
					onRequest: async (request) => {
						if (!deleted && request.url.endsWith('/api/v2/management/responses') && Number(request.qs?.skip) > 0) {
							deleted = true;
							await h.api(`/api/v1/management/responses/${String(before[10].id)}`, 'DELETE');
						}
					},
				},
			);
			const ids = out.map((r) => String(r.id));
			expect(ids).toHaveLength(2_344);
			expect(new Set(ids).size).toBe(2_344);
			expect(ids).not.toContain(before[10].id);
		});

		it('takes the date filters to v2 (startDate, endDate, filterDateField) and refuses Created and Updated together', async () => {
			const all = await direct(surveys.residency);
			await h.control('requests', 'DELETE');
			const after = String(all[2].createdAt);
			const out = await run({
				resource: 'response',
				operation: 'getMany',
				surveyId: survey(surveys.residency),
				returnAll: true,
				filters: { createdAfter: after },
			});
			expect(out.map((r) => r.id)).toEqual(all.slice(2).map((r) => r.id));
			expect((await v2Queries())[0]).toMatchObject({ startDate: after, filterDateField: 'createdAt' });
			const error = await run({
				resource: 'response',
				operation: 'getMany',
				surveyId: survey(surveys.residency),
				returnAll: true,
				filters: { createdAfter: after, updatedBefore: after },
			}).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
		});

		it('Only New Since Last Run reads through v2’s updatedAt filter and moves on at Mark as Read', async () => {
			const staticData = {};
			const read = (executionId: string) =>
				run(
					[
						{ resource: 'response', operation: 'getMany', surveyId: survey(surveys.residency), returnAll: true, options: { onlyNew: true } },
					],
					{ staticData, executionId },
				);
			const mark = (executionId: string) =>
				run({ resource: 'response', operation: 'markAsRead' }, { staticData, executionId, parentNodes: ['Node Under Test'] });
			expect(await read('1')).toHaveLength(6);
			await mark('1');
			expect(await read('2')).toEqual([]);
			const added = await h.control<{ data: IDataObject }>(`surveys/${surveys.residency}/responses`, 'POST', {
				data: { [questions.residency.fullName]: 'Late Applicant' },
			});
			const fresh = await read('3');
			expect(fresh.map((r) => r.id)).toEqual([added.data.id]);
			expect((await v2Queries()).at(-1)).toMatchObject({ filterDateField: 'updatedAt', startDate: expect.any(String) });
		});

		it('answers an unknown survey with 404, not an empty list (v2 alone would answer none)', async () => {
			const error = await run({
				resource: 'response',
				operation: 'getMany',
				surveyId: survey('cnosuchsurvey000000000000'),
			}).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe('The Formbricks server answered 404: Survey not found');
		});

		it('waits and tries again after a 429, which Formbricks sends without Retry-After', async () => {
			await h.control('faults', 'PUT', { status: 429, count: 1 });
			const out = await run({ resource: 'response', operation: 'getMany', surveyId: survey(surveys.residency), returnAll: true });
			expect(out).toHaveLength(6);
			const statuses = (await h.requests()).map((request) => request.status);
			expect(statuses).toEqual([429, 200]);
		});
	});

	describe('Response → Get and Delete', () => {
		it('Get: the response in the documented shape, with Formbricks’ own fields kept', async () => {
			const [ada] = await run({ resource: 'response', operation: 'get', responseId: responses.ada });
			expect(ada).toMatchObject({
				id: responses.ada,
				surveyId: surveys.residency,
				finished: true,
				data: { [questions.residency.fullName]: 'Ada Lovelace', [questions.residency.decision]: 'approved' },
				meta: { country: 'GB' },
			});
			expect(ada).toHaveProperty('ttc');
			expect(ada).toHaveProperty('language');
			expect((await h.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
				`GET /api/v1/management/responses/${responses.ada}`,
			]);
		});

		it('Delete: erases with a manage key and returns the ids without the answers', async () => {
			const [out] = await run({ resource: 'response', operation: 'delete', responseId: responses.ada });
			expect(out).toEqual({
				deleted: true,
				id: responses.ada,
				surveyId: surveys.residency,
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				finished: true,
				alreadyGone: false,
			});
			expect((await h.api(`/api/v1/management/responses/${responses.ada}`)).status).toBe(404);
		});

		it('Delete of a response already gone: Formbricks’ 404, or alreadyGone with If Already Deleted → Succeed', async () => {
			await h.api(`/api/v1/management/responses/${responses.ada}`, 'DELETE');
			const parameters = { resource: 'response', operation: 'delete', responseId: responses.ada };
			const error = await run(parameters).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe('The Formbricks server answered 404: Response not found');
			const [out] = await run({ ...parameters, ifAlreadyGone: 'succeed' });
			expect(out).toMatchObject({ deleted: true, id: responses.ada, alreadyGone: true });
		});

		it('Delete with a key without Manage access: Formbricks’ 401, and what to change', async () => {
			await h.control('formbricks', 'PUT', { permission: 'write' });
			const error = await run({ resource: 'response', operation: 'delete', responseId: responses.ada }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('401');
			expect(error.message).toBe('The Formbricks server answered 401: You are not authorized to access this resource');
			expect(error.description).toContain('"Manage" access');
			expect((await h.api(`/api/v1/management/responses/${responses.ada}`)).status).toBe(200);
		});

		it('a wrong key is Formbricks’ not_authenticated, with the key named', async () => {
			const { context } = executeContext({
				parameters: { resource: 'response', operation: 'get', responseId: responses.ada },
				credentials: h.credentials({ apiKey: 'fbk_wrong' }),
			});
			const error = await node.execute.call(context).catch((e) => e);
			expect(error.httpCode).toBe('401');
			expect(error.description).toContain('not_authenticated');
			expect(error.description).toContain('Check the API Key: Formbricks makes keys under Organization Settings → API Keys');
			expect(error.description.match(/Check the API Key/g)).toHaveLength(1);
			expect(JSON.stringify(error)).not.toContain('fbk_wrong');
		});
	});

	describe('Applicant Record → Export', () => {
		it('exports finished responses keyed by question text, e-mails and phone numbers redacted', async () => {
			const records = await run({
				resource: 'applicantRecords',
				operation: 'export',
				surveyId: survey(surveys.residency),
				personalData: 'redact',
				options: { answers: 'text' },
			});
			expect(records).toHaveLength(5);
			const text = JSON.stringify(records);
			expect(text).not.toMatch(/@example\.org/);
			expect(text).not.toMatch(/\+44 20 7946 0958/);
			expect(records[0]).toHaveProperty('Decision');
			expect(records[0]).toHaveProperty('Your e-mail address', expect.stringMatching(/^EMAIL_\d+$/));
		});
	});
});
