import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { documentEnvelopeId, getEnvelope, legacyIdOf } from './documensoEnvelopes';
import { documensoTransport } from './documensoTransport';
import type { SigningDocumentFiles } from './types';

/**
 * A document's PDFs on Documenso: its envelope items (packages/trpc/server/envelope-router/
 * update-envelope-items.ts, delete-envelope-item.ts at v2.17.0). What may change is
 * getEnvelopeItemPermissions's (packages/lib/utils/envelope.ts), which Documenso enforces itself:
 * its refusal reaches the user as its own message.
 */
const { request } = documensoTransport;

const shapedFile = (item: IDataObject, envelope: IDataObject): IDataObject => ({
	fileId: item.id,
	title: item.title,
	order: item.order,
	documentId: legacyIdOf(envelope) ?? null,
	envelopeId: envelope.id,
});

async function envelopeWithFile(ctx: IExecuteFunctions, documentId: string, fileId: string | undefined, itemIndex: number) {
	const envelope = await getEnvelope(ctx, await documentEnvelopeId(ctx, documentId, itemIndex), itemIndex);
	const items = ((envelope.envelopeItems as IDataObject[] | undefined) ?? [])
		.slice()
		.sort((a, b) => Number(a.order) - Number(b.order));
	if (fileId !== undefined && !items.some((item) => item.id === fileId)) {
		throw new NodeOperationError(ctx.getNode(), `File ID: "${fileId}" is not a file of document ${documentId}`, {
			itemIndex,
			description: `File → Get Many lists the document's files (fileId). Nothing was changed.`,
		});
	}
	return { envelope, items };
}

export const documensoDocumentFiles: SigningDocumentFiles = {
	async list(ctx, documentId, itemIndex) {
		const { envelope, items } = await envelopeWithFile(ctx, documentId, undefined, itemIndex);
		return items.map((item) => shapedFile(item, envelope));
	},

	// POST /envelope/item/update-many: a title, or a place among the document's files (from 1).
	async update(ctx, documentId, fileId, changes, itemIndex) {
		const { envelope } = await envelopeWithFile(ctx, documentId, fileId, itemIndex);
		const { data } = await request<{ data: IDataObject[] }>(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/item/update-many',
			body: { envelopeId: String(envelope.id), data: [{ envelopeItemId: fileId, ...changes }] },
			itemIndex,
		});
		return shapedFile(data.find((item) => item.id === fileId) ?? { id: fileId, ...changes }, envelope);
	},

	// POST /envelope/item/delete: its fields go with it.
	async remove(ctx, documentId, fileId, itemIndex) {
		const { envelope, items } = await envelopeWithFile(ctx, documentId, fileId, itemIndex);
		if (items.length === 1) {
			throw new NodeOperationError(ctx.getNode(), `File ID: "${fileId}" is the only file of document ${documentId}`, {
				itemIndex,
				description: 'Documenso would keep a document with nothing to sign: delete the document instead, or add its new PDF first. Nothing was changed.',
			});
		}
		await request(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/item/delete',
			body: { envelopeId: String(envelope.id), envelopeItemId: fileId },
			itemIndex,
		});
		return { fileId, documentId: legacyIdOf(envelope) ?? null, envelopeId: envelope.id, removed: true };
	},
};
