import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isObject } from '../../../shared/credentialTest';
import { checkedInteger, invalidInput } from '../../../shared/validation';
import { idProblem } from '../../adapters/formbricksDefinition';
import { surveyCapability } from '../../transport';
import { readSurveyId } from '../surveyLocator';
import { checkQuestions, parseJsonValue } from './definition';

const show = { resource: ['survey'], operation: ['update'] };

export const updateDescription: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Closing Date',
				name: 'closeOn',
				type: 'dateTime',
				default: '',
				description: 'When the survey stops taking responses (Formbricks completes it then)',
			},
			{
				displayName: 'Endings (JSON)',
				name: 'endings',
				type: 'json',
				default: '[]',
				description: 'The ending cards, in Formbricks’ schema (each with ID and type "endScreen" or "redirectToUrl")',
			},
			{
				displayName: 'Hidden Field IDs',
				name: 'hiddenFieldIds',
				type: 'string',
				default: '',
				placeholder: 'source, cohort',
				description: 'Comma-separated IDs of the hidden fields the survey link carries (they replace the current ones)',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
			},
			{
				displayName: 'Questions (JSON)',
				name: 'questions',
				type: 'json',
				default: '[]',
				description: 'All the survey’s questions, in Formbricks’ schema; they replace the current ones',
			},
			{
				displayName: 'Response Limit',
				name: 'responseLimit',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'How many responses complete the survey; 0 for no limit',
			},
			{
				displayName: 'Welcome Card (JSON)',
				name: 'welcomeCard',
				type: 'json',
				default: '{\n  "enabled": true,\n  "headline": { "default": "Welcome!" }\n}',
				description: 'The card before the first question, in Formbricks’ schema',
			},
		],
	},
];

/** The changes the Update Fields ask for, in Formbricks' schema, checked before anything is sent. */
function changesOf(ctx: IExecuteFunctions, itemIndex: number, fields: IDataObject): IDataObject {
	const changes: IDataObject = {};
	if (fields.name !== undefined) {
		const name = String(fields.name).trim();
		if (name === '') throw invalidInput(ctx, itemIndex, 'Name', 'must not be empty');
		changes.name = name;
	}
	if (fields.questions !== undefined) {
		const questions = parseJsonValue(ctx, itemIndex, fields.questions, 'Questions (JSON)');
		if (!Array.isArray(questions)) throw invalidInput(ctx, itemIndex, 'Questions (JSON)', 'must be a JSON list of questions');
		checkQuestions(ctx, itemIndex, { questions: questions as IDataObject[] }, 'Questions (JSON)', true);
		changes.questions = questions as IDataObject[];
	}
	if (fields.welcomeCard !== undefined) {
		const card = parseJsonValue(ctx, itemIndex, fields.welcomeCard, 'Welcome Card (JSON)');
		if (!isObject(card)) throw invalidInput(ctx, itemIndex, 'Welcome Card (JSON)', 'must be a JSON object');
		changes.welcomeCard = card;
	}
	if (fields.endings !== undefined) {
		const endings = parseJsonValue(ctx, itemIndex, fields.endings, 'Endings (JSON)');
		if (!Array.isArray(endings) || !endings.every(isObject)) {
			throw invalidInput(ctx, itemIndex, 'Endings (JSON)', 'must be a JSON list of ending cards');
		}
		changes.endings = endings as IDataObject[];
	}
	if (fields.hiddenFieldIds !== undefined) {
		const fieldIds = String(fields.hiddenFieldIds)
			.split(',')
			.map((field) => field.trim())
			.filter(Boolean);
		for (const field of fieldIds) {
			const problem = idProblem(field);
			if (problem) throw invalidInput(ctx, itemIndex, 'Hidden Field IDs', problem);
		}
		changes.hiddenFields = { enabled: fieldIds.length > 0, fieldIds };
	}
	if (fields.closeOn !== undefined) {
		const text = String(fields.closeOn).trim();
		const time = Date.parse(text);
		if (text !== '' && Number.isNaN(time)) throw invalidInput(ctx, itemIndex, 'Closing Date', `"${text}" is not a date`);
		changes.closeOn = text === '' ? null : new Date(time).toISOString();
	}
	if (fields.responseLimit !== undefined) {
		const limit = checkedInteger(ctx, itemIndex, fields.responseLimit, 'Response Limit', { min: 0 });
		changes.autoComplete = limit === 0 ? null : limit;
	}
	return changes;
}

/** Changes the fields given and keeps the others: the survey as it is afterwards. */
export async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const surveyId = readSurveyId(this, itemIndex);
	const writes = await surveyCapability(this, 'surveyWrites', 'Survey → Update', itemIndex);
	const changes = changesOf(this, itemIndex, this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject);
	if (Object.keys(changes).length === 0) throw invalidInput(this, itemIndex, 'Update Fields', 'add at least one field to change');
	return await writes.update(this, surveyId, changes, itemIndex);
}
