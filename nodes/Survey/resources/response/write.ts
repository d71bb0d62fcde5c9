import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { perRun } from '../../../shared/perRun';
import type { ToolConsent } from '../../../shared/toolConsent';
import { toolConsentProperty } from '../../../shared/toolConsent';
import { invalidInput, listEntryLabel } from '../../../shared/validation';
import type { Question } from '../../answers';
import { hiddenFieldIds, textKeys } from '../../answers';
import { getSurvey } from '../../transport';

/*
 * What Response → Create and Update write: answers keyed by question ID or, as the reading
 * operations key them with Answers "By Question Text", by the question's headline (a headline
 * that repeats taken as " (2)", " (3)"…), and hidden fields by their ID.
 */

/** An agent may not write responses, which start the survey's webhooks and e-mails, unless the author said so. */
export const RESPONSE_WRITE_CONSENT: ToolConsent = { name: 'allowWriteAsTool', action: 'Writing responses' };

const showWrites = { resource: ['response'], operation: ['create', 'update'] };

/** Shown right below the operation, after "Formbricks only." (shared/platformOnly.ts). */
export const RESPONSE_WRITE_NOTICE =
	'Formbricks handles a response written here as a respondent’s: it runs its response pipeline (webhooks, integrations, follow-up e-mails). A Survey Trigger on this survey starts for it too, unless its option "Ignore Responses Written by the Survey Node" is on.';

