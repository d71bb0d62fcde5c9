import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../shared/credentialTest';
import type { ServiceError } from '../../shared/request';
import { serviceErrorOf } from '../../shared/request';
import { isMissingRoute, OLDER_DOCUMENSO } from './documensoVersion';

/**
 * Documenso's records (API v2, tag v2.17.0, commit 75330166cc00b29c14399bc2e391e4b4d8080c00) in
 * the documented shapes of CONTRACTS.md, with nothing Documenso returns dropped: the documented
 * fields first, then every Documenso field under its own name; where a name clashes, the
 * documented meaning wins and Documenso's value stays under `documenso`. Pure functions; the
 * mapping table is in test/sandbox/documenso/README.md ("Documenso → the documented output shape").
 */

/** The field types a template can prefill (create-document-from-template.ts, getUpdatedFieldMeta, and DATE). */
const PREFILLABLE = new Set(['TEXT', 'NUMBER', 'DATE', 'CHECKBOX', 'DROPDOWN', 'RADIO']);

/**
 * The address Documenso's template editor gives a new slot ("Recipient n",
 * `recipient.n@documenso.com`): a placeholder, never a person to e-mail.
 */
export const PLACEHOLDER_EMAIL = /^recipient\.\d+@documenso\.com$/i;

/** A recipient's own signing page: formatSigningLink (packages/lib/utils/recipients.ts). */
export const signingUrlOf = (baseUrl: string, token: string) => `${baseUrl}/sign/${token}`;

/**
 * The document's page in Documenso's web app (apps/remix/app/routes/_authenticated+/t.$teamUrl+/documents.$id._index.tsx,
 * formatDocumentsPath in packages/lib/utils/teams.ts), where the team sees it and downloads the signed PDF.
 */
export const documentUrlOf = (baseUrl: string, teamUrl: string, envelopeId: string) =>
	`${baseUrl}/t/${encodeURIComponent(teamUrl)}/documents/${encodeURIComponent(envelopeId)}`;

/**
 * A recipient of a document: the documented fields, then Documenso's. Its `token` is the secret
 * part of its signing link and is given as that link (`signingUrl`), as the documented API gives it.
 */
export function documentedRecipient(recipient: IDataObject, baseUrl: string): IDataObject {
	const { token, ...rest } = recipient;
	return {
		recipientId: recipient.id ?? null,
		name: recipient.name ?? null,
		email: recipient.email ?? null,
		role: recipient.role ?? null,
		signingStatus: recipient.signingStatus ?? null,
		signedAt: recipient.signedAt ?? null,
		rejectionReason: recipient.rejectionReason ?? null,
		...rest,
		...(typeof token === 'string' && token !== '' ? { signingUrl: signingUrlOf(baseUrl, token) } : {}),
	};
}

/** The values a document's fields were prefilled with, as the documented `prefillFields` lists them. */
function prefilledValues(fields: unknown): IDataObject[] {
	if (!Array.isArray(fields)) return [];
	return fields.filter(isObject).flatMap((field) => {
		const meta = isObject(field.fieldMeta) ? field.fieldMeta : {};
		const options = Array.isArray(meta.values) ? meta.values.filter(isObject) : [];
		const checked = options.filter((option) => option.checked === true).map((option) => String(option.value));
		let value: string | undefined;
		switch (field.type) {
			case 'TEXT':
				value = typeof meta.text === 'string' && meta.text !== '' ? meta.text : undefined;
				break;
			case 'NUMBER':
				value = typeof meta.value === 'string' && meta.value !== '' ? meta.value : undefined;
				break;
			case 'DATE':
				value = field.inserted === true && typeof field.customText === 'string' ? field.customText : undefined;
				break;
			case 'CHECKBOX':
				value = checked.length > 0 ? 'true' : undefined;
				break;
			case 'DROPDOWN':
				value = typeof meta.defaultValue === 'string' && meta.defaultValue !== '' ? meta.defaultValue : undefined;
				break;
			case 'RADIO':
				value = checked[0];
				break;
			default:
				value = undefined;
		}
		return value === undefined ? [] : [{ id: field.id, label: meta.label ?? null, value }];
	});
}

/**
 * The bytes of a stored file, which Documenso's document and template records carry in
 * `documentData`/`templateDocumentData` (`data`, and `initialData`, the file before signing:
 * packages/lib/types/document.ts `ZDocumentSchema`, packages/lib/types/template.ts): the whole PDF
 * in base64 on a default install, which stores files in its database (`NEXT_PUBLIC_UPLOAD_TRANSPORT`
 * "database", `BYTES_64`: packages/lib/universal/upload/put-file.server.ts), or a storage key (`S3_PATH`).
 * Their size in bytes, null for a storage key; the file itself is Download.
 */
