import { randomBytes } from 'crypto';

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isObject } from '../../../shared/credentialTest';
import { invalidInput, listEntryLabel } from '../../../shared/validation';
import { definitionProblems, idProblem } from '../../adapters/formbricksDefinition';

/*
 * A survey's definition for Create and Validate: Formbricks' own survey JSON, or a list of questions
 * made in the node, which becomes that JSON. Either is checked before anything is sent.
 */

const SIMPLE_TYPES = [
	{ name: 'Address', value: 'address' },
	{ name: 'Consent', value: 'consent', description: 'A checkbox to agree; its first choice line is the text beside it' },
	{ name: 'Contact Info', value: 'contactInfo' },
	{ name: 'Date', value: 'date' },
	{ name: 'Multiple Choice (Many Answers)', value: 'multipleChoiceMulti' },
	{ name: 'Multiple Choice (One Answer)', value: 'multipleChoiceSingle' },
	{ name: 'Net Promoter Score (0–10)', value: 'nps' },
	{ name: 'Open Text', value: 'openText' },
	{ name: 'Rating (1–5)', value: 'rating' },
];

/** The inputs of the list-answer types with the placeholders Formbricks' editor gives a new question (`getElementTypes`). */
const LIST_INPUTS: Record<string, Record<string, string>> = {
	contactInfo: { firstName: 'First Name', lastName: 'Last Name', email: 'Email', phone: 'Phone', company: 'Company' },
	address: {
		addressLine1: 'Address Line 1',
		addressLine2: 'Address Line 2',
		city: 'City',
		state: 'State',
		zip: 'Zip',
		country: 'Country',
	},
};

export function definitionProperties(show: Record<string, string[]>): INodeProperties[] {
	return [
		{
			displayName: 'Define By',
			name: 'defineBy',
			type: 'options',
			default: 'questions',
			options: [
				{ name: 'Question List', value: 'questions', description: 'Name, type and questions set here' },
				{ name: 'JSON Definition', value: 'json', description: 'A survey in Formbricks’ own schema (as its API and MCP server take it)' },
			],
			displayOptions: { show },
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'Residency feedback 2026',
			description: 'The survey’s name, as Formbricks lists it',
			displayOptions: { show: { ...show, defineBy: ['questions'] } },
		},
		{
			displayName: 'Survey Type',
			name: 'surveyType',
			type: 'options',
			default: 'link',
			options: [
				{ name: 'Link Survey', value: 'link', description: 'Answered through a link' },
				{ name: 'App Survey', value: 'app', description: 'Shown in a website or app that runs Formbricks’ SDK' },
			],
			displayOptions: { show: { ...show, defineBy: ['questions'] } },
		},
		{
			displayName: 'Questions',
			name: 'questions',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Question',
			default: {},
			displayOptions: { show: { ...show, defineBy: ['questions'] } },
			options: [
				{
					displayName: 'Question',
					name: 'question',
					values: [
						{
							displayName: 'Choices',
							name: 'choices',
							type: 'string',
							typeOptions: { rows: 3 },
							default: '',
							description: 'One choice per line (multiple choice: at least two). For Consent: the text beside the checkbox.',
						},
						{ displayName: 'Headline', name: 'headline', type: 'string', default: '', description: 'The question as respondents read it' },
						{
							displayName: 'Question ID',
							name: 'id',
							type: 'string',
							default: '',
							description: 'How responses key this question’s answer; made up when empty (letters, digits, - and _)',
						},
						{ displayName: 'Required', name: 'required', type: 'boolean', default: true, description: 'Whether it must be answered' },
						{ displayName: 'Type', name: 'type', type: 'options', default: 'openText', options: SIMPLE_TYPES },
					],
				},
			],
		},
		{
			displayName: 'Survey (JSON)',
			name: 'surveyJson',
			type: 'json',
			required: true,
			default: '{\n  "name": "",\n  "type": "link",\n  "questions": []\n}',
			description: 'The survey in Formbricks’ schema: name, type, questions (each with ID, type, headline, required…) or blocks, and optionally welcomeCard, endings, hiddenFields, languages',
			displayOptions: { show: { ...show, defineBy: ['json'] } },
		},
	];
}

