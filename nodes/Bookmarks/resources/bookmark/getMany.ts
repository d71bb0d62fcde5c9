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

const filtersCollection: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
};

const queryFilter: INodeProperties = {
	displayName: 'Query',
	name: 'query',
	type: 'string',
	default: '',
	description: 'Keyword or phrase to search for',
};

const tagFilter: INodeProperties = {
	displayName: 'Tag',
	name: 'tag',
	type: 'string',
	default: '',
	description: 'Only records with this tag',
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
	// Two "filters" collections rather than one whose Query option has displayOptions: n8n 1.x
	// cannot resolve a collection option that depends on a parameter outside the collection
	// ("Max iterations reached"), which stops a workflow using Search from activating.
	{
		...filtersCollection,
		displayOptions: { show: showSearch },
		options: [{ ...listLocator }, tagFilter],
	},
	{
		...filtersCollection,
		displayOptions: { show: showGetMany },
		options: [{ ...listLocator }, queryFilter, tagFilter],
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
