import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { bookmarkAdapter } from '../../adapters';

const TAGS_DEFAULT_LIMIT = 50;

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const tags = await (await bookmarkAdapter(this, itemIndex)).listTags(this, itemIndex);
	const limit = readLimit(this, itemIndex, TAGS_DEFAULT_LIMIT);
	return limit === undefined ? tags : tags.slice(0, limit);
}

export const tagOperations: Record<string, ItemOperation> = { getMany };

export const tagDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tag'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many tags',
				description: 'Get the tags in use, by name, each with how many records carry it',
			},
		],
		default: 'getMany',
	},
	...returnAllAndLimit({ resource: ['tag'], operation: ['getMany'] }, TAGS_DEFAULT_LIMIT),
];