/** A random id of Formbricks' own kind (a cuid2: a letter, then 23 lowercase letters and digits). */
export function newId(): string {
	const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
	const bytes = randomBytes(23);
	return `c${Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

const text = (value: string) => ({ default: value });

/** A JSON parameter's value: as given, or parsed from its text. */
export function parseJsonValue(ctx: IExecuteFunctions, itemIndex: number, value: unknown, label: string): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch (error) {
		throw invalidInput(ctx, itemIndex, label, `is not valid JSON (${(error as Error).message})`);
	}
}

/** A JSON parameter that must be an object, given as one or as its text. */
export function readJsonObject(ctx: IExecuteFunctions, itemIndex: number, parameter: string, label: string): IDataObject {
	const value = parseJsonValue(ctx, itemIndex, ctx.getNodeParameter(parameter, itemIndex), label);
	if (!isObject(value)) throw invalidInput(ctx, itemIndex, label, 'must be a JSON object');
	return value;
}

/** One question of the node's list as a Formbricks question (v1's `questions`, which Formbricks makes into blocks). */
function listQuestion(ctx: IExecuteFunctions, itemIndex: number, entry: IDataObject, position: number): IDataObject {
	const label = (field: string) => listEntryLabel('Questions', 'question', position, field);
	const type = String(entry.type ?? 'openText');
	const headline = String(entry.headline ?? '').trim();
	if (headline === '') throw invalidInput(ctx, itemIndex, label('Headline'), 'must not be empty');
	const givenId = String(entry.id ?? '').trim();
	const problem = givenId === '' ? undefined : idProblem(givenId);
	if (problem) throw invalidInput(ctx, itemIndex, label('Question ID'), problem);
	const lines = String(entry.choices ?? '')
		.split('\n')
		.map((line) => line.trim())
		.filter(Boolean);
	const required = entry.required !== false;
	const question: IDataObject = { id: givenId || newId(), type, headline: text(headline), required };
	switch (type) {
		case 'openText':
			Object.assign(question, { inputType: 'text', charLimit: { enabled: false } });
			break;
		case 'multipleChoiceSingle':
		case 'multipleChoiceMulti':
			if (lines.length < 2) throw invalidInput(ctx, itemIndex, label('Choices'), `a multiple choice question needs at least two, one per line (${lines.length} given)`);
			Object.assign(question, { choices: lines.map((line) => ({ id: newId(), label: text(line) })), shuffleOption: 'none' });
			break;
		case 'rating':
			Object.assign(question, { scale: 'number', range: 5 });
			break;
		case 'date':
			question.format = 'y-M-d';
			break;
		case 'consent':
			question.label = text(lines[0] ?? headline);
			break;
		case 'contactInfo':
		case 'address':
			for (const [input, placeholder] of Object.entries(LIST_INPUTS[type])) {
				question[input] = { show: true, required, placeholder: text(placeholder) };
			}
			break;
	}
	return question;
}

/**
 * The survey the parameters define, in Formbricks' schema, checked as Formbricks would check its
 * questions (unknown types, missing choices, repeated IDs: each named) before anything is sent.
 */
export function readDefinition(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	if (ctx.getNodeParameter('defineBy', itemIndex, 'questions') === 'json') {
		const definition = readJsonObject(ctx, itemIndex, 'surveyJson', 'Survey (JSON)');
		if (typeof definition.name !== 'string' || definition.name.trim() === '') {
			throw invalidInput(ctx, itemIndex, 'Survey (JSON)', 'has no "name"');
		}
		checkQuestions(ctx, itemIndex, definition, 'Survey (JSON)', true);
		return definition;
	}
	const name = String(ctx.getNodeParameter('name', itemIndex, '')).trim();
	if (name === '') throw invalidInput(ctx, itemIndex, 'Name', 'must not be empty');
	const entries = ((ctx.getNodeParameter('questions', itemIndex, {}) as IDataObject).question ?? []) as IDataObject[];
	if (entries.length === 0) throw invalidInput(ctx, itemIndex, 'Questions', 'add at least one question');
	const definition: IDataObject = {
		name,
		type: ctx.getNodeParameter('surveyType', itemIndex, 'link') as string,
		status: 'draft',
		questions: entries.map((entry, position) => listQuestion(ctx, itemIndex, entry, position)),
	};
	checkQuestions(ctx, itemIndex, definition, 'Questions', true);
	return definition;
}

/** Refuses a definition whose questions Formbricks would refuse, naming each question that is wrong. */
export function checkQuestions(
	ctx: IExecuteFunctions,
	itemIndex: number,
	definition: IDataObject,
	label: string,
	requireQuestions: boolean,
): void {
	const problems = definitionProblems(definition, requireQuestions);
	if (problems.length > 0) throw invalidInput(ctx, itemIndex, label, problems.join('; '));
}
