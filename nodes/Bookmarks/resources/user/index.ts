import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { bookmarkAdapter, bookmarkApis } from '../../adapters';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

/** User → Get Stats (Karakeep): the numbers of the API key's user, never who the user is. */
async function getStats(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const adapter = await bookmarkAdapter(this, itemIndex);
	return await bookmarkApis.capability(this, adapter, 'userStats', 'User → Get Stats', itemIndex).get(this, itemIndex);
}

export const userOperations: Record<string, ItemOperation> = { getStats };

export const userDescription: INodeProperties[] = [
	withPlatformOnly('Karakeep', ['getStats'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{
				name: 'Get Stats',
				value: 'getStats',
				action: 'Get user stats',
				description:
					'Get the numbers of the API key’s user: records by type, favourites, archived, tags, lists, highlights, storage used, top domains and tags',
			},
		],
		default: 'getStats',
	}),
	...platformOnlyNotices('Karakeep', 'user', { getStats: '' }),
];
