import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { getSigningDocument } from '../../transport';
import { readDocumentId } from './documentId';

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await getSigningDocument(this, readDocumentId(this, itemIndex), itemIndex);
}
