import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { personalDataOption } from '../../../shared/privacy';
import { answersOption } from '../../answers';
import { extraPersonalFieldsOption } from '../../personalData';
import { RESPONSES_DEFAULT_LIMIT } from '../../transport';
import { surveyLocator } from '../surveyLocator';
import { deleteConsentProperty, deleteOne } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { maxConcurrencyOption, offsetOption } from './options';
import { commitWatermark } from './watermark';

export { maxConcurrencyOption } from './options';

const dateFilter = (name: string, displayName: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'dateTime',
	default: '',
	description: `${description} (inclusive; a date alone is midnight UTC, a time without a zone is UTC)`,
});

const showGetMany = { resource: ['response'], operation: ['getMany'] };

export const responseDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['response'] } },
		options: [
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
					'Put at the end of a workflow that uses "Only New Since Last Run": the next run starts after what this run read',
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
		displayOptions: { show: { resource: ['response'], operation: ['get', 'delete'] } },
	},
	deleteConsentProperty,
	surveyLocator(showGetMany),
	...returnAllAndLimit(showGetMany, RESPONSES_DEFAULT_LIMIT),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: showGetMany },
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
		displayOptions: { show: { resource: ['response'], operation: ['get'] } },
		options: [answersOption, extraPersonalFieldsOption, personalDataOption],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showGetMany },
		options: [
			{
				displayName: 'Advance Mark',
				name: 'advanceMark',
				type: 'options',
				default: 'whenMarkedAsRead',
				description: 'When "Only New Since Last Run" moves on past what this run read',
				options: [
					{
						name: 'Right Away',
						value: 'rightAway',
						description:
							'As soon as this node has read; a run that fails later does not read them again',
					},
					{
						name: 'When Marked as Read',
						value: 'whenMarkedAsRead',
						description: 'Only when a Response → Mark as Read step of this run is reached',
					},
				],
			},
			answersOption,
			extraPersonalFieldsOption,
			maxConcurrencyOption,
			offsetOption,
			{
				displayName: 'Only New Since Last Run',
				name: 'onlyNew',
				type: 'boolean',
				default: false,
				description:
					'Whether to read only the responses created or changed since the last run that reached a Response → Mark as Read step (put one at the end of the workflow). All of them: Limit and Offset do not apply. Kept in the workflow’s static data; manual runs in the editor do not move it.',
			},
			personalDataOption,
		],
	},
];

/** Commits the marks this execution's "Only New Since Last Run" reads recorded (the first item does it). */
async function markAsRead(this: IExecuteFunctions): Promise<IDataObject> {
	return { marksCommitted: commitWatermark(this) };
}

export const responseOperations: Record<string, ItemOperation> = {
	delete: deleteOne,
	get,
	getMany,
	markAsRead,
};
