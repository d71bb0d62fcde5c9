import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { add, addDescription } from './add';
import { get } from './get';
import { rejectOnBehalf, rejectOnBehalfDescription } from './rejectOnBehalf';
import { remove } from './remove';
import { update, updateDescription } from './update';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

/** The recipients of one document (Documenso): add, change, remove or read one, before they act. */
export const recipientOperations: Record<string, ItemOperation> = { add, get, rejectOnBehalf, remove, update };

const show = { resource: ['recipient'] };

export const recipientDescription: INodeProperties[] = [
	withPlatformOnly('Documenso', ['add', 'get', 'rejectOnBehalf', 'remove', 'update'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{
				name: 'Add',
				value: 'add',
				action: 'Add a recipient to a document',
				description: 'Add a recipient to a draft or pending document',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a recipient',
				description: 'Get a recipient with their signing status and link',
			},
			{
				name: 'Reject on Behalf',
				value: 'rejectOnBehalf',
				action: 'Reject a document on behalf of a recipient',
				description:
					'Record that a recipient declined outside Documenso: the pending document ends rejected (Documenso)',
			},
			{
				name: 'Remove',
				value: 'remove',
				action: 'Remove a recipient',
				description: 'Remove a recipient who has not acted, with their fields',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a recipient',
				description:
					'Change the name, e-mail address, role or signing order of a recipient who has not acted',
			},
		],
		default: 'add',
	}),
	...platformOnlyNotices('Documenso', 'recipient', { add: '', get: '', rejectOnBehalf: '', remove: '', update: '' }),
	{
		displayName: 'Recipient ID',
		name: 'recipientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 101',
		description: 'ID of the recipient: recipientId in Document → Get’s recipients',
		displayOptions: { show: { ...show, operation: ['get', 'rejectOnBehalf', 'remove', 'update'] } },
	},
	...addDescription,
	...rejectOnBehalfDescription,
	...updateDescription,
];