function storedFileSize(type: unknown, data: unknown): number | null {
	if (typeof data !== 'string') return null;
	// get-file.server.ts: BYTES_64 is base64, BYTES the file as text.
	if (type === 'BYTES_64') return Buffer.byteLength(data, 'base64');
	if (type === 'BYTES') return Buffer.byteLength(data, 'utf8');
	return null;
}

/**
 * A record of a stored file without the file: never a PDF's bytes as JSON (an execution log or an
 * agent's context is no place for megabytes of base64). `data` and `initialData` become `size` and
 * `initialSize`; the id, type and envelope item stay.
 */
function withoutFileBytes(file: unknown): unknown {
	if (!isObject(file)) return file;
	const { data, initialData, ...rest } = file;
	return { ...rest, size: storedFileSize(file.type, data), initialSize: storedFileSize(file.type, initialData) };
}

/**
 * A document (Get, Get Many's rows, the answer of /template/use, a webhook payload) in the
 * documented Get shape, its stored file by size (`withoutFileBytes`). `teamUrl` gives `documentUrl`, its page in the web app; null without it.
 * There is no certified package URL on Documenso: the signed PDF is Download.
 */
export function documentedDocument(document: IDataObject, baseUrl: string, teamUrl?: string): IDataObject {
	const { recipients, Recipient, documentMeta, ...rest } = document;
	const envelopeId = typeof document.envelopeId === 'string' ? document.envelopeId : undefined;
	const mapped: IDataObject = {
		id: document.id ?? null,
		title: document.title ?? null,
		status: document.status ?? null,
		templateId: document.templateId ?? null,
		createdAt: document.createdAt ?? null,
		updatedAt: document.updatedAt ?? null,
		completedAt: document.completedAt ?? null,
		recipients: Array.isArray(recipients)
			? recipients.filter(isObject).map((recipient) => documentedRecipient(recipient, baseUrl))
			: [],
		certifiedPackageUrl: null,
		documentUrl: teamUrl && envelopeId ? documentUrlOf(baseUrl, teamUrl, envelopeId) : null,
	};
	if (isObject(documentMeta)) {
		mapped.meta = {
			subject: documentMeta.subject ?? null,
			message: documentMeta.message ?? null,
			redirectUrl: documentMeta.redirectUrl ?? null,
		};
	}
	if (Array.isArray(document.fields)) mapped.prefillFields = prefilledValues(document.fields);
	Object.assign(mapped, rest);
	if (rest.documentData !== undefined) mapped.documentData = withoutFileBytes(rest.documentData) as IDataObject;
	if (documentMeta !== undefined) mapped.documentMeta = documentMeta;
	// Webhook payloads list the recipients a second time, under their legacy name.
	if (Array.isArray(Recipient)) {
		mapped.Recipient = Recipient.filter(isObject).map((recipient) => documentedRecipient(recipient, baseUrl));
	}
	return mapped;
}

/** A template field a document can be prefilled through, in the documented shape (`id`, `label`, `type`, `options`). */
function documentedField(field: IDataObject): IDataObject {
	const meta = isObject(field.fieldMeta) ? field.fieldMeta : {};
	const type = String(field.type).toLowerCase();
	const mapped: IDataObject = {
		id: field.id ?? null,
		label: typeof meta.label === 'string' && meta.label.trim() !== '' ? meta.label : `${type} field ${String(field.id)}`,
		type,
	};
	if (Array.isArray(meta.values)) {
		mapped.options = meta.values.filter(isObject).map((option) => String(option.value));
	}
	mapped.recipientId = field.recipientId ?? null;
	mapped.required = meta.required === true;
	mapped.fieldMeta = meta;
	return mapped;
}

/** A record without its `token`: a template slot's, or a direct link's, which opens a signing page. */
function withoutToken(record: unknown): unknown {
	if (!isObject(record)) return record;
	return Object.fromEntries(Object.entries(record).filter(([key]) => key !== 'token'));
}

/**
 * A template in the documented shape: `recipients` are its slots (`placeholder` and `role`, and
 * the slot's `id`, which Generate From Template fills), `fields` its prefillable fields.
 * Documenso's full recipient and field lists stay under `documenso`, without any signing token:
 * a slot's token and the direct link's open signing pages, and nothing a workflow does with a
 * template needs them.
 */
