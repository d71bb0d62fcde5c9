import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import { requiredString } from '../../../shared/validation';
import type { BookmarkFilters } from '../../transport';
import { BOOKMARKS_DEFAULT_LIMIT, fetchBookmarks } from '../../transport';

const showSearch = { resource: ['bookmark'], operation: ['search'] };
const showGetMany = { resource: ['bookmark'], operation: ['getMany'] };
const showBoth = { resource: ['bookmark'], operation: ['search', 'getMany'] };

export const listLocator: INodeProperties = {
	displayName: 'List',
	name: 'list',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description: 'Only records in this list',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchLists', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'list_…',
		},
	],
};

export const getManyDescription: INodeProperties[] = [
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'residency portfolio',
		description:
			'Keyword or phrase to search for in titles, notes, URLs, descriptions and OCR transcripts',
		displayOptions: { show: showSearch },
	},
	...returnAllAndLimit(showBoth, BOOKMARKS_DEFAULT_LIMIT),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: showBoth },
		options: [
			{ ...listLocator },
			{
				displayName: 'Query',
				name: 'query',
				type: 'string',
				default: '',
				description: 'Keyword or phrase to search for',
				displayOptions: { show: showGetMany },
			},
			{
				displayName: 'Tag',
				name: 'tag',
				type: 'string',
				default: '',
				description: 'Only records with this tag',
			},
		],
	},
];

function readFilters(ctx: IExecuteFunctions, itemIndex: number, operation: string): BookmarkFilters {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const list = filters.list as { value?: string } | string | undefined;
	const listId = typeof list === 'string' ? list : list?.value;
	const q =
		operation === 'search'
			? requiredString(ctx, itemIndex, 'query', 'Query')
			: String(filters.query ?? '').trim();
	return {
		q: q || undefined,
		tags: String(filters.tag ?? '').trim() || undefined,
		listId: listId?.trim() || undefined,
	};
}

/** Search and Get Many differ only in whether the query is required. */
export async function searchRecords(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const operation = this.getNodeParameter('operation', itemIndex) as string;
	const filters = readFilters(this, itemIndex, operation);
	return await fetchBookmarks(this, filters, readLimit(this, itemIndex, BOOKMARKS_DEFAULT_LIMIT), itemIndex);
}
