import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { readDocumentId } from './documentId';

/** Shown right below the operation, after "Documenso only." (shared/platformOnly.ts). */
export const DELETE_NOTICE =
	'What Documenso does: a draft is deleted; a pending document is deleted and everyone it was sent to is e-mailed that it was cancelled; a completed, rejected or cancelled document is only hidden from lists, and stays readable by its ID. The Signing Trigger gets document.cancelled either way.';

/** Deletes a document as Documenso does (see the notice); the output says whether it is gone or hidden. */
export async function deleteDocument(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Deleting documents'));
	const documents = signingApis.capability(
		this,
		await signingAdapter(this, itemIndex),
		'documents',
		'Document → Delete',
		itemIndex,
	);
	return await documents.delete(this, readDocumentId(this, itemIndex), itemIndex);
}
