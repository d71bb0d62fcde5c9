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
 * Documenso's envelope API (API v2, tag v2.17.0, packages/trpc/server/envelope-router/), the only
 * one the adapter calls: Documenso removes the document and template routes on 1 March 2027
 * (apps/docs/content/docs/developers/api/migrate-to-envelopes.mdx). An envelope is a document or
 * a template, named by `envelope_…`; the number workflows saved before hold is in its
 * `secondaryId` (`document_1001`, packages/lib/utils/envelope.ts).
 */
const { request } = documensoTransport;

/** Documenso's IDs (documents, templates, recipients, fields) are integers; `"1001"` and `1001` are both taken. */
export function numericId(
	ctx: RequestContext,
	value: string,
	label: string,
	itemIndex?: number,
	looks = 'whole numbers, such as 1001',
): number {
	const text = value.trim();
	const number = Number(text);
	if (/^\d+$/.test(text) && number > 0 && Number.isSafeInteger(number)) return number;
	throw new NodeOperationError(
		ctx.getNode(),
		messageNamingItem(ctx, itemIndex, `${label}: "${value}" is not a Documenso ID: Documenso’s IDs are ${looks}`),
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

export type EnvelopeKind = 'DOCUMENT' | 'TEMPLATE';

/** An envelope's own id (`envelope_…`, packages/lib/universal/id.ts prefixes a nanoid). */
export const isEnvelopeId = (value: string) => /^envelope_\w+$/.test(value.trim());

/** How Documenso's template IDs look, in messages. */
export const TEMPLATE_ID_LOOKS = 'a number such as 1, or an envelope ID such as envelope_abc123';

/** How Documenso's document IDs look, in messages. */
export const DOCUMENT_ID_LOOKS = 'a number such as 1001, or an envelope ID such as envelope_abc123';

const KIND_WORDS: Record<EnvelopeKind, string> = { DOCUMENT: 'document', TEMPLATE: 'template' };

/**
 * The envelopes named by their ids or by their legacy numbers, at most 20 (`POST /envelope/get-many`,
 * envelope.getMany, get-envelopes-by-ids.ts: `documentId` and `templateId` are the numbers of
 * `document_1001`/`template_1`). Ids Documenso does not know are left out of the answer.
 */
export async function getEnvelopes(
	ctx: RequestContext,
	ids: { type: 'envelopeId'; ids: string[] } | { type: 'documentId' | 'templateId'; ids: number[] },
	itemIndex?: number,
): Promise<IDataObject[]> {
	const { data } = await request<{ data: IDataObject[] }>(ctx, {
		method: 'POST',
		path: '/api/v2/envelope/get-many',
		body: { ids },
		itemIndex,
	});
	return data;
}

/** The most ids `envelope/get-many` takes in one request (ZEnvelopeIdsSchema: `.max(20)`). */
export const MAX_IDS_PER_READ = 20;

/**
 * The whole envelopes (fields, items, meta) of rows of a list, which has recipients only: read 20
 * at a time with `envelope/get-many`, in the rows' order. A row deleted in between is left out.
 */
export async function wholeEnvelopes(ctx: RequestContext, rows: IDataObject[], itemIndex?: number): Promise<IDataObject[]> {
	const byId = new Map<string, IDataObject>();
	for (let start = 0; start < rows.length; start += MAX_IDS_PER_READ) {
		const ids = rows.slice(start, start + MAX_IDS_PER_READ).map((row) => String(row.id));
		for (const envelope of await getEnvelopes(ctx, { type: 'envelopeId', ids }, itemIndex)) {
			byId.set(String(envelope.id), envelope);
		}
	}
	return rows.flatMap((row) => {
		const envelope = byId.get(String(row.id));
		return envelope ? [envelope] : [];
	});
}

/**
 * A document or template by the ID the user gave: an `envelope_…` id (`GET /envelope/{id}`), or
 * the number workflows saved before the envelope API hold (`document_1001` → 1001, found through
 * `envelope/get-many`). An envelope of the other kind is refused before anything is done with it:
 * both kinds share one id space, and Template → Delete must never delete a pending document.
 */
export async function envelopeOf(
	ctx: RequestContext,
	kind: EnvelopeKind,
	id: string,
	label: string,
	itemIndex?: number,
): Promise<IDataObject> {
	const text = id.trim();
	const words = KIND_WORDS[kind];
	const looks = kind === 'DOCUMENT' ? DOCUMENT_ID_LOOKS : TEMPLATE_ID_LOOKS;
	let found: IDataObject | undefined;
	if (isEnvelopeId(text)) {
		found = await request(ctx, {
			method: 'GET',
			path: `/api/v2/envelope/${encodeURIComponent(text)}`,
			itemIndex,
			errorHints: {
				404:
					kind === 'TEMPLATE'
						? templateNotFoundHint(text, looks)
						: `Check the ${label}: this Documenso team has no document ${text}. Generate From Template returns documentId and envelopeId, Get Many lists every document's.`,
			},
		});
	} else {
		const number = numericId(ctx, text, label, itemIndex, looks);
		[found] = await getEnvelopes(
			ctx,
			{ type: kind === 'DOCUMENT' ? 'documentId' : 'templateId', ids: [number] },
			itemIndex,
		);
		if (!found) {
			throw new NodeOperationError(
				ctx.getNode(),
				messageNamingItem(ctx, itemIndex, `${label}: this Documenso team has no ${words} ${number}`),
				{
					itemIndex,
					description:
						kind === 'TEMPLATE'
							? templateNotFoundHint(text, looks)
							: "Generate From Template returns documentId and envelopeId, Get Many lists every document's.",
				},
			);
		}
	}
	const envelope: IDataObject = found ?? {};
	if (envelope.type !== kind) {
		const other = KIND_WORDS[envelope.type === 'TEMPLATE' ? 'TEMPLATE' : 'DOCUMENT'];
		throw new NodeOperationError(
			ctx.getNode(),
			messageNamingItem(ctx, itemIndex, `${label}: ${text} is a ${other}, not a ${words}`),
			{
				itemIndex,
				description: `Documenso keeps documents and templates as envelopes with one kind of ID; this one is a ${other}. Nothing was changed. Use the ${other === 'template' ? 'Template' : 'Document'} resource for it, or give a ${words}'s ID.`,
			},
		);
	}
	return envelope;
}

/**
 * An envelope as the record the rest of the adapter reads, in the document and template routes'
 * terms: its number as `id` (what workflows saved before hold; the outputs keep it), its own id as
 * `envelopeId`.
 */
export function withLegacyId(envelope: IDataObject): IDataObject {
	const record: IDataObject = { ...envelope, id: legacyIdOf(envelope) ?? envelope.id ?? null, envelopeId: envelope.id };
	// The file record the document and template routes gave (`documentData`, `templateDocumentData`),
	// kept for expressions written against them: its id and item. The envelope routes give no size.
	const [first] = ((envelope.envelopeItems as IDataObject[] | undefined) ?? [])
		.slice()
		.sort((a, b) => Number(a.order) - Number(b.order));
	if (first) {
		const file = { id: first.documentDataId ?? null, envelopeItemId: first.id ?? null };
		record[envelope.type === 'TEMPLATE' ? 'templateDocumentData' : 'documentData'] = file;
	}
	return record;
}

/** A document by its number or envelope ID (`envelopeOf`), with its number as `id`. */
export async function rawDocument(ctx: RequestContext, documentId: string, itemIndex?: number): Promise<IDataObject> {
	return withLegacyId(await envelopeOf(ctx, 'DOCUMENT', documentId, 'Document ID', itemIndex));
}

/** A template by its number or envelope ID (`envelopeOf`), with its number as `id`. */
export async function rawTemplate(ctx: RequestContext, templateId: string, itemIndex?: number): Promise<IDataObject> {
	return withLegacyId(await envelopeOf(ctx, 'TEMPLATE', templateId, 'Template', itemIndex));
}

/** A document's `envelope_…` id, once the envelope it names is known to be a document. */
export async function documentEnvelopeId(ctx: RequestContext, documentId: string, itemIndex?: number): Promise<string> {
	return String((await envelopeOf(ctx, 'DOCUMENT', documentId, 'Document ID', itemIndex)).id);
}

/** A template's number, for the filters that take one (`templateId` of GET /envelope). */
export async function templateNumber(ctx: RequestContext, templateId: string, label: string, itemIndex?: number): Promise<number> {
	if (!isEnvelopeId(templateId)) return numericId(ctx, templateId, label, itemIndex, TEMPLATE_ID_LOOKS);
	const template = await envelopeOf(ctx, 'TEMPLATE', templateId, label, itemIndex);
	return legacyIdOf(template) ?? numericId(ctx, String(template.secondaryId), label, itemIndex);
}
