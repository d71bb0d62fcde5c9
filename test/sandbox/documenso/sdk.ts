/**
 * Documenso's own schemas for the routes the flavour serves: the zod models of
 * `@documenso/sdk-typescript` (generated from Documenso's `/api/v2/openapi.json`). They are
 * exported from `@documenso/sdk-typescript/models/operations` as `<Operation>Request$inboundSchema`
 * (what a server reads: path and query parameters, or the JSON body, in one object) and
 * `<Operation>Response$inboundSchema` (what a client accepts).
 *
 * Every request is parsed with its request schema before a route runs, and every JSON answer with
 * its response schema before it leaves: an answer that would not parse is a bug of the sandbox,
 * and is sent as a 500 that says so.
 */
// One module per operation: the package's index loads all ~90 operations' schemas (a second of CPU).
import {
	TemplateFindTemplatesRequest$inboundSchema,
	TemplateFindTemplatesResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/templatefindtemplates';
import {
	TemplateGetTemplateByIdRequest$inboundSchema,
	TemplateGetTemplateByIdResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/templategettemplatebyid';
import {
	TemplateCreateDocumentFromTemplateRequest$inboundSchema,
	TemplateCreateDocumentFromTemplateResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/templatecreatedocumentfromtemplate';
import {
	DocumentFindRequest$inboundSchema,
	DocumentFindResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/documentfind';
import {
	DocumentGetRequest$inboundSchema,
	DocumentGetResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/documentget';
import {
	DocumentDistributeRequest$inboundSchema,
	DocumentDistributeResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/documentdistribute';
import {
	DocumentRedistributeRequest$inboundSchema,
	DocumentRedistributeResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/documentredistribute';
import {
	DocumentDeleteRequest$inboundSchema,
	DocumentDeleteResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/documentdelete';
import { DocumentDownloadRequest$inboundSchema } from '@documenso/sdk-typescript/models/operations/documentdownload';
import {
	EnvelopeCancelRequest$inboundSchema,
	EnvelopeCancelResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopecancel';
import {
	EnvelopeAuditLogFindRequest$inboundSchema,
	EnvelopeAuditLogFindResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopeauditlogfind';
import { EnvelopeItemDownloadRequest$inboundSchema } from '@documenso/sdk-typescript/models/operations/envelopeitemdownload';
import {
	EnvelopeCreatePayload$inboundSchema,
	EnvelopeCreateResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopecreate';
import {
	EnvelopeGetRequest$inboundSchema,
	EnvelopeGetResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopeget';
import {
	EnvelopeFindRequest$inboundSchema,
	EnvelopeFindResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopefind';
import {
	EnvelopeFieldCreateManyRequest$inboundSchema,
	EnvelopeFieldCreateManyResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopefieldcreatemany';
import {
	EnvelopeDistributeRequest$inboundSchema,
	EnvelopeDistributeResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopedistribute';
import {
	EnvelopeDeleteRequest$inboundSchema,
	EnvelopeDeleteResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopedelete';
import {
	EnvelopeRecipientCreateManyRequest$inboundSchema,
	EnvelopeRecipientCreateManyResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/enveloperecipientcreatemany';
import {
	EnvelopeRecipientUpdateManyRequest$inboundSchema,
	EnvelopeRecipientUpdateManyResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/enveloperecipientupdatemany';
import {
	EnvelopeRecipientDeleteRequest$inboundSchema,
	EnvelopeRecipientDeleteResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/enveloperecipientdelete';
import {
	EnvelopeRecipientGetRequest$inboundSchema,
	EnvelopeRecipientGetResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/enveloperecipientget';
import {
	EnvelopeFieldUpdateManyRequest$inboundSchema,
	EnvelopeFieldUpdateManyResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopefieldupdatemany';
import {
	EnvelopeFieldDeleteRequest$inboundSchema,
	EnvelopeFieldDeleteResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopefielddelete';
import {
	EnvelopeFieldGetRequest$inboundSchema,
	EnvelopeFieldGetResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopefieldget';
import {
	EnvelopeUpdateRequest$inboundSchema,
	EnvelopeUpdateResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopeupdate';
import {
	EnvelopeDuplicateRequest$inboundSchema,
	EnvelopeDuplicateResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopeduplicate';
import {
	FolderFindFoldersRequest$inboundSchema,
	FolderFindFoldersResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/folderfindfolders';
import {
	FolderCreateFolderRequest$inboundSchema,
	FolderCreateFolderResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/foldercreatefolder';
import {
	FolderUpdateFolderRequest$inboundSchema,
	FolderUpdateFolderResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/folderupdatefolder';
import {
	FolderDeleteFolderRequest$inboundSchema,
	FolderDeleteFolderResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/folderdeletefolder';
import {
	EnvelopeAttachmentCreateRequest$inboundSchema,
	EnvelopeAttachmentCreateResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopeattachmentcreate';
import {
	EnvelopeAttachmentFindRequest$inboundSchema,
	EnvelopeAttachmentFindResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopeattachmentfind';
import {
	EnvelopeAttachmentDeleteRequest$inboundSchema,
	EnvelopeAttachmentDeleteResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopeattachmentdelete';
import {
	EnvelopeGetManyRequest$inboundSchema,
	EnvelopeGetManyResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopegetmany';
import {
	EnvelopeUsePayload$inboundSchema,
	EnvelopeUseResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopeuse';
import {
	EnvelopeRedistributeRequest$inboundSchema,
	EnvelopeRedistributeResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/enveloperedistribute';
import { EnvelopeAuditLogDownloadPdfRequest$inboundSchema } from '@documenso/sdk-typescript/models/operations/envelopeauditlogdownloadpdf';
import { EnvelopeCertificateDownloadPdfRequest$inboundSchema } from '@documenso/sdk-typescript/models/operations/envelopecertificatedownloadpdf';
import {
	EnvelopeItemUpdateManyRequest$inboundSchema,
	EnvelopeItemUpdateManyResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopeitemupdatemany';
import {
	EnvelopeItemDeleteRequest$inboundSchema,
	EnvelopeItemDeleteResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/envelopeitemdelete';
import {
	EnvelopeRecipientRejectOnBehalfOfRequestBody$inboundSchema,
	EnvelopeRecipientRejectOnBehalfOfResponse$inboundSchema,
} from '@documenso/sdk-typescript/models/operations/enveloperecipientrejectonbehalfof';
import { z, type ZodIssue, type ZodTypeAny } from 'zod/v3';

import { inputValidationFailed } from './errors';

export interface Operation {
	/** The tRPC procedure (`data.path` of Documenso's error answers). */
	procedure: string;
	method: 'GET' | 'POST';
	/** Fastify's form of the OpenAPI path under /api/v2. */
	url: string;
	request: ZodTypeAny;
	/** Absent for the PDF routes (Documenso's hono `downloadRoute` shadows the tRPC ones). */
	response?: ZodTypeAny;
	/**
	 * multipart/form-data (`contentTypes` in the route's openapi meta): `request` is then the
	 * schema of its `payload` part, a JSON text; the files come in `files` parts.
	 */
	multipart?: boolean;
}

const operation = (
	procedure: string,
	method: Operation['method'],
	url: string,
	request: ZodTypeAny,
	response?: ZodTypeAny,
): Operation => ({ procedure, method, url: `/api/v2${url}`, request, response });

/** Routes as packages/trpc/server/*-router declare them (openapi meta) at v2.17.0. */
export const OPERATIONS = {
	findTemplates: operation(
		'template.findTemplates',
		'GET',
		'/template',
		TemplateFindTemplatesRequest$inboundSchema,
		TemplateFindTemplatesResponse$inboundSchema,
	),
	getTemplate: operation(
		'template.getTemplateById',
		'GET',
		'/template/:templateId',
		TemplateGetTemplateByIdRequest$inboundSchema,
		TemplateGetTemplateByIdResponse$inboundSchema,
	),
	useTemplate: operation(
		'template.createDocumentFromTemplate',
		'POST',
		'/template/use',
		TemplateCreateDocumentFromTemplateRequest$inboundSchema,
		TemplateCreateDocumentFromTemplateResponse$inboundSchema,
	),
	findDocuments: operation(
		'document.find',
		'GET',
		'/document',
		DocumentFindRequest$inboundSchema,
		DocumentFindResponse$inboundSchema,
	),
	getDocument: operation(
		'document.get',
		'GET',
		'/document/:documentId',
		DocumentGetRequest$inboundSchema,
		DocumentGetResponse$inboundSchema,
	),
	distributeDocument: operation(
		'document.distribute',
		'POST',
		'/document/distribute',
		DocumentDistributeRequest$inboundSchema,
		DocumentDistributeResponse$inboundSchema,
	),
	redistributeDocument: operation(
		'document.redistribute',
		'POST',
		'/document/redistribute',
		DocumentRedistributeRequest$inboundSchema,
		DocumentRedistributeResponse$inboundSchema,
	),
	deleteDocument: operation(
		'document.delete',
		'POST',
		'/document/delete',
		DocumentDeleteRequest$inboundSchema,
		DocumentDeleteResponse$inboundSchema,
	),
	downloadDocument: operation(
		'document.download',
		'GET',
		'/document/:documentId/download',
		DocumentDownloadRequest$inboundSchema,
	),
	cancelEnvelope: operation(
		'envelope.cancel',
		'POST',
		'/envelope/cancel',
		EnvelopeCancelRequest$inboundSchema,
		EnvelopeCancelResponse$inboundSchema,
	),
	findEnvelopeAuditLogs: operation(
		'envelope.auditLog.find',
		'GET',
		'/envelope/:envelopeId/audit-log',
		EnvelopeAuditLogFindRequest$inboundSchema,
		EnvelopeAuditLogFindResponse$inboundSchema,
	),
	downloadEnvelopeItem: operation(
		'envelope.item.download',
		'GET',
		'/envelope/item/:envelopeItemId/download',
		EnvelopeItemDownloadRequest$inboundSchema,
	),
	createEnvelope: {
		...operation(
			'envelope.create',
			'POST',
			'/envelope/create',
			EnvelopeCreatePayload$inboundSchema,
			EnvelopeCreateResponse$inboundSchema,
		),
		multipart: true,
	},
	getEnvelope: operation(
		'envelope.get',
		'GET',
		'/envelope/:envelopeId',
		EnvelopeGetRequest$inboundSchema,
		EnvelopeGetResponse$inboundSchema,
	),
	getEnvelopesByIds: operation(
		'envelope.getMany',
		'POST',
		'/envelope/get-many',
		EnvelopeGetManyRequest$inboundSchema,
		EnvelopeGetManyResponse$inboundSchema,
	),
	useEnvelope: {
		...operation(
			'envelope.use',
			'POST',
			'/envelope/use',
			EnvelopeUsePayload$inboundSchema,
			EnvelopeUseResponse$inboundSchema,
		),
		multipart: true,
	},
	redistributeEnvelope: operation(
		'envelope.redistribute',
		'POST',
		'/envelope/redistribute',
		EnvelopeRedistributeRequest$inboundSchema,
		EnvelopeRedistributeResponse$inboundSchema,
	),
	findEnvelopes: operation(
		'envelope.find',
		'GET',
		'/envelope',
		EnvelopeFindRequest$inboundSchema,
		EnvelopeFindResponse$inboundSchema,
	),
	createEnvelopeFields: operation(
		'envelope.field.createMany',
		'POST',
		'/envelope/field/create-many',
		EnvelopeFieldCreateManyRequest$inboundSchema,
		EnvelopeFieldCreateManyResponse$inboundSchema,
	),
	distributeEnvelope: operation(
		'envelope.distribute',
		'POST',
		'/envelope/distribute',
		EnvelopeDistributeRequest$inboundSchema,
		EnvelopeDistributeResponse$inboundSchema,
	),
	deleteEnvelope: operation(
		'envelope.delete',
		'POST',
		'/envelope/delete',
		EnvelopeDeleteRequest$inboundSchema,
		EnvelopeDeleteResponse$inboundSchema,
	),
	createEnvelopeRecipients: operation(
		'envelope.recipient.createMany',
		'POST',
		'/envelope/recipient/create-many',
		EnvelopeRecipientCreateManyRequest$inboundSchema,
		EnvelopeRecipientCreateManyResponse$inboundSchema,
	),
	updateEnvelopeRecipients: operation(
		'envelope.recipient.updateMany',
		'POST',
		'/envelope/recipient/update-many',
		EnvelopeRecipientUpdateManyRequest$inboundSchema,
		EnvelopeRecipientUpdateManyResponse$inboundSchema,
	),
	deleteEnvelopeRecipient: operation(
		'envelope.recipient.delete',
		'POST',
		'/envelope/recipient/delete',
		EnvelopeRecipientDeleteRequest$inboundSchema,
		EnvelopeRecipientDeleteResponse$inboundSchema,
	),
	updateEnvelopeItems: operation(
		'envelope.item.updateMany',
		'POST',
		'/envelope/item/update-many',
		EnvelopeItemUpdateManyRequest$inboundSchema,
		EnvelopeItemUpdateManyResponse$inboundSchema,
	),
	deleteEnvelopeItem: operation(
		'envelope.item.delete',
		'POST',
		'/envelope/item/delete',
		EnvelopeItemDeleteRequest$inboundSchema,
		EnvelopeItemDeleteResponse$inboundSchema,
	),
	// The SDK's request nests the body under `requestBody`; the route reads path and body as one input.
	rejectEnvelopeRecipientOnBehalfOf: operation(
		'envelope.recipient.rejectOnBehalfOf',
		'POST',
		'/envelope/recipient/:recipientId/reject',
		(EnvelopeRecipientRejectOnBehalfOfRequestBody$inboundSchema as unknown as z.AnyZodObject).extend({
			recipientId: z.number(),
		}),
		EnvelopeRecipientRejectOnBehalfOfResponse$inboundSchema,
	),
	getEnvelopeRecipient: operation(
		'envelope.recipient.get',
		'GET',
		'/envelope/recipient/:recipientId',
		EnvelopeRecipientGetRequest$inboundSchema,
		EnvelopeRecipientGetResponse$inboundSchema,
	),
	updateEnvelopeFields: operation(
		'envelope.field.updateMany',
		'POST',
		'/envelope/field/update-many',
		EnvelopeFieldUpdateManyRequest$inboundSchema,
		EnvelopeFieldUpdateManyResponse$inboundSchema,
	),
	deleteEnvelopeField: operation(
		'envelope.field.delete',
		'POST',
		'/envelope/field/delete',
		EnvelopeFieldDeleteRequest$inboundSchema,
		EnvelopeFieldDeleteResponse$inboundSchema,
	),
	getEnvelopeField: operation(
		'envelope.field.get',
		'GET',
		'/envelope/field/:fieldId',
		EnvelopeFieldGetRequest$inboundSchema,
		EnvelopeFieldGetResponse$inboundSchema,
	),
	updateEnvelope: operation(
		'envelope.update',
		'POST',
		'/envelope/update',
		EnvelopeUpdateRequest$inboundSchema,
		EnvelopeUpdateResponse$inboundSchema,
	),
	duplicateEnvelope: operation(
		'envelope.duplicate',
		'POST',
		'/envelope/duplicate',
		EnvelopeDuplicateRequest$inboundSchema,
		EnvelopeDuplicateResponse$inboundSchema,
	),
	findFolders: operation(
		'folder.findFolders',
		'GET',
		'/folder',
		FolderFindFoldersRequest$inboundSchema,
		FolderFindFoldersResponse$inboundSchema,
	),
	createFolder: operation(
		'folder.createFolder',
		'POST',
		'/folder/create',
		FolderCreateFolderRequest$inboundSchema,
		FolderCreateFolderResponse$inboundSchema,
	),
	updateFolder: operation(
		'folder.updateFolder',
		'POST',
		'/folder/update',
		FolderUpdateFolderRequest$inboundSchema,
		FolderUpdateFolderResponse$inboundSchema,
	),
	deleteFolder: operation(
		'folder.deleteFolder',
		'POST',
		'/folder/delete',
		FolderDeleteFolderRequest$inboundSchema,
		FolderDeleteFolderResponse$inboundSchema,
	),
	createEnvelopeAttachment: operation(
		'envelope.attachment.create',
		'POST',
		'/envelope/attachment/create',
		EnvelopeAttachmentCreateRequest$inboundSchema,
		EnvelopeAttachmentCreateResponse$inboundSchema,
	),
	findEnvelopeAttachments: operation(
		'envelope.attachment.find',
		'GET',
		'/envelope/attachment',
		EnvelopeAttachmentFindRequest$inboundSchema,
		EnvelopeAttachmentFindResponse$inboundSchema,
	),
	deleteEnvelopeAttachment: operation(
		'envelope.attachment.delete',
		'POST',
		'/envelope/attachment/delete',
		EnvelopeAttachmentDeleteRequest$inboundSchema,
		EnvelopeAttachmentDeleteResponse$inboundSchema,
	),
	downloadAuditLogPdf: operation(
		'envelope.auditLog.download',
		'GET',
		'/envelope/:envelopeId/audit-log/download',
		EnvelopeAuditLogDownloadPdfRequest$inboundSchema,
	),
	downloadCertificatePdf: operation(
		'envelope.certificate.download',
		'GET',
		'/envelope/:envelopeId/certificate/download',
		EnvelopeCertificateDownloadPdfRequest$inboundSchema,
	),
} as const;

export type OperationName = keyof typeof OPERATIONS;

/** What the sandbox keeps of a multipart request, part by part (the request log, `parseMultipart`). */
export interface MultipartRecord {
	multipart: true;
	parts: Array<{ name: string; fileName?: string; type?: string; size: number; sha256?: string; json?: unknown; text?: string }>;
}

export const isMultipartRecord = (body: unknown): body is MultipartRecord =>
	body !== null && typeof body === 'object' && (body as MultipartRecord).multipart === true;

/** zfdFile (packages/trpc/utils/zod-form-data.ts): APP_DOCUMENT_UPLOAD_SIZE_LIMIT, 50 MB by default. */
export const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;

/**
 * A multipart request part by part as Documenso's route reads it (getMultipartBody in
 * packages/trpc/utils/openapi-fetch-handler.ts, then ZCreateEnvelopeRequestSchema): exactly one
 * `payload` part, JSON, parsing under the SDK's payload schema; each other part a file named
 * `files` (or `files[]`, as Documenso's SDKs send it) of at most the upload limit. The issues
 * name the part.
 */
export function multipartIssues(op: Operation, record: MultipartRecord): ZodIssue[] {
	const issues: ZodIssue[] = [];
	const payloads = record.parts.filter((part) => part.name === 'payload');
	if (payloads.length !== 1) issues.push(issue(['payload'], `Expected one payload part, got ${payloads.length}`, 'invalid_type'));
	const [payload] = payloads;
	if (payload && payload.fileName !== undefined) issues.push(issue(['payload'], 'The payload part must be a field, not a file'));
	if (payload && payload.fileName === undefined) {
		if (payload.json === undefined) {
			issues.push(issue(['payload'], 'Invalid JSON', 'invalid_string'));
		} else {
			const parsed = op.request.safeParse(payload.json);
			if (!parsed.success) issues.push(...parsed.error.issues.map((found) => ({ ...found, path: ['payload', ...found.path] })));
			else issues.push(...unknownKeys(payload.json, parsed.data, ['payload']));
		}
	}
	record.parts
		.filter((part) => part.name !== 'payload')
		.forEach((part, index) => {
			if (part.name !== 'files' && part.name !== 'files[]') {
				issues.push({ code: 'unrecognized_keys', keys: [part.name], path: [], message: `Unrecognized key(s) in object: '${part.name}'` });
			} else if (part.fileName === undefined) {
				issues.push(issue(['files', index], 'Input not instance of File', 'custom'));
			} else if (part.size > UPLOAD_LIMIT_BYTES) {
				issues.push(issue(['files', index], 'File cannot be larger than 50MB'));
			}
		});
	return issues;
}

/** The schema beneath optional/default/nullable wrappers, to read what a query parameter is. */
function innerType(schema: ZodTypeAny): ZodTypeAny {
	const def = schema._def as {
		innerType?: ZodTypeAny;
		schema?: ZodTypeAny;
		getter?: () => ZodTypeAny;
	};
	if (def.innerType) return innerType(def.innerType);
	if (def.getter) return innerType(def.getter());
	return schema;
}

/**
 * Query and path parameters arrive as strings; trpc-to-openapi coerces them to what the
 * procedure's schema declares (numbers here), so `perPage=abc` fails as NaN.
 */
export function coerceParameters(
	op: Operation,
	raw: Record<string, unknown>,
): Record<string, unknown> {
	const shape = (op.request as unknown as { shape?: Record<string, ZodTypeAny> }).shape ?? {};
	return Object.fromEntries(
		Object.entries(raw).map(([name, value]) => {
			const type = shape[name] ? innerType(shape[name])._def.typeName : undefined;
			return [name, type === 'ZodNumber' && typeof value === 'string' ? Number(value) : value];
		}),
	);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);

/**
 * The keys a schema dropped. Documenso's zod objects strip unknown keys silently; the sandbox
 * refuses them, with the issue `.strict()` would give, so that a test sees a field Documenso
 * would ignore (a recipient's `role` on /template/use, say).
 */
function unknownKeys(
	input: unknown,
	output: unknown,
	path: Array<string | number> = [],
): ZodIssue[] {
	if (Array.isArray(input) && Array.isArray(output)) {
		return input.flatMap((entry, index) => unknownKeys(entry, output[index], [...path, index]));
	}
	if (!isPlainObject(input) || !isPlainObject(output)) return [];
	const dropped = Object.keys(input).filter((key) => !(key in output));
	const issues: ZodIssue[] = dropped.length
		? [
				{
					code: 'unrecognized_keys',
					keys: dropped,
					path,
					message: `Unrecognized key(s) in object: ${dropped.map((key) => `'${key}'`).join(', ')}`,
				},
			]
		: [];
	return [
		...issues,
		...Object.keys(input)
			.filter((key) => key in output)
			.flatMap((key) => unknownKeys(input[key], output[key], [...path, key])),
	];
}

/** The request as the SDK's schema reads it, or Documenso's 400 "Input validation failed". */
export function parseRequest<T = Record<string, unknown>>(
	op: Operation,
	input: unknown,
	serverRules: (value: T) => ZodIssue[] = () => [],
): T {
	const result = op.request.safeParse(input);
	if (!result.success) throw inputValidationFailed(op.procedure, result.error.issues);
	const issues = [...unknownKeys(input, result.data), ...serverRules(result.data as T)];
	if (issues.length > 0) throw inputValidationFailed(op.procedure, issues);
	return result.data as T;
}

/** The answer, once it parses under the SDK's response schema. */
export function checkAnswer<T>(op: Operation, answer: T): T {
	const result = op.response?.safeParse(answer);
	if (result && !result.success) {
		throw new Error(
			`Sandbox bug: the answer of ${op.procedure} does not parse under the SDK's response schema: ${JSON.stringify(result.error.issues.slice(0, 3))}`,
		);
	}
	return answer;
}

/** A zod-style issue for a rule Documenso's server adds to what the SDK's schema checks. */
export const issue = (path: Array<string | number>, message: string, code = 'custom'): ZodIssue =>
	({ code, path, message }) as ZodIssue;
