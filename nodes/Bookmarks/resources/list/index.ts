import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput, requiredId, requiredString } from '../../../shared/validation';
import { ifAlreadyGoneParameter, settleGone } from '../../../shared/alreadyGone';
import { consentTo } from '../../personalData';
import { bookmarkAdapter, type ListFields } from '../../adapters';
import { listLocator } from '../locators';

export { searchLists } from '../locators';

const LISTS_DEFAULT_LIMIT = 50;

const showCreate = { resource: ['list'], operation: ['create'] };
const showUpdate = { resource: ['list'], operation: ['update'] };

const iconField: INodeProperties = {
	displayName: 'Icon',
	name: 'icon',
	type: 'string',
	default: '',
	placeholder: '📚',
	description: 'An emoji shown beside the list’s name',
};
const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	description: 'What the list is for',
};

/** Only the fields the user set, trimmed; an empty name is left out (a list needs one). */
function listFields(fields: IDataObject): ListFields {
	const body: ListFields = {};
	const name = String(fields.name ?? '').trim();
	if (name) body.name = name;
	if (fields.icon !== undefined && String(fields.icon).trim() !== '')
		body.icon = String(fields.icon).trim();
	if (fields.description !== undefined && fields.description !== null) {
		body.description = String(fields.description);
	}
	return body;
}

async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const name = requiredString(this, itemIndex, 'name', 'Name');
	const extra = listFields(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject);
	const adapter = await bookmarkAdapter(this, itemIndex);
	return await adapter.createList(this, { name, ...extra }, itemIndex);
}

async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const listId = requiredId(this, itemIndex, 'listId', 'List');
	const body = listFields(this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject);
	if (Object.keys(body).length === 0) {
		throw invalidInput(
			this,
			itemIndex,
			'Update Fields',
			'add at least one of Name, Icon or Description',
		);
	}
	return await (await bookmarkAdapter(this, itemIndex)).updateList(this, listId, body, itemIndex);
}

async function deleteList(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Deleting lists'));
	const listId = requiredId(this, itemIndex, 'listId', 'List');
	const adapter = await bookmarkAdapter(this, itemIndex);
	const alreadyGone = settleGone(this, itemIndex, await adapter.deleteList(this, listId, itemIndex));
	return { deleted: true, id: listId, alreadyGone };
}

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const lists = await (await bookmarkAdapter(this, itemIndex)).listLists(this, itemIndex, true);
	const limit = readLimit(this, itemIndex, LISTS_DEFAULT_LIMIT);
	return limit === undefined ? lists : lists.slice(0, limit);
}

export const listOperations: Record<string, ItemOperation> = {
	create,
	delete: deleteList,
	getMany,
	update,
};

export const listDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['list'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a list',
				description: 'Create a list to file records in',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a list',
				description: 'Delete a list; its records stay, only their membership goes',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many lists',
				description:
					'Get the lists records can be filed in, with their descriptions and record counts',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a list',
				description: 'Rename a list or change its icon or description',
			},
		],
		default: 'getMany',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Shortlist',
		description: 'Name of the new list',
		displayOptions: { show: showCreate },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showCreate },
		options: [descriptionField, iconField],
	},
	listLocator(
		{ resource: ['list'], operation: ['update', 'delete'] },
		'The list to change or delete',
	),
	ifAlreadyGoneParameter({ resource: ['list'], operation: ['delete'] }, 'deleted'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showUpdate },
		description: 'Only the fields added here are changed',
		options: [
			descriptionField,
			iconField,
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'New name of the list',
			},
		],
	},
	...returnAllAndLimit({ resource: ['list'], operation: ['getMany'] }, LISTS_DEFAULT_LIMIT),
];
