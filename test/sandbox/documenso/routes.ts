/**
 * Documenso's API v2 routes that the Signing node needs, each as its source at tag v2.17.0 has
 * it: the request parsed with the SDK's request schema (plus the few rules Documenso's own
 * schemas add), the state changed as the server-only code does, the answer checked against the
 * SDK's response schema.
 */
import { createHash } from 'node:crypto';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodIssue } from 'zod/v3';

import { contentDisposition } from '../signingPdf';
import { appError, downloadError, plainError } from './errors';
import {
	auditLogView,
	documentLiteView,
	documentManyView,
	documentView,
	type Envelope,
	envelopePdf,
	itemsOf,
	signersWithoutSignatureField,
	templateManyView,
	templateView,
} from './model';
import { checkPrefill, type Prefill } from './prefill';
import {
	checkAnswer,
	coerceParameters,
	issue,
	OPERATIONS,
	type OperationName,
	parseRequest,
} from './sdk';
import type { Actor, DocumensoStore } from './store';

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** ZFindSearchParamsSchema (packages/lib/types/search-params.ts): page ≥ 1, 1 ≤ perPage ≤ 100. */
const pagingRules = (input: { page?: number; perPage?: number }): ZodIssue[] => [
	...(input.page !== undefined && input.page < 1
		? [issue(['page'], 'Number must be greater than or equal to 1', 'too_small')]
		: []),
	...(input.perPage !== undefined && (input.perPage < 1 || input.perPage > 100)
		? [
				issue(
					['perPage'],
					'Number must be between 1 and 100',
					input.perPage < 1 ? 'too_small' : 'too_big',
				),
			]
		: []),
];

/**
 * sendDocument's refusal of a signer without a signature field (send-document.ts,
 * getRecipientsWithMissingFields): AppError MISSING_SIGNATURE_FIELD, 400.
 */
export function mustHaveSignatureFields(procedure: string, document: Envelope): void {
	const missing = signersWithoutSignatureField(document);
	if (missing.length === 0) return;
	const described = missing
		.map((r) => (r.name ? `${r.name} (${r.email}, id: ${r.id})` : `${r.email} (id: ${r.id})`))
		.join(', ');
	throw appError(
		procedure,
		'MISSING_SIGNATURE_FIELD',
		`The following recipients are missing required fields: ${described}. Signers must have at least one signature field.`,
	);
}

/** FindResultResponse: `{data, count, currentPage, perPage, totalPages}`. */
function page<T>(rows: T[], input: { page?: number; perPage?: number }, defaultPerPage: number) {
	const currentPage = input.page ?? 1;
	const perPage = input.perPage ?? defaultPerPage;
	return {
		data: rows.slice((currentPage - 1) * perPage, currentPage * perPage),
		count: rows.length,
		currentPage,
		perPage,
		totalPages: Math.ceil(rows.length / perPage),
	};
}

const newestFirst = (a: Envelope, b: Envelope) =>
	b.createdAt.localeCompare(a.createdAt) || b.legacyId - a.legacyId;

/** handleStaticFileRequest (apps/remix/server/api/files/files.helpers.ts) with isDownload. */
async function sendPdf(reply: FastifyReply, document: Envelope, version: 'signed' | 'original', itemId?: string) {
	const bytes = envelopePdf(document, version, itemId);
	const item = itemsOf(document).find((candidate) => candidate.id === itemId) ?? document.item;
	const base = item.title.replace(/\.pdf$/, '');
	return await reply
		.type('application/pdf')
		.header('etag', createHash('sha256').update(bytes).digest('hex'))
		.header(
			'content-disposition',
			contentDisposition(version === 'signed' ? `${base}_signed` : base),
		)
		.header('cache-control', 'no-cache, no-store, must-revalidate')
		.header('pragma', 'no-cache')
		.header('expires', '0')
		.send(bytes);
}

