import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import { listSurveys, withResponseCounts } from '../../transport';

const show = { resource: ['survey'], operation: ['getMany'] };

export const SURVEY_STATUSES = [
	{ name: 'Completed', value: 'completed' },
	{ name: 'Draft', value: 'draft' },
	{ name: 'In Progress', value: 'inProgress' },
	{ name: 'Paused', value: 'paused' },
	{ name: 'Scheduled', value: 'scheduled' },
];

export const getManyDescription: INodeProperties[] = [
	...returnAllAndLimit(show, 50),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'inProgress',
				options: SURVEY_STATUSES,
				description: 'Only surveys with this status',
			},
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				default: 'link',
				options: [
					{ name: 'App', value: 'app' },
					{ name: 'Link', value: 'link' },
				],
				description: 'Only surveys of this type',
			},
		],
	},
];

/** All surveys of the workspace, published and draft; filtered here as the API takes no filters. */
export async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const surveys = (await listSurveys(this, itemIndex)).filter(
		(survey) =>
			(!filters.status || survey.status === filters.status) &&
			(!filters.type || survey.type === filters.type),
	);
	const limit = readLimit(this, itemIndex, 50);
	// Counted only for the surveys returned, where the API lists no count (Formbricks).
	return await withResponseCounts(this, limit === undefined ? surveys : surveys.slice(0, limit), itemIndex);
}
