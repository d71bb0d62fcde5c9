import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { getSigningDocument } from '../../transport';
import { readDocumentId } from './documentId';
import { simplifyDocument, wantsSimplified } from './simplify';

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const document = await getSigningDocument(this, readDocumentId(this, itemIndex), itemIndex);
	return wantsSimplified(this, itemIndex) ? simplifyDocument(document) : document;
}
