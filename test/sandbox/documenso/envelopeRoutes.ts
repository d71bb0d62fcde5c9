/**
 * Documenso's envelope routes beyond cancel and the audit log (packages/trpc/server/envelope-router/,
 * tag v2.17.0): the upload (multipart), reading and finding envelopes, fields at a text of the
 * PDF, sending, deleting. Each request is parsed with the SDK's request schema (a multipart one
 * part by part), each answer checked with its response schema, as routes.ts does.
 */
import { createHash } from 'node:crypto';

import type { FastifyInstance, FastifyRequest } from 'fastify';

import { appError, inputValidationFailed, plainError } from './errors';
import {
	envelopeManyView,
	envelopeView,
	type Envelope,
	type EnvelopeItem,
	type Field,
	type FieldType,
	itemsOf,
	ROLES,
	type Role,
} from './model';
import { findText, readPdfText, type TextMatch } from './pdfText';
import { documensoRoute } from './routes';
import {
	checkAnswer,
	isMultipartRecord,
	issue,
	multipartIssues,
	type MultipartRecord,
	OPERATIONS,
} from './sdk';
import type { Actor, DocumensoStore } from './store';

const MB = 1024 * 1024;

/** What an upload carried besides its record: the files' bytes, for the route. */
const uploadedFiles = new WeakMap<FastifyRequest, Array<{ fileName: string; bytes: Buffer }>>();

/** Documenso's own tags (auto-place-fields.ts, PLACEHOLDER_REGEX). */
const TAG = /\{\{([^}]+)\}\}/g;
const FIELD_TYPES: FieldType[] = [
	'SIGNATURE',
	'FREE_SIGNATURE',
	'INITIALS',
	'NAME',
	'EMAIL',
	'DATE',
	'TEXT',
	'NUMBER',
	'RADIO',
	'CHECKBOX',
	'DROPDOWN',
];

/** A match's box in percent of its page, top-left origin (convertPlaceholdersToFieldInputs, create-envelope-fields.ts). */
function percentBox(
	page: { width: number; height: number },
	match: TextMatch,
	size: { width?: number; height?: number } = {},
) {
	const topLeftY = page.height - match.bbox.y - match.bbox.height;
	return {
		page: match.pageIndex + 1,
		positionX: (match.bbox.x / page.width) * 100,
		positionY: (topLeftY / page.height) * 100,
		width: size.width ?? (match.bbox.width / page.width) * 100,
		height: size.height ?? (match.bbox.height / page.height) * 100,
	};
}

