/** The signing service (CONTRACTS.md, section 1). */
import { randomBytes } from 'node:crypto';

import type { FastifyReply, FastifyRequest } from 'fastify';

import type { Deliverer } from './deliveries';
import { newestFirst, newId } from './ids';
import { seedTemplates, type SigningTemplate, type TemplateField } from './seed';
import { bearerToken, createService, type Service } from './service';
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
	/** The secret part of the recipient's signing URL. */
	token: string;
}

interface SigningDocument {
	id: string;
	title: string;
	templateId: string;
	status: 'DRAFT' | 'PENDING' | 'COMPLETED' | 'REJECTED' | 'CANCELLED';
	createdAt: string;
	updatedAt: string;
	completedAt: string | null;
	recipients: Recipient[];
	certifiedPackageUrl: string | null;
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
	seed: boolean;
	/** Endpoints the administrator configured in the panel before the sandbox started. */
	endpoints: Array<{ url: string; secret?: string }>;
	logger?: boolean;
}

const signingErrors = {
	send: (reply: FastifyReply, status: number, message: string) =>
		reply.code(status).type('application/json').send({ message }),
};

const recipientView = ({ recipientId, name, email, role, signingStatus, signedAt }: Recipient) => ({
	recipientId,
	name,
	email,
	role,
	signingStatus,
	signedAt,
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
		options.deliverer.log.length = 0;
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
		const body = JSON.stringify({ event, createdAt: new Date().toISOString(), payload });
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

	const completeIfAllSigned = (document: SigningDocument) => {
		if (document.status !== 'PENDING' || document.recipients.some(needsToSign)) return;
		document.status = 'COMPLETED';
		document.completedAt = document.updatedAt = new Date().toISOString();
		document.certifiedPackageUrl = `https://signing.example.test/certified/${document.id}.pdf`;
		fire('document.completed', document);
	};

	const sign = (document: SigningDocument, recipient: Recipient) => {
		if (!SIGNING_PARTIES.includes(recipient.role)) {
			throw badRequest(`A ${recipient.role} receives a copy and does not sign`);
		}
		if (recipient.signingStatus === 'SIGNED') throw conflict('This recipient has already signed');
		if (document.status !== 'PENDING') throw conflict(`The document is ${document.status}`);
		recipient.signingStatus = 'SIGNED';
		recipient.signedAt = document.updatedAt = new Date().toISOString();
		// The signature is reported before the document completes, so document.signed shows PENDING.
		fire('document.signed', document, recipient);
		completeIfAllSigned(document);
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
		const body = checkBody(request.body, { required: { title: 'string', recipients: 'array' } });
		if (!templates.has(templateId)) throw notFound('Template not found');
		const entries = body.recipients as unknown[];
		if (entries.length === 0) throw badRequest('At least one recipient is required');
		const now = new Date().toISOString();
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
		};
		documents.set(document.id, document);
		fire('document.created', document);
		document.status = 'PENDING';
		fire('document.sent', document);
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

	app.get('/api/v2/documents/:documentId', async (request) => {
		checkQuery(request.query, []);
		return documentView(findDocument(request));
	});

	// What a recipient's browser opens: outside the API, so without token.
	app.get('/sign/:token', async (request, reply) => {
		const { token } = request.params as { token: string };
		for (const document of documents.values()) {
			const recipient = document.recipients.find((candidate) => candidate.token === token);
			if (!recipient) continue;
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
	app.get('/_sandbox/deliveries', async () => ({ deliveries: options.deliverer.log }));
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
		const now = new Date().toISOString();
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
		const body = checkBody(request.body, { optional: { recipientId: 'string', email: 'string' } });
		if ((body.recipientId === undefined) === (body.email === undefined)) {
			throw badRequest('Give either "recipientId" or "email"');
		}
		const recipient = document.recipients.find(
			(candidate) => candidate.recipientId === body.recipientId || candidate.email === body.email,
		);
		if (!recipient) throw notFound('Recipient not found');
		sign(document, recipient);
		return documentView(document);
	});
	app.post('/_sandbox/documents/:documentId/complete', async (request) => {
		const document = findDocument(request);
		if (request.body !== undefined) checkBody(request.body, {});
		for (const recipient of document.recipients.filter(needsToSign)) sign(document, recipient);
		// A document sent only for copies has no one left to sign: completing it is the administrator's call.
		completeIfAllSigned(document);
		return documentView(document);
	});

	return { ...service, setPublicUrl: (url: string) => (publicUrl = url) };
}
