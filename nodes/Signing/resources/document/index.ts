import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { generateFromTemplate, generateFromTemplateDescription } from './generateFromTemplate';
import { get, getDescription } from './get';

export const documentOperations: Record<string, ItemOperation> = { generateFromTemplate, get };

export const documentDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Generate From Template',
				value: 'generateFromTemplate',
				action: 'Generate a document from a template',
				description: 'Create a document from a stored template and invite its recipients to sign',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a document',
				description: 'Get a document with its status and each recipient’s signing status',
			},
		],
		default: 'generateFromTemplate',
	},
	...generateFromTemplateDescription,
	...getDescription,
];
