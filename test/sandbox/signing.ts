/** The signing service (CONTRACTS.md, section 1, and Part 2 section 4). */
import { randomBytes } from 'node:crypto';

import type { FastifyReply, FastifyRequest } from 'fastify';

import type { Deliverer } from './deliveries';
import { newestFirst, newId } from './ids';
import { seedTemplates, type SigningTemplate, type TemplateField } from './seed';
import { contentDisposition, documentPdf } from './signingPdf';
import { bearerToken, createService, type Service } from './service';
import { type Clock, isoNow } from './timers';
import {
	badRequest,
	checkBody,
	checkQuery,
	conflict,
	EMAIL_PATTERN,
	httpUrl,
	integerParam,
	nonEmpty,
	notFound,
	oneOf,
} from './validation';

export const SIGNING_ROLES = ['SIGNER', 'APPROVER', 'VIEWER', 'CC'] as const;
/** The parties whose signatures complete a document; the others only receive copies. */
const SIGNING_PARTIES: readonly string[] = ['SIGNER', 'APPROVER'];

interface Recipient {
	recipientId: string;
	name: string;
	email: string;
	role: (typeof SIGNING_ROLES)[number];
	signingStatus: 'NOT_SIGNED' | 'SIGNED' | 'REJECTED';
	signedAt: string | null;
	/** Set when the recipient declined (document.rejected). */
	rejectionReason?: string;
	/** The secret part of the recipient's signing URL. */
	token: string;
}

export const DOCUMENT_STATUSES = [
	'DRAFT',
	'PENDING',
	'COMPLETED',
	'REJECTED',
	'CANCELLED',
] as const;

type AuditType =
	| 'DOCUMENT_CREATED'
	| 'DOCUMENT_SENT'
	| 'DOCUMENT_OPENED'
	| 'DOCUMENT_SIGNED'
	| 'DOCUMENT_REJECTED'
	| 'DOCUMENT_COMPLETED'
	| 'DOCUMENT_CANCELLED'
	| 'INVITATION_RESENT';

interface AuditEntry {
	id: string;
	type: AuditType;
	createdAt: string;
	recipientId: string | null;
	email: string | null;
	ipAddress: string | null;
	userAgent: string | null;
}

/** Who did something, as the audit log records it: the recipient and their browser. */
interface Actor {
	recipient: Recipient;
	ipAddress: string | null;
	userAgent: string | null;
}

interface SigningDocument {
	id: string;
	title: string;
	templateId: string;
	status: (typeof DOCUMENT_STATUSES)[number];
	createdAt: string;
	updatedAt: string;
	completedAt: string | null;
	recipients: Recipient[];
	certifiedPackageUrl: string | null;
	/** As sent to generate-document, when sent. */
	prefillFields?: Array<{ id: string; value: string }>;
	meta?: { subject?: string; message?: string; redirectUrl?: string };
	auditLog: AuditEntry[];
	/** See `PdfSource.pdfPadding`. */
	pdfPadding?: number;
}

interface Endpoint {
	id: string;
	url: string;
	secret?: string;
}

export interface SigningOptions {
	apiKey: string;
	rateLimit: number | null;
	deliverer: Deliverer;
	clock: Clock;
	seed: boolean;
	/** Endpoints the administrator configured in the panel before the sandbox started. */
	endpoints: Array<{ url: string; secret?: string }>;
	logger?: boolean;
}

const signingErrors = {
	send: (reply: FastifyReply, status: number, message: string) =>
		reply.code(status).type('application/json').send({ message }),
};

const recipientView = ({
	recipientId,
	name,
	email,
	role,
	signingStatus,
	signedAt,
	rejectionReason,
}: Recipient) => ({
	recipientId,
	name,
	email,
	role,
	signingStatus,
	signedAt,
	...(rejectionReason === undefined ? {} : { rejectionReason }),
});

/** The document as GET /api/v2/documents/{id} returns it. */
const documentView = (document: SigningDocument) => ({
	id: document.id,
	title: document.title,
	templateId: document.templateId,
	status: document.status,
	createdAt: document.createdAt,
	updatedAt: document.updatedAt,
	completedAt: document.completedAt,
	recipients: document.recipients.map(recipientView),
	certifiedPackageUrl: document.certifiedPackageUrl,
	...(document.prefillFields ? { prefillFields: document.prefillFields } : {}),
	...(document.meta ? { meta: document.meta } : {}),
});

