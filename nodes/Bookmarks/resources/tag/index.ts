import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import { TAG_SHAPE_VERSION } from '../../../shared/simplify';
import type { ItemOperation } from '../../../shared/execute';
import { bookmarkAdapter } from '../../adapters';
import { tagManagementDescription, tagManagementOperations } from './manage';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

export { searchTags } from '../locators';

const TAGS_DEFAULT_LIMIT = 50;

const showGetMany = { resource: ['tag'], operation: ['getMany'] };

/** A tag in the one shape every API gives it in: the documented API's fields. */
const simplifyTag = (tag: IDataObject): IDataObject => ({ id: tag.id, name: tag.name, bookmarkCount: tag.bookmarkCount ?? 0 });

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const tags = await (await bookmarkAdapter(this, itemIndex)).listTags(this, itemIndex);
	const limit = readLimit(this, itemIndex, TAGS_DEFAULT_LIMIT);
	const read = limit === undefined ? tags : tags.slice(0, limit);
	// Version 2 gave what the API gave; Simplify is there from version 3 on.
	const simplify = (this.getNode().typeVersion ?? 1) >= TAG_SHAPE_VERSION && this.getNodeParameter('simplify', itemIndex, true) === true;
	return simplify ? read.map(simplifyTag) : read;
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
	...returnAllAndLimit(showGetMany, TAGS_DEFAULT_LIMIT),
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return each tag as ID, name and bookmark count, the same on every API, instead of the raw data (Karakeep’s adds the counts by who attached the tag)',
		displayOptions: { show: { ...showGetMany, '@version': [TAG_SHAPE_VERSION] } },
	},
];
