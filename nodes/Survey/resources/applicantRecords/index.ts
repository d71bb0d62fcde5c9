import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PersonalDataMode } from '../../../shared/redaction';
import { Redactor } from '../../../shared/redaction';
import { readIntegerOption } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { fetchResponses } from '../../transport';
import { maxConcurrencyOption } from '../response';
import { readSurveyId, surveyLocator } from '../surveyLocator';

const show = { resource: ['applicantRecords'], operation: ['export'] };

export const applicantRecordsDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['applicantRecords'] } },
		options: [
			{
				name: 'Export',
				value: 'export',
				action: 'Export applicant records',
				description: 'One flat record per applicant with each answer as its own field; personal data redacted by default',
			},
		],
		default: 'export',
	},
	surveyLocator(show),
	{
		displayName: 'Personal Data',
		name: 'personalData',
		type: 'options',
		default: 'redact',
		description:
			'What to do with e-mail addresses, phone numbers, names, addresses and dates of birth, found by field name and by value',
		displayOptions: { show },
		options: [
			{ name: 'Keep', value: 'keep', description: 'Export the answers as they are' },
			{
				name: 'Omit',
				value: 'omit',
				description: 'Leave personal fields out; remove e-mails and phone numbers found in other answers',
			},
			{
				name: 'Redact',
				value: 'redact',
				description:
					'Replace personal data with stable pseudonyms (EMAIL_1, NAME_2…): the same value gets the same token within an export',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Extra Personal Fields',
				name: 'extraPersonalFields',
				type: 'string',
				default: '',
				placeholder: 'passportNumber, employer',
				description: 'Comma-separated answer field names to treat as personal data too',
			},
			{
				displayName: 'Include Unfinished',
				name: 'includeUnfinished',
				type: 'boolean',
				default: false,
				description: 'Whether to include responses that were started but not submitted',
			},
			maxConcurrencyOption,
		],
	},
];

/** Nested answers become dotted fields, so each answer is one field of a flat record. */
function flatten(value: IDataObject, prefix = '', into: IDataObject = {}): IDataObject {
	for (const [key, entry] of Object.entries(value)) {
		const field = prefix ? `${prefix}.${key}` : key;
		if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
			flatten(entry as IDataObject, field, into);
		} else {
			into[field] = entry;
		}
	}
	return into;
}

async function exportRecords(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const surveyId = readSurveyId(this, itemIndex);
	const mode = this.getNodeParameter('personalData', itemIndex, 'redact') as PersonalDataMode;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const extraFields = String(options.extraPersonalFields ?? '').split(',');
	const redactor = new Redactor(mode, extraFields);

	const responses = await fetchResponses(this, {
		surveyId,
		maxConcurrency: readIntegerOption(this, itemIndex, options, maxConcurrencyOption),
		itemIndex,
	});
	return responses
		.filter((response) => options.includeUnfinished === true || response.finished === true)
		.map((response) => ({
			responseId: response.id,
			surveyId: response.surveyId,
			createdAt: response.createdAt,
			updatedAt: response.updatedAt,
			finished: response.finished,
			// Redacted before flattening so that nested fields are judged by their own names too.
			...flatten(redactor.apply((response.data ?? {}) as IDataObject)),
		}));
}

export const applicantRecordsOperations: Record<string, ItemOperation> = { export: exportRecords };
