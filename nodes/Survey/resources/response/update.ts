import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredId } from '../../../shared/validation';
import { surveyCapability } from '../../transport';
import { readSurveyId } from '../surveyLocator';
import { responsesOutput } from './output';
import { answersToWrite, RESPONSE_WRITE_CONSENT } from './write';

const show = { resource: ['response'], operation: ['update'] };

export const updateResponseProperties: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Finished',
				name: 'finished',
				type: 'boolean',
				default: true,
				description: 'Whether the response is complete (Response Finished events and follow-up e-mails follow when it is)',
			},
			{
				displayName: 'Language',
				name: 'language',
				type: 'string',
				default: '',
				placeholder: 'de',
				description: 'The language code the answers are in',
			},
		],
	},
];

/**
 * Adds or replaces the answers given and keeps the others. Formbricks replaces a response as a
 * whole, so the response is read first and written back with the change: an answer a respondent
 * saves between the two is overwritten.
 */
export async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	requireToolConsent(this, itemIndex, RESPONSE_WRITE_CONSENT);
	const surveyId = readSurveyId(this, itemIndex);
	const responseId = requiredId(this, itemIndex, 'responseId', 'Response ID');
	const writes = await surveyCapability(this, 'responseWrites', 'Response → Update', itemIndex);
	const data = await answersToWrite(this, itemIndex, surveyId);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const language = String(fields.language ?? '').trim();
	const response = await writes.update(
		this,
		responseId,
		{
			surveyId,
			data,
			...(typeof fields.finished === 'boolean' ? { finished: fields.finished } : {}),
			...(language === '' ? {} : { language }),
		},
		itemIndex,
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return await responsesOutput(this, [response], options, itemIndex);
}
