import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readIntegerOption } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { redactionMemoryOf, redactRecords } from '../../../shared/privacy';
import type { PersonalDataMode } from '../../../shared/redaction';
import { answersModeOf, answersOption, shapeAnswers, surveyQuestions } from '../../answers';
import { answersGuide, extraPersonalFieldsOption, readExtraFields } from '../../personalData';
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
				description:
					'One flat record per applicant with each answer as its own field; personal data redacted by default',
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
			'What to do with e-mail addresses, phone numbers, names, addresses, dates of birth and identity numbers, found by field name, by what each question asks (its headline) and by value',
		displayOptions: { show },
		options: [
			{ name: 'Keep', value: 'keep', description: 'Export the answers as they are' },
			{
				name: 'Omit',
				value: 'omit',
				description:
					'Leave personal fields out; remove e-mails and phone numbers found in other answers',
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
			answersOption,
			extraPersonalFieldsOption,
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

	const responses = await fetchResponses(this, {
		surveyId,
		maxConcurrency: readIntegerOption(this, itemIndex, options, maxConcurrencyOption),
		itemIndex,
	});
	const finished = responses.filter(
		(response) => options.includeUnfinished === true || response.finished === true,
	);
	// Keyed as the Answers option asks once redacted; Both keeps its list as one "answers" field.
	const answersMode = answersModeOf(options.answers);
	// The questions say what each answer is (for redaction) and how to key it (for the Answers option).
	const questions =
		answersMode === 'id' && mode === 'keep'
			? []
			: await surveyQuestions(this, surveyId, itemIndex);
	const shaped = (answers: IDataObject): IDataObject =>
		answersMode === 'both'
			? { answers: shapeAnswers(answers, questions, 'both') as IDataObject[] }
			: flatten(shapeAnswers(answers, questions, answersMode) as IDataObject);
	// Redacted together, so that a name learnt from one record is replaced wherever it recurs in
	// the export; each answer is judged by its question's headline as well as its id, and nested
	// fields by their dotted paths, which are the names the flattened output shows, so Extra
	// Personal Fields match those (the headline in place of the id). Redacting before flattening
	// keeps a scrubbed key (`referees.alan@turing.org`) apart from the path around it.
	const answers = redactRecords(
		finished.map((response) => (response.data ?? {}) as IDataObject),
		mode,
		{ guide: answersGuide(questions), extraFields: readExtraFields(options), memory: redactionMemoryOf(this) },
	).map(shaped);
	return finished.map((response, index) => ({
		responseId: response.id,
		surveyId: response.surveyId,
		createdAt: response.createdAt,
		updatedAt: response.updatedAt,
		finished: response.finished,
		...answers[index],
	}));
}

export const applicantRecordsOperations: Record<string, ItemOperation> = { export: exportRecords };
