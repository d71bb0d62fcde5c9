import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parseMoment, workflowTimeZone } from '../../../shared/dates';
import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput } from '../../../shared/validation';
import { surveyCapability } from '../../transport';
import { readSurveyId } from '../surveyLocator';
import { dateTextField } from './dateText';
import { responsesOutput } from './output';
import { answersToWrite, RESPONSE_WRITE_CONSENT } from './write';

const show = { resource: ['response'], operation: ['create'] };

export const createResponseProperties: INodeProperties[] = [
	{
		displayName: 'Finished',
		name: 'finished',
		type: 'boolean',
		default: true,
		description: 'Whether the response is complete, as a respondent’s after the last question (Response Finished events and follow-up e-mails)',
		displayOptions: { show },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Contact User ID',
				name: 'contactUserId',
				type: 'string',
				default: '',
				description:
					'The user ID of the contact who answered: the response is linked to that contact (with its attributes). Formbricks stores it without a contact when no contact has this user ID.',
			},
			dateTextField(
				'createdAt',
				'Created At',
				'When the response was given, for answers collected elsewhere (now when empty; a date alone means its first instant)',
			),
			{
				displayName: 'Language',
				name: 'language',
				type: 'string',
				default: '',
				placeholder: 'de',
				description: 'The language code the answers are in, for surveys in several languages',
			},
			{
				displayName: 'Source',
				name: 'source',
				type: 'string',
				default: 'n8n',
				description: 'Where the response came from, as Formbricks shows it (its meta.source)',
			},
		],
	},
];

/** A new response to a survey, written as a respondent's (the survey's webhooks and e-mails run). */
export async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	requireToolConsent(this, itemIndex, RESPONSE_WRITE_CONSENT);
	const surveyId = readSurveyId(this, itemIndex);
	const writes = await surveyCapability(this, 'responseWrites', 'Response → Create', itemIndex);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const text = (name: string) => (String(fields[name] ?? '').trim() === '' ? undefined : String(fields[name]).trim());
	let createdAt: string | undefined;
	// Checked before the survey is read: a bad time fails before any request.
	if (text('createdAt') !== undefined) {
		const moment = parseMoment(fields.createdAt, workflowTimeZone(this));
		if (moment.kind === 'problem') throw invalidInput(this, itemIndex, 'Created At', moment.problem);
		createdAt = moment.iso;
	}
	const data = await answersToWrite(this, itemIndex, surveyId);
	const response = await writes.create(
		this,
		{
			surveyId,
			data,
			finished: this.getNodeParameter('finished', itemIndex, true) as boolean,
			contactUserId: text('contactUserId'),
			createdAt,
			language: text('language'),
			source: text('source'),
		},
		itemIndex,
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return await responsesOutput(this, [response], options, itemIndex);
}
