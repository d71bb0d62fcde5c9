import type { IDataObject } from 'n8n-workflow';

import { Survey } from '../../nodes/Survey/Survey.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { Sandbox, startSandbox } from '../sandbox';
import { callWebhook, executeContext } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';
import { signedSurveyDelivery } from './helpers/surveyDelivery';
import {
	HEADLINE_NON_PERSONAL,
	HEADLINE_PERSONAL_VALUES,
	HEADLINE_SURVEYS,
	leakedHeadlineValues,
} from './fixtures/privacyCorpusHeadlines';

jest.setTimeout(60_000);

/*
 * Issue 23 §1: redaction decides by what a question asks. The corpus' surveys have random
 * question ids, so only their headlines say which answers are names, addresses, dates of birth.
 */

const SURVEY_TOOL = 'n8n-nodes-sign-survey-bookmark.surveyTool';
const headlineOf = (surveyId: string, questionId: string) =>
	HEADLINE_SURVEYS.find((survey) => survey.id === surveyId)!.questions.find(
		(question) => question.id === questionId,
	)!.headline;

describe('personal data by what each question asks (random question ids)', () => {
	let sandbox: Sandbox;
	const responseIds = new Map<string, string[]>();
	const node = new Survey();

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
		const control = sandboxControl(sandbox, 'survey');
		for (const survey of HEADLINE_SURVEYS) {
			await control.call('POST', '/surveys', {
				id: survey.id,
				name: survey.name,
				questions: survey.questions,
			});
			const ids: string[] = [];
			for (const response of survey.responses) {
				const created = await control.call<{ data: { id: string } }>(
					'POST',
					`/surveys/${survey.id}/responses`,
					{ ...response, finished: true },
				);
				ids.push(created.data.id);
			}
			responseIds.set(survey.id, ids);
		}
	});
	afterAll(async () => await sandbox?.stop());

	const run = async (parameters: IDataObject, asTool = true) => {
		const { context } = executeContext({
			parameters,
			credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
			node: asTool ? { type: SURVEY_TOOL } : undefined,
		});
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const exportOf = async (surveyId: string, parameters: IDataObject = {}, asTool = true) =>
		await run(
			{
				resource: 'applicantRecords',
				operation: 'export',
				surveyId: { mode: 'id', value: surveyId },
				...parameters,
			},
			asTool,
		);
	const getManyOf = async (surveyId: string, options: IDataObject = {}, asTool = true) =>
		await run(
			{
				resource: 'response',
				operation: 'getMany',
				surveyId: { mode: 'id', value: surveyId },
				returnAll: true,
				options,
			},
			asTool,
		);
	/** An answer of an output record, wherever the Answers option put it. */
	const answerIn = (
		record: IDataObject,
		surveyId: string,
		questionId: string,
		answers: string,
	): unknown => {
		const holder = (record.data ?? record) as IDataObject;
		if (answers === 'text') return holder[headlineOf(surveyId, questionId)];
		if (answers === 'both') {
			const list = (holder.answers ?? holder) as IDataObject[];
			return list.find((entry) => entry.id === questionId)?.answer;
		}
		return holder[questionId];
	};
	const expectNonPersonalKept = (surveyId: string, records: IDataObject[], answers: string) => {
		for (const [survey, index, questionId, value] of HEADLINE_NON_PERSONAL) {
			if (survey !== surveyId) continue;
			expect({ survey, questionId, value: answerIn(records[index], surveyId, questionId, answers) }).toEqual({
				survey,
				questionId,
				value,
			});
		}
	};

	it('holds every listed personal value: an ordinary node keeps them', async () => {
		const all = [];
		for (const survey of HEADLINE_SURVEYS) all.push(...(await getManyOf(survey.id, {}, false)));
		expect(leakedHeadlineValues(all)).toEqual(HEADLINE_PERSONAL_VALUES);
	});

	describe.each(['id', 'text', 'both'])('Answers %s', (answers) => {
		it.each(HEADLINE_SURVEYS.map((survey) => survey.id))(
			'Applicant Record → Export (Redact, the default) of %s leaks none and keeps the rest',
			async (surveyId) => {
				const records = await exportOf(surveyId, { options: { answers } }, false);
				expect(records.map((record) => record.responseId)).toEqual(responseIds.get(surveyId));
				expect(leakedHeadlineValues(records)).toEqual([]);
				expectNonPersonalKept(surveyId, records, answers);
			},
		);

		it.each(HEADLINE_SURVEYS.map((survey) => survey.id))(
			'Response → Get Many as a tool, of %s, leaks none (meta included) and keeps the rest',
			async (surveyId) => {
				const responses = await getManyOf(surveyId, { answers });
				expect(responses.map((response) => response.id)).toEqual(responseIds.get(surveyId));
				expect(leakedHeadlineValues(responses)).toEqual([]);
				expectNonPersonalKept(surveyId, responses, answers);
				for (const response of responses) expect((response.meta as IDataObject).source).toBe('link');
			},
		);

		it('Response → Get as a tool leaks none of the response’s own values', async () => {
			for (const survey of HEADLINE_SURVEYS) {
				for (const [index, responseId] of responseIds.get(survey.id)!.entries()) {
					const [response] = await run({
						resource: 'response',
						operation: 'get',
						responseId,
						options: { answers },
					});
					const own = JSON.stringify(survey.responses[index]).toLowerCase();
					const leaked = leakedHeadlineValues(response).filter((value) =>
						own.includes(value.toLowerCase()),
					);
					expect({ responseId, leaked }).toEqual({ responseId, leaked: [] });
				}
			}
		});
	});

	it('keys by the headline and redacts the value under it (Answers By Question Text)', async () => {
		const [ada] = await getManyOf('srv_headlines_en', { answers: 'text' });
		const data = ada.data as IDataObject;
		expect(data['Your full name']).toMatch(/^NAME_\d+$/);
		expect(data['What’s your e-mail address?']).toMatch(/^EMAIL_\d+$/);
		expect(data['Home address']).toMatch(/^ADDRESS_\d+$/);
		expect(data['Date of birth']).toMatch(/^BIRTHDATE_\d+$/);
		expect(data['Name of a referee']).toMatch(/^NAME_\d+$/);
		expect(data['Passport number']).toMatch(/^ID_\d+$/);
		// The name recurs in free text with the same pseudonym as its own answer.
		expect(data['Tell us about your work']).toBe(
			`I am ${String(data['Your full name'])}; ${String(data['Name of a referee'])} read my notes.`,
		);
		const exported = await exportOf('srv_headlines_en', { options: { answers: 'text' } });
		expect(exported[0]['Your full name']).toMatch(/^NAME_\d+$/);
		expect(exported[0]['Your project title']).toBe('Notes on the Analytical Engine');
	});

	it('treats a response’s meta (user agent, page URL, country) as personal, keeping its source', async () => {
		const [ada] = await getManyOf('srv_headlines_en');
		const meta = ada.meta as IDataObject;
		expect(meta.source).toBe('link');
		expect(meta.country).toMatch(/^ADDRESS_\d+$/);
		expect(meta.url).toMatch(/^PERSONAL_\d+$/);
		expect(meta.userAgent).toEqual({
			browser: expect.stringMatching(/^DEVICE_\d+$/),
			os: expect.stringMatching(/^DEVICE_\d+$/),
			device: expect.stringMatching(/^DEVICE_\d+$/),
		});
		const [omitted] = await getManyOf('srv_headlines_en', { personalData: 'omit' });
		expect(omitted.meta).toEqual({ source: 'link' });
	});

	it('leaves personal answers out with Omit, keeping the others', async () => {
		const records = await exportOf('srv_headlines_en', { personalData: 'omit' });
		expect(leakedHeadlineValues(records)).toEqual([]);
		expect(Object.keys(records[0])).not.toContain('k3x9q2vbn0');
		expectNonPersonalKept('srv_headlines_en', records, 'id');
	});

	it('leaves a number answering a "Nombre de …" (number of) question alone', async () => {
		const [record] = await exportOf('srv_headlines_i18n', { options: { answers: 'text' } });
		expect(record['Nombre de participants']).toBe(4);
	});

	describe('Extra Personal Fields match the names the output shows', () => {
		it.each([
			['the headline, answers by text (Export)', 'text', 'Your employer'],
			['the headline in another naming style (Export)', 'text', 'your_employer'],
			['the question id, answers by id (Export)', 'id', 'c9v3b6nm2q'],
		])('%s', async (_case, answers, extra) => {
			const records = await exportOf('srv_headlines_en', {
				options: { answers, extraPersonalFields: extra },
			});
			for (const record of records) {
				expect(answerIn(record, 'srv_headlines_en', 'c9v3b6nm2q', answers)).toMatch(/^PERSONAL_\d+$/);
			}
			expect(JSON.stringify(records)).not.toMatch(/Analytical Engines Ltd|Remington Rand/);
		});

		it.each([
			['Get Many, by headline', 'getMany', 'Your employer'],
			['Get Many, by the dotted name shown', 'getMany', 'data.Your employer'],
			['Get, by question id', 'get', 'c9v3b6nm2q'],
		])('on Response → %s', async (_case, operation, extra) => {
			const options = { answers: 'text', personalData: 'redact', extraPersonalFields: extra };
			const records =
				operation === 'get'
					? await run(
							{ resource: 'response', operation, responseId: responseIds.get('srv_headlines_en')![0], options },
							false,
						)
					: await getManyOf('srv_headlines_en', options, false);
			for (const record of records) {
				expect((record.data as IDataObject)['Your employer']).toMatch(/^PERSONAL_\d+$/);
			}
		});

		it('without them, the employer is no personal data', async () => {
			const records = await exportOf('srv_headlines_en', { options: { answers: 'text' } });
			expect(records.map((record) => record['Your employer'])).toEqual([
				'Analytical Engines Ltd',
				'Remington Rand',
			]);
		});
	});

	describe('Survey Trigger with Personal Data Redact', () => {
		const trigger = new SurveyTrigger();
		const secret = `whsec_${Buffer.from('privacy-headlines-secret').toString('base64')}`;
		let counter = 0;

		const deliver = async (survey: (typeof HEADLINE_SURVEYS)[number], options: IDataObject) => {
			const id = `msg_headlines_${++counter}`;
			const body = {
				event: 'responseFinished',
				surveyId: survey.id,
				responseId: `resp_${id}`,
				createdAt: '2026-11-21T10:00:00.000Z',
				data: survey.responses[0].data,
			};
			const outcome = await callWebhook(
				trigger.webhook as Parameters<typeof callWebhook>[0],
				signedSurveyDelivery(sandbox, {
					id,
					secret,
					hookId: 'wh_headlines',
					workflowId: 'wf-privacy-headlines',
					body,
					options,
				}),
			);
			return outcome.result.workflowData![0][0].json;
		};

		it.each(HEADLINE_SURVEYS.map((survey) => [survey.id, survey] as const))(
			'redacts the answers of %s by their headlines, by id and by text',
			async (_id, survey) => {
				for (const answers of ['id', 'text']) {
					const item = await deliver(survey, { personalData: 'redact', answers });
					expect(leakedHeadlineValues(item.data)).toEqual([]);
				}
				const kept = await deliver(survey, {});
				expect(leakedHeadlineValues(kept.data).length).toBeGreaterThan(0);
			},
		);
	});
});
