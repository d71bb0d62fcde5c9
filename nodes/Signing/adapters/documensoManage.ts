import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestContext } from '../../shared/request';
import { credentialBaseUrl } from '../../shared/request';
import { signingPages } from '../transport';
import type { DocumensoPage } from './documensoShapes';
import { documentedDocument, documentedTemplate } from './documensoShapes';
import {
	deleteEnvelope,
	documentOfEnvelope,
	envelopeOf,
	findByExternalId,
	getEnvelope,
	legacyIdOf,
	MAX_PER_PAGE,
	templateNumber,
	withLegacyId,
} from './documensoEnvelopes';
import { documensoTransport } from './documensoTransport';
import { failedAfterUpload, uploadEnvelope } from './documensoUploads';
import type { FolderKind, SigningDocuments, SigningFolders, SigningTemplates } from './types';

/**
 * Documents, templates and folders on Documenso beyond what every API has: the envelope routes
 * delete, update, duplicate (packages/trpc/server/envelope-router/) and the folder routes
 * (packages/trpc/server/folder-router/router.ts).
 */
const { request } = documensoTransport;

const LABELS: Record<FolderKind, string> = { DOCUMENT: 'Document ID', TEMPLATE: 'Template' };

/**
 * A document's or template's `envelope_…` id, given as such or as its number, once Documenso says
 * the envelope is of that kind (`envelopeOf`): never a template deleted as a document, nor the reverse.
 */
async function envelopeIdOf(
	ctx: RequestContext,
	kind: FolderKind,
	id: string,
	itemIndex?: number,
): Promise<string> {
	return String((await envelopeOf(ctx, kind, id, LABELS[kind], itemIndex)).id);
}

/** `POST /envelope/update` (envelope-router/update-envelope.ts): `data` for the envelope, `meta` for its e-mail. */
async function updateEnvelope(
	ctx: RequestContext,
	envelopeId: string,
	changes: {
		title?: string;
		externalId?: string;
		folderId?: string | null;
		subject?: string;
		message?: string;
	},
	itemIndex?: number,
) {
	const data: IDataObject = {};
	for (const key of ['title', 'externalId', 'folderId'] as const)
		if (changes[key] !== undefined) data[key] = changes[key];
	const meta: IDataObject = {};
	for (const key of ['subject', 'message'] as const)
		if (changes[key] !== undefined) meta[key] = changes[key];
	await request(ctx, {
		method: 'POST',
		path: '/api/v2/envelope/update',
		body: {
			envelopeId,
			...(Object.keys(data).length ? { data } : {}),
			...(Object.keys(meta).length ? { meta } : {}),
		},
		itemIndex,
	});
}

/** `POST /envelope/duplicate` (envelope-router/duplicate-envelope.ts), recipients and fields included. */
async function duplicateEnvelope(
	ctx: RequestContext,
	envelopeId: string,
	itemIndex?: number,
): Promise<IDataObject> {
	const { id } = await request<{ id: string }>(ctx, {
		method: 'POST',
		path: '/api/v2/envelope/duplicate',
		body: { envelopeId, includeRecipients: true, includeFields: true },
		itemIndex,
	});
	return await getEnvelope(ctx, id, itemIndex);
}

const FINISHED = new Set(['COMPLETED', 'REJECTED', 'CANCELLED']);

export const documensoDocuments: SigningDocuments = {
	/**
	 * `POST /envelope/delete` (envelope-router/delete-envelope.ts, deleteDocument in
	 * packages/lib/server-only/document/delete-document.ts): a draft or pending document is deleted
	 * for good (recipients it was sent to are e-mailed that it was cancelled); a completed, rejected
	 * or cancelled one is only hidden from lists. DOCUMENT_CANCELLED fires either way.
	 */
	async delete(ctx, documentId, itemIndex) {
		const envelope = await envelopeOf(ctx, 'DOCUMENT', documentId, LABELS.DOCUMENT, itemIndex);
		await deleteEnvelope(ctx, String(envelope.id), itemIndex);
		const hidden = FINISHED.has(String(envelope.status));
		return {
			id: legacyIdOf(envelope) ?? null,
			envelopeId: envelope.id,
			status: envelope.status,
			outcome: hidden ? 'hidden' : 'deleted',
			recipientsEmailed: !hidden && envelope.status === 'PENDING',
		};
	},

	async update(ctx, documentId, changes, itemIndex) {
		const envelopeId = await envelopeIdOf(ctx, 'DOCUMENT', documentId, itemIndex);
		await updateEnvelope(ctx, envelopeId, changes, itemIndex);
		return await documentOfEnvelope(ctx, await getEnvelope(ctx, envelopeId, itemIndex), itemIndex);
	},

	async duplicate(ctx, documentId, itemIndex) {
		const envelopeId = await envelopeIdOf(ctx, 'DOCUMENT', documentId, itemIndex);
		return await documentOfEnvelope(
			ctx,
			await duplicateEnvelope(ctx, envelopeId, itemIndex),
			itemIndex,
		);
	},
};

/** A template envelope (as `GET /envelope/{id}` gives it) in the documented template shape, its number as `id`. */
async function templateOf(
	ctx: RequestContext,
	envelope: IDataObject,
	itemIndex?: number,
): Promise<IDataObject> {
	if (legacyIdOf(envelope) === undefined) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Documenso's answer gives envelope ${String(envelope.id)} no template number (secondaryId "${String(envelope.secondaryId)}")`,
			{ itemIndex },
		);
	}
	// A row of a list lacks the fields: the template itself has them.
	const full = Array.isArray(envelope.fields) ? envelope : await getEnvelope(ctx, String(envelope.id), itemIndex);
	return documentedTemplate(withLegacyId(full));
}

