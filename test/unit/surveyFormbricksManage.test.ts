/**
 * Survey → Create, Update, Publish / Pause / Complete, Duplicate, Delete, Archive / Restore and
 * Validate on Formbricks, against the Formbricks flavour (test/sandbox/formbricks/routesSurveys.ts:
 * apps/web/app/api/v1/management/surveys/… and apps/web/app/api/v3/surveys/… at b66c1dd), every
 * request held to Formbricks' OpenAPI files and, for v3 and the survey body, to its zod schemas
 * (test/sandbox/formbricks/surveySchema.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { FORMBRICKS_SEED } from '../sandbox';
import { executeContext, hookContext, type ExecuteOptions, type Parameters } from './helpers/context';
import { formbricksForEachTest, startFormbricksHarness } from './helpers/formbricks';

jest.setTimeout(120_000);

const { surveys, workspaceId } = FORMBRICKS_SEED;
const survey = (id: string) => ({ mode: 'id', value: id });

const QUESTION_LIST: Parameters = {
	resource: 'survey',
	operation: 'create',
	defineBy: 'questions',
	name: 'Residency feedback 2026',
	surveyType: 'link',
	questions: {
		question: [
			{ type: 'openText', headline: 'What did you work on?', required: true, id: 'project' },
			{ type: 'multipleChoiceSingle', headline: 'Would you come back?', required: true, choices: 'Yes\nNo\nMaybe' },
			{ type: 'multipleChoiceMulti', headline: 'What helped?', required: false, choices: 'Studio\nMentors' },
			{ type: 'rating', headline: 'How was the studio?', required: true },
			{ type: 'nps', headline: 'Would you recommend the residency?', required: true },
			{ type: 'date', headline: 'When did you arrive?', required: false },
			{ type: 'consent', headline: 'Publishing', required: true, choices: 'You may quote my answers' },
			{ type: 'contactInfo', headline: 'How can we reach you?', required: false },
			{ type: 'address', headline: 'Where do you live?', required: false },
		],
	},
};

const jsonDefinition = (questions: unknown[], extra: IDataObject = {}): Parameters => ({
	resource: 'survey',
	operation: 'create',
	defineBy: 'json',
	surveyJson: JSON.stringify({ name: 'From JSON', type: 'app', questions, ...extra }),
});

const openText = (id: string, headline = 'Tell us') => ({ id, type: 'openText', headline: { default: headline }, required: true });

describe('Survey management on Formbricks', () => {
	const harness = formbricksForEachTest();
	const node = new Survey();
	const run = async (parameters: Parameters, options: Partial<ExecuteOptions> = {}) => {
		const { context } = executeContext({ parameters, credentials: harness().credentials(), ...options });
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const sent = async () =>
		(await harness().requests()).map((request) => `${request.method} ${request.path}`);

	describe('Create', () => {
		it('from the question list: every simple type, as a draft link survey, read back identical through Get', async () => {
			const [created] = await run(QUESTION_LIST);
			expect(created).toMatchObject({ name: 'Residency feedback 2026', status: 'draft', type: 'link' });
			const questions = created.questions as IDataObject[];
			expect(questions.map((question) => question.type)).toEqual([
				'openText', 'multipleChoiceSingle', 'multipleChoiceMulti', 'rating', 'nps', 'date', 'consent', 'contactInfo', 'address',
			]);
			expect(questions[0]).toMatchObject({ id: 'project', headline: 'What did you work on?', required: true });
			expect((questions[1].choices as IDataObject[]).map((choice) => choice.label)).toEqual(['Yes', 'No', 'Maybe']);
			expect(questions[6].label).toBe('You may quote my answers');
			expect(questions[7]).toMatchObject({ email: { show: true, required: false, placeholder: 'Email' } });
			// Formbricks keeps one block per question.
			expect((created.blocks as IDataObject[]).length).toBe(9);
			const [post] = (await harness().requests()).filter((request) => request.method === 'POST');
			expect(post.path).toBe('/api/v1/management/surveys');
			expect((post.body as IDataObject).workspaceId).toBe(workspaceId);

			const [read] = await run({ resource: 'survey', operation: 'get', surveyId: survey(String(created.id)) });
			expect(read).toEqual(created);
		});

		it('from Formbricks’ JSON: an app survey with per-language texts and a welcome card', async () => {
			const [created] = await run(
				jsonDefinition([{ ...openText('motivation'), headline: { default: 'Why?', de: 'Warum?' } }], {
					welcomeCard: { enabled: true, headline: { default: 'Welcome!' } },
				}),
			);
			expect(created).toMatchObject({ name: 'From JSON', type: 'app', status: 'draft' });
			expect((created.questions as IDataObject[])[0]).toMatchObject({
				headline: 'Why?',
				translations: { headline: { default: 'Why?', de: 'Warum?' } },
			});
			expect(created.welcomeCard).toMatchObject({ enabled: true, headline: { default: 'Welcome!' } });
			const [read] = await run({ resource: 'survey', operation: 'get', surveyId: survey(String(created.id)) });
			expect(read).toEqual(created);
		});

		it.each([
			['an unknown question type', [openText('first'), { id: 'second', type: 'slider', headline: { default: 'How much?' }, required: true }], 'question 2 "second" (How much?) has the unknown type "slider"'],
			['a choice question without choices', [{ id: 'pick', type: 'multipleChoiceSingle', headline: { default: 'Pick one' }, required: true, choices: [] }], 'question 1 "pick" (Pick one) is a multipleChoiceSingle question with no choices; it needs at least two'],
			['a duplicate question ID', [openText('same', 'First'), openText('other'), openText('same', 'Third')], 'question 3 "same" (Third) has the same ID as question 1; question IDs must be unique'],
		])('refuses %s before sending, naming the question', async (_, questions, words) => {
			const error = await run(jsonDefinition(questions)).catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as Error).message.startsWith(`Survey (JSON): ${words}`)).toBe(true);
			expect(await sent()).toEqual([]);
		});

		it('refuses a list question with one choice, naming its row, before sending', async () => {
			const error = await run({
				...QUESTION_LIST,
				questions: { question: [{ type: 'multipleChoiceMulti', headline: 'Which?', choices: 'Only one' }] },
			}).catch((caught: unknown) => caught);
			expect((error as Error).message).toBe('Questions › Choices (question 1): a multiple choice question needs at least two, one per line (1 given)');
			expect(await sent()).toEqual([]);
		});

		it('what Formbricks itself refuses comes back in its words', async () => {
			const error = await run(jsonDefinition([{ ...openText('r'), type: 'rating', scale: 'number', range: 9 }])).catch((caught: unknown) => caught);
			expect((error as Error).message).toContain('The Formbricks server answered 400');
			expect((error as Error).message).toContain('questions.0.range');
		});

		it('is Formbricks only: on the documented API it fails at once', async () => {
			const { context } = executeContext({ parameters: QUESTION_LIST, credentials: { surveyApi: { baseUrl: harness().fb.url, apiKey: 'x' } } });
			const error = await node.execute.call(context).catch((caught: unknown) => caught);
			expect((error as Error).message).toMatch(/Survey → Create is available with the Formbricks API/);
			expect(await sent()).toEqual([]);
		});
	});

	describe('Update', () => {
		it('changes the questions, cards, hidden fields, closing date and response limit, keeping the rest', async () => {
			const [updated] = await run({
				resource: 'survey',
				operation: 'update',
				surveyId: survey(surveys.residency),
				updateFields: {
					questions: JSON.stringify([openText('portfolio', 'Your portfolio link')]),
					welcomeCard: '{"enabled": true, "headline": {"default": "Hello"}}',
					endings: '[{"id": "thanks", "type": "endScreen", "headline": {"default": "Thanks!"}}]',
					hiddenFieldIds: 'channel, cohort',
					closeOn: '2026-12-31T23:00:00.000Z',
					responseLimit: 200,
				},
			});
			expect(updated).toMatchObject({
				id: surveys.residency,
				status: 'inProgress',
				welcomeCard: { enabled: true, headline: { default: 'Hello' } },
				endings: [{ id: 'thanks', type: 'endScreen' }],
				hiddenFields: { enabled: true, fieldIds: ['channel', 'cohort'] },
				closeOn: '2026-12-31T23:00:00.000Z',
				autoComplete: 200,
			});
			expect((updated.questions as IDataObject[]).map((question) => question.id)).toEqual(['portfolio']);
			const [put] = (await harness().requests()).filter((request) => request.method === 'PUT');
			expect(put.path).toBe(`/api/v1/management/surveys/${surveys.residency}`);
			expect(Object.keys(put.body as IDataObject).sort()).toEqual(['autoComplete', 'closeOn', 'endings', 'hiddenFields', 'questions', 'welcomeCard']);
			const [removed] = await run({ resource: 'survey', operation: 'update', surveyId: survey(surveys.residency), updateFields: { responseLimit: 0 } });
			expect(removed.autoComplete).toBeNull();
		});

		it('refuses a duplicate question ID and an empty change before sending', async () => {
			const duplicate = await run({
				resource: 'survey',
				operation: 'update',
				surveyId: survey(surveys.residency),
				updateFields: { questions: JSON.stringify([openText('a'), openText('a', 'Again')]) },
			}).catch((caught: unknown) => caught);
			expect((duplicate as Error).message).toBe('Questions (JSON): question 2 "a" (Again) has the same ID as question 1; question IDs must be unique');
			const empty = await run({ resource: 'survey', operation: 'update', surveyId: survey(surveys.residency), updateFields: {} }).catch((caught: unknown) => caught);
			expect((empty as Error).message).toBe('Update Fields: add at least one field to change');
			expect(await sent()).toEqual([]);
		});
	});

	describe('Publish, Pause, Complete', () => {
		it('each sets the status Formbricks keeps', async () => {
			const [created] = await run(QUESTION_LIST);
			const target = { surveyId: survey(String(created.id)) };
			for (const [operation, status] of [['publish', 'inProgress'], ['pause', 'paused'], ['publish', 'inProgress'], ['complete', 'completed']]) {
				const [result] = await run({ resource: 'survey', operation, ...target });
				expect(result.status).toBe(status);
				const stored = await harness().api<{ data: IDataObject }>(`/api/v1/management/surveys/${String(created.id)}`);
				expect(stored.json.data.status).toBe(status);
			}
		});

		it('as an AI agent tool, only with "Allow as AI Agent Tool" on; Create needs no consent', async () => {
			const tool = { tool: true, node: { type: 'n8n-nodes-sign-survey-bookmark.surveyTool' } };
			const [created] = await run(QUESTION_LIST, tool);
			await harness().control('requests', 'DELETE');
			for (const operation of ['publish', 'pause', 'complete', 'archive', 'delete']) {
				const refused = await run({ resource: 'survey', operation, surveyId: survey(String(created.id)) }, tool).catch((caught: unknown) => caught);
				expect((refused as Error).message).toBe('Publishing, closing or deleting surveys is not allowed for an AI agent');
			}
			expect(await sent()).toEqual([]);
			const [published] = await run({ resource: 'survey', operation: 'publish', surveyId: survey(String(created.id)), allowAsTool: true }, tool);
			expect(published.status).toBe('inProgress');
		});
	});

	describe('Duplicate', () => {
		it('a new draft with the questions and cards, without the responses', async () => {
			const [original] = await run({ resource: 'survey', operation: 'get', surveyId: survey(surveys.residency) });
			const [copy] = await run({ resource: 'survey', operation: 'duplicate', surveyId: survey(surveys.residency) });
			expect(copy.id).not.toBe(surveys.residency);
			expect(copy).toMatchObject({ name: `${String(original.name)} (copy)`, status: 'draft', type: original.type });
			const strip = (questions: unknown) => questions as IDataObject[];
			expect(strip(copy.questions)).toEqual(strip(original.questions));
			expect(copy.hiddenFields).toEqual(original.hiddenFields);
			const responses = await harness().api<{ data: IDataObject[] }>(`/api/v1/management/responses?surveyId=${String(copy.id)}`);
			expect(responses.json.data).toEqual([]);
			const [named] = await run({ resource: 'survey', operation: 'duplicate', surveyId: survey(surveys.residency), newName: 'Residency 2027' });
			expect(named.name).toBe('Residency 2027');
		});
	});

	describe('Delete', () => {
		it('deletes the survey and, as Formbricks does, its responses', async () => {
			const before = await harness().api<{ data: IDataObject[] }>(`/api/v1/management/responses?surveyId=${surveys.alumni}`);
			expect(before.json.data.length).toBeGreaterThan(0);
			const [deleted] = await run({ resource: 'survey', operation: 'delete', surveyId: survey(surveys.alumni) });
			expect(deleted).toEqual({ deleted: true, surveyId: surveys.alumni, name: expect.any(String) });
			expect((await harness().api(`/api/v1/management/surveys/${surveys.alumni}`)).status).toBe(404);
			const all = await harness().api<{ data: IDataObject[] }>('/api/v1/management/responses');
			expect(all.json.data.filter((response) => response.surveyId === surveys.alumni)).toEqual([]);
		});
	});

	describe('Archive, Restore, Validate (API v3)', () => {
		it('archive pauses a survey in progress and keeps it; restore brings it back', async () => {
			const [archived] = await run({ resource: 'survey', operation: 'archive', surveyId: survey(surveys.residency) });
			expect(archived).toEqual({ id: surveys.residency, status: 'paused', archivedAt: expect.any(String) });
			const [restored] = await run({ resource: 'survey', operation: 'restore', surveyId: survey(surveys.residency) });
			expect(restored).toEqual({ id: surveys.residency, status: 'paused', archivedAt: null });
			expect(await sent()).toEqual([
				`POST /api/v3/surveys/${surveys.residency}/archive`,
				`POST /api/v3/surveys/${surveys.residency}/restore`,
			]);
		});

		it('validate: Formbricks’ verdict, nothing created', async () => {
			const [verdict] = await run({ ...QUESTION_LIST, operation: 'validate' });
			expect(verdict).toEqual({ valid: true, operation: 'create', invalid_params: [], languages: [] });
			const [post] = (await harness().requests()).filter((request) => request.path === '/api/v3/surveys/validate');
			const body = post.body as { operation: string; data: IDataObject };
			expect(body.operation).toBe('create');
			expect(body.data).toMatchObject({ workspaceId, name: 'Residency feedback 2026', type: 'link' });
			expect((body.data.blocks as IDataObject[]).length).toBe(9);
			const listed = await harness().api<{ data: IDataObject[] }>('/api/v1/management/surveys');
			expect(listed.json.data.some((entry) => entry.name === 'Residency feedback 2026')).toBe(false);
		});

		it('on a server without API v3, the error names the Formbricks version that adds the operation', async () => {
			await harness().control('formbricks', 'PUT', { v3Surveys: false });
			const archive = await run({ resource: 'survey', operation: 'archive', surveyId: survey(surveys.residency) }).catch((caught: unknown) => caught);
			expect((archive as Error).message).toBe('Survey → Archive needs Formbricks 5.3 or later (its API v3), which this server does not have');
			const validate = await run({ ...QUESTION_LIST, operation: 'validate' }).catch((caught: unknown) => caught);
			expect((validate as Error).message).toBe('Survey → Validate needs Formbricks 5.1 or later (its API v3), which this server does not have');
		});
	});
});

describe('The workspace as each Formbricks names it', () => {
	it.each([
		['Formbricks 5 (workspaces)', {}, { workspaceId }],
		['a server from before the rename (environments)', { preWorkspaceRename: true }, { environmentId: 'cmstt2j402f7aw1vf1az6rzr1' }],
	])('%s: Create and the trigger’s webhook name it as the server expects, found from the key', async (_, options, field) => {
		const harness = await startFormbricksHarness(options);
		try {
			const { context } = executeContext({ parameters: QUESTION_LIST, credentials: harness.credentials() });
			const [[created]] = await new Survey().execute.call(context);
			expect(created.json.status).toBe('draft');
			const requests = await harness.requests();
			expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
				'GET /api/v1/management/me',
				'POST /api/v1/management/surveys',
			]);
			const body = requests[1].body as IDataObject;
			expect(body).toMatchObject(field);
			expect(Object.keys(body).filter((key) => key === 'workspaceId' || key === 'environmentId')).toEqual(Object.keys(field));

			await harness.control('requests', 'DELETE');
			const hook = hookContext({
				parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
				credentials: harness.credentials(),
				webhookUrl: 'http://127.0.0.1:5678/webhook/survey-hook/webhook',
				staticData: {},
			});
			await new SurveyTrigger().webhookMethods.default.create.call(hook.context);
			const [registration] = (await harness.requests()).filter((request) => request.method === 'POST');
			expect(registration.path).toBe('/api/v1/webhooks');
			expect(registration.body).toMatchObject(field);
			const { data: hooks } = await harness.control<{ data: IDataObject[] }>('webhooks');
			expect(hooks).toEqual([expect.objectContaining({ workspaceId })]);
			// The flavour held the bodies to the spec (under its own name for the workspace, before the rename).
			expect((await harness.control<{ violations: unknown[] }>('spec-violations')).violations).toEqual([]);
		} finally {
			await harness.stop();
		}
	});

	it('a Workspace ID given in the credential is sent as workspaceId, without asking the server', async () => {
		const harness = await startFormbricksHarness();
		try {
			const { context } = executeContext({ parameters: QUESTION_LIST, credentials: harness.credentials({ workspaceId }) });
			await new Survey().execute.call(context);
			const requests = await harness.requests();
			expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /api/v1/management/surveys']);
			expect((requests[0].body as IDataObject).workspaceId).toBe(workspaceId);
		} finally {
			await harness.stop();
		}
	});
});
