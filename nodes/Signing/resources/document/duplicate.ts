import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { readDocumentId } from './documentId';
import { forOutput } from './signingUrls';

/** A new draft with the document's file, recipients and fields, to send with Document → Send. */
export async function duplicate(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Creating documents'));
	const documents = signingApis.capability(
		this,
		await signingAdapter(this, itemIndex),
		'documents',
		'Document → Duplicate',
		itemIndex,
	);
	return forOutput(
		this,
		await documents.duplicate(this, readDocumentId(this, itemIndex), itemIndex),
	);
}