export const responseWriteProperties: INodeProperties[] = [
	{
		displayName: 'Answers Input',
		name: 'answersInput',
		type: 'options',
		default: 'fields',
		options: [
			{ name: 'Define Below', value: 'fields', description: 'One entry per question' },
			{
				name: 'From JSON',
				value: 'json',
				description: 'An object keyed by question ID or question text, e.g. a record read with Answers "By Question Text"',
			},
		],
		displayOptions: { show: showWrites },
	},
	{
		displayName: 'Answers',
		name: 'answerFields',
		type: 'fixedCollection',
		placeholder: 'Add Answer',
		typeOptions: { multipleValues: true },
		default: {},
		displayOptions: { show: { ...showWrites, answersInput: ['fields'] } },
		options: [
			{
				displayName: 'Answer',
				name: 'answer',
				values: [
					{
						displayName: 'Question Name or ID',
						name: 'question',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getSurveyQuestions', loadOptionsDependsOn: ['surveyId.value'] },
						default: '',
						description:
							'The question, by ID or by its text. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Answer',
						name: 'value',
						type: 'string',
						default: '',
						description:
							'Text; a number for ratings and NPS; choices of a multi-select separated by commas or as a JSON list; a JSON object for a matrix',
					},
				],
			},
		],
	},
	{
		displayName: 'Answers (JSON)',
		name: 'answersJson',
		type: 'json',
		default: '{}',
		description: 'Answers keyed by question ID or question text (hidden fields by their ID)',
		displayOptions: { show: { ...showWrites, answersInput: ['json'] } },
	},
	{
		displayName: 'Hidden Fields',
		name: 'hiddenFields',
		type: 'fixedCollection',
		placeholder: 'Add Hidden Field',
		typeOptions: { multipleValues: true },
		default: {},
		displayOptions: { show: showWrites },
		options: [
			{
				displayName: 'Hidden Field',
				name: 'field',
				values: [
					{
						displayName: 'Field Name or ID',
						name: 'id',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getSurveyHiddenFields', loadOptionsDependsOn: ['surveyId.value'] },
						default: '',
						description:
							'A hidden field of the survey. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	toolConsentProperty(
		RESPONSE_WRITE_CONSENT,
		showWrites,
		'Whether an AI agent may write responses when this node is its tool (they start the survey’s webhooks and e-mails). Off: as a tool, Create and Update refuse and nothing is sent.',
	),
];

const surveyOfRun = perRun<IDataObject>();

/** The survey, read once per run for all the items that write to it. */
async function surveyOf(ctx: IExecuteFunctions, surveyId: string, itemIndex: number): Promise<IDataObject> {
	return await surveyOfRun(ctx, surveyId, async () => await getSurvey(ctx, surveyId, itemIndex));
}

/** Question types whose answer is a number. */
const NUMBER_TYPES = new Set(['rating', 'nps']);
/** Question types whose answer is a list of texts. */
const LIST_TYPES = new Set(['multipleChoiceMulti', 'ranking', 'pictureSelection', 'fileUpload', 'contactInfo', 'address']);

/** An answer in the form the service stores for its question's type: a typed text becomes a number, a list or an object. */
function answerFor(question: Question | undefined, value: unknown, refuse: (problem: string) => Error): unknown {
	if (typeof value === 'boolean') return question?.type === 'consent' && value ? 'accepted' : String(value);
	if (typeof value !== 'string' || question === undefined) return value;
	const text = value.trim();
	if (NUMBER_TYPES.has(String(question.type))) {
		const number = Number(text);
		if (text === '' || Number.isNaN(number)) throw refuse(`"${value}" is not a number, which a ${String(question.type)} question takes`);
		return number;
	}
	if (LIST_TYPES.has(String(question.type)) || question.type === 'matrix') {
		if (text.startsWith('[') || text.startsWith('{')) {
			try {
				return JSON.parse(text) as unknown;
			} catch {
				throw refuse(`"${value}" is not valid JSON`);
			}
		}
		if (question.type === 'matrix') throw refuse('a matrix question takes a JSON object, {"row": "column"}');
		return text === '' ? [] : text.split(',').map((part) => part.trim());
	}
	return value;
}

/** The answers an item writes, keyed by question ID (and hidden field ID), checked before anything is sent. */
export async function answersToWrite(ctx: IExecuteFunctions, itemIndex: number, surveyId: string): Promise<IDataObject> {
	const survey = await surveyOf(ctx, surveyId, itemIndex);
	const questions = (survey.questions ?? []) as Question[];
	const byId = new Map(questions.map((question) => [question.id, question]));
	const byText = new Map([...textKeys(questions).keys].map(([id, text]) => [text.toLowerCase(), id]));
	const hidden = new Set(hiddenFieldIds(survey));
	const entries: Array<{ key: string; value: unknown; label: string }> = [];
	if (ctx.getNodeParameter('answersInput', itemIndex, 'fields') === 'json') {
		let json = ctx.getNodeParameter('answersJson', itemIndex, {}) as unknown;
		if (typeof json === 'string') {
			try {
				json = JSON.parse(json || '{}') as unknown;
			} catch {
				throw invalidInput(ctx, itemIndex, 'Answers (JSON)', 'is not valid JSON');
			}
		}
		if (json === null || typeof json !== 'object' || Array.isArray(json)) {
			throw invalidInput(ctx, itemIndex, 'Answers (JSON)', 'must be an object keyed by question ID or question text');
		}
		for (const [key, value] of Object.entries(json)) entries.push({ key, value, label: `Answers (JSON) › ${key}` });
	} else {
		const fields = ((ctx.getNodeParameter('answerFields', itemIndex, {}) as IDataObject).answer ?? []) as IDataObject[];
		fields.forEach((field, position) =>
			entries.push({ key: String(field.question ?? ''), value: field.value, label: listEntryLabel('Answers', 'answer', position) }),
		);
	}
	const data: IDataObject = {};
	for (const { key, value, label } of entries) {
		const trimmed = key.trim();
		const id = byId.has(trimmed) || hidden.has(trimmed) ? trimmed : byText.get(trimmed.toLowerCase());
		if (id === undefined) {
			throw invalidInput(ctx, itemIndex, label, `"${trimmed}" is no question of the survey (by ID or by text), nor one of its hidden fields`);
		}
		if (id in data) throw invalidInput(ctx, itemIndex, label, `the question "${trimmed}" is answered twice`);
		data[id] = answerFor(byId.get(id), value, (problem) => invalidInput(ctx, itemIndex, label, problem)) as IDataObject[keyof IDataObject];
	}
	const hiddenEntries = ((ctx.getNodeParameter('hiddenFields', itemIndex, {}) as IDataObject).field ?? []) as IDataObject[];
	hiddenEntries.forEach((entry, position) => {
		const id = String(entry.id ?? '').trim();
		const label = listEntryLabel('Hidden Fields', 'hidden field', position);
		if (!hidden.has(id)) throw invalidInput(ctx, itemIndex, label, `"${id}" is no hidden field of the survey`);
		if (id in data) throw invalidInput(ctx, itemIndex, label, `the hidden field "${id}" is given twice (here and in Answers, or in two rows)`);
		data[id] = String(entry.value ?? '');
	});
	return data;
}

/** The survey chosen in the node, for the pickers; empty until one is. */
async function pickedSurvey(ctx: ILoadOptionsFunctions): Promise<IDataObject | undefined> {
	const surveyId = String(ctx.getCurrentNodeParameter('surveyId', { extractValue: true }) ?? '').trim();
	return surveyId === '' ? undefined : await getSurvey(ctx, surveyId);
}

export async function getSurveyQuestions(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const survey = await pickedSurvey(this);
	return ((survey?.questions ?? []) as Question[]).map((question) => ({
		name: typeof question.headline === 'string' && question.headline.trim() !== '' ? question.headline : question.id,
		value: question.id,
		description: `${String(question.type ?? '')} · ${question.id}`,
	}));
}

export async function getSurveyHiddenFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const survey = await pickedSurvey(this);
	return survey ? hiddenFieldIds(survey).map((id) => ({ name: id, value: id })) : [];
}
