import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../shared/credentialTest';
import type { RequestContext } from '../../shared/request';
import { credentialBaseUrl } from '../../shared/request';
import { CHANGE_THIS_VALUE, messageNamingItem } from '../../shared/validation';
import { templateNotFoundHint } from '../hints';
import type { DocumensoPage } from './documensoShapes';
import { documentedDocument } from './documensoShapes';
import { documensoTransport } from './documensoTransport';

/**
 * Documenso's envelope API (API v2, tag v2.17.0, packages/trpc/server/envelope-router/), for what
 * the document and template routes cannot do: uploads, recipients and fields of a draft, items,
 * attachments, folders. An envelope is a document or a template, named by `envelope_…`; the
 * document number the rest of the node uses is in its `secondaryId` (`document_1001`,
 * packages/lib/utils/envelope.ts).
 */
const { request } = documensoTransport;

/** Documenso's IDs (documents, templates, recipients, fields) are integers; `"1001"` and `1001` are both taken. */
export function numericId(
	ctx: RequestContext,
	value: string,
	label: string,
	itemIndex?: number,
): number {
	const text = value.trim();
	const number = Number(text);
	if (/^\d+$/.test(text) && number > 0 && Number.isSafeInteger(number)) return number;
	throw new NodeOperationError(
		ctx.getNode(),
		messageNamingItem(ctx, itemIndex, `${label}: "${value}" is not a Documenso ID: Documenso’s IDs are whole numbers, such as 1001`),
		{ itemIndex, description: CHANGE_THIS_VALUE },
	);
}

/** ZFindSearchParamsSchema (packages/lib/types/search-params.ts): perPage 1 to 100. */
export const MAX_PER_PAGE = 100;

/** The number of a document or template (`document_1001` → 1001), or undefined. */
export function legacyIdOf(envelope: IDataObject): number | undefined {
	const match = /^(?:document|template)_(\d+)$/.exec(String(envelope.secondaryId ?? ''));
	return match ? Number(match[1]) : undefined;
}

/** `GET /envelope/{envelopeId}` (envelope.get, envelope-router/get-envelope.ts): recipients, fields, items, team. */
export async function getEnvelope(
	ctx: RequestContext,
	envelopeId: string,
	itemIndex?: number,
): Promise<IDataObject> {
	return await request(ctx, {
		method: 'GET',
		path: `/api/v2/envelope/${encodeURIComponent(envelopeId)}`,
		itemIndex,
	});
}

/**
 * An envelope in the documented document shape, as Get gives a document: its number as `id`, the
 * `envelope_…` id as `envelopeId`, the link to its page from the team Documenso names with it.
 */
export async function documentOfEnvelope(
	ctx: RequestContext,
	envelope: IDataObject,
	itemIndex?: number,
): Promise<IDataObject> {
	const baseUrl = await credentialBaseUrl(ctx, 'signingApi', itemIndex);
	const team = isObject(envelope.team) ? envelope.team : {};
	return documentedDocument(
		{ ...envelope, id: legacyIdOf(envelope) ?? envelope.id ?? null, envelopeId: envelope.id },
		baseUrl,
		typeof team.url === 'string' ? team.url : undefined,
	);
}

/**
 * The envelopes of a type in one folder (the root without `folderId`) whose `externalId` is exactly
 * `externalId`, oldest first. Documenso has no filter for it: `query` matches titles, external IDs
 * and recipients with `ilike` (packages/lib/server-only/envelope/find-envelopes.ts), so the rows
 * are compared here; a list shows one folder only.
 */
export async function envelopesWithExternalId(
	ctx: RequestContext,
	type: 'DOCUMENT' | 'TEMPLATE',
	externalId: string,
	folderId: string | undefined,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const found: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const answered = await request<DocumensoPage>(ctx, {
			method: 'GET',
			path: '/api/v2/envelope',
			qs: {
				type,
				query: externalId,
				page,
				perPage: MAX_PER_PAGE,
				...(folderId ? { folderId } : {}),
			},
			itemIndex,
		});
		found.push(...answered.data.filter((row) => row.externalId === externalId));
		if (answered.data.length === 0 || page >= answered.totalPages) break;
	}
	return found.sort(olderFirst);
}

