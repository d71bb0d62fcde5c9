import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { signingAdapter } from '../../adapters';
import { readDocumentId } from './documentId';
import { forOutput } from './signingUrls';
import { simplifyDocument, wantsSimplified } from './simplify';

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const adapter = await signingAdapter(this, itemIndex);
	const document = forOutput(this, await adapter.getDocument(this, readDocumentId(this, itemIndex), itemIndex));
	return wantsSimplified(this, itemIndex) ? simplifyDocument(document) : document;
}
