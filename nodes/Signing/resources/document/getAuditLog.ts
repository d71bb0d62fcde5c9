import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { signingAdapter } from '../../adapters';
import { readDocumentId } from './documentId';

const show = { resource: ['document'], operation: ['getAuditLog'] };

export const getAuditLogDescription: INodeProperties[] = [
	{
		displayName: 'Output',
		name: 'auditOutput',
		type: 'options',
		default: 'perEvent',
		options: [
			{
				name: 'One Item per Event',
				value: 'perEvent',
				description: 'Each audit event as its own item',
			},
			{
				name: 'One Item with All Events',
				value: 'single',
				description: 'One item with documentId and the list of events in "events"',
			},
		],
		displayOptions: { show },
	},
];

/** What happened to a document, oldest first: who opened, signed, rejected, when and from where. */
export async function getAuditLog(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | IDataObject[]> {
	const documentId = readDocumentId(this, itemIndex);
	const adapter = await signingAdapter(this, itemIndex);
	const data = await adapter.auditLog(this, documentId, itemIndex);
	const id = adapter.outputId(documentId);
	if (this.getNodeParameter('auditOutput', itemIndex, 'perEvent') === 'single')
		return { documentId: id, events: data };
	return data.map((event) => ({ documentId: id, ...event }));
}
