import { randomBytes } from 'node:crypto';

import type { FastifyReply } from 'fastify';

import { Deliverer } from './deliveries';
import {
	badRequest,
	bearerToken,
	checkBody,
	checkQuery,
	createService,
	EMAIL_PATTERN,
	HttpProblem,
	newId,
	notFound,
	type Service,
} from './http';
import { SEED } from './seed';

export const SIGNING_ROLES = ['SIGNER', 'APPROVER', 'VIEWER', 'CC'];
const REQUIRED_ROLES = ['SIGNER', 'APPROVER'];

interface Recipient {
	recipientId: string;
	name: string;
	email: string;
	role: string;
	signingStatus: 'NOT_SIGNED' | 'SIGNED' | 'REJECTED';
	signedAt: string | null;
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
	endpoints: Array<{ url: string; secret?: string }>;
	logger?: boolean;
}

const signingErrors = {
	send: (reply: FastifyReply, status: number, message: string) =>
		reply.code(status).type('application/json').send({ message }),
};

/** The document as GET /api/v2/documents/{id} returns it. */
function documentView(document: SigningDocument) {
	return {
		id: document.id,
		title: document.title,
		templateId: document.templateId,
		status: document.status,
		createdAt: document.createdAt,
		updatedAt: document.updatedAt,
		completedAt: document.completedAt,
		recipients: document.recipients.map(({ recipientId, name, email, role, signingStatus, signedAt }) => ({
			recipientId,
			name,
			email,
			role,
			signingStatus,
			signedAt,
		})),
		certifiedPackageUrl: document.certifiedPackageUrl,
	};
}

