import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { consentTo } from '../../personalData';
import { signingRequest } from '../../transport';
import { documentPath, readDocumentId } from './documentId';
import { simplifyDocument, wantsSimplified } from './simplify';

/** Sends a draft's invitations; the document comes back PENDING. */
export async function send(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Sending a document’s invitations'));
	const documentId = readDocumentId(this, itemIndex);
	const document = await signingRequest(this, {
		method: 'POST',
		path: documentPath(documentId, '/send'),
		itemIndex,
		errorHints: {
			409: `Only a draft can be sent: document ${documentId} was sent already, or is completed, rejected or cancelled. To remind its signers, use Resend.`,
		},
	});
	return wantsSimplified(this, itemIndex) ? simplifyDocument(document) : document;
}
