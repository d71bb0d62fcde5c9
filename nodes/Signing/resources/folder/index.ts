import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput, requiredId, requiredString } from '../../../shared/validation';
import type { FolderKind, SigningFolders } from '../../adapters';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

/*
 * Folders of documents and templates (Documenso). Documenso lists one folder at a time: Document
 * and Template Get Many and the template picker read the folders when asked (Filters › Folder).
 */

const show = { resource: ['folder'] };

const KIND_OPTIONS = [
	{ name: 'Documents', value: 'DOCUMENT' },
	{ name: 'Templates', value: 'TEMPLATE' },
];

export const folderDescription: INodeProperties[] = [
	withPlatformOnly('Documenso', ['create', 'delete', 'getMany', 'update'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a folder',
				description: 'Create a folder for documents or templates',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a folder',
				description:
					'Delete a folder with its subfolders; what was filed in them moves to the root',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many folders',
				description: 'List the folders of documents or templates, at every depth',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a folder',
				description: 'Rename or move a folder',
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices('Documenso', 'folder', { create: '', delete: '', getMany: '', update: '' }),
	{
		displayName: 'Folder ID',
		name: 'folderId',
		type: 'string',
		required: true,
		default: '',
		description: 'ID of the folder: the ID in Folder → Get Many’s results',
		displayOptions: { show: { ...show, operation: ['delete', 'update'] } },
	},
	{
		displayName: 'For',
		name: 'kind',
		type: 'options',
		default: 'DOCUMENT',
		options: KIND_OPTIONS,
		description: 'Whether the folder holds documents or templates',
		displayOptions: { show: { ...show, operation: ['create', 'getMany'] } },
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		displayOptions: { show: { ...show, operation: ['create'] } },
	},
	{
		displayName: 'Parent Folder ID',
		name: 'parentId',
		type: 'string',
		default: '',
		description: 'The folder to create it in; empty: at the top',
		displayOptions: { show: { ...show, operation: ['create'] } },
	},
	...returnAllAndLimit({ ...show, operation: ['getMany'] }, 50),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { ...show, operation: ['update'] } },
		options: [
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{
				displayName: 'Parent Folder ID',
				name: 'parentId',
				type: 'string',
				default: '',
				description:
					'The folder to move it into; "root" moves it to the top. Empty (e.g. an expression that gives nothing): it stays where it is.',
			},
		],
	},
];

async function foldersOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: string,
): Promise<SigningFolders> {
	return signingApis.capability(
		ctx,
		await signingAdapter(ctx, itemIndex),
		'folders',
		`Folder → ${operation}`,
		itemIndex,
	);
}

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const folders = await foldersOf(this, itemIndex, 'Get Many');
	const limit = readLimit(this, itemIndex, 50);
	const found = await folders.list(
		this,
		this.getNodeParameter('kind', itemIndex, 'DOCUMENT') as FolderKind,
		itemIndex,
	);
	return limit === undefined ? found : found.slice(0, limit);
}

async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Creating folders'));
	const folders = await foldersOf(this, itemIndex, 'Create');
	const parentId = String(this.getNodeParameter('parentId', itemIndex, '') ?? '').trim();
	return await folders.create(
		this,
		{
			name: requiredString(this, itemIndex, 'name', 'Name'),
			kind: this.getNodeParameter('kind', itemIndex, 'DOCUMENT') as FolderKind,
			parentId: parentId || undefined,
		},
		itemIndex,
	);
}

async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Changing folders'));
	const folders = await foldersOf(this, itemIndex, 'Update');
	const folderId = requiredId(this, itemIndex, 'folderId', 'Folder ID');
	const given = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const changes: { name?: string; parentId?: string | null } = {};
	if (typeof given.name === 'string') {
		if (given.name.trim() === '')
			throw invalidInput(this, itemIndex, 'Update Fields › Name', 'must not be empty');
		changes.name = given.name.trim();
	}
	if (typeof given.parentId === 'string') {
		// Empty is no change: only "root" moves the folder to the top.
		const parent = given.parentId.trim();
		if (parent !== '') changes.parentId = parent.toLowerCase() === 'root' ? null : parent;
	}
	if (Object.keys(changes).length === 0)
		throw invalidInput(this, itemIndex, 'Update Fields', 'add at least one field to change');
	return await folders.update(this, folderId, changes, itemIndex);
}

async function deleteFolder(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Deleting folders'));
	const folders = await foldersOf(this, itemIndex, 'Delete');
	return await folders.delete(
		this,
		requiredId(this, itemIndex, 'folderId', 'Folder ID'),
		itemIndex,
	);
}

export const folderOperations: Record<string, ItemOperation> = {
	create,
	delete: deleteFolder,
	getMany,
	update,
};
