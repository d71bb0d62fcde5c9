import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { computeMetrics } from '../../nodes/Survey/resources/survey/metrics';
import { Survey } from '../../nodes/Survey/Survey.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { type Sandbox, SEED, SEED_COUNTS, startSandbox } from '../sandbox';
import { type ExecuteOptions, executeContext, type Parameters } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(60_000);

const survey = (id: string) => ({ mode: 'id', value: id });

describe('Survey node: answers, date filters, only new, delete, personal data, consistent reads', () => {
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;
	const node = new Survey();

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
		control = sandboxControl(sandbox, 'survey');
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => await control.reset());

	/** Runs the node; `onRequest` sees each request before it is sent (to change the data between pages). */
	const run = async (
		parameters: Parameters | Parameters[],
		extra: Partial<ExecuteOptions> & {
			onRequest?: (request: IHttpRequestOptions, count: number) => Promise<void>;
		} = {},
	) => {
		const { onRequest, ...options } = extra;
		const { context } = executeContext({
			parameters,
			credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
			...options,
		});
		if (onRequest) {
			const helpers = context.helpers as unknown as {
				httpRequestWithAuthentication: (
					type: string,
					request: IHttpRequestOptions,
				) => Promise<unknown>;
			};
			const send = helpers.httpRequestWithAuthentication;
			let count = 0;
			helpers.httpRequestWithAuthentication = async (type, request) => {
				await onRequest(request, ++count);
				return await send(type, request);
			};
		}
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const respond = async (surveyId: string, data: IDataObject, extra: IDataObject = {}) =>
		(
			await control.call<{ data: IDataObject }>('POST', `/surveys/${surveyId}/responses`, {
				data,
				...extra,
			})
		).data;
	const getMany = (surveyId: string, options: IDataObject = {}, more: Parameters = {}) => ({
		resource: 'response',
		operation: 'getMany',
		surveyId: survey(surveyId),
		returnAll: true,
		options,
		...more,
	});

	describe('Survey → Get and the survey pickers', () => {
		it('returns one survey with its questions', async () => {
			const [one] = await run({
				resource: 'survey',
				operation: 'get',
				surveyId: survey(SEED.erasureSurveyId),
			});
			expect(one).toMatchObject({
				id: SEED.erasureSurveyId,
				name: 'Delete my data',
				responseCount: 0,
			});
			expect((one.questions as IDataObject[]).map((question) => question.id)).toEqual([
				'email',
				'confirmation',
			]);
		});

		it('labels statuses as people say them: "In progress", not "inProgress"', async () => {
			const { context } = executeContext({
				parameters: {},
				credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
			});
			const { results } = await node.methods.listSearch.searchSurveys.call(
				context as never,
				'residency',
			);
			expect(results).toEqual([
				{ name: 'Residency application (In progress)', value: SEED.residencySurveyId },
			]);
			const trigger = new SurveyTrigger();
			const options = await trigger.methods.loadOptions.getSurveys.call(context as never);
			expect(options.map((option) => option.name)).toEqual(
				expect.arrayContaining([
					'Delete my data (In progress)',
					'Mentor sign-up (Draft)',
					'Alumni feedback (Completed)',
				]),
			);
			expect(JSON.stringify(options)).not.toContain('inProgress');
		});
	});

	describe('Answers', () => {
		it('By Question ID keeps the service’s answers as they are', async () => {
			const byId = await run(getMany(SEED.alumniSurveyId, { answers: 'id' }));
			const plain = await run(getMany(SEED.alumniSurveyId));
			expect(byId).toEqual(plain);
			expect(byId[0].data).toEqual(
				expect.objectContaining({ rating: 5, highlights: ['Studio time', 'Community'] }),
			);
		});

		it('By Question Text keys by headline, numbers a repeated headline, keeps multi-choice arrays', async () => {
			const [first] = await run(getMany(SEED.alumniSurveyId, { answers: 'text' }));
			expect(first.data).toEqual({
				'Your name': 'Rosalind Franklin',
				'Your e-mail address': 'rosalind.franklin@example.org',
				'How would you rate the residency?': 5,
				'What did you value most?': ['Studio time', 'Community'],
				'Anything else?': 'The studio time was invaluable.',
				'Anything else? (2)': 'Longer residencies.',
			});
		});

		it('Both gives { id, question, answer } per answer in question order', async () => {
			const [first] = await run(getMany(SEED.alumniSurveyId, { answers: 'both' }));
			expect(first.data).toEqual([
				{ id: 'fullName', question: 'Your name', answer: 'Rosalind Franklin' },
				{ id: 'email', question: 'Your e-mail address', answer: 'rosalind.franklin@example.org' },
				{ id: 'rating', question: 'How would you rate the residency?', answer: 5 },
				{
					id: 'highlights',
					question: 'What did you value most?',
					answer: ['Studio time', 'Community'],
				},
				{ id: 'comment', question: 'Anything else?', answer: 'The studio time was invaluable.' },
				{ id: 'suggestion', question: 'Anything else?', answer: 'Longer residencies.' },
			]);
		});

		it('reads the questions once per execution, not once per item', async () => {
			await control.clearRequests();
			const ids = ['resp_alumni_001', 'resp_alumni_002', 'resp_alumni_003'];
			const out = await run(
				ids.map((responseId) => ({
					resource: 'response',
					operation: 'get',
					responseId,
					options: { answers: 'text' },
				})),
				{ items: ids.map((id) => ({ id })) },
			);
			expect(out.map((response) => response.id)).toEqual(ids);
			expect(out[1].data).toHaveProperty(['What did you value most?'], ['Critique sessions']);
			const surveyReads = (await control.requests()).filter(
				(request) => request.path === `/api/v1/management/surveys/${SEED.alumniSurveyId}`,
			);
			expect(surveyReads).toHaveLength(1);
		});
	});

	describe('Answers on Applicant Record → Export', () => {
		const exportWith = (options: IDataObject) => ({
			resource: 'applicantRecords',
			operation: 'export',
			surveyId: survey(SEED.alumniSurveyId),
			personalData: 'redact',
			options,
		});

		it('keys the redacted answers by question text, or lists them in one "answers" field for Both', async () => {
			const [byText] = await run(exportWith({ answers: 'text' }));
			expect(byText).toMatchObject({
				responseId: 'resp_alumni_001',
				'How would you rate the residency?': 5,
				'Anything else?': 'The studio time was invaluable.',
				'Anything else? (2)': 'Longer residencies.',
				'What did you value most?': ['Studio time', 'Community'],
			});
			expect(byText).not.toHaveProperty('rating');
			expect(JSON.stringify(byText)).not.toMatch(/Rosalind|rosalind\.franklin@/);
			const [both] = await run(exportWith({ answers: 'both' }));
			expect(both.answers).toEqual(
				expect.arrayContaining([
					{ id: 'rating', question: 'How would you rate the residency?', answer: 5 },
				]),
			);
			expect(JSON.stringify(both)).not.toMatch(/Rosalind|rosalind\.franklin@/);
		});
	});

	describe('date filters', () => {
		it('sends Created After/Before as startDate/endDate on createdAt and returns what matches', async () => {
			const old = await respond(
				SEED.residencySurveyId,
				{ fullName: 'Old' },
				{ createdAt: '2020-01-01T10:00:00.000Z' },
			);
			await respond(
				SEED.residencySurveyId,
				{ fullName: 'Older' },
				{ createdAt: '2019-06-01T10:00:00.000Z' },
			);
			await control.clearRequests();
			const out = await run(
				getMany(
					SEED.residencySurveyId,
					{},
					{ filters: { createdAfter: '2020-01-01', createdBefore: '2020-01-02T00:00:00' } },
				),
				// Zone-less dates and times are read in the workflow's time zone (see surveyHardening).
				{ timezone: 'UTC' },
			);
			expect(out.map((response) => response.id)).toEqual([old.id]);
			const [request] = await control.requests();
			expect(request.query).toMatchObject({
				startDate: '2020-01-01T00:00:00.000Z',
				endDate: '2020-01-02T00:00:00.000Z',
				filterDateField: 'createdAt',
			});
		});

		it('filters on updatedAt with Updated After', async () => {
			const since = new Date().toISOString();
			await control.call('PATCH', `/responses/${SEED.adaResponseId}`, {
				data: { decision: 'approved' },
			});
			const out = await run(
				getMany(SEED.residencySurveyId, {}, { filters: { updatedAfter: since } }),
			);
			expect(out.map((response) => response.id)).toEqual([SEED.adaResponseId]);
		});

		it('refuses Created and Updated filters together, and a date that is none, before sending', async () => {
			await control.clearRequests();
			for (const filters of [
				{ createdAfter: '2026-01-01', updatedBefore: '2026-02-01' },
				{ createdAfter: 'soon' },
			]) {
				const error = await run(getMany(SEED.residencySurveyId, {}, { filters })).catch((e) => e);
				expect(error).toBeInstanceOf(NodeOperationError);
				expect(error.message).toMatch(/Created After|Updated Before/);
			}
			expect(await control.requests()).toHaveLength(0);
		});
	});

	describe('Only New Since Last Run', () => {
		const staticData: ExecuteOptions['staticData'] = {};
		let execution = 0;
		/** One scheduled run: Get Many (only new), then, if the run succeeds, Mark as Read. */
		const scheduledRun = async (succeeds: boolean) => {
			const executionId = `exec-${++execution}`;
			const read = await run(getMany(SEED.residencySurveyId, { onlyNew: true }), {
				staticData,
				executionId,
			});
			if (succeeds)
				await run(
					{ resource: 'response', operation: 'markAsRead' },
					// The reader (the harness's node name) comes before Mark as Read.
					{ staticData, executionId, parentNodes: ['Node Under Test'] },
				);
			return read.map((response) => response.id);
		};

		it('reads what is new or changed since the last successful run; a failed run does not advance it', async () => {
			expect(await scheduledRun(true)).toHaveLength(SEED_COUNTS.residencyResponses);
			expect(await scheduledRun(true)).toEqual([]);

			const first = await respond(SEED.residencySurveyId, { fullName: 'First' });
			expect(await scheduledRun(false)).toEqual([first.id]); // a later node fails: not marked as read
			const second = await respond(SEED.residencySurveyId, { fullName: 'Second' });
			expect(await scheduledRun(true)).toEqual([first.id, second.id]);
			expect(await scheduledRun(true)).toEqual([]);

			await control.call('PATCH', `/responses/${SEED.adaResponseId}`, {
				data: { decision: 'rejected' },
			});
			expect(await scheduledRun(true)).toEqual([SEED.adaResponseId]);
			expect(await scheduledRun(true)).toEqual([]);
		});

		it('Advance Mark "Right Away" moves on without Mark as Read', async () => {
			const own: ExecuteOptions['staticData'] = {};
			const once = async () =>
				(
					await run(getMany(SEED.residencySurveyId, { onlyNew: true, advanceMark: 'rightAway' }), {
						staticData: own,
					})
				).length;
			expect(await once()).toBe(SEED_COUNTS.residencyResponses);
			expect(await once()).toBe(0);
		});
	});

	describe('Delete', () => {
		const erase = (extra: Parameters = {}) => ({
			resource: 'response',
			operation: 'delete',
			responseId: SEED.adaResponseId,
			...extra,
		});

		it('erases the response and returns its ids without its answers', async () => {
			const [out] = await run(erase());
			expect(out).toEqual({
				deleted: true,
				id: SEED.adaResponseId,
				surveyId: SEED.residencySurveyId,
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				finished: true,
				alreadyGone: false,
			});
			const left = await run(getMany(SEED.residencySurveyId));
			expect(left.map((response) => response.id)).not.toContain(SEED.adaResponseId);
			expect(left).toHaveLength(SEED_COUNTS.residencyResponses - 1);
		});

		it('refuses as a tool unless "Allow as AI Agent Tool" is on, sending nothing', async () => {
			await control.clearRequests();
			const error = await run(erase(), { tool: true }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toMatch(/not allowed for an AI agent/);
			expect(await control.requests()).toHaveLength(0);
			const [out] = await run(erase({ allowDeleteAsTool: true }), { tool: true });
			expect(out.deleted).toBe(true);
		});

		it('refuses an id of ".." before sending', async () => {
			await control.clearRequests();
			const error = await run(erase({ responseId: '..' })).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(await control.requests()).toHaveLength(0);
		});
	});

	describe('Personal Data on Get and Get Many', () => {
		const PERSONAL = ['Ada Lovelace', 'ada.lovelace@example.org', '+44 20 7946 0958'];
		const leaks = (records: IDataObject[]) =>
			PERSONAL.filter((value) => JSON.stringify(records).includes(value));
		const get = (options: IDataObject = {}) => ({
			resource: 'response',
			operation: 'get',
			responseId: SEED.adaResponseId,
			options,
		});

		it('as a tool: redacted by default on Get and Get Many; Keep when the user chose it', async () => {
			expect(leaks(await run(get(), { tool: true }))).toEqual([]);
			expect(leaks(await run(getMany(SEED.residencySurveyId), { tool: true }))).toEqual([]);
			expect(
				leaks(await run(getMany(SEED.residencySurveyId, { answers: 'text' }), { tool: true })),
			).toEqual([]);
			expect(leaks(await run(get({ personalData: 'keep' }), { tool: true }))).toEqual(PERSONAL);
			const [redacted] = await run(get(), { tool: true });
			expect(redacted.data).toMatchObject({ decision: 'approved', portfolio: expect.any(String) });
		});

		it('run normally: today’s output unless Redact or Omit is picked', async () => {
			expect(leaks(await run(get()))).toEqual(PERSONAL);
			expect(leaks(await run(getMany(SEED.residencySurveyId)))).toEqual(PERSONAL);
			expect(leaks(await run(get({ personalData: 'redact' })))).toEqual([]);
			expect(leaks(await run(getMany(SEED.residencySurveyId, { personalData: 'omit' })))).toEqual(
				[],
			);
		});
	});

	describe('reads while responses change (regressions)', () => {
		const BULK = 'srv_changing';
		beforeEach(async () => {
			await control.call('POST', '/surveys', { id: BULK, name: 'Changing' });
			await control.call('POST', `/surveys/${BULK}/generate-responses`, { count: 1_000 });
		});
		const isPage = (request: IHttpRequestOptions) =>
			request.url.endsWith(`/surveys/${BULK}/responses`);

		it('returns each response exactly once when one is added between page 1 and the rest', async () => {
			let added: IDataObject | undefined;
			const out = await run(getMany(BULK, { maxConcurrency: 1 }), {
				onRequest: async (request) => {
					if (isPage(request) && Number(request.qs?.offset) > 0 && !added)
						added = await respond(BULK, { fullName: 'Late' });
				},
			});
			const ids = out.map((response) => response.id);
			expect(new Set(ids).size).toBe(ids.length);
			expect(ids).toHaveLength(1_001);
			expect(ids).toContain(added?.id);
		});

		it('returns each response exactly once when one is removed and another added between pages', async () => {
			let changed = false;
			const out = await run(getMany(BULK, { maxConcurrency: 1 }), {
				onRequest: async (request) => {
					if (isPage(request) && Number(request.qs?.offset) > 0 && !changed) {
						changed = true;
						await fetch(`${sandbox.survey.url}/api/v1/management/responses/resp_${BULK}_000010`, {
							method: 'DELETE',
							headers: { 'x-api-key': sandbox.survey.apiKey },
						});
						await respond(BULK, { fullName: 'Late' });
					}
				},
			});
			const ids = out.map((response) => String(response.id));
			expect(new Set(ids).size).toBe(1_000);
			expect(ids).toHaveLength(1_000);
			expect(ids).not.toContain(`resp_${BULK}_000010`);
		});

		it('fails with a clear error after a bounded number of re-reads when the data keeps changing', async () => {
			let pages = 0;
			const error = await run(getMany(BULK, { maxConcurrency: 1 }), {
				onRequest: async (request) => {
					if (isPage(request) && Number(request.qs?.offset) > 0) {
						pages++;
						await respond(BULK, { fullName: `Busy ${pages}` });
					}
				},
			}).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toMatch(/kept changing while they were read \(3 attempts\)/);
			expect(pages).toBeLessThanOrEqual(3 * 5);
		});
	});

	describe('metrics (regressions)', () => {
		it('computes 200,000 responses without exhausting the stack', () => {
			const start = Date.parse('2026-01-01T00:00:00.000Z');
			const responses = Array.from({ length: 200_000 }, (_, n) => ({
				createdAt: new Date(start + n * 1000).toISOString(),
				updatedAt: new Date(start + n * 1000 + ((n % 3) + 1) * 60_000).toISOString(),
				finished: true,
			}));
			const metrics = computeMetrics(responses, start + 200_000 * 1000);
			expect(metrics).toMatchObject({
				responseCount: 200_000,
				firstResponseAt: '2026-01-01T00:00:00.000Z',
				lastResponseAt: new Date(start + 199_999 * 1000).toISOString(),
				medianSecondsToFinish: 120,
			});
		});

		it('skips and counts responses whose createdAt is unreadable', () => {
			const metrics = computeMetrics(
				[
					{ createdAt: 'not a time', updatedAt: '2026-01-01T00:00:00.000Z', finished: true },
					{
						createdAt: '2026-01-01T00:00:00.000Z',
						updatedAt: '2026-01-01T00:01:00.000Z',
						finished: true,
					},
					{ updatedAt: '2026-01-01T00:00:00.000Z', finished: false },
				],
				Date.parse('2026-01-02T00:00:00.000Z'),
			);
			expect(metrics).toMatchObject({
				responseCount: 1,
				finishedCount: 1,
				firstResponseAt: '2026-01-01T00:00:00.000Z',
				medianSecondsToFinish: 60,
				skippedUnreadableDates: 2,
			});
		});
	});
});
