import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import type { RequestContext } from '../../shared/request';
import { bookmarkAdapter } from '../adapters';

/** The pickers' page size: one request per page of results as the user scrolls. */
const PICKER_PAGE_SIZE = 50;

/** Every list, without record counts (pickers, list names). */
export async function getAllLists(ctx: RequestContext, itemIndex?: number): Promise<IDataObject[]> {
	return await (await bookmarkAdapter(ctx, itemIndex)).listLists(ctx, itemIndex);
}

/** Lists for the "List" pickers, filtered by the text typed in the picker. */
export async function searchLists(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const lists = await getAllLists(this);
	const needle = filter?.toLowerCase() ?? '';
	return {
		results: lists
			.filter((list) => String(list.name).toLowerCase().includes(needle))
			.map((list) => ({
				name: `${list.icon ? `${String(list.icon)} ` : ''}${String(list.name)}`,
				value: String(list.id),
			})),
	};
}

/** Records for the "Bookmark" picker: newest first, searched by the text typed, page by page. */
export async function searchBookmarks(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const adapter = await bookmarkAdapter(this);
	const page = await adapter.recordPage(
		this,
		{ q: filter?.trim() || undefined },
		{ limit: PICKER_PAGE_SIZE, cursor: paginationToken ?? null },
	);
	return {
		results: page.records.map((record) => {
			const content = (record.content ?? {}) as IDataObject;
			return {
				name: String(record.title || content.url || record.id),
				value: String(record.id),
				url: typeof content.url === 'string' ? content.url : undefined,
			};
		}),
		paginationToken: page.nextCursor ?? undefined,
	};
}

/** Tags for the "Tag" pickers, by name, filtered by the text typed. */
export async function searchTags(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const tags = await (await bookmarkAdapter(this)).listTags(this);
	const needle = filter?.toLowerCase() ?? '';
	return {
		results: tags
			.filter((tag) => String(tag.name).toLowerCase().includes(needle))
			.map((tag) => ({ name: String(tag.name), value: String(tag.id) })),
	};
}

/** The tag an operation acts on, picked by name or given by ID. */
export function tagLocator(show: IDataObject, description: string): INodeProperties {
	return requiredPicker(show, description, {
		displayName: 'Tag',
		name: 'tagId',
		searchListMethod: 'searchTags',
		listPlaceholder: 'Select a tag...',
		idPlaceholder: 'tag ID',
		idHint: 'The ID of a tag, as Tag → Get Many returns it',
	});
}

/** A list picked from the lists or given by ID. */
export function listPicker(name: string, description: string): INodeProperties {
	return {
		displayName: 'List',
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a list...',
				typeOptions: { searchListMethod: 'searchLists', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'list_…',
				hint: 'The ID of a list, as List → Get Many returns it',
			},
		],
	};
}

/** An optional list filter (Get Many, Search, the trigger). */
export const listFilterLocator: INodeProperties = listPicker('list', 'Only records in this list');

/** The list an operation acts on. */
export function listLocator(show: IDataObject, description: string): INodeProperties {
	return {
		...listPicker('listId', description),
		required: true,
		displayOptions: { show: show as never },
	};
}

/** The record an operation acts on. */
export function recordLocator(show: IDataObject, description: string): INodeProperties {
	return requiredPicker(show, description, {
		displayName: 'Bookmark',
		name: 'recordId',
		searchListMethod: 'searchBookmarks',
		listPlaceholder: 'Select a bookmark...',
		idPlaceholder: 'bm_…',
		idHint: 'The ID of a record, as Get Many, Search or the trigger return it',
	});
}

/** A required resource locator: picked from a searchable list, or given by ID. */
function requiredPicker(
	show: IDataObject,
	description: string,
	picker: { displayName: string; name: string; searchListMethod: string; listPlaceholder: string; idPlaceholder: string; idHint: string },
): INodeProperties {
	return {
		displayName: picker.displayName,
		name: picker.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		displayOptions: { show: show as never },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: picker.listPlaceholder,
				typeOptions: { searchListMethod: picker.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: picker.idPlaceholder,
				hint: picker.idHint,
			},
		],
	};
}