export function createSigningService(options: SigningOptions): Service & { baseUrl: (url: string) => void } {
	let publicUrl = '';
	let templates = new Map<string, { id: string; name: string }>();
	let documents = new Map<string, SigningDocument>();
	let endpoints: Endpoint[] = [];

	const reset = () => {
		options.deliverer.log.length = 0;
		templates = new Map(
			options.seed
				? [
						[SEED.residencyTemplateId, { id: SEED.residencyTemplateId, name: 'Residency agreement' }],
						[SEED.ndaTemplateId, { id: SEED.ndaTemplateId, name: 'Mutual non-disclosure agreement' }],
					]
				: [],
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
		logger: options.logger,
		reset,
	});
	const { app } = service;

	const fire = (event: string, document: SigningDocument, recipient?: Recipient) => {
		const payload: Record<string, unknown> = documentView(document);
		if (recipient) payload.recipient = documentView({ ...document, recipients: [recipient] }).recipients[0];
		const body = JSON.stringify({ event, createdAt: new Date().toISOString(), payload });
		for (const endpoint of endpoints) {
			const deliveryId = newId('dlv');
			options.deliverer.send({
				deliveryId,
				event,
				url: endpoint.url,
				body,
				headers: () => ({
					'content-type': 'application/json',
					'x-signing-delivery': deliveryId,
					...(endpoint.secret ? { 'x-signing-secret': endpoint.secret } : {}),
				}),
			});
		}
	};

	const sign = (document: SigningDocument, recipient: Recipient) => {
		if (!REQUIRED_ROLES.includes(recipient.role)) throw badRequest(`A ${recipient.role} does not sign`);
		if (recipient.signingStatus === 'SIGNED') throw new HttpProblem(409, 'This recipient has already signed');
		if (document.status !== 'PENDING') throw new HttpProblem(409, `The document is ${document.status}`);
		const now = new Date().toISOString();
		recipient.signingStatus = 'SIGNED';
		recipient.signedAt = now;
		document.updatedAt = now;
		const required = document.recipients.filter((r) => REQUIRED_ROLES.includes(r.role));
		const complete = required.every((r) => r.signingStatus === 'SIGNED');
		if (complete) {
			document.status = 'COMPLETED';
			document.completedAt = now;
			document.certifiedPackageUrl = `https://signing.example.test/certified/${document.id}.pdf`;
		}
		fire('document.signed', complete ? { ...document, status: 'PENDING', completedAt: null, certifiedPackageUrl: null } : document, recipient);
		if (complete) fire('document.completed', document);
	};

	app.post('/api/v2/templates/:templateId/generate-document', async (request) => {
		checkQuery(request.query, []);
		const { templateId } = request.params as { templateId: string };
		const body = checkBody(request.body, { title: 'string', recipients: 'array' });
		if (!templates.has(templateId)) throw notFound('Template not found');
		const title = String(body.title).trim();
		if (title === '') throw badRequest('"title" must not be empty');
		const recipients = body.recipients as unknown[];
		if (recipients.length === 0) throw badRequest('At least one recipient is required');
		const now = new Date().toISOString();
		const document: SigningDocument = {
			id: newId('doc'),
			title,
			templateId,
			status: 'DRAFT',
			createdAt: now,
			updatedAt: now,
			completedAt: null,
			certifiedPackageUrl: null,
			recipients: recipients.map((entry, index) => {
				const recipient = checkBody(entry, { name: 'string', email: 'string', role: 'string' });
				if (String(recipient.name).trim() === '') throw badRequest(`recipients[${index}].name must not be empty`);
				if (!EMAIL_PATTERN.test(String(recipient.email))) {
					throw badRequest(`recipients[${index}].email is not a valid e-mail address`);
				}
				if (!SIGNING_ROLES.includes(String(recipient.role))) {
					throw badRequest(`recipients[${index}].role must be one of ${SIGNING_ROLES.join(', ')}`);
				}
				return {
					recipientId: newId('rcp'),
					name: String(recipient.name),
					email: String(recipient.email),
					role: String(recipient.role),
					signingStatus: 'NOT_SIGNED' as const,
					signedAt: null,
					token: randomBytes(12).toString('hex'),
				};
			}),
		};
		documents.set(document.id, document);
		fire('document.created', document);
		document.status = 'PENDING';
		fire('document.sent', document);
		return {
			documentId: document.id,
			title: document.title,
			status: document.status,
			recipients: document.recipients.map((recipient) => ({
				recipientId: recipient.recipientId,
				name: recipient.name,
				email: recipient.email,
				role: recipient.role,
				signingStatus: recipient.signingStatus,
				signingUrl: `${publicUrl}/sign/${recipient.token}`,
			})),
		};
	});

	app.get('/api/v2/documents/:documentId', async (request) => {
		checkQuery(request.query, []);
		const document = documents.get((request.params as { documentId: string }).documentId);
		if (!document) throw notFound('Document not found');
		return documentView(document);
	});

	// Control endpoints: the administrator panel and the recipients' actions.
	app.get('/_sandbox/webhook-endpoints', async () => ({ endpoints }));
	app.post('/_sandbox/webhook-endpoints', async (request) => {
		const body = checkBody(request.body, { url: 'string' }, { secret: 'string' });
		const endpoint: Endpoint = { id: newId('ep'), url: String(body.url), secret: body.secret as string | undefined };
		endpoints.push(endpoint);
		return endpoint;
	});
	app.delete('/_sandbox/webhook-endpoints', async () => {
		endpoints = [];
		return { ok: true };
	});
	app.get('/_sandbox/deliveries', async () => ({ deliveries: options.deliverer.log }));
	app.get('/_sandbox/documents', async () => ({ documents: [...documents.values()].map(documentView) }));
	app.post('/_sandbox/templates', async (request) => {
		const body = checkBody(request.body, { name: 'string' }, { id: 'string' });
		const template = { id: String(body.id ?? newId('tpl')), name: String(body.name) };
		templates.set(template.id, template);
		return template;
	});
	const findDocument = (id: string) => {
		const document = documents.get(id);
		if (!document) throw notFound('Document not found');
		return document;
	};
	app.post('/_sandbox/documents/:documentId/sign', async (request) => {
		const document = findDocument((request.params as { documentId: string }).documentId);
		const body = checkBody(request.body ?? {}, {}, { recipientId: 'string', email: 'string' });
		const recipient = document.recipients.find(
			(r) => r.recipientId === body.recipientId || (body.email !== undefined && r.email === body.email),
		);
		if (!recipient) throw notFound('Recipient not found');
		sign(document, recipient);
		return documentView(document);
	});
	app.post('/_sandbox/documents/:documentId/complete', async (request) => {
		const document = findDocument((request.params as { documentId: string }).documentId);
		for (const recipient of document.recipients) {
			if (REQUIRED_ROLES.includes(recipient.role) && recipient.signingStatus !== 'SIGNED') sign(document, recipient);
		}
		return documentView(document);
	});

	return { ...service, baseUrl: (url: string) => (publicUrl = url) };
}
