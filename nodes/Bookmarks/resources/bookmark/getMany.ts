import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import { requiredString } from '../../../shared/validation';
import { bookmarkAdapter, type BookmarkFilters } from '../../adapters';
import { BOOKMARKS_DEFAULT_LIMIT, fetchBookmarks } from '../../transport';
import { listFilterLocator } from '../locators';
import { inVersion1 } from '../../../shared/simplify';
import { bookmarksPersonalDataOption } from '../../personalData';
import { shapeRecords, simplifyBookmarksParameter, simplifyOption } from './simplify';

const showSearch = { resource: ['bookmark'], operation: ['search'] };
const showGetMany = { resource: ['bookmark'], operation: ['getMany'] };
const showBoth = { resource: ['bookmark'], operation: ['search', 'getMany'] };

const filtersCollection: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
};

const archivedFilter: INodeProperties = {
	displayName: 'Archived',
	name: 'archived',
	type: 'boolean',
	default: true,
	description: 'Whether to return only archived records (on) or only records not archived (off)',
};

const favouritedFilter: INodeProperties = {
	displayName: 'Favourited',
	name: 'favourited',
	type: 'boolean',
	default: true,
	description: 'Whether to return only favourited records (on) or only records not favourited (off)',
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
	simplifyBookmarksParameter(['search', 'getMany']),
	// Two "filters" collections rather than one whose Query option has displayOptions: n8n 1.x
	// cannot resolve a collection option that depends on a parameter outside the collection
	// ("Max iterations reached"), which stops a workflow using Search from activating.
	{
		...filtersCollection,
		displayOptions: { show: showSearch },
		options: [archivedFilter, favouritedFilter, { ...listFilterLocator }, tagFilter],
	},
	{
		...filtersCollection,
		displayOptions: { show: showGetMany },
		options: [archivedFilter, favouritedFilter, { ...listFilterLocator }, queryFilter, tagFilter],
	},
	// Version 1's Simplify option; version 2 has the top-level switch above.
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { ...showBoth, ...inVersion1 } },
		options: [bookmarksPersonalDataOption, simplifyOption],
	},
];

/** A yes/no filter as the API takes it; absent means either. */
function booleanFilter(value: unknown): 'true' | 'false' | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return value === true || value === 'true' ? 'true' : 'false';
}

function readFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: string,
): BookmarkFilters {
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
		archived: booleanFilter(filters.archived),
		favourited: booleanFilter(filters.favourited),
	};
}

/** Search and Get Many differ only in whether the query is required. */
export async function searchRecords(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject[]> {
	const operation = this.getNodeParameter('operation', itemIndex) as string;
	const filters = readFilters(this, itemIndex, operation);
	const records = await fetchBookmarks(
		this,
		filters,
		readLimit(this, itemIndex, BOOKMARKS_DEFAULT_LIMIT),
		itemIndex,
	);
	const adapter = await bookmarkAdapter(this, itemIndex);
	return await shapeRecords(this, itemIndex, await adapter.withListIds(this, records, itemIndex));
}