/** Creation order: Documenso numbers envelopes as it stores them (`secondaryId`), then `createdAt`. */
export function olderFirst(a: IDataObject, b: IDataObject): number {
	const [first, second] = [Number(legacyIdOf(a)), Number(legacyIdOf(b))];
	if (Number.isFinite(first) && Number.isFinite(second) && first !== second) return first - second;
	return String(a.createdAt ?? '').localeCompare(String(b.createdAt ?? ''));
}

/**
 * An envelope of a type whose `externalId` is exactly `externalId`, wherever it is filed: the
 * folder it would go to first (`folderId`, the root without), then the root and every folder of
 * the type (`GET /folder` without parentId lists them at any depth, find-folders.ts), so that a
 * document someone moved is found too. The oldest of a folder.
 */
export async function findByExternalId(
	ctx: RequestContext,
	type: 'DOCUMENT' | 'TEMPLATE',
	externalId: string,
	folderId: string | undefined,
	itemIndex?: number,
): Promise<IDataObject | undefined> {
	const [inTarget] = await envelopesWithExternalId(ctx, type, externalId, folderId, itemIndex);
	if (inTarget) return inTarget;
	const elsewhere: Array<string | undefined> = folderId ? [undefined] : [];
	for (let page = 1; ; page++) {
		const answered = await request<DocumensoPage>(ctx, {
			method: 'GET',
			path: '/api/v2/folder',
			qs: { type, page, perPage: MAX_PER_PAGE },
			itemIndex,
		});
		elsewhere.push(...answered.data.map((folder) => String(folder.id)).filter((id) => id !== folderId));
		if (answered.data.length === 0 || page >= answered.totalPages) break;
	}
	for (const folder of elsewhere) {
		const [found] = await envelopesWithExternalId(ctx, type, externalId, folder, itemIndex);
		if (found) return found;
	}
	return undefined;
}

/** `POST /envelope/delete` (envelope.delete, envelope-router/delete-envelope.ts). */
export async function deleteEnvelope(
	ctx: RequestContext,
	envelopeId: string,
	itemIndex?: number,
): Promise<void> {
	await request(ctx, {
		method: 'POST',
		path: '/api/v2/envelope/delete',
		body: { envelopeId },
		itemIndex,
	});
}

/** How a document made by the node is named in messages: "document 1001 (envelope_…)". */
export const envelopeWords = (envelope: IDataObject) =>
	`document ${legacyIdOf(envelope) ?? '?'} (${String(envelope.id)})`;

/** `GET /document/{documentId}` (document.get, packages/trpc/server/document-router/get-document.ts). */
export async function rawDocument(ctx: RequestContext, documentId: string, itemIndex?: number): Promise<IDataObject> {
	const id = numericId(ctx, documentId, 'Document ID', itemIndex);
	return await request(ctx, {
		method: 'GET',
		path: `/api/v2/document/${id}`,
		itemIndex,
		errorHints: {
			404: `Check the Document ID: this Documenso team has no document ${id}. Generate From Template returns documentId, Get Many lists every document's id.`,
		},
	});
}

/** How Documenso's template IDs look, in messages. */
export const TEMPLATE_ID_LOOKS = 'a number such as 1';

/** `GET /template/{templateId}` (template.getTemplateById, template-router/router.ts). */
export async function rawTemplate(ctx: RequestContext, templateId: string, itemIndex?: number): Promise<IDataObject> {
	const id = numericId(ctx, templateId, 'Template', itemIndex);
	return await request(ctx, {
		method: 'GET',
		path: `/api/v2/template/${id}`,
		itemIndex,
		errorHints: { 404: templateNotFoundHint(templateId, TEMPLATE_ID_LOOKS) },
	});
}

/** A document's `envelope_…` id: given as such, or read from its number (`GET /document/{id}`). */
export async function documentEnvelopeId(ctx: RequestContext, documentId: string, itemIndex?: number): Promise<string> {
	const text = documentId.trim();
	if (/^envelope_\w+$/.test(text)) return text;
	return String((await rawDocument(ctx, text, itemIndex)).envelopeId);
}
