import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readIntegerOption, readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { requiredId } from '../../../shared/validation';
import {
	DEFAULT_MAX_CONCURRENCY,
	fetchResponses,
	RESPONSES_DEFAULT_LIMIT,
	surveyRequest,
} from '../../transport';
import { readSurveyId, surveyLocator } from '../surveyLocator';

const showGetMany = { resource: ['response'], operation: ['getMany'] };

export const maxConcurrencyOption: INodeProperties = {
	displayName: 'Max Concurrent Requests',
	name: 'maxConcurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 16 },
	default: DEFAULT_MAX_CONCURRENCY,
	description:
		'Pages fetched at the same time once the total is known. The service allows 100 requests a minute; rate-limited pages wait for Retry-After and are retried.',
};

const offsetOption: INodeProperties = {
	displayName: 'Offset',
	name: 'offset',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description: 'Number of responses to skip, counted from the oldest',
};

export const responseDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['response'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a response',
				description: 'Get one submission with its answers',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many responses',
				description: 'Get the responses of a survey, oldest first',
			},
		],
		default: 'getMany',
	},
	{
		displayName: 'Response ID',
		name: 'responseId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'resp_…',
		description: 'ID of the submission',
		displayOptions: { show: { resource: ['response'], operation: ['get'] } },
	},
	surveyLocator(showGetMany),
	...returnAllAndLimit(showGetMany, RESPONSES_DEFAULT_LIMIT),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showGetMany },
		options: [
			maxConcurrencyOption,
			offsetOption,
		],
	},
];

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const surveyId = readSurveyId(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return await fetchResponses(this, {
		surveyId,
		limit: readLimit(this, itemIndex, RESPONSES_DEFAULT_LIMIT),
		offset: readIntegerOption(this, itemIndex, options, offsetOption),
		maxConcurrency: readIntegerOption(this, itemIndex, options, maxConcurrencyOption),
		itemIndex,
	});
}

async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const responseId = requiredId(this, itemIndex, 'responseId', 'Response ID');
	const { data } = await surveyRequest<{ data: IDataObject }>(this, {
		method: 'GET',
		path: `/api/v1/management/responses/${encodeURIComponent(responseId)}`,
		itemIndex,
	});
	return data;
}

export const responseOperations: Record<string, ItemOperation> = { get, getMany };
