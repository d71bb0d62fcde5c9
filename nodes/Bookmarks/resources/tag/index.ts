import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { bookmarkAdapter } from '../../adapters';
import { tagManagementDescription, tagManagementOperations } from './manage';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

export { searchTags } from '../locators';

const TAGS_DEFAULT_LIMIT = 50;

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const tags = await (await bookmarkAdapter(this, itemIndex)).listTags(this, itemIndex);
	const limit = readLimit(this, itemIndex, TAGS_DEFAULT_LIMIT);
	return limit === undefined ? tags : tags.slice(0, limit);
}

export const tagOperations: Record<string, ItemOperation> = { ...tagManagementOperations, getMany };

export const tagDescription: INodeProperties[] = [
	withPlatformOnly('Karakeep', ['create', 'delete', 'get', 'rename'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tag'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a tag',
				description: 'Create a tag before any record carries it',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a tag',
				description: 'Delete a tag; the records that carried it stay, without it',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a tag',
				description: 'Get one tag with how many records carry it',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many tags',
				description: 'Get the tags in use, by name, each with how many records carry it',
			},
			{
				name: 'Rename',
				value: 'rename',
				action: 'Rename a tag',
				description: 'Rename a tag on every record that carries it',
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices('Karakeep', 'tag', { create: '', delete: '', get: '', rename: '' }),
	...tagManagementDescription,
	...returnAllAndLimit({ resource: ['tag'], operation: ['getMany'] }, TAGS_DEFAULT_LIMIT),
];
