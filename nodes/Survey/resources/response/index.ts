import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ifAlreadyGoneParameter } from '../../../shared/alreadyGone';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { inOneShapeVersions, inVersion1 } from '../../../shared/simplify';
import type { ItemOperation } from '../../../shared/execute';
import { personalDataOption } from '../../../shared/privacy';
import { answersOption } from '../../answers';
import { extraPersonalFieldsOption } from '../../personalData';
import { RESPONSES_DEFAULT_LIMIT } from '../../transport';
import { surveyLocator } from '../surveyLocator';
import { create, createResponseProperties } from './create';
import { deleteConsentProperty, deleteOne } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { hiddenWhileOnlyNew, onlyNewOptionsOfVersion1, onlyNewParameters } from './onlyNew';
import { maxConcurrencyOption, offsetOption } from './options';
import { simplifyResponsesParameter } from './simplify';
import { update, updateResponseProperties } from './update';
import { commitMarksBefore } from './watermark';
import { RESPONSE_WRITE_NOTICE, responseWriteProperties } from './write';
import { dateTextField } from './dateText';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

export { getSurveyHiddenFields, getSurveyQuestions } from './write';

export { maxConcurrencyOption } from './options';

/** A filter on a response time (inclusive; a date alone means its first instant). */
const dateFilter = (name: string, displayName: string, description: string): INodeProperties =>
	dateTextField(name, displayName, `${description} (inclusive; a date alone means its first instant)`);

const showGetMany = { resource: ['response'], operation: ['getMany'] };

export const responseDescription: INodeProperties[] = [
	withPlatformOnly('Formbricks', ['create', 'update'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['response'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a response',
				description:
					'Write a response to a survey, e.g. answers collected elsewhere; its webhooks and e-mails run as for a respondent’s',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a response',
				description: 'Erase one submission, e.g. on an applicant’s request to be forgotten',
			},
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
			{
				name: 'Mark as Read',
				value: 'markAsRead',
				action: 'Mark new responses as read',
				description:
					'Put at the end of a workflow that uses "Only New Since Last Run": the next run starts after what the Get Many steps before this one read',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a response',
				description: 'Add or change answers and hidden fields of a response, or mark it finished',
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices('Formbricks', 'response', { create: RESPONSE_WRITE_NOTICE, update: RESPONSE_WRITE_NOTICE }),
	{
		displayName: 'Response ID',
		name: 'responseId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'resp_…',
		description: 'ID of the submission',
		displayOptions: { show: { resource: ['response'], operation: ['get', 'delete', 'update'] } },
	},
	deleteConsentProperty,
	surveyLocator({ resource: ['response'], operation: ['create', 'update'] }),
	...responseWriteProperties,
	...createResponseProperties,
	...updateResponseProperties,
	ifAlreadyGoneParameter({ resource: ['response'], operation: ['delete'] }, 'deleted'),
	surveyLocator(showGetMany),
	...onlyNewParameters(showGetMany),
	...returnAllAndLimit(showGetMany, RESPONSES_DEFAULT_LIMIT).map((parameter) => ({
		...parameter,
		displayOptions: { ...parameter.displayOptions, hide: hiddenWhileOnlyNew },
	})),
	simplifyResponsesParameter,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: showGetMany, hide: hiddenWhileOnlyNew },
		options: [
			dateFilter('createdAfter', 'Created After', 'Only responses created at or after this time'),
			dateFilter(
				'createdBefore',
				'Created Before',
				'Only responses created at or before this time',
			),
			dateFilter('updatedAfter', 'Updated After', 'Only responses changed at or after this time'),
			dateFilter(
				'updatedBefore',
				'Updated Before',
				'Only responses changed at or before this time',
			),
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { resource: ['response'], operation: ['get', 'create', 'update'] } },
		options: [answersOption, extraPersonalFieldsOption, personalDataOption],
	},
	// Get Many's Options: one collection per layout, each sorted by name as n8n lists them.
	getManyOptions({ ...showGetMany, ...inVersion1 }, [...onlyNewOptionsOfVersion1, offsetOption]),
	getManyOptions({ ...showGetMany, ...inOneShapeVersions, onlyNew: [false] }, [offsetOption]),
	getManyOptions({ ...showGetMany, ...inOneShapeVersions, onlyNew: [true] }, []),
];

/** The options Get Many has in every layout, and those of one layout. */
function getManyOptions(show: IDisplayOptions['show'], ofLayout: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			answersOption,
			extraPersonalFieldsOption,
			maxConcurrencyOption,
			personalDataOption,
			...ofLayout,
		].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/**
 * Commits the marks this execution's "Only New Since Last Run" reads before this step recorded
 * (the first item does it).
 */
async function markAsRead(this: IExecuteFunctions): Promise<IDataObject> {
	return { marksCommitted: commitMarksBefore(this) };
}

export const responseOperations: Record<string, ItemOperation> = {
	create,
	delete: deleteOne,
	get,
	getMany,
	markAsRead,
	update,
};
