import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput } from '../../../shared/validation';
import type { DocumentChanges } from '../../adapters';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { readDocumentId } from './documentId';
import { forOutput } from './signingUrls';

const text = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	description,
});

/** The changes Document → Update and Template → Update take. */
export function updateFieldsProperty(resource: 'document' | 'template'): INodeProperties {
	return {
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: [resource], operation: ['update'] } },
		options: [
			text('External ID', 'externalId', 'Your own ID for it, stored in Documenso'),
			text(
				'Folder ID',
				'folderId',
				'The folder to move it to (Folder → Get Many lists them); "root" moves it out of any folder. Empty (e.g. an expression that gives nothing): it stays where it is.',
			),
			...(resource === 'document'
				? [
						{
							...text('Message', 'message', 'Text of the invitation e-mail'),
							typeOptions: { rows: 4 },
						},
						text('Subject', 'subject', 'Subject of the invitation e-mail'),
					]
				: []),
			text('Title', 'title', 'The new title'),
		],
	};
}

/**
 * The changes given, checked. `root` for the folder means none; an empty folder (an expression
 * that resolved to nothing) is no change, so that it never moves the document by accident.
 */
export function readChanges(ctx: IExecuteFunctions, itemIndex: number): DocumentChanges {
	const given = ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const changes: DocumentChanges = {};
	for (const key of ['title', 'subject', 'message', 'externalId'] as const) {
		if (typeof given[key] === 'string') changes[key] = (given[key] as string).trim();
	}
	if (changes.title === '')
		throw invalidInput(ctx, itemIndex, 'Update Fields › Title', 'must not be empty');
	if (typeof given.folderId === 'string') {
		const folder = given.folderId.trim();
		if (folder !== '') changes.folderId = folder.toLowerCase() === 'root' ? null : folder;
	}
	if (Object.keys(changes).length === 0)
		throw invalidInput(ctx, itemIndex, 'Update Fields', 'add at least one field to change');
	return changes;
}

/** Changes a document's title, e-mail, external ID or folder. */
export async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Changing documents'));
	const documents = signingApis.capability(
		this,
		await signingAdapter(this, itemIndex),
		'documents',
		'Document → Update',
		itemIndex,
	);
	const documentId = readDocumentId(this, itemIndex);
	return forOutput(
		this,
		await documents.update(this, documentId, readChanges(this, itemIndex), itemIndex),
	);
}
