import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';

/** The operations that act on one existing document. */
export const DOCUMENT_ID_OPERATIONS = [
	'cancel',
	'delete',
	'download',
	'duplicate',
	'get',
	'getAuditLog',
	'resend',
	'send',
	'update',
];

export const documentIdDescription: INodeProperties = {
	displayName: 'Document ID',
	name: 'documentId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'doc_… (Documenso: a number such as 1001)',
	description:
		'ID of the document: the documentId Generate From Template returns, the ID in Get Many’s results, or payload.ID in a Signing Trigger event',
	displayOptions: { show: { resource: ['document'], operation: DOCUMENT_ID_OPERATIONS } },
};

export const readDocumentId = (ctx: IExecuteFunctions, itemIndex: number) =>
	requiredId(ctx, itemIndex, 'documentId', 'Document ID');

