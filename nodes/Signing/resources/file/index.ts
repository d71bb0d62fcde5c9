import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { requireToolConsent } from '../../../shared/toolConsent';
import { checkedInteger, invalidInput, requiredId, requiredString } from '../../../shared/validation';
import type { SigningDocumentFiles } from '../../adapters';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

/** The PDFs a document is made of (Documenso's envelope items): list, rename or reorder, remove. */

const show = { resource: ['file'] };

export const fileDescription: INodeProperties[] = [
	withPlatformOnly('Documenso', ['getMany', 'remove', 'update'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many files of a document',
				description: 'List the PDFs a document is made of, in order (Documenso)',
			},
			{
				name: 'Remove',
				value: 'remove',
				action: 'Remove a file from a document',
				description: 'Remove a PDF, with its fields, from a draft (Documenso)',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a file of a document',
				description: 'Rename a PDF of a document or move it to another place among its files (Documenso)',
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices('Documenso', 'file', { getMany: '', remove: '', update: '' }),
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1001',
		description: 'The document: its number (documentId) or envelope_… ID',
		displayOptions: { show },
	},
	{
		displayName: 'File ID',
		name: 'fileId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. envelope_item_…',
		description: 'ID of the file: fileId in Get Many’s results',
		displayOptions: { show: { ...show, operation: ['remove', 'update'] } },
	},
	{
		displayName: 'Update Fields',
		name: 'fileUpdateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { ...show, operation: ['update'] } },
		options: [
			{
				displayName: 'Position',
				name: 'order',
				type: 'number',
				default: 1,
				typeOptions: { minValue: 1 },
				description: 'Where the file goes among the document’s files: 1 is the first',
			},
			{
				displayName: 'Title',
				name: 'title',
				type: 'string',
				default: '',
				description: 'The file’s new name',
			},
		],
	},
];

async function filesOf(ctx: IExecuteFunctions, itemIndex: number, operation: string): Promise<SigningDocumentFiles> {
	return signingApis.capability(ctx, await signingAdapter(ctx, itemIndex), 'documentFiles', `File → ${operation}`, itemIndex);
}

const documentIdOf = (ctx: IExecuteFunctions, itemIndex: number) => requiredId(ctx, itemIndex, 'documentId', 'Document ID');
const fileIdOf = (ctx: IExecuteFunctions, itemIndex: number) => requiredString(ctx, itemIndex, 'fileId', 'File ID');

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const files = await filesOf(this, itemIndex, 'Get Many');
	return await files.list(this, documentIdOf(this, itemIndex), itemIndex);
}

async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Changing documents'));
	const files = await filesOf(this, itemIndex, 'Update');
	const documentId = documentIdOf(this, itemIndex);
	const fileId = fileIdOf(this, itemIndex);
	const given = this.getNodeParameter('fileUpdateFields', itemIndex, {}) as IDataObject;
	const changes: { title?: string; order?: number } = {};
	if (given.title !== undefined) {
		const title = String(given.title).trim();
		if (title === '') throw invalidInput(this, itemIndex, 'Update Fields › Title', 'must not be empty');
		changes.title = title;
	}
	if (given.order !== undefined) {
		changes.order = checkedInteger(this, itemIndex, given.order, 'Update Fields › Position', { min: 1 });
	}
	if (Object.keys(changes).length === 0)
		throw invalidInput(this, itemIndex, 'Update Fields', 'add at least one field to change');
	return await files.update(this, documentId, fileId, changes, itemIndex);
}

async function remove(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Changing documents'));
	const files = await filesOf(this, itemIndex, 'Remove');
	return await files.remove(this, documentIdOf(this, itemIndex), fileIdOf(this, itemIndex), itemIndex);
}

export const fileOperations: Record<string, ItemOperation> = { getMany, remove, update };