export function registerEnvelopeRoutes(app: FastifyInstance, store: DocumensoStore): void {
	const route = documensoRoute(app);
	const actorOf = (request: FastifyRequest): Actor => ({
		ipAddress: request.ip,
		userAgent: request.headers['user-agent'] ?? null,
	});
	const webappUrl = (request: FastifyRequest) => `${request.protocol}://${request.headers.host}`;

	/** getMultipartBody (packages/trpc/utils/openapi-fetch-handler.ts): the parts, kept part by part. */
	app.addContentTypeParser(
		'multipart/form-data',
		{ parseAs: 'buffer', bodyLimit: 256 * MB },
		async (request: FastifyRequest, body: Buffer) => {
			let form: FormData;
			try {
				form = await new Response(body, {
					headers: { 'content-type': String(request.headers['content-type']) },
				}).formData();
			} catch (error) {
				throw inputValidationFailed(OPERATIONS.createEnvelope.procedure, [
					issue([], `The multipart body could not be read: ${(error as Error).message}`),
				]);
			}
			const record: MultipartRecord = { multipart: true, parts: [] };
			const files: Array<{ fileName: string; bytes: Buffer }> = [];
			for (const [name, value] of form.entries()) {
				if (typeof value === 'string') {
					let json: unknown;
					try {
						json = JSON.parse(value);
					} catch {
						json = undefined;
					}
					record.parts.push({
						name,
						size: Buffer.byteLength(value),
						json,
						...(json === undefined ? { text: value.slice(0, 200) } : {}),
					});
				} else {
					const bytes = Buffer.from(await value.arrayBuffer());
					record.parts.push({
						name,
						fileName: value.name,
						type: value.type,
						size: bytes.length,
						sha256: createHash('sha256').update(bytes).digest('hex'),
					});
					files.push({ fileName: value.name, bytes });
				}
			}
			uploadedFiles.set(request, files);
			return record;
		},
	);

	const envelopeOr404 = (
		procedure: string,
		envelopeId: string,
		type?: Envelope['type'],
	): Envelope => {
		if (!/^envelope_.{2,}$/.test(envelopeId))
			throw appError(procedure, 'INVALID_BODY', 'Invalid envelope ID');
		const envelope = store.findEnvelope(envelopeId);
		if (!envelope || (type && envelope.type !== type))
			throw appError(procedure, 'NOT_FOUND', 'Envelope not found');
		return envelope;
	};

	/** Fields from Documenso's own `{{TYPE, rN, …}}` tags, for the Nth recipient (create-envelope.ts). */
	async function taggedFields(envelope: Envelope, item: EnvelopeItem): Promise<Field[]> {
		const pages = await readPdfText(item.pdf ?? Buffer.alloc(0));
		return findText(pages, TAG).flatMap((match) => {
			const [typeText, recipientRef] = match.text
				.slice(2, -2)
				.split(',')
				.map((part) => part.trim());
			const type = typeText.toUpperCase() as FieldType;
			const index = /^r(\d+)$/i.exec(recipientRef ?? '')?.[1];
			if (!FIELD_TYPES.includes(type) || index === undefined) return [];
			let recipient = envelope.recipients[Number(index) - 1];
			if (!recipient && envelope.recipients.length === 0) return [];
			if (!recipient)
				throw appError(
					OPERATIONS.createEnvelope.procedure,
					'NOT_FOUND',
					`Recipient not found for placeholder ${match.text}`,
				);
			recipient = recipient!;
			const box = percentBox(pages[match.pageIndex], match);
			return [store.newField({ recipientId: recipient.id, type, envelopeItemId: item.id, ...box })];
		});
	}

	app.post(OPERATIONS.createEnvelope.url, async (request, reply) => {
		const op = OPERATIONS.createEnvelope;
		const record = request.body;
		if (!isMultipartRecord(record)) {
			throw inputValidationFailed(op.procedure, [issue(['payload'], 'Required', 'invalid_type')]);
		}
		const issues = multipartIssues(op, record);
		if (issues.length > 0) throw inputValidationFailed(op.procedure, issues);
		const payload = op.request.parse(
			record.parts.find((part) => part.name === 'payload')!.json,
		) as {
			title: string;
			type: 'DOCUMENT' | 'TEMPLATE';
			externalId?: string;
			folderId?: string;
			meta?: Record<string, unknown>;
			recipients?: Array<{
				email: string;
				name: string;
				role: Role;
				signingOrder?: number;
				fields?: Array<{
					type: FieldType;
					fieldMeta?: Record<string, unknown>;
					identifier?: string | number;
					page: number;
					positionX: number;
					positionY: number;
					width: number;
					height: number;
				}>;
			}>;
		};
		if (payload.title.length < 1 || payload.title.length > 255) {
			throw inputValidationFailed(op.procedure, [
				issue(['payload', 'title'], 'String must contain between 1 and 255 character(s)'),
			]);
		}
		if (payload.folderId && !store.folders.has(payload.folderId))
			throw appError(op.procedure, 'NOT_FOUND', 'Folder not found');
		const files = uploadedFiles.get(request) ?? [];
		for (const file of files) {
			// convertToPdf (packages/lib/server-only/document-conversion): without a converter, PDFs only.
			if (!file.bytes.subarray(0, 1024).includes('%PDF-')) {
				throw appError(op.procedure, 'INVALID_BODY', `File ${file.fileName} is not a PDF`);
			}
		}
		const envelope = store.createUpload(
			{
				type: payload.type,
				title: payload.title,
				externalId: payload.externalId,
				folderId: payload.folderId,
				meta: payload.meta as Parameters<DocumensoStore['createUpload']>[0]['meta'],
				recipients: (payload.recipients ?? []).map((recipient) => ({
					...recipient,
					role: ROLES.includes(recipient.role) ? recipient.role : 'SIGNER',
				})),
			},
			files.map((file) => ({ title: file.fileName, pdf: file.bytes })),
			actorOf(request),
		);
		const items = itemsOf(envelope);
		(payload.recipients ?? []).forEach((recipient, index) => {
			for (const field of recipient.fields ?? []) {
				const item =
					typeof field.identifier === 'string'
						? items.find((candidate) => candidate.title === field.identifier)
						: items[field.identifier ?? 0];
				if (!item) throw appError(op.procedure, 'NOT_FOUND', 'Document data not found');
				const { type, fieldMeta, page, positionX, positionY, width, height } = field;
				const placed = { type, fieldMeta, page, positionX, positionY, width, height };
				envelope.fields.push(
					store.newField({
						...placed,
						recipientId: envelope.recipients[index].id,
						envelopeItemId: item.id,
					}),
				);
			}
		});
		for (const item of items) envelope.fields.push(...(await taggedFields(envelope, item)));
		return await reply.send(checkAnswer(op, { id: envelope.id }));
	});

	route<{ envelopeId: string }>('getEnvelope', (input) =>
		envelopeView(envelopeOr404(OPERATIONS.getEnvelope.procedure, input.envelopeId)),
	);

	route<{
		type?: 'DOCUMENT' | 'TEMPLATE';
		status?: string;
		query?: string;
		folderId?: string;
		page?: number;
		perPage?: number;
		orderByDirection: 'asc' | 'desc';
		templateId?: number;
		source?: string;
	}>('findEnvelopes', (input) => {
		const query = (input.query ?? '').trim().toLowerCase();
		const rows = [...store.documents.values(), ...store.templates.values()]
			.filter((envelope) => envelope.deletedAt === null)
			// find-envelopes.ts: without folderId, the root folder only.
			.filter((envelope) => (envelope.folderId ?? null) === (input.folderId ?? null))
			.filter((envelope) => !input.type || envelope.type === input.type)
			.filter((envelope) => !input.status || envelope.status === input.status)
			.filter((envelope) => input.templateId === undefined || envelope.templateId === input.templateId)
			.filter((envelope) => !input.source || envelope.source === input.source)
			.filter(
				(envelope) =>
					query === '' ||
					envelope.title.toLowerCase().includes(query) ||
					(envelope.externalId ?? '').toLowerCase().includes(query) ||
					envelope.recipients.some((recipient) =>
						`${recipient.email} ${recipient.name}`.toLowerCase().includes(query),
					),
			)
			.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.legacyId - a.legacyId);
		if (input.orderByDirection === 'asc') rows.reverse();
		const currentPage = input.page ?? 1;
		const perPage = input.perPage ?? 10;
		return {
			data: rows.slice((currentPage - 1) * perPage, currentPage * perPage).map(envelopeManyView),
			count: rows.length,
			currentPage,
			perPage,
			totalPages: Math.ceil(rows.length / perPage),
		};
	});

	type CreateField = {
		type: FieldType;
		fieldMeta?: Record<string, unknown>;
		recipientId: number;
		envelopeItemId?: string;
	} & (
		| { page: number; positionX: number; positionY: number; width: number; height: number }
		| { placeholder: string; width?: number; height?: number; matchAll?: boolean }
	);

	/** createEnvelopeFields (packages/lib/server-only/field/create-envelope-fields.ts): every field checked and placed first, then all made. */
	route<{ envelopeId: string; data: CreateField[] }>(
		'createEnvelopeFields',
		async (input) => {
			const procedure = OPERATIONS.createEnvelopeFields.procedure;
			const envelope = envelopeOr404(procedure, input.envelopeId);
			if (envelope.type === 'DOCUMENT' && envelope.completedAt)
				throw appError(procedure, 'INVALID_REQUEST', 'Envelope already complete');
			const items = itemsOf(envelope);
			const texts = new Map<string, Awaited<ReturnType<typeof readPdfText>>>();
			const made: Field[] = [];
			for (const field of input.data) {
				const recipient = envelope.recipients.find(
					(candidate) => candidate.id === field.recipientId,
				);
				if (field.envelopeItemId && !items.some((item) => item.id === field.envelopeItemId)) {
					throw appError(
						procedure,
						'INVALID_REQUEST',
						'Item to attach fields to must belong to the document',
					);
				}
				if (!recipient)
					throw appError(procedure, 'INVALID_REQUEST', `Recipient ${field.recipientId} not found`);
				if (recipient.signingStatus !== 'NOT_SIGNED' || recipient.role === 'CC') {
					throw appError(
						procedure,
						'INVALID_REQUEST',
						'Recipient type cannot have fields, or they have already interacted with the document.',
					);
				}
				const itemId = field.envelopeItemId || items[0].id;
				const base = {
					type: field.type,
					fieldMeta: field.fieldMeta ?? null,
					recipientId: recipient.id,
					envelopeItemId: itemId,
				};
				if ('placeholder' in field) {
					const item = items.find((candidate) => candidate.id === itemId)!;
					if (!texts.has(itemId)) texts.set(itemId, await readPdfText(item.pdf ?? Buffer.alloc(0)));
					const pages = texts.get(itemId)!;
					const matches = findText(pages, field.placeholder);
					if (matches.length === 0)
						throw appError(
							procedure,
							'INVALID_BODY',
							`Placeholder "${field.placeholder}" not found in PDF`,
						);
					for (const match of field.matchAll ? matches : [matches[0]]) {
						made.push(
							store.newField({ ...base, ...percentBox(pages[match.pageIndex], match, field) }),
						);
					}
				} else {
					const { page, positionX, positionY, width, height } = field;
					made.push(store.newField({ ...base, page, positionX, positionY, width, height }));
				}
			}
			envelope.fields.push(...made);
			if (envelope.type === 'DOCUMENT') {
				for (const field of made) {
					store.audit(
						envelope,
						'FIELD_CREATED',
						{
							fieldId: field.secondaryId,
							fieldRecipientId: field.recipientId,
							fieldType: field.type,
						},
						null,
					);
				}
			}
			return {
				data: made.map((field) => ({
					...envelopeView(envelope).fields.find((view) => view.id === field.id)!,
				})),
			};
		},
		(input) =>
			input.data.flatMap((field, index) =>
				'placeholder' in field || (field.page >= 1 && Number.isInteger(field.page))
					? []
					: [
							issue(
								['data', index, 'page'],
								'Number must be greater than or equal to 1',
								'too_small',
							),
						],
			),
	);

	/** distribute-envelope.ts, sendDocument (packages/lib/server-only/document/send-document.ts). */
	route<{
		envelopeId: string;
		meta?: {
			subject?: string;
			message?: string;
			redirectUrl?: string;
			distributionMethod?: 'EMAIL' | 'NONE';
		};
	}>('distributeEnvelope', (input, request) => {
		const procedure = OPERATIONS.distributeEnvelope.procedure;
		const envelope = envelopeOr404(procedure, input.envelopeId, 'DOCUMENT');
		if (input.meta) {
			const { subject, message, redirectUrl, distributionMethod } = input.meta;
			envelope.meta.subject = subject ?? envelope.meta.subject;
			envelope.meta.message = message ?? envelope.meta.message;
			envelope.meta.redirectUrl = redirectUrl ?? envelope.meta.redirectUrl;
			envelope.meta.distributionMethod = distributionMethod ?? envelope.meta.distributionMethod;
		}
		if (envelope.recipients.length === 0) throw plainError(procedure, 'Document has no recipients');
		if (['COMPLETED', 'REJECTED', 'CANCELLED'].includes(envelope.status))
			throw plainError(procedure, 'Can not send completed document');
		const missing = envelope.recipients.filter(
			(recipient) =>
				recipient.role === 'SIGNER' &&
				!envelope.fields.some(
					(field) =>
						field.recipientId === recipient.id &&
						(field.type === 'SIGNATURE' || field.type === 'FREE_SIGNATURE'),
				),
		);
		if (missing.length > 0) {
			throw appError(
				procedure,
				'MISSING_SIGNATURE_FIELD',
				`The following recipients are missing required fields: ${missing.map((r) => `${r.name} (${r.email}, id: ${r.id})`).join(', ')}. Signers must have at least one signature field.`,
			);
		}
		store.send(envelope, actorOf(request));
		return {
			success: true,
			id: envelope.id,
			recipients: envelope.recipients.map((recipient) => ({
				id: recipient.id,
				name: recipient.name,
				email: recipient.email,
				token: recipient.token,
				role: recipient.role,
				signingOrder: recipient.signingOrder,
				signingUrl: `${webappUrl(request)}/sign/${recipient.token}`,
			})),
		};
	});

	/** delete-envelope.ts: a document as deleteDocument does (store.delete), a template removed. */
	route<{ envelopeId: string }>('deleteEnvelope', (input, request) => {
		const envelope = envelopeOr404(OPERATIONS.deleteEnvelope.procedure, input.envelopeId);
		if (envelope.type === 'TEMPLATE') store.templates.delete(envelope.legacyId);
		else store.delete(envelope, actorOf(request));
		return { success: true };
	});
}
