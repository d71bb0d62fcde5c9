import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { add, addDescription } from './add';
import { get } from './get';
import { remove } from './remove';
import { update, updateDescription } from './update';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

/** The fields of one document (Documenso): add (at a text or a position), change, remove or read one. */
export const fieldOperations: Record<string, ItemOperation> = { add, get, remove, update };

const show = { resource: ['field'] };

export const fieldDescription: INodeProperties[] = [
	withPlatformOnly('Documenso', ['add', 'get', 'remove', 'update'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{
				name: 'Add',
				value: 'add',
				action: 'Add a field to a document',
				description:
					'Place a field for a recipient at a text of the PDF or at a position',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a field',
				description: 'Get a field with its place and whether it is filled in',
			},
			{
				name: 'Remove',
				value: 'remove',
				action: 'Remove a field',
				description: 'Remove a field not filled in yet',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a field',
				description:
					'Move or resize a field, change its label or whether it is required',
			},
		],
		default: 'add',
	}),
	...platformOnlyNotices('Documenso', 'field', { add: '', get: '', remove: '', update: '' }),
	{
		displayName: 'Field ID',
		name: 'fieldId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1001',
		description: 'ID of the field: fieldId in Field → Add’s output, or the ID in Document → Get’s fields (with Simplify off: the simplified document has no fields)',
		displayOptions: { show: { ...show, operation: ['get', 'remove', 'update'] } },
	},
	...addDescription,
	...updateDescription,
];
