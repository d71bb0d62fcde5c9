import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { computeMetrics } from '../../nodes/Survey/resources/survey/metrics';
import { Survey } from '../../nodes/Survey/Survey.node';
import { Sandbox, startSandbox } from '../sandbox';
import { runWithFakeTime } from './helpers/clock';
import { executeContext, Parameters } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(60_000);

const BULK_SURVEY = 'srv_bulk_unit';

describe('Survey node against the sandbox', () => {
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;
	let residencyId: string;
	const node = new Survey();

	/** The service's own answer, read directly page by page, to compare the node against. */
	const directResponses = async (surveyId: string): Promise<IDataObject[]> => {
		const all: IDataObject[] = [];
		for (let offset = 0; ; offset += 250) {
			const page = (await fetch(
				`${sandbox.survey.url}/api/v1/management/surveys/${surveyId}/responses?limit=250&offset=${offset}`,
				{ headers: { 'x-api-key': sandbox.survey.apiKey } },
			).then(async (response) => await response.json())) as { data: IDataObject[]; meta: { total: number } };
			all.push(...page.data);
			if (all.length >= page.meta.total || page.data.length === 0) return all;
		}
	};

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
		control = sandboxControl(sandbox, 'survey');
		await control.call('POST', '/surveys', { id: BULK_SURVEY, name: 'Bulk survey', status: 'completed', type: 'app' });
		await control.call('POST', `/surveys/${BULK_SURVEY}/generate-responses`, { count: 2_345 });
		const { data } = (await fetch(`${sandbox.survey.url}/api/v1/management/surveys`, {
			headers: { 'x-api-key': sandbox.survey.apiKey },
		}).then(async (response) => await response.json())) as { data: IDataObject[] };
		residencyId = String(data.find((survey) => /residency/i.test(String(survey.name)))?.id);
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => {
		await control.clearRequests();
		await control.clearFaults();
	});

	const run = async (parameters: Parameters, options: { continueOnFail?: boolean; key?: string } = {}) => {
		const { context } = executeContext({
			parameters,
			continueOnFail: options.continueOnFail,
			credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: options.key ?? sandbox.survey.apiKey } },
		});
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const survey = (id: string) => ({ mode: 'id', value: id });

	describe('Survey → Get Many', () => {
		it('lists published and draft surveys, filtered by status and type', async () => {
			const all = await run({ resource: 'survey', operation: 'getMany', returnAll: true });
			expect(new Set(all.map((s) => s.status)).size).toBeGreaterThan(1);
			const [request] = await control.requests();
			expect(request.path).toBe('/api/v1/management/surveys');
			expect(request.headers['x-api-key']).toBe(sandbox.survey.apiKey);
			const apps = await run({ resource: 'survey', operation: 'getMany', returnAll: true, filters: { type: 'app' } });
			expect(apps.length).toBeGreaterThan(0);
			expect(apps.every((s) => s.type === 'app')).toBe(true);
			expect(apps).toEqual(all.filter((s) => s.type === 'app'));
		});

		it('reports a wrong key as 401', async () => {
			const error = await run({ resource: 'survey', operation: 'getMany', returnAll: true }, { key: 'nope' }).catch(
				(e) => e,
			);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('401');
			expect(error.description).toContain('not_authenticated');
			// Issue 43 item 8: which field to check, as "Test credential" says it.
			expect(error.description).toContain('Check the API Key: it is generated in the dashboard under Settings → API Keys.');
		});
	});

	describe('Survey → Get Metrics', () => {
		it('matches metrics computed independently from the service’s responses', async () => {
			const [metrics] = await run({ resource: 'survey', operation: 'getMetrics', surveyId: survey(residencyId) });
			const responses = await directResponses(residencyId);
			const finished = responses.filter((r) => r.finished === true);
			const created = responses.map((r) => String(r.createdAt)).sort();
			expect(metrics).toMatchObject({
				surveyId: residencyId,
				responseCount: responses.length,
				finishedCount: finished.length,
				unfinishedCount: responses.length - finished.length,
				firstResponseAt: new Date(created[0]).toISOString(),
				lastResponseAt: new Date(created[created.length - 1]).toISOString(),
			});
			expect(metrics.completionRate).toBeCloseTo(finished.length / responses.length, 4);
			const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
			expect(metrics.responsesLast7Days).toBe(created.filter((c) => Date.parse(c) >= weekAgo).length);
			expect(metrics.medianSecondsToFinish).toEqual(computeMetrics(responses).medianSecondsToFinish);
		});

		it('returns one item per survey for All Surveys', async () => {
			const metrics = await run({ resource: 'survey', operation: 'getMetrics', allSurveys: true });
			const surveys = await run({ resource: 'survey', operation: 'getMany', returnAll: true });
			expect(metrics.map((m) => m.surveyId)).toEqual(surveys.map((s) => s.id));
			const bulk = metrics.find((m) => m.surveyId === BULK_SURVEY);
			expect(bulk?.responseCount).toBe(2_345);
		});
	});

	describe('Response → Get Many', () => {
		it('asks for 50 by default', async () => {
			const responses = await run({ resource: 'response', operation: 'getMany', surveyId: survey(BULK_SURVEY) });
			expect(responses).toHaveLength(50);
			expect((await control.requests()).map((r) => r.query)).toEqual([{ limit: '50', offset: '0' }]);
		});

		it('returns all 2,345 responses concurrently, exactly as the service lists them', async () => {
			const responses = await run({
				resource: 'response',
				operation: 'getMany',
				surveyId: survey(BULK_SURVEY),
				returnAll: true,
				options: { maxConcurrency: 4 },
			});
			expect(responses).toEqual(await directResponses(BULK_SURVEY));
		});

		it('rides through a burst of 429s using Retry-After', async () => {
			await control.failNext(6, 429, { retryAfter: 1 });
			// Retry-After passes on the test's clock, not the machine's.
			const { result: responses } = await runWithFakeTime(
				async () =>
					await run({
						resource: 'response',
						operation: 'getMany',
						surveyId: survey(BULK_SURVEY),
						returnAll: true,
						options: { maxConcurrency: 4 },
					}),
			);
			expect(responses).toEqual(await directResponses(BULK_SURVEY));
			expect((await control.requests()).filter((r) => r.status === 429)).toHaveLength(6);
		});

		it('honours limit and offset', async () => {
			const responses = await run({
				resource: 'response',
				operation: 'getMany',
				surveyId: survey(BULK_SURVEY),
				limit: 300,
				options: { offset: 100 },
			});
			expect(responses).toEqual((await directResponses(BULK_SURVEY)).slice(100, 400));
		});

		it('refuses a missing survey before sending anything', async () => {
			const error = await run({ resource: 'response', operation: 'getMany', surveyId: survey('') }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain('Survey');
			expect(await control.requests()).toHaveLength(0);
		});
	});

	describe('Response → Get', () => {
		it('returns one response', async () => {
			const [first] = await directResponses(residencyId);
			const [response] = await run({ resource: 'response', operation: 'get', responseId: first.id });
			expect(response).toEqual(first);
		});

		it('reports the service’s code and message for an unknown response', async () => {
			const error = await run({ resource: 'response', operation: 'get', responseId: 'resp_missing' }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('404');
			expect(error.description).toContain('not_found');
		});
	});

	describe('Applicant Records → Export', () => {
		it('gives one flat record per finished applicant with no personal data', async () => {
			const responses = await directResponses(residencyId);
			const records = await run({ resource: 'applicantRecords', operation: 'export', surveyId: survey(residencyId) });
			const finished = responses.filter((r) => r.finished === true);
			expect(records.map((r) => r.responseId)).toEqual(finished.map((r) => r.id));
			const text = JSON.stringify(records);
			for (const response of responses) {
				const data = response.data as IDataObject;
				for (const field of ['email', 'fullName', 'phone']) {
					if (data[field]) expect(text).not.toContain(String(data[field]));
				}
			}
			expect(text).not.toMatch(/[^\s@"]+@[^\s@"]+\.[a-z]{2,}/i);
			expect(records[0]).toMatchObject({ decision: expect.any(String), email: expect.stringMatching(/^EMAIL_\d+$/) });
		});

		it('is stable: the same value gets the same token within an export', async () => {
			const records = await run({
				resource: 'applicantRecords',
				operation: 'export',
				surveyId: survey(BULK_SURVEY),
				options: { includeUnfinished: true },
			});
			const responses = await directResponses(BULK_SURVEY);
			expect(records).toHaveLength(responses.length);
			const tokenOf = new Map<string, string>();
			records.forEach((record, index) => {
				const email = String((responses[index].data as IDataObject).email);
				const token = String(record.email);
				expect(tokenOf.get(email) ?? token).toBe(token);
				tokenOf.set(email, token);
			});
			expect(new Set(tokenOf.values()).size).toBe(tokenOf.size);
		});

		it('keeps or omits personal data on request', async () => {
			const kept = await run({
				resource: 'applicantRecords',
				operation: 'export',
				surveyId: survey(residencyId),
				personalData: 'keep',
			});
			expect(JSON.stringify(kept)).toMatch(/@example\.org/);
			const omitted = await run({
				resource: 'applicantRecords',
				operation: 'export',
				surveyId: survey(residencyId),
				personalData: 'omit',
			});
			expect(omitted[0]).not.toHaveProperty('email');
			expect(omitted[0]).not.toHaveProperty('fullName');
			expect(omitted[0]).toHaveProperty('decision');
		});
	});
});
