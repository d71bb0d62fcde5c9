import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { signingAdapter } from '../../adapters';
import { consentTo } from '../../personalData';
import { readDocumentId } from './documentId';
import { forOutput } from './signingUrls';
import { simplifyDocument, wantsSimplified } from './simplify';

/** Sends a draft's invitations; the document comes back PENDING. */
export async function send(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Sending a document’s invitations'));
	const documentId = readDocumentId(this, itemIndex);
	const adapter = await signingAdapter(this, itemIndex);
	const document = forOutput(this, await adapter.send(this, documentId, itemIndex));
	return wantsSimplified(this, itemIndex) ? simplifyDocument(document) : document;
}