export const documensoTemplates: SigningTemplates = {
	/** The upload (documensoUploads.ts) as a TEMPLATE envelope: its recipients are the template's slots. */
	async createFromFile(ctx, input, itemIndex) {
		if (input.externalId && input.ifExists !== 'create') {
			const existing = await findByExternalId(
				ctx,
				'TEMPLATE',
				input.externalId,
				input.folderId,
				itemIndex,
			);
			if (existing && input.ifExists === 'fail') {
				throw new NodeOperationError(
					ctx.getNode(),
					`A template with External ID "${input.externalId}" exists already: template ${legacyIdOf(existing) ?? '?'}`,
					{
						itemIndex,
						description:
							'Nothing was uploaded. To get that template instead, set "If a Template With This External ID Exists" to Return It.',
					},
				);
			}
			if (existing)
				return { ...(await templateOf(ctx, existing, itemIndex)), alreadyExisted: true };
		}
		const envelope = await uploadEnvelope(ctx, input, 'TEMPLATE', itemIndex);
		try {
			return { ...(await templateOf(ctx, envelope, itemIndex)), alreadyExisted: false };
		} catch (error) {
			throw failedAfterUpload(ctx, error, String(envelope.id), input, 'TEMPLATE', itemIndex);
		}
	},

	async update(ctx, templateId, changes, itemIndex) {
		const envelopeId = await envelopeIdOf(ctx, 'TEMPLATE', templateId, itemIndex);
		await updateEnvelope(ctx, envelopeId, changes, itemIndex);
		return await templateOf(ctx, await getEnvelope(ctx, envelopeId, itemIndex), itemIndex);
	},

	async duplicate(ctx, templateId, itemIndex) {
		const envelopeId = await envelopeIdOf(ctx, 'TEMPLATE', templateId, itemIndex);
		return await templateOf(ctx, await duplicateEnvelope(ctx, envelopeId, itemIndex), itemIndex);
	},

	// POST /envelope/delete: the template goes; documents made from it stay.
	async delete(ctx, templateId, itemIndex) {
		const envelope = await envelopeOf(ctx, 'TEMPLATE', templateId, LABELS.TEMPLATE, itemIndex);
		await deleteEnvelope(ctx, String(envelope.id), itemIndex);
		return { id: legacyIdOf(envelope) ?? null, envelopeId: envelope.id, deleted: true };
	},
};

export const documensoFolders: SigningFolders = {
	// GET /folder (folder.findFolders): without parentId, every folder of the team at any depth (find-folders.ts).
	async list(ctx, kind, itemIndex) {
		const folders: IDataObject[] = [];
		for (let page = 1; ; page++) {
			const answered = await request<DocumensoPage>(ctx, {
				method: 'GET',
				path: '/api/v2/folder',
				qs: { page, perPage: MAX_PER_PAGE, ...(kind ? { type: kind } : {}) },
				itemIndex,
			});
			folders.push(...answered.data);
			if (answered.data.length === 0 || page >= answered.totalPages) return folders;
		}
	},

	async create(ctx, folder, itemIndex) {
		return await request(ctx, {
			method: 'POST',
			path: '/api/v2/folder/create',
			body: {
				name: folder.name,
				type: folder.kind,
				...(folder.parentId ? { parentId: folder.parentId } : {}),
			},
			itemIndex,
		});
	},

	async update(ctx, folderId, changes, itemIndex) {
		return await request(ctx, {
			method: 'POST',
			path: '/api/v2/folder/update',
			body: { folderId, data: changes },
			itemIndex,
			errorHints: {
				404: `Check the Folder: this team has no folder ${folderId} (Folder → Get Many lists them)`,
			},
		});
	},

	// POST /folder/delete: its subfolders go with it; what was filed in it moves to the root (schema.prisma: onDelete Cascade, SetNull).
	async delete(ctx, folderId, itemIndex) {
		await request(ctx, {
			method: 'POST',
			path: '/api/v2/folder/delete',
			body: { folderId },
			itemIndex,
			errorHints: { 404: `Check the Folder: this team has no folder ${folderId}` },
		});
		return { id: folderId, deleted: true };
	},

	/**
	 * GET /envelope with `type` and `folderId` (find-envelopes.ts: without a folder, the root folder
	 * only). `all` reads the root, then every folder of the kind.
	 */
	async listIn(ctx, kind, folder, filter, limit, itemIndex) {
		const folderIds: Array<string | undefined> =
			folder === 'all'
				? [undefined, ...(await this.list(ctx, kind, itemIndex)).map((found) => String(found.id))]
				: [folder];
		const baseUrl = await credentialBaseUrl(ctx, 'signingApi', itemIndex);
		const qs: IDataObject = { type: kind };
		if (filter.status) qs.status = filter.status;
		if (filter.templateId)
			qs.templateId = await templateNumber(ctx, filter.templateId, 'Filters › Template', itemIndex);
		const records: IDataObject[] = [];
		for (const folderId of folderIds) {
			records.push(
				...(await signingPages(
					ctx,
					async (page, perPage) =>
						(
							await request<DocumensoPage>(ctx, {
								method: 'GET',
								path: '/api/v2/envelope',
								qs: { ...qs, ...(folderId ? { folderId } : {}), page, perPage },
								itemIndex,
							})
						).data.map(withLegacyId),
					kind === 'DOCUMENT' ? 'documents' : 'templates',
					{ maxPerPage: MAX_PER_PAGE, limit, itemIndex },
				)),
			);
		}
		records.sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
		const limited = limit === undefined ? records : records.slice(0, limit);
		return kind === 'DOCUMENT'
			? limited.map((record) =>
					documentedDocument(
						record,
						baseUrl,
						(record.team as IDataObject | undefined)?.url as string | undefined,
					),
				)
			: limited.map(documentedTemplate);
	},
};
