import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { updateFieldsProperty } from '../document/update';
import { createFromFile, createFromFileDescription } from './createFromFile';
import { deleteTemplate } from './delete';
import { duplicate } from './duplicate';
import { get, getDescription } from './get';
import { getMany, getManyDescription } from './getMany';
import { templateLocator } from './locator';
import { update } from './update';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

export const templateOperations: Record<string, ItemOperation> = {
	createFromFile,
	delete: deleteTemplate,
	duplicate,
	get,
	getMany,
	update,
};

export const templateDescription: INodeProperties[] = [
	withPlatformOnly('Documenso', ['createFromFile', 'delete', 'duplicate', 'update'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{
				name: 'Create From File',
				value: 'createFromFile',
				action: 'Create a template from a file',
				description: 'Upload a PDF as a template, its recipients as slots with their fields',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a template',
				description: 'Delete a template; documents made from it stay',
			},
			{
				name: 'Duplicate',
				value: 'duplicate',
				action: 'Duplicate a template',
				description: 'Copy a template with its slots and fields',
			},
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
			{
				name: 'Update',
				value: 'update',
				action: 'Update a template',
				description: 'Change a template’s title, external ID or folder',
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices('Documenso', 'template', { createFromFile: '', delete: '', duplicate: '', update: '' }),
	...getManyDescription,
	...getDescription,
	templateLocator({ resource: ['template'], operation: ['delete', 'duplicate', 'update'] }),
	...createFromFileDescription,
	updateFieldsProperty('template'),
];
