import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { get, getDescription } from './get';
import { getMany, getManyDescription } from './getMany';

export const templateOperations: Record<string, ItemOperation> = { get, getMany };

export const templateDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a template',
				description:
					'Get one template with its recipients’ placeholders and prefillable fields (ID, label, type, dropdown options)',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many templates',
				description: 'List the stored templates, newest first, with their IDs and fields',
			},
		],
		default: 'getMany',
	},
	...getManyDescription,
	...getDescription,
];
