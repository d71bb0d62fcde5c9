/**
 * Changing, copying and filing envelopes (packages/trpc/server/envelope-router/update-envelope.ts,
 * duplicate-envelope.ts) and folders (packages/trpc/server/folder-router/router.ts,
 * packages/lib/server-only/folder/*.ts; tag v2.17.0). A folder deleted takes its subfolders
 * (onDelete Cascade) and leaves what was filed in them in the root (onDelete SetNull,
 * packages/prisma/schema.prisma).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { textPdf } from '../signingPdf';
import { appError, downloadError } from './errors';
import { envelopeManyView, type Envelope, type Folder, prefixedId, recipientToken } from './model';
import { documensoRoute } from './routes';
import { issue, OPERATIONS } from './sdk';
import type { DocumensoStore } from './store';

const now = () => new Date().toISOString();

export function registerManageRoutes(app: FastifyInstance, store: DocumensoStore): void {
	const route = documensoRoute(app);
	const envelopeOf = (procedure: string, envelopeId: string): Envelope => {
		if (!/^envelope_.{2,}$/.test(envelopeId))
			throw appError(procedure, 'INVALID_BODY', 'Invalid envelope ID');
		const envelope = store.findEnvelope(envelopeId);
		if (!envelope) throw appError(procedure, 'NOT_FOUND', 'Envelope not found');
		return envelope;
	};
	const folderOf = (procedure: string, folderId: string): Folder => {
		const folder = store.folders.get(folderId);
		if (!folder) throw appError(procedure, 'NOT_FOUND', 'Folder not found');
		return folder;
	};
	const folderView = (folder: Folder) => ({ ...folder, userId: 1, teamId: 1 });

	route<{
		envelopeId: string;
		data?: { title?: string; externalId?: string | null; folderId?: string | null };
		meta?: { subject?: string; message?: string };
	}>('updateEnvelope', (input) => {
		const procedure = OPERATIONS.updateEnvelope.procedure;
		const envelope = envelopeOf(procedure, input.envelopeId);
		const { data = {}, meta = {} } = input;
		if (data.folderId) {
			const folder = folderOf(procedure, data.folderId);
			if (folder.type !== envelope.type)
				throw appError(
					procedure,
					'INVALID_REQUEST',
					'Folder type does not match the envelope type',
				);
		}
		if (data.title !== undefined) envelope.title = data.title;
		if (data.externalId !== undefined) envelope.externalId = data.externalId;
		if (data.folderId !== undefined) envelope.folderId = data.folderId;
		if (meta.subject !== undefined) envelope.meta.subject = meta.subject;
		if (meta.message !== undefined) envelope.meta.message = meta.message;
		envelope.updatedAt = now();
		// updateEnvelope returns the envelope row: the list row's fields (the SDK's schema reads those it names).
		return envelopeManyView(envelope);
	});

	/** duplicateEnvelope: a new DRAFT with the same items, recipients (new tokens) and fields, titled "… (copy)". */
	route<{ envelopeId: string; includeRecipients?: boolean; includeFields?: boolean }>(
		'duplicateEnvelope',
		(input, request: FastifyRequest) => {
			const procedure = OPERATIONS.duplicateEnvelope.procedure;
			const source = envelopeOf(procedure, input.envelopeId);
			const copy = store.createUpload(
				{
					type: source.type,
					title: `${source.title} (copy)`,
					folderId: source.folderId ?? undefined,
					meta: {
						subject: source.meta.subject ?? undefined,
						message: source.meta.message ?? undefined,
						redirectUrl: source.meta.redirectUrl ?? undefined,
						distributionMethod: source.meta.distributionMethod,
						signingOrder: source.meta.signingOrder,
					},
					recipients:
						input.includeRecipients === false
							? []
							: source.recipients.map(({ email, name, role, signingOrder }) => ({
									email,
									name,
									role,
									signingOrder: signingOrder ?? undefined,
								})),
				},
				(source.items ?? [{ title: source.item.title, pdf: Buffer.alloc(0) }]).map((item) => ({
					title: item.title,
					pdf: item.pdf ?? Buffer.alloc(0),
				})),
				{ ipAddress: request.ip, userAgent: request.headers['user-agent'] ?? null },
			);
			if (input.includeRecipients !== false && input.includeFields !== false) {
				const recipientIds = new Map(
					source.recipients.map((recipient, index) => [recipient.id, copy.recipients[index].id]),
				);
				const itemIds = new Map(
					(source.items ?? []).map((item, index) => [item.id, copy.items?.[index].id]),
				);
				for (const field of source.fields) {
					copy.fields.push(
						store.newField({
							type: field.type,
							page: field.page,
							positionX: field.positionX,
							positionY: field.positionY,
							width: field.width,
							height: field.height,
							fieldMeta: field.fieldMeta,
							recipientId: recipientIds.get(field.recipientId) ?? field.recipientId,
							envelopeItemId: itemIds.get(field.envelopeItemId ?? '') ?? copy.item.id,
						}),
					);
				}
			}
			for (const recipient of copy.recipients) recipient.token = recipientToken();
			return { id: copy.id };
		},
	);

	route<{ envelopeId: string; data: { label: string; data: string } }>(
		'createEnvelopeAttachment',
		(input) => {
			const envelope = envelopeOf(OPERATIONS.createEnvelopeAttachment.procedure, input.envelopeId);
			const attachment = {
				id: prefixedId('attachment'),
				type: 'link' as const,
				label: input.data.label,
				data: input.data.data,
			};
			(envelope.attachments ??= []).push(attachment);
			return { id: attachment.id };
		},
		// ZCreateAttachmentRequestSchema (attachment/create-attachment.types.ts): a label, a URL.
		(input) => [
			...(input.data.label === ''
				? [issue(['data', 'label'], 'Label is required', 'too_small')]
				: []),
			...(/^https?:\/\/\S+$/.test(input.data.data)
				? []
				: [issue(['data', 'data'], 'Must be a valid URL', 'invalid_string')]),
		],
	);

	route<{ envelopeId: string }>('findEnvelopeAttachments', (input) => ({
		data:
			envelopeOf(OPERATIONS.findEnvelopeAttachments.procedure, input.envelopeId).attachments ?? [],
	}));

	route<{ id: string }>('deleteEnvelopeAttachment', (input) => {
		const owner = [...store.documents.values(), ...store.templates.values()].find((envelope) =>
			(envelope.attachments ?? []).some((attachment) => attachment.id === input.id),
		);
		if (!owner)
			throw appError(
				OPERATIONS.deleteEnvelopeAttachment.procedure,
				'NOT_FOUND',
				'Attachment not found',
			);
		owner.attachments = (owner.attachments ?? []).filter(
			(attachment) => attachment.id !== input.id,
		);
		return { success: true };
	});

	/** download.ts: the audit log of a document as a PDF, `<title>_audit-log.pdf`. */
	route<{ envelopeId: string }>('downloadAuditLogPdf', async (input, _request, reply) => {
		const envelope = store.findEnvelope(input.envelopeId);
		if (!envelope || envelope.type !== 'DOCUMENT') throw downloadError(404, 'Document not found');
		const bytes = textPdf([
			[
				`Audit log: ${envelope.title}`,
				...envelope.auditLogs.map(
					(entry) => `${entry.createdAt} ${entry.type} ${entry.email ?? ''}`,
				),
			],
		]);
		return await reply.type('application/pdf').send(bytes);
	});

	/** download.ts: the signing certificate, for a completed document only (DOCUMENT_NOT_COMPLETE). */
	route<{ envelopeId: string }>('downloadCertificatePdf', async (input, _request, reply) => {
		const envelope = store.findEnvelope(input.envelopeId);
		if (!envelope || envelope.type !== 'DOCUMENT') throw downloadError(404, 'Document not found');
		if (envelope.status !== 'COMPLETED')
			throw downloadError(400, 'Document is not complete', 'DOCUMENT_NOT_COMPLETE');
		const bytes = textPdf([
			[
				`Signing certificate: ${envelope.title}`,
				...envelope.recipients.map(
					(recipient) => `${recipient.role} ${recipient.email}: ${recipient.signedAt ?? ''}`,
				),
			],
		]);
		return await reply.type('application/pdf').send(bytes);
	});

	route<{
		parentId?: string;
		type?: 'DOCUMENT' | 'TEMPLATE';
		page?: number;
		perPage?: number;
		query?: string;
	}>('findFolders', (input) => {
		const rows = [...store.folders.values()]
			.filter((folder) => input.parentId === undefined || folder.parentId === input.parentId)
			.filter((folder) => input.type === undefined || folder.type === input.type)
			.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
		const currentPage = input.page ?? 1;
		const perPage = input.perPage ?? 10;
		return {
			data: rows.slice((currentPage - 1) * perPage, currentPage * perPage).map(folderView),
			count: rows.length,
			currentPage,
			perPage,
			totalPages: Math.ceil(rows.length / perPage),
		};
	});

	route<{ name: string; parentId?: string; type?: 'DOCUMENT' | 'TEMPLATE' }>(
		'createFolder',
		(input) => {
			const procedure = OPERATIONS.createFolder.procedure;
			const parent = input.parentId ? folderOf(procedure, input.parentId) : undefined;
			const created = now();
			const folder: Folder = {
				id: prefixedId('folder'),
				name: input.name,
				type: input.type ?? parent?.type ?? 'DOCUMENT',
				parentId: parent?.id ?? null,
				pinned: false,
				visibility: 'EVERYONE',
				createdAt: created,
				updatedAt: created,
			};
			store.folders.set(folder.id, folder);
			return folderView(folder);
		},
	);

	route<{ folderId: string; data: { name?: string; parentId?: string | null; pinned?: boolean } }>(
		'updateFolder',
		(input) => {
			const procedure = OPERATIONS.updateFolder.procedure;
			const folder = folderOf(procedure, input.folderId);
			if (input.data.parentId) {
				if (input.data.parentId === folder.id)
					throw appError(procedure, 'INVALID_REQUEST', 'Cannot move a folder into itself');
				folderOf(procedure, input.data.parentId);
			}
			if (input.data.name !== undefined) folder.name = input.data.name;
			if (input.data.parentId !== undefined) folder.parentId = input.data.parentId;
			if (input.data.pinned !== undefined) folder.pinned = input.data.pinned;
			folder.updatedAt = now();
			return folderView(folder);
		},
	);

	route<{ folderId: string }>('deleteFolder', (input) => {
		const procedure = OPERATIONS.deleteFolder.procedure;
		const gone = new Set([folderOf(procedure, input.folderId).id]);
		for (let grew = true; grew; ) {
			grew = false;
			for (const folder of store.folders.values()) {
				if (folder.parentId && gone.has(folder.parentId) && !gone.has(folder.id)) {
					gone.add(folder.id);
					grew = true;
				}
			}
		}
		for (const id of gone) store.folders.delete(id);
		for (const envelope of [...store.documents.values(), ...store.templates.values()]) {
			if (envelope.folderId && gone.has(envelope.folderId)) envelope.folderId = null;
		}
		return { success: true };
	});
}
