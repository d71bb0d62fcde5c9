import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput, isHttpUrl, requiredId, requiredString } from '../../../shared/validation';
import type { SigningAttachments } from '../../adapters';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

/** Links Documenso shows to a document's signers beside it (a policy, a brochure): add, list, remove. */

const show = { resource: ['attachment'] };

export const attachmentDescription: INodeProperties[] = [
	withPlatformOnly('Documenso', ['add', 'getMany', 'remove'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{
				name: 'Add',
				value: 'add',
				action: 'Add an attachment to a document',
				description: 'Add a link signers see beside the document',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many attachments',
				description: 'List a document’s links',
			},
			{
				name: 'Remove',
				value: 'remove',
				action: 'Remove an attachment',
				description: 'Remove a link from a document',
			},
		],
		default: 'add',
	}),
	...platformOnlyNotices('Documenso', 'attachment', { add: '', getMany: '', remove: '' }),
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1001',
		description: 'The document: its number (documentId) or envelope_… ID',
		displayOptions: { show: { ...show, operation: ['add', 'getMany'] } },
	},
	{
		displayName: 'Label',
		name: 'label',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Programme handbook',
		displayOptions: { show: { ...show, operation: ['add'] } },
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.org/handbook.pdf',
		description: 'An http or https link',
		displayOptions: { show: { ...show, operation: ['add'] } },
	},
	{
		displayName: 'Attachment ID',
		name: 'attachmentId',
		type: 'string',
		required: true,
		default: '',
		description: 'ID of the attachment: the ID in Get Many’s results',
		displayOptions: { show: { ...show, operation: ['remove'] } },
	},
];

async function attachmentsOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: string,
): Promise<SigningAttachments> {
	return signingApis.capability(
		ctx,
		await signingAdapter(ctx, itemIndex),
		'attachments',
		`Attachment → ${operation}`,
		itemIndex,
	);
}

async function add(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Changing documents'));
	const attachments = await attachmentsOf(this, itemIndex, 'Add');
	const url = requiredString(this, itemIndex, 'url', 'URL');
	if (!isHttpUrl(url)) throw invalidInput(this, itemIndex, 'URL', `"${url}" is not an http(s) URL`);
	const documentId = requiredId(this, itemIndex, 'documentId', 'Document ID');
	return await attachments.add(
		this,
		documentId,
		{ label: requiredString(this, itemIndex, 'label', 'Label'), url },
		itemIndex,
	);
}

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const attachments = await attachmentsOf(this, itemIndex, 'Get Many');
	return await attachments.list(
		this,
		requiredId(this, itemIndex, 'documentId', 'Document ID'),
		itemIndex,
	);
}

async function remove(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Changing documents'));
	const attachments = await attachmentsOf(this, itemIndex, 'Remove');
	return await attachments.remove(
		this,
		requiredId(this, itemIndex, 'attachmentId', 'Attachment ID'),
		itemIndex,
	);
}

export const attachmentOperations: Record<string, ItemOperation> = { add, getMany, remove };
