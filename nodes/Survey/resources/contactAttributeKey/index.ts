import type { INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { create } from './create';
import { getMany } from './getMany';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

const show = (operation: string) => ({ resource: ['contactAttributeKey'], operation: [operation] });

export const contactAttributeKeyDescription: INodeProperties[] = [
	withPlatformOnly('Formbricks', ['create', 'getMany'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contactAttributeKey'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a contact attribute key',
				description: 'Add an attribute contacts can have, e.g. cohort or company',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many contact attribute keys',
				description: 'List the attributes contacts of the workspace can have, the default ones (email, firstName…) included',
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices('Formbricks', 'contactAttributeKey', { create: '', getMany: '' }),
	{
		displayName: 'Key',
		name: 'key',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'cohort',
		description: 'How the attribute is named in contacts and in the API: lowercase letters, digits and underscores, starting with a letter',
		displayOptions: { show: show('create') },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: show('create') },
		options: [
			{
				displayName: 'Data Type',
				name: 'dataType',
				type: 'options',
				default: 'string',
				options: [
					{ name: 'Date', value: 'date' },
					{ name: 'Number', value: 'number' },
					{ name: 'Text', value: 'string' },
				],
				description: 'What the values are, for segments that compare them',
			},
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'The name Formbricks shows; the key in title case when empty (cohort_year: Cohort Year)',
			},
		],
	},
	...returnAllAndLimit(show('getMany'), 50),
];

export const contactAttributeKeyOperations: Record<string, ItemOperation> = { create, getMany };
