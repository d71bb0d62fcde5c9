import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { bookmarkRequest } from '../../transport';

const LISTS_DEFAULT_LIMIT = 50;

export async function getAllLists(ctx: Parameters<typeof bookmarkRequest>[0], itemIndex?: number) {
	const { lists } = await bookmarkRequest<{ lists: IDataObject[] }>(ctx, {
		method: 'GET',
		path: '/api/v1/lists',
		itemIndex,
	});
	return lists;
}

/** Lists for the "List" resource locator, filtered by the text typed in the picker. */
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

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const lists = await getAllLists(this, itemIndex);
	const limit = readLimit(this, itemIndex, LISTS_DEFAULT_LIMIT);
	return limit === undefined ? lists : lists.slice(0, limit);
}

export const listOperations: Record<string, ItemOperation> = { getMany };

export const listDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['list'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many lists',
				description: 'Get the workspace lists records can be filed in',
			},
		],
		default: 'getMany',
	},
	...returnAllAndLimit({ resource: ['list'], operation: ['getMany'] }, LISTS_DEFAULT_LIMIT),
];