export function documentedTemplate(template: IDataObject): IDataObject {
	const { recipients: withTokens, fields, ...rest } = template;
	const recipients = Array.isArray(withTokens) ? withTokens.map(withoutToken) : withTokens;
	if (rest.templateDocumentData !== undefined) rest.templateDocumentData = withoutFileBytes(rest.templateDocumentData) as IDataObject;
	if (rest.directLink !== undefined) rest.directLink = withoutToken(rest.directLink) as IDataObject;
	const slots = Array.isArray(recipients) ? recipients.filter(isObject) : [];
	const allFields = Array.isArray(fields) ? fields.filter(isObject) : [];
	return {
		id: template.id ?? null,
		title: template.title ?? null,
		createdAt: template.createdAt ?? null,
		updatedAt: template.updatedAt ?? null,
		recipients: slots.map((slot) => ({
			placeholder: typeof slot.name === 'string' && slot.name !== '' ? slot.name : (slot.email ?? null),
			role: slot.role ?? null,
			id: slot.id ?? null,
			name: slot.name ?? null,
			email: slot.email ?? null,
			signingOrder: slot.signingOrder ?? null,
			// The template names a person here, not a placeholder: a document may keep them.
			hasRecipient: typeof slot.email === 'string' && slot.email !== '' && !PLACEHOLDER_EMAIL.test(slot.email),
		})),
		fields: allFields.filter((field) => PREFILLABLE.has(String(field.type))).map(documentedField),
		...rest,
		documenso: { recipients, fields },
	};
}

/** Documenso's audit types with a documented counterpart (CONTRACTS.md Part 2, section 4). */
const AUDIT_TYPES: Record<string, string> = {
	DOCUMENT_CREATED: 'DOCUMENT_CREATED',
	DOCUMENT_SENT: 'DOCUMENT_SENT',
	DOCUMENT_OPENED: 'DOCUMENT_OPENED',
	DOCUMENT_RECIPIENT_COMPLETED: 'DOCUMENT_SIGNED',
	DOCUMENT_RECIPIENT_REJECTED: 'DOCUMENT_REJECTED',
	DOCUMENT_COMPLETED: 'DOCUMENT_COMPLETED',
	DOCUMENT_CANCELLED: 'DOCUMENT_CANCELLED',
};

/**
 * An audit entry (ZDocumentAuditLogSchema, packages/lib/types/document-audit-logs.ts) with the
 * documented fields. Types without a documented counterpart (about 30: field and recipient
 * changes, e-mails, deletion…) keep Documenso's name; a reminder is `INVITATION_RESENT`.
 */
export function documentedAuditEntry(entry: IDataObject): IDataObject {
	const data = isObject(entry.data) ? entry.data : {};
	const type = String(entry.type);
	const documented =
		type === 'EMAIL_SENT' && data.isResending === true ? 'INVITATION_RESENT' : (AUDIT_TYPES[type] ?? type);
	return {
		id: entry.id ?? null,
		type: documented,
		createdAt: entry.createdAt ?? null,
		recipientId: data.recipientId ?? null,
		email: data.recipientEmail ?? entry.email ?? null,
		ipAddress: entry.ipAddress ?? null,
		userAgent: entry.userAgent ?? null,
		...Object.fromEntries(Object.entries(entry).filter(([key]) => !['id', 'type', 'createdAt', 'email'].includes(key))),
		documenso: { type, email: entry.email ?? null },
	};
}

/** Documenso's own paged answer (FindResultResponse, packages/lib/types/search-params.ts). */
export interface DocumensoPage {
	data: IDataObject[];
	count: number;
	currentPage: number;
	perPage: number;
	totalPages: number;
}

export const isDocumensoPage = (body: unknown): body is DocumensoPage =>
	isObject(body) && Array.isArray(body.data) && typeof body.totalPages === 'number' && typeof body.count === 'number';

/**
 * Documenso's error answers in words (test/sandbox/documenso/README.md, "Common to every route"):
 * the reason of a tRPC route's error is `data.code` (the top-level `code` of an AppError is
 * INTERNAL_SERVER_ERROR), validation errors list zod's `issues`, the PDF routes and the rate
 * limit answer `{error, code?}`. Several refusals of a document's state are plain 500s.
 */
export function documensoError(body: unknown, status: number): ServiceError {
	const { message } = serviceErrorOf(body);
	let parsed = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body);
		} catch {
			parsed = undefined;
		}
	}
	if (!isObject(parsed)) return { message };
	// A Documenso older than the envelope API has none of its routes: say so, once, in the message.
	if (isMissingRoute(status, parsed)) return { message: `Not found: ${OLDER_DOCUMENSO}`, code: 'NOT_FOUND' };
	const data = isObject(parsed.data) ? parsed.data : {};
	const code = [data.code, parsed.code].find((value) => typeof value === 'string' && value !== '') as
		| string
		| undefined;
	const issues = Array.isArray(parsed.issues) ? parsed.issues.filter(isObject) : [];
	const hint =
		issues.length > 0
			? `Documenso refused these fields: ${issues
					.map((issue) => `${Array.isArray(issue.path) ? issue.path.join('.') : ''}: ${String(issue.message)}`)
					.join('; ')}`
			: status === 500 && code === 'INTERNAL_SERVER_ERROR' && typeof data.path === 'string'
				? 'Documenso answers some refusals with 500, e.g. when the document is not in a state that allows this; its message says why'
				: undefined;
	return { message, code, hint };
}
