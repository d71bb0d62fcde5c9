import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';
import { signingRequest } from '../../transport';

export const getDescription: INodeProperties[] = [
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'doc_8f3a…',
		description: 'ID of the document, as returned by Generate From Template or sent in signing events',
		displayOptions: { show: { resource: ['document'], operation: ['get'] } },
	},
];

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const documentId = requiredId(this, itemIndex, 'documentId', 'Document ID');
	return await signingRequest(this, {
		method: 'GET',
		path: `/api/v2/documents/${encodeURIComponent(documentId)}`,
		itemIndex,
	});
}
