import type { IDataObject } from 'n8n-workflow';

import { documentEnvelopeId, getEnvelope } from './documensoEnvelopes';
import { documensoTransport } from './documensoTransport';
import type { SigningAttachments, SigningFiles } from './types';

/**
 * A document's files and attachments on Documenso: the PDF routes of
 * apps/remix/server/api/download/download.ts (`/envelope/item/{id}/download`,
 * `/envelope/{id}/audit-log/download`, `/envelope/{id}/certificate/download`) and the attachment
 * routes (packages/trpc/server/envelope-router/attachment/).
 */
const { request, answer } = documensoTransport;

export const documensoFiles: SigningFiles = {
	async list(ctx, document, itemIndex) {
		const items = (document.envelopeItems as IDataObject[] | undefined) ?? [];
		if (items.length <= 1) return [];
		const envelope = await getEnvelope(ctx, String(document.envelopeId), itemIndex);
		return ((envelope.envelopeItems as IDataObject[] | undefined) ?? [])
			.slice()
			.sort((a, b) => Number(a.order) - Number(b.order))
			.map((item) => ({ id: String(item.id), title: String(item.title) }));
	},

	async download(ctx, file, { version, method, timeoutMs }, itemIndex) {
		return await answer<unknown>(ctx, {
			method,
			path: `/api/v2/envelope/item/${encodeURIComponent(file.id)}/download`,
			qs: { version },
			encoding: method === 'GET' ? 'stream' : undefined,
			timeoutMs,
			itemIndex,
		});
	},

	// The certificate exists once the document is completed (DOCUMENT_NOT_COMPLETE otherwise, 400).
	async report(ctx, document, report, { method, timeoutMs }, itemIndex) {
		const path = report === 'auditLog' ? 'audit-log' : 'certificate';
		return await answer<unknown>(ctx, {
			method,
			path: `/api/v2/envelope/${encodeURIComponent(String(document.envelopeId))}/${path}/download`,
			encoding: method === 'GET' ? 'stream' : undefined,
			timeoutMs,
			itemIndex,
		});
	},
};

export const documensoAttachments: SigningAttachments = {
	// POST /envelope/attachment/create (attachment/create-attachment.ts): a link, `type` "link".
	async add(ctx, documentId, link, itemIndex) {
		const envelopeId = await documentEnvelopeId(ctx, documentId, itemIndex);
		const { id } = await request<{ id: string }>(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/attachment/create',
			body: { envelopeId, data: { label: link.label, data: link.url } },
			itemIndex,
		});
		return { id, label: link.label, url: link.url, type: 'link', envelopeId };
	},

	// GET /envelope/attachment?envelopeId= (attachment/find-attachments.ts).
	async list(ctx, documentId, itemIndex) {
		const envelopeId = await documentEnvelopeId(ctx, documentId, itemIndex);
		const { data } = await request<{ data: IDataObject[] }>(ctx, {
			method: 'GET',
			path: '/api/v2/envelope/attachment',
			qs: { envelopeId },
			itemIndex,
		});
		return data.map((attachment) => ({ ...attachment, url: attachment.data, envelopeId }));
	},

	// POST /envelope/attachment/delete (attachment/delete-attachment.ts).
	async remove(ctx, attachmentId, itemIndex) {
		await request(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/attachment/delete',
			body: { id: attachmentId },
			itemIndex,
			errorHints: {
				404: `Check the Attachment ID: Attachment → Get Many lists a document's attachments`,
			},
		});
		return { id: attachmentId, removed: true };
	},
};
