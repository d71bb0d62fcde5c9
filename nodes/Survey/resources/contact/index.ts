import type { INodeProperties } from 'n8n-workflow';

import { ifAlreadyGoneParameter } from '../../../shared/alreadyGone';
import { returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { personalDataOption } from '../../../shared/privacy';
import { contactConsentProperty } from './consent';
import { create } from './create';
import { createMany } from './createMany';
import { deleteContact } from './delete';
import { contactFields } from './fields';
import { get } from './get';
import { getMany } from './getMany';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

export { getContactAttributeKeys } from './fields';

const PERSONAL_DATA = {
	...personalDataOption,
	description:
		'What to do with the contacts’ attributes (e-mail, names, user ID, custom attributes). Without this option: kept as they are, but redacted when the node runs as an AI agent tool.',
};

/** Shown right below each operation, after "Formbricks only." (shared/platformOnly.ts). */
const ENTERPRISE_NOTICE = 'Formbricks keeps contacts with its Enterprise licence only; without it, Formbricks refuses with 403.';

export const contactDescription: INodeProperties[] = [
	withPlatformOnly('Formbricks', ['create', 'createMany', 'delete', 'get', 'getMany'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a contact',
				description: 'Add a person to the workspace, e.g. to send them a personal survey link',
			},
			{
				name: 'Create Many',
				value: 'createMany',
				action: 'Create or update many contacts',
				description:
					'Add the people of all input items at once (250 a request); a contact whose e-mail address the workspace has already is updated. One report per item.',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a contact',
				description: 'Remove a contact; Formbricks deletes the contact’s responses with it',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a contact',
				description: 'Get one contact with its attributes',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many contacts',
				description: 'List the contacts of the workspace with their attributes',
			},
		],
		default: 'create',
	}),
	...platformOnlyNotices('Formbricks', 'contact', { create: ENTERPRISE_NOTICE, createMany: ENTERPRISE_NOTICE, delete: ENTERPRISE_NOTICE, get: ENTERPRISE_NOTICE, getMany: ENTERPRISE_NOTICE }),
	{
		displayName: 'Contact ID',
		name: 'contactId',
		type: 'string',
		required: true,
		default: '',
		description: 'ID of the contact (Contact → Get Many lists them)',
		displayOptions: { show: { resource: ['contact'], operation: ['get', 'delete'] } },
	},
	...contactFields({ resource: ['contact'], operation: ['create', 'createMany'] }),
	contactConsentProperty,
	ifAlreadyGoneParameter({ resource: ['contact'], operation: ['delete'] }, 'deleted'),
	...returnAllAndLimit({ resource: ['contact'], operation: ['getMany'] }, 50),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: ['contact'], operation: ['getMany'] } },
		options: [
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'Only the contact with this e-mail address (any case). Formbricks lists all contacts; the node picks.',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { resource: ['contact'], operation: ['create'] } },
		options: [
			{
				displayName: 'Create Missing Attribute Keys',
				name: 'createMissingKeys',
				type: 'boolean',
				default: true,
				description:
					'Whether custom attribute keys the workspace does not have yet are created first (named after the key). Off: the node names the missing keys and sends nothing.',
			},
			PERSONAL_DATA,
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { resource: ['contact'], operation: ['createMany', 'get', 'getMany'] } },
		options: [PERSONAL_DATA],
	},
];

export const contactOperations: Record<string, ItemOperation> = {
	create,
	createMany,
	delete: deleteContact,
	get,
	getMany,
};