export type RouteHandler<T> = (input: T, request: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * Registers tRPC routes under /api/v2: path and query (GET) or body (POST) in one input, as
 * trpc-to-openapi reads them, parsed with the SDK's request schema (and `serverRules`, what
 * Documenso's own schema adds); the JSON answer checked with the SDK's response schema.
 */
export function documensoRoute(app: FastifyInstance) {
	return <T>(name: OperationName, handler: RouteHandler<T>, serverRules?: (input: T) => ZodIssue[]) => {
		const op = OPERATIONS[name];
		app.route({
			method: op.method,
			url: op.url,
			handler: async (request, reply) => {
				const params = coerceParameters(op, request.params as Record<string, unknown>);
				const body = request.body;
				const raw =
					op.method === 'GET'
						? { ...coerceParameters(op, request.query as Record<string, unknown>), ...params }
						: body !== null && typeof body === 'object' && !Array.isArray(body)
							? { ...body, ...params }
							: (body ?? params);
				const input = parseRequest<T>(op, raw, serverRules);
				const answer = await handler(input, request, reply);
				return reply.sent ? reply : checkAnswer(op, answer);
			},
		});
	};
}

export function registerDocumensoRoutes(app: FastifyInstance, store: DocumensoStore): void {
	const actorOf = (request: FastifyRequest): Actor => ({
		ipAddress: request.ip,
		userAgent: request.headers['user-agent'] ?? null,
	});

	const route = documensoRoute(app);

	const findDocument = (procedure: string, documentId: number) => {
		const document = store.documents.get(documentId);
		if (!document) throw appError(procedure, 'NOT_FOUND', 'Envelope could not be found');
		return document;
	};

	route<{ page?: number; perPage?: number; query?: string; type?: string; folderId?: string }>(
		'findTemplates',
		(input) => {
			const rows = [...store.templates.values()]
				.filter(
					(template) =>
						!input.query || template.title.toLowerCase().includes(input.query.toLowerCase()),
				)
				.filter(() => input.type === undefined || input.type === 'PRIVATE')
				// find-templates.ts: without folderId, the root folder only.
				.filter((template) => (template.folderId ?? null) === (input.folderId ?? null))
				.sort(newestFirst);
			const result = page(rows, input, 10);
			return { ...result, data: result.data.map(templateManyView) };
		},
		pagingRules,
	);

	route<{ templateId: number }>('getTemplate', (input) => {
		const template = store.templates.get(input.templateId);
		if (!template) throw appError('template.getTemplateById', 'NOT_FOUND', 'Template not found');
		return templateView(template);
	});

	route<{
		templateId: number;
		recipients: Array<{ id: number; email: string; name?: string; signingOrder?: number }>;
		distributeDocument?: boolean;
		externalId?: string;
		prefillFields?: Prefill[];
		override?: { title?: string; redirectUrl?: string };
		formValues?: Record<string, string | boolean | number>;
		folderId?: string;
	}>(
		'useTemplate',
		(input, request) => {
			const procedure = OPERATIONS.useTemplate.procedure;
			const template = store.templates.get(input.templateId);
			if (!template) throw appError(procedure, 'NOT_FOUND', 'Template not found');
			if (input.folderId && !store.folders.has(input.folderId)) throw appError(procedure, 'NOT_FOUND', 'Folder not found');
			for (const recipient of input.recipients) {
				if (!template.recipients.some((slot) => slot.id === recipient.id)) {
					throw appError(
						procedure,
						'INVALID_BODY',
						`Recipient with ID ${recipient.id} not found in the template.`,
					);
				}
			}
			const prefill = checkPrefill(procedure, template, input.prefillFields ?? [], store.timeZone);
			const document = store.createFromTemplate(
				template,
				{ ...input, prefill: (fieldId) => prefill.get(fieldId) },
				actorOf(request),
			);
			if (input.folderId) document.folderId = input.folderId;
			// The draft is made first and stays when sending fails: the router rethrows an AppError
			// of sendDocument as it is (template-router/router.ts, createDocumentFromTemplate).
			if (input.distributeDocument) {
				mustHaveSignatureFields(procedure, document);
				store.send(document, actorOf(request));
			}
			return documentView(document);
		},
		// ZCreateDocumentFromTemplateRequestSchema's own rules (template-router/schema.ts).
		(input) => [
			...input.recipients.flatMap((recipient, index) => [
				...(recipient.email === '' || EMAIL.test(recipient.email)
					? []
					: [issue(['recipients', index, 'email'], 'Invalid email', 'invalid_string')]),
				...((recipient.name ?? '').length > 255
					? [
							issue(
								['recipients', index, 'name'],
								'String must contain at most 255 character(s)',
								'too_big',
							),
						]
					: []),
			]),
			...(input.override?.title !== undefined &&
			(input.override.title.length < 1 || input.override.title.length > 255)
				? [issue(['override', 'title'], 'String must contain between 1 and 255 character(s)')]
				: []),
			...(input.override?.redirectUrl && !/^https?:\/\/\S+$/.test(input.override.redirectUrl)
				? [
						issue(
							['override', 'redirectUrl'],
							'Please enter a valid URL, make sure you include http:// or https:// part of the url.',
						),
					]
				: []),
		],
	);

	route<{
		page?: number;
		perPage?: number;
		query?: string;
		templateId?: number;
		status?: string;
		source?: string;
		orderByDirection: 'asc' | 'desc';
		folderId?: string;
	}>(
		'findDocuments',
		(input) => {
			const rows = [...store.documents.values()]
				.filter((document) => document.deletedAt === null)
				// find-documents.ts: without folderId, the root folder only.
				.filter((document) => (document.folderId ?? null) === (input.folderId ?? null))
				.filter((document) => input.status === undefined || document.status === input.status)
				.filter(
					(document) => input.templateId === undefined || document.templateId === input.templateId,
				)
				.filter((document) => input.source === undefined || document.source === input.source)
				.filter(
					(document) =>
						!input.query || document.title.toLowerCase().includes(input.query.toLowerCase()),
				)
				.sort(newestFirst);
			if (input.orderByDirection === 'asc') rows.reverse();
			const result = page(rows, input, 10);
			return { ...result, data: result.data.map(documentManyView) };
		},
		pagingRules,
	);

	route<{ documentId: number }>('getDocument', (input) =>
		documentView(findDocument('document.get', input.documentId)),
	);

	route<{
		documentId: number;
		meta?: { subject?: string; message?: string; redirectUrl?: string };
	}>('distributeDocument', (input, request) => {
		const procedure = OPERATIONS.distributeDocument.procedure;
		const document = store.documents.get(input.documentId);
		// sendDocument throws a plain Error: Documenso answers 500 (send-document.ts).
		if (!document) throw plainError(procedure, 'Document not found');
		if (['COMPLETED', 'REJECTED', 'CANCELLED'].includes(document.status)) {
			throw plainError(procedure, 'Can not send completed document');
		}
		mustHaveSignatureFields(procedure, document);
		if (input.meta) {
			const { subject, message, redirectUrl } = input.meta;
			document.meta.subject = subject ?? document.meta.subject;
			document.meta.message = message ?? document.meta.message;
			document.meta.redirectUrl = redirectUrl ?? document.meta.redirectUrl;
		}
		store.send(document, actorOf(request));
		return documentLiteView(document);
	});

	route<{ documentId: number; recipients: number[] }>(
		'redistributeDocument',
		(input, request) => {
			const procedure = OPERATIONS.redistributeDocument.procedure;
			const document = store.documents.get(input.documentId);
			if (!document) throw plainError(procedure, 'Document not found');
			if (document.status === 'DRAFT') throw plainError(procedure, 'Can not send draft document');
			if (document.status !== 'PENDING')
				throw plainError(procedure, 'Can not send completed document');
			store.remind(document, input.recipients, actorOf(request));
			return { success: true };
		},
		// ZRedistributeDocumentRequestSchema: recipients .min(1).
		(input) =>
			input.recipients.length === 0
				? [issue(['recipients'], 'Array must contain at least 1 element(s)', 'too_small')]
				: [],
	);

	route<{ documentId: number }>('deleteDocument', (input, request) => {
		const procedure = OPERATIONS.deleteDocument.procedure;
		const document = store.documents.get(input.documentId);
		if (!document) throw appError(procedure, 'NOT_FOUND', 'Document not found');
		store.delete(document, actorOf(request));
		return { success: true };
	});

	route<{ envelopeId: string; reason?: string }>('cancelEnvelope', (input, request) => {
		const procedure = OPERATIONS.cancelEnvelope.procedure;
		if (!/^envelope_.{2,}$/.test(input.envelopeId))
			throw appError(procedure, 'INVALID_BODY', 'Invalid envelope ID');
		const envelope = store.findEnvelope(input.envelopeId);
		if (!envelope || envelope.type !== 'DOCUMENT')
			throw appError(procedure, 'NOT_FOUND', 'Document not found');
		if (envelope.status !== 'PENDING') {
			throw appError(procedure, 'INVALID_REQUEST', 'Only pending documents can be cancelled');
		}
		store.cancel(envelope, input.reason, actorOf(request));
		return { success: true };
	});

	route<{ envelopeId: string; page?: number; perPage?: number; orderByDirection?: 'asc' | 'desc' }>(
		'findEnvelopeAuditLogs',
		(input) => {
			const procedure = OPERATIONS.findEnvelopeAuditLogs.procedure;
			if (!/^envelope_.{2,}$/.test(input.envelopeId))
				throw appError(procedure, 'INVALID_BODY', 'Invalid envelope ID');
			const envelope = store.findEnvelope(input.envelopeId);
			if (!envelope) throw appError(procedure, 'NOT_FOUND');
			if (envelope.type !== 'DOCUMENT')
				throw appError(procedure, 'INVALID_REQUEST', 'Templates do not have audit logs.');
			// find-envelope-audit-logs.ts: 50 a page, newest first unless asked otherwise.
			const rows = [...envelope.auditLogs];
			if ((input.orderByDirection ?? 'desc') === 'desc') rows.reverse();
			const result = page(rows, input, 50);
			return { ...result, data: result.data.map((entry) => auditLogView(envelope, entry)) };
		},
		pagingRules,
	);

	// apps/remix/server/api/download/download.ts reads `version` from the path parameters, where
	// it never is: Documenso always serves this route's `signed` file, whatever the query says.
	route<{ documentId: number; version: 'signed' | 'original' }>(
		'downloadDocument',
		async (input, _request, reply) => {
			const document = store.documents.get(input.documentId);
			if (!document) throw downloadError(404, 'Document not found');
			return await sendPdf(reply, document, 'signed');
		},
	);

	route<{ envelopeItemId: string; version?: 'signed' | 'original' | 'pending' }>(
		'downloadEnvelopeItem',
		async (input, _request, reply) => {
			const document = [...store.documents.values()].find((candidate) =>
				itemsOf(candidate).some((item) => item.id === input.envelopeItemId),
			);
			if (!document) throw downloadError(404, 'Envelope item not found');
			const version = input.version ?? 'signed';
			if (version === 'pending') {
				if (document.status !== 'PENDING') {
					const code = {
						DRAFT: 'ENVELOPE_DRAFT',
						COMPLETED: 'ENVELOPE_COMPLETED',
						REJECTED: 'ENVELOPE_REJECTED',
					}[document.status as string];
					throw downloadError(
						400,
						`Envelope ${document.id} must be pending to download a partially signed PDF`,
						code ?? 'INVALID_REQUEST',
					);
				}
				return await sendPdf(reply, document, 'original', input.envelopeItemId);
			}
			return await sendPdf(reply, document, version, input.envelopeItemId);
		},
	);
}
