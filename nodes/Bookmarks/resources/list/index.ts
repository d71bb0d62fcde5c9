import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput, requiredId, requiredString } from '../../../shared/validation';
import { ifAlreadyGoneParameter, settleGone } from '../../../shared/alreadyGone';
import { consentTo } from '../../personalData';
import { type BookmarkAdapter, bookmarkAdapter, bookmarkApis, type ListFields, type ListKindFields } from '../../adapters';
import { listLocator, listPicker } from '../locators';
import { changeReadBack } from '../readBack';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

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

const smartQueryField: INodeProperties = {
	displayName: 'Smart List Query',
	name: 'query',
	type: 'string',
	default: '',
	placeholder: '#to-review is:fav',
	description:
		'Makes it a smart list (Karakeep): the records matching this search, in Karakeep’s query language. Qualifiers only (#tag, is:fav, is:archived, list:name and the like), no plain words. Records cannot be added to a smart list by hand.',
};
const parentField = (description: string): INodeProperties => ({
	...listPicker('parentId', description),
	displayName: 'Parent List',
});

/** What only some APIs have in a list (Karakeep): a smart list's query, the list it is nested in. */
function listKindFields(fields: IDataObject, update: boolean): ListKindFields {
	const kind: ListKindFields = {};
	const query = String(fields.query ?? '').trim();
	if (query) kind.query = query;
	if (fields.parentId !== undefined) {
		const parent = fields.parentId as { value?: string } | string | null;
		const parentId = (typeof parent === 'string' ? parent : parent?.value)?.trim() ?? '';
		// An emptied Parent List moves the list to the top; on Create it is simply no parent.
		if (parentId) kind.parentId = parentId;
		else if (update) kind.parentId = null;
	}
	return kind;
}

const listKinds = (ctx: IExecuteFunctions, adapter: BookmarkAdapter, operation: string, itemIndex: number) =>
	bookmarkApis.capability(ctx, adapter, 'listKinds', operation, itemIndex);

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
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const fields = { name, ...listFields(additional) };
	const kind = listKindFields(additional, false);
	const adapter = await bookmarkAdapter(this, itemIndex);
	if (Object.keys(kind).length === 0) return await adapter.createList(this, fields, itemIndex);
	const kinds = listKinds(this, adapter, 'List → Create with a Smart List Query or Parent List', itemIndex);
	return await kinds.create(this, { ...fields, ...kind }, itemIndex);
}

async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const listId = requiredId(this, itemIndex, 'listId', 'List');
	const updateFields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body = listFields(updateFields);
	const kind = listKindFields(updateFields, true);
	if (Object.keys(body).length === 0 && Object.keys(kind).length === 0) {
		throw invalidInput(
			this,
			itemIndex,
			'Update Fields',
			'add at least one of Name, Icon, Description, Smart List Query or Parent List',
		);
	}
	const adapter = await bookmarkAdapter(this, itemIndex);
	let change = async () => await adapter.updateList(this, listId, body, itemIndex);
	if (Object.keys(kind).length > 0) {
		const kinds = listKinds(this, adapter, 'List → Update of a Smart List Query or Parent List', itemIndex);
		change = async () => await kinds.update(this, listId, { ...body, ...kind }, itemIndex);
	}
	return await changeReadBack(this, itemIndex, `List ${listId}`, 'List → Get', change);
}

/** One list with its record count (Karakeep). */
async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const listId = requiredId(this, itemIndex, 'listId', 'List');
	const adapter = await bookmarkAdapter(this, itemIndex);
	return await listKinds(this, adapter, 'List → Get', itemIndex).get(this, listId, itemIndex);
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
	get,
	getMany,
	update,
};

export const listDescription: INodeProperties[] = [
	withPlatformOnly('Karakeep', ['get'], {
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
				name: 'Get',
				value: 'get',
				action: 'Get a list',
				description: 'Get one list with its record count, query (smart lists) and parent',
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
				description: 'Rename a list, change its icon or description; on Karakeep also its query or parent',
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices('Karakeep', 'list', { get: '' }),
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
		options: [
			descriptionField,
			iconField,
			parentField('The list this one is nested in (Karakeep)'),
			smartQueryField,
		],
	},
	listLocator(
		{ resource: ['list'], operation: ['get', 'update', 'delete'] },
		'The list to read, change or delete',
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
			parentField(
				'The list this one is to be nested in (Karakeep); left empty, it moves to the top level',
			),
			{ ...smartQueryField, description: 'A smart list’s new query (Karakeep; qualifiers only, no plain words)' },
		],
	},
	...returnAllAndLimit({ resource: ['list'], operation: ['getMany'] }, LISTS_DEFAULT_LIMIT),
];