/** page/perPage pagination, as every list of the signing service pages (Part 2 §4). */
function paginate<T>(records: T[], query: Record<string, string | undefined>) {
	const page = integerParam(query.page, 'page', {
		fallback: 1,
		min: 1,
		max: Number.MAX_SAFE_INTEGER,
	});
	const perPage = integerParam(query.perPage, 'perPage', { fallback: 20, min: 1, max: 100 });
	const total = records.length;
	return {
		data: records.slice((page - 1) * perPage, page * perPage),
		pagination: { page, perPage, total, totalPages: Math.ceil(total / perPage) },
	};
}

const TEMPLATE_FIELD_TYPES = ['text', 'number', 'date', 'checkbox', 'dropdown'] as const;

const needsToSign = (recipient: Recipient) =>
	SIGNING_PARTIES.includes(recipient.role) && recipient.signingStatus !== 'SIGNED';

export function createSigningService(
	options: SigningOptions,
): Service & { setPublicUrl(url: string): void } {
	// Known once the server listens; signing URLs point at it.
	let publicUrl = '';
	let templates = new Map<string, SigningTemplate>();
	let documents = new Map<string, SigningDocument>();
	let endpoints: Endpoint[] = [];

	const reset = () => {
		options.deliverer.reset();
		templates = new Map(
			(options.seed ? seedTemplates() : []).map((template) => [template.id, template]),
		);
		documents = new Map();
		endpoints = options.endpoints.map((endpoint) => ({ id: newId('ep'), ...endpoint }));
	};
	reset();

	const service = createService({
		name: 'signing',
		apiKey: options.apiKey,
		presentedKey: bearerToken,
		errors: signingErrors,
		rateLimit: options.rateLimit,
		clock: options.clock,
		openPrefixes: ['/sign/'],
		logger: options.logger,
		reset,
	});
	const { app } = service;

	const findDocument = (request: FastifyRequest) => {
		const document = documents.get((request.params as { documentId: string }).documentId);
		if (!document) throw notFound('Document not found');
		return document;
	};

	/** Queues the event for every endpoint; the payload is the document as it is now. */
	const fire = (event: string, document: SigningDocument, recipient?: Recipient) => {
		const payload = {
			...documentView(document),
			...(recipient ? { recipient: recipientView(recipient) } : {}),
		};
		const body = JSON.stringify({ event, createdAt: isoNow(options.clock), payload });
		for (const endpoint of endpoints) {
			const deliveryId = newId('dlv');
			const headers = {
				'content-type': 'application/json',
				'x-signing-delivery': deliveryId,
				...(endpoint.secret ? { 'x-signing-secret': endpoint.secret } : {}),
			};
			options.deliverer.send({
				deliveryId,
				event,
				url: endpoint.url,
				body,
				headers: () => headers,
			});
		}
	};

	const audit = (document: SigningDocument, type: AuditType, actor?: Partial<Actor>) => {
		document.auditLog.push({
			id: newId('aud'),
			type,
			createdAt: isoNow(options.clock),
			recipientId: actor?.recipient?.recipientId ?? null,
			email: actor?.recipient?.email ?? null,
			ipAddress: actor?.ipAddress ?? null,
			userAgent: actor?.userAgent ?? null,
		});
	};

	const completeIfAllSigned = (document: SigningDocument) => {
		if (document.status !== 'PENDING' || document.recipients.some(needsToSign)) return;
		document.status = 'COMPLETED';
		document.completedAt = document.updatedAt = isoNow(options.clock);
		document.certifiedPackageUrl = `https://signing.example.test/certified/${document.id}.pdf`;
		audit(document, 'DOCUMENT_COMPLETED');
		fire('document.completed', document);
	};

	const sign = (document: SigningDocument, actor: Actor) => {
		const { recipient } = actor;
		if (!SIGNING_PARTIES.includes(recipient.role)) {
			throw badRequest(`A ${recipient.role} receives a copy and does not sign`);
		}
		if (recipient.signingStatus === 'SIGNED') throw conflict('This recipient has already signed');
		if (document.status !== 'PENDING') throw conflict(`The document is ${document.status}`);
		recipient.signingStatus = 'SIGNED';
		recipient.signedAt = document.updatedAt = isoNow(options.clock);
		audit(document, 'DOCUMENT_SIGNED', actor);
		// The signature is reported before the document completes, so document.signed shows PENDING.
		fire('document.signed', document, recipient);
		completeIfAllSigned(document);
	};

	/** A recipient opens the signing link: on every opening, once the invitation exists. */
	const open = (document: SigningDocument, actor: Actor) => {
		if (document.status === 'DRAFT' || document.status === 'CANCELLED') {
			throw conflict(`The document is ${document.status}`);
		}
		audit(document, 'DOCUMENT_OPENED', actor);
		fire('document.opened', document, actor.recipient);
	};

	const reject = (document: SigningDocument, actor: Actor, reason: string) => {
		const { recipient } = actor;
		if (!SIGNING_PARTIES.includes(recipient.role)) {
			throw badRequest(`A ${recipient.role} receives a copy and cannot reject`);
		}
		if (recipient.signingStatus === 'SIGNED') throw conflict('This recipient has already signed');
		if (document.status !== 'PENDING') throw conflict(`The document is ${document.status}`);
		recipient.signingStatus = 'REJECTED';
		recipient.rejectionReason = reason;
		document.status = 'REJECTED';
		document.updatedAt = isoNow(options.clock);
		audit(document, 'DOCUMENT_REJECTED', actor);
		fire('document.rejected', document, recipient);
	};

	const actorOf = (request: FastifyRequest, recipient: Recipient): Actor => ({
		recipient,
		ipAddress: request.ip,
		userAgent: request.headers['user-agent'] ?? null,
	});

	/** The recipient a control request names by `recipientId` or `email`, and the rest of its body. */
	const namedRecipient = (
		request: FastifyRequest,
		document: SigningDocument,
		optional: Record<string, 'string'> = {},
	) => {
		const body = checkBody(request.body ?? {}, {
			optional: { recipientId: 'string', email: 'string', ...optional },
		});
		if ((body.recipientId === undefined) === (body.email === undefined)) {
			throw badRequest('Give either "recipientId" or "email"');
		}
		const recipient = document.recipients.find(
			(candidate) => candidate.recipientId === body.recipientId || candidate.email === body.email,
		);
		if (!recipient) throw notFound('Recipient not found');
		return { recipient, body };
	};

	/** Values travel as strings; each type has one spelling the service accepts. */
	const checkPrefill = (
		template: SigningTemplate,
		entries: unknown[],
	): Array<{ id: string; value: string }> => {
		const seen = new Set<string>();
		return entries.map((entry, index) => {
			const at = `prefillFields[${index}]`;
			const { id, value } = checkBody(
				entry,
				{ required: { id: 'string', value: 'string' } },
				at,
			) as { id: string; value: string };
			const field = template.fields.find((candidate) => candidate.id === id);
			if (!field) throw badRequest(`"${at}.id": the template has no field "${id}"`);
			if (seen.has(id)) throw badRequest(`"${at}.id": the field "${field.label}" is given twice`);
			seen.add(id);
			const wrong = (expected: string) =>
				badRequest(`"${at}.value": the field "${field.label}" (${id}) ${expected}, got "${value}"`);
			switch (field.type) {
				case 'number':
					if (!/^-?\d+(\.\d+)?$/.test(value)) throw wrong('takes a number');
					break;
				case 'date': {
					const valid =
						/^\d{4}-\d{2}-\d{2}$/.test(value) &&
						new Date(`${value}T00:00:00.000Z`).toISOString().startsWith(value);
					if (!valid) throw wrong('takes a date as YYYY-MM-DD');
					break;
				}
				case 'checkbox':
					if (value !== 'true' && value !== 'false') throw wrong('takes "true" or "false"');
					break;
				case 'dropdown':
					if (!field.options?.includes(value)) {
						throw wrong(`takes one of ${field.options?.map((option) => `"${option}"`).join(', ')}`);
					}
					break;
				default:
					break;
			}
			return { id, value };
		});
	};

	/** Generating with distribute sends at once: the document keeps its creation time then. */
	const send = (document: SigningDocument, updatedAt = document.updatedAt) => {
		document.status = 'PENDING';
		document.updatedAt = updatedAt;
		audit(document, 'DOCUMENT_SENT');
		fire('document.sent', document);
	};

	const parseRecipient = (entry: unknown, index: number): Recipient => {
		const at = `recipients[${index}]`;
		const fields = checkBody(
			entry,
			{ required: { name: 'string', email: 'string', role: 'string' } },
			at,
		);
		const email = String(fields.email);
		if (!EMAIL_PATTERN.test(email)) throw badRequest(`"${at}.email" is not a valid e-mail address`);
		return {
			recipientId: newId('rcp'),
			name: nonEmpty(fields.name, `${at}.name`),
			email,
			role: oneOf(fields.role, SIGNING_ROLES, `${at}.role`),
			signingStatus: 'NOT_SIGNED',
			signedAt: null,
			token: randomBytes(16).toString('hex'),
		};
	};

	app.post('/api/v2/templates/:templateId/generate-document', async (request) => {
		checkQuery(request.query, []);
		const { templateId } = request.params as { templateId: string };
		const body = checkBody(request.body, {
			required: { title: 'string', recipients: 'array' },
			optional: { prefillFields: 'array', meta: 'object', distribute: 'boolean' },
		});
		const template = templates.get(templateId);
		if (!template) throw notFound('Template not found');
		const entries = body.recipients as unknown[];
		if (entries.length === 0) throw badRequest('At least one recipient is required');
		const prefillFields =
			body.prefillFields === undefined
				? undefined
				: checkPrefill(template, body.prefillFields as unknown[]);
		let meta: SigningDocument['meta'];
		if (body.meta !== undefined) {
			const given = checkBody(
				body.meta,
				{ optional: { subject: 'string', message: 'string', redirectUrl: 'string' } },
				'meta',
			);
			if (given.redirectUrl !== undefined) httpUrl(given.redirectUrl, 'meta.redirectUrl');
			meta = given as SigningDocument['meta'];
		}
		const now = isoNow(options.clock);
		const document: SigningDocument = {
			id: newId('doc'),
			title: nonEmpty(body.title, 'title'),
			templateId,
			status: 'DRAFT',
			createdAt: now,
			updatedAt: now,
			completedAt: null,
			recipients: entries.map(parseRecipient),
			certifiedPackageUrl: null,
			...(prefillFields ? { prefillFields } : {}),
			...(meta ? { meta } : {}),
			auditLog: [],
		};
		documents.set(document.id, document);
		audit(document, 'DOCUMENT_CREATED');
		fire('document.created', document);
		if (body.distribute !== false) send(document);
		return {
			documentId: document.id,
			title: document.title,
			status: document.status,
			recipients: document.recipients.map(
				({ recipientId, name, email, role, signingStatus, token }) => ({
					recipientId,
					name,
					email,
					role,
					signingStatus,
					signingUrl: `${publicUrl}/sign/${token}`,
				}),
			),
		};
	});

	app.get('/api/v2/templates', async (request) => {
		const query = checkQuery(request.query, ['page', 'perPage']);
		return paginate([...templates.values()].sort(newestFirst), query);
	});

	app.get('/api/v2/templates/:templateId', async (request) => {
		checkQuery(request.query, []);
		const template = templates.get((request.params as { templateId: string }).templateId);
		if (!template) throw notFound('Template not found');
		return template;
	});

	app.get('/api/v2/documents', async (request) => {
		const query = checkQuery(request.query, ['page', 'perPage', 'status', 'templateId']);
		const status =
			query.status === undefined ? undefined : oneOf(query.status, DOCUMENT_STATUSES, 'status');
		const matching = [...documents.values()]
			.filter((document) => status === undefined || document.status === status)
			.filter(
				(document) => query.templateId === undefined || document.templateId === query.templateId,
			)
			.sort(newestFirst);
		const page = paginate(matching, query);
		return { data: page.data.map(documentView), pagination: page.pagination };
	});

	app.get('/api/v2/documents/:documentId', async (request) => {
		checkQuery(request.query, []);
		return documentView(findDocument(request));
	});

	app.post('/api/v2/documents/:documentId/send', async (request) => {
		checkQuery(request.query, []);
		const document = findDocument(request);
		if (request.body !== undefined) checkBody(request.body, {});
		if (document.status !== 'DRAFT') throw conflict('Document is not a draft');
		send(document, isoNow(options.clock));
		return documentView(document);
	});

	app.post('/api/v2/documents/:documentId/resend', async (request) => {
		checkQuery(request.query, []);
		const document = findDocument(request);
		const body =
			request.body === undefined
				? {}
				: checkBody(request.body, { optional: { recipientIds: 'string[]' } });
		if (document.status !== 'PENDING') throw conflict('Document is not pending');
		let recipients: Recipient[];
		if (body.recipientIds === undefined) {
			recipients = document.recipients.filter(needsToSign);
		} else {
			const ids = body.recipientIds as string[];
			if (ids.length === 0)
				throw badRequest(
					'"recipientIds" must not be empty; leave it out to remind every pending signer',
				);
			recipients = ids.map((id, index) => {
				const recipient = document.recipients.find((candidate) => candidate.recipientId === id);
				if (!recipient)
					throw badRequest(`"recipientIds[${index}]": "${id}" is not a recipient of this document`);
				if (recipient.signingStatus === 'SIGNED') {
					throw badRequest(`"recipientIds[${index}]": "${id}" has already signed`);
				}
				return recipient;
			});
		}
		for (const recipient of recipients) audit(document, 'INVITATION_RESENT', { recipient });
		return { resent: recipients.map((recipient) => recipient.recipientId) };
	});

	app.delete('/api/v2/documents/:documentId', async (request) => {
		checkQuery(request.query, []);
		const document = findDocument(request);
		if (request.body !== undefined) checkBody(request.body, {});
		if (document.status === 'COMPLETED') throw conflict('Document is completed');
		if (document.status !== 'DRAFT' && document.status !== 'PENDING') {
			throw conflict(`Document is ${document.status.toLowerCase()}`);
		}
		document.status = 'CANCELLED';
		document.updatedAt = isoNow(options.clock);
		audit(document, 'DOCUMENT_CANCELLED');
		fire('document.cancelled', document);
		return { id: document.id, status: document.status };
	});

	app.get('/api/v2/documents/:documentId/download', async (request, reply) => {
		const query = checkQuery(request.query, ['version']);
		const document = findDocument(request);
		const version =
			query.version === undefined
				? 'signed'
				: oneOf(query.version, ['signed', 'original'], 'version');
		if (version === 'signed' && document.status !== 'COMPLETED') {
			throw conflict('Document is not completed');
		}
		return await reply
			.type('application/pdf')
			.header('content-disposition', contentDisposition(document.title))
			.send(documentPdf(document, version));
	});

	app.get('/api/v2/documents/:documentId/audit-log', async (request) => {
		checkQuery(request.query, []);
		return { data: findDocument(request).auditLog };
	});

	// What a recipient's browser opens: outside the API, so without token.
	app.get('/sign/:token', async (request, reply) => {
		const { token } = request.params as { token: string };
		for (const document of documents.values()) {
			const recipient = document.recipients.find((candidate) => candidate.token === token);
			if (!recipient) continue;
			if (document.status !== 'DRAFT' && document.status !== 'CANCELLED') {
				open(document, actorOf(request, recipient));
			}
			const text = `${document.title}\nFor ${recipient.name} (${recipient.role}): ${recipient.signingStatus}\n`;
			return await reply.type('text/plain; charset=utf-8').send(text);
		}
		return await reply.code(404).type('text/plain').send('Unknown signing link');
	});

	// Control endpoints: the administrator panel and the recipients' actions.
	app.get('/_sandbox/webhook-endpoints', async () => ({ endpoints }));
	app.post('/_sandbox/webhook-endpoints', async (request) => {
		const body = checkBody(request.body, {
			required: { url: 'string' },
			optional: { secret: 'string' },
		});
		const endpoint: Endpoint = { id: newId('ep'), url: httpUrl(body.url, 'url') };
		if (body.secret !== undefined) endpoint.secret = String(body.secret);
		endpoints.push(endpoint);
		return endpoint;
	});
	app.delete('/_sandbox/webhook-endpoints', async () => {
		endpoints = [];
		return { ok: true };
	});
	app.delete('/_sandbox/webhook-endpoints/:endpointId', async (request) => {
		const { endpointId } = request.params as { endpointId: string };
		const endpoint = endpoints.find((candidate) => candidate.id === endpointId);
		if (!endpoint) throw notFound('Endpoint not found');
		endpoints = endpoints.filter((candidate) => candidate !== endpoint);
		return endpoint;
	});
	app.get('/_sandbox/deliveries', async () => options.deliverer.report());
	app.get('/_sandbox/documents', async () => ({
		documents: [...documents.values()].map(documentView),
	}));
	app.post('/_sandbox/templates', async (request) => {
		const body = checkBody(request.body, {
			optional: {
				id: 'string',
				title: 'string',
				name: 'string',
				recipients: 'array',
				fields: 'array',
			},
		});
		// `name` is the older spelling of `title`, kept for existing callers.
		const title = body.title ?? body.name;
		if (title === undefined) throw badRequest('Missing required field "title"');
		const now = isoNow(options.clock);
		const template: SigningTemplate = {
			id: body.id === undefined ? newId('tpl') : nonEmpty(body.id, 'id'),
			title: nonEmpty(title, 'title'),
			createdAt: now,
			updatedAt: now,
			recipients: (
				(body.recipients as unknown[] | undefined) ?? [{ placeholder: 'Signer', role: 'SIGNER' }]
			).map((entry, index) => {
				const at = `recipients[${index}]`;
				const fields = checkBody(
					entry,
					{ required: { placeholder: 'string', role: 'string' } },
					at,
				);
				return {
					placeholder: nonEmpty(fields.placeholder, `${at}.placeholder`),
					role: oneOf(fields.role, SIGNING_ROLES, `${at}.role`),
				};
			}),
			fields: ((body.fields as unknown[] | undefined) ?? []).map((entry, index) => {
				const at = `fields[${index}]`;
				const fields = checkBody(
					entry,
					{
						required: { label: 'string', type: 'string' },
						optional: { id: 'string', options: 'string[]' },
					},
					at,
				);
				const type = oneOf(fields.type, TEMPLATE_FIELD_TYPES, `${at}.type`);
				if ((type === 'dropdown') !== (fields.options !== undefined)) {
					throw badRequest(`"${at}.options" is given for dropdown fields, and only for them`);
				}
				const field: TemplateField = {
					id: fields.id === undefined ? newId('fld') : nonEmpty(fields.id, `${at}.id`),
					label: nonEmpty(fields.label, `${at}.label`),
					type,
				};
				if (type === 'dropdown') field.options = fields.options as string[];
				return field;
			}),
		};
		templates.set(template.id, template);
		return template;
	});
	app.post('/_sandbox/documents/:documentId/sign', async (request) => {
		const document = findDocument(request);
		const { recipient } = namedRecipient(request, document);
		sign(document, actorOf(request, recipient));
		return documentView(document);
	});
	app.post('/_sandbox/documents/:documentId/open', async (request) => {
		const document = findDocument(request);
		const { recipient } = namedRecipient(request, document);
		open(document, actorOf(request, recipient));
		return documentView(document);
	});
	app.post('/_sandbox/documents/:documentId/reject', async (request) => {
		const document = findDocument(request);
		const { recipient, body } = namedRecipient(request, document, { reason: 'string' });
		reject(
			document,
			actorOf(request, recipient),
			(body.reason as string | undefined) ?? 'No reason given',
		);
		return documentView(document);
	});
	/** Makes the document's PDFs about `bytes` larger, for tests of large downloads. */
	app.put('/_sandbox/documents/:documentId/pdf-padding', async (request) => {
		const document = findDocument(request);
		const body = checkBody(request.body, { required: { bytes: 'integer' } });
		const bytes = body.bytes as number;
		if (bytes < 0 || bytes > 512 * 1024 * 1024) throw badRequest('"bytes" must be 0 to 536870912');
		document.pdfPadding = bytes;
		return { id: document.id, pdfPadding: bytes };
	});
	/** Moves a document's times back, for "pending for more than 3 days" in demos and tests. */
	app.post('/_sandbox/documents/:documentId/age', async (request) => {
		const document = findDocument(request);
		const body = checkBody(request.body, { required: { days: 'number' } });
		const shift = (body.days as number) * 24 * 3600 * 1000;
		const back = (time: string) => new Date(Date.parse(time) - shift).toISOString();
		document.createdAt = back(document.createdAt);
		document.updatedAt = back(document.updatedAt);
		return documentView(document);
	});
	app.post('/_sandbox/documents/:documentId/complete', async (request) => {
		const document = findDocument(request);
		if (request.body !== undefined) checkBody(request.body, {});
		for (const recipient of document.recipients.filter(needsToSign)) {
			sign(document, actorOf(request, recipient));
		}
		// A document sent only for copies has no one left to sign: completing it is the administrator's call.
		completeIfAllSigned(document);
		return documentView(document);
	});

	return { ...service, setPublicUrl: (url: string) => (publicUrl = url) };
}
