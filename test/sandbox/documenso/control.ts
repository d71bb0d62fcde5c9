/**
 * The Documenso flavour's control endpoints (no auth): the team admin's webhook settings and the
 * recipients' actions in their browsers, with the same paths as the documented signing sandbox
 * where they make sense.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { badRequest, checkBody, conflict, httpUrl, nonEmpty, notFound, oneOf } from '../validation';
import {
	documentView,
	type Envelope,
	inSigningOrder,
	isTurnOf,
	mustAct,
	type Recipient,
	ROLES,
	templateView,
} from './model';
import { buildTemplate, type Prefillable, signedSlots } from './seed';
import type { Actor, DocumensoStore } from './store';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhooks';

export function registerDocumensoControl(
	app: FastifyInstance,
	store: DocumensoStore,
	deliveries: () => { deliveries: unknown[]; pending: number },
): void {
	const actorOf = (request: FastifyRequest): Actor => ({
		ipAddress: request.ip,
		userAgent: request.headers['user-agent'] ?? null,
	});

	const findDocument = (request: FastifyRequest): Envelope => {
		const { documentId } = request.params as { documentId: string };
		const document = store.documents.get(Number(documentId));
		if (!document) throw notFound('Document not found');
		return document;
	};

	/** The recipient named by `recipientId` (a number) or `email`, and the rest of the body. */
	const namedRecipient = (
		request: FastifyRequest,
		document: Envelope,
		optional: Record<string, 'string' | 'array'> = {},
	) => {
		const body = checkBody(request.body ?? {}, {
			optional: { recipientId: 'integer', email: 'string', ...optional },
		});
		if ((body.recipientId === undefined) === (body.email === undefined)) {
			throw badRequest('Give either "recipientId" or "email"');
		}
		const recipient = document.recipients.find(
			(candidate) => candidate.id === body.recipientId || candidate.email === body.email,
		);
		if (!recipient) throw notFound('Recipient not found');
		return { recipient, body };
	};

	const mustBePending = (document: Envelope) => {
		if (document.status !== 'PENDING') throw conflict(`The document is ${document.status}`);
	};

	const mustActNow = (recipient: Recipient) => {
		if (recipient.role === 'CC')
			throw badRequest('A CC recipient receives a copy and takes no action');
		if (recipient.signingStatus !== 'NOT_SIGNED') {
			throw conflict(
				`This recipient has already ${recipient.signingStatus === 'SIGNED' ? 'signed' : 'rejected'}`,
			);
		}
	};

	app.get('/_sandbox/webhook-endpoints', async () => ({ endpoints: store.endpoints }));
	app.post('/_sandbox/webhook-endpoints', async (request) => {
		const body = checkBody(request.body, {
			required: { url: 'string' },
			optional: { secret: 'string', events: 'string[]' },
		});
		const events = body.events as string[] | undefined;
		const unknown = events?.find((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
		if (unknown !== undefined) throw badRequest(`Unknown event "${unknown}"`);
		const endpoint = store.endpoint({
			url: httpUrl(body.url, 'url'),
			secret: body.secret as string | undefined,
			events: events as WebhookEvent[] | undefined,
		});
		store.endpoints.push(endpoint);
		return endpoint;
	});
	app.delete('/_sandbox/webhook-endpoints', async () => {
		store.endpoints = [];
		return { ok: true };
	});
	app.delete('/_sandbox/webhook-endpoints/:endpointId', async (request) => {
		const { endpointId } = request.params as { endpointId: string };
		const endpoint = store.endpoints.find((candidate) => candidate.id === endpointId);
		if (!endpoint) throw notFound('Endpoint not found');
		store.endpoints = store.endpoints.filter((candidate) => candidate !== endpoint);
		return endpoint;
	});
	app.get('/_sandbox/deliveries', async () => deliveries());
	/** The server's time zone (its TZ): `{timeZone}`, an IANA name; `Etc/UTC` after a reset. */
	app.put('/_sandbox/time-zone', async (request) => {
		const body = checkBody(request.body, { required: { timeZone: 'string' } });
		try {
			new Intl.DateTimeFormat('en-US', { timeZone: String(body.timeZone) });
		} catch {
			throw badRequest(`"${String(body.timeZone)}" is not a time zone`);
		}
		store.timeZone = String(body.timeZone);
		return { timeZone: store.timeZone };
	});
	app.get('/_sandbox/documents', async () => ({
		documents: [...store.documents.values()].map(documentView),
	}));

	/**
	 * A template as a team would set it up in the web app: `{title, recipients?: [{name, role, email?}],
	 * fields?: [{label, type: TEXT|NUMBER|DATE|CHECKBOX|DROPDOWN|NAME|EMAIL, options?}]}` (the first
	 * recipient's; a NAME or EMAIL field, which its signer fills, may go without a label); ids are given.
	 */
	app.post('/_sandbox/templates', async (request) => {
		const body = checkBody(request.body, {
			required: { title: 'string' },
			optional: { recipients: 'array', fields: 'array', signingOrder: 'string' },
		});
		const signingOrder =
			body.signingOrder === undefined
				? undefined
				: oneOf(body.signingOrder, ['PARALLEL', 'SEQUENTIAL'] as const, 'signingOrder');
		const slots = (
			(body.recipients as unknown[] | undefined) ?? [{ name: 'Signer', role: 'SIGNER' }]
		).map((entry, index) => {
			const at = `recipients[${index}]`;
			const slot = checkBody(
				entry,
				{
					required: { name: 'string', role: 'string' },
					optional: { email: 'string', signatureField: 'boolean' },
				},
				at,
			);
			return {
				name: String(slot.name),
				role: oneOf(slot.role, ROLES, `${at}.role`),
				...(slot.email === undefined ? {} : { email: String(slot.email) }),
				...(slot.signatureField === false ? { signatureField: false } : {}),
			};
		});
		if (slots.length === 0) throw badRequest('A template needs at least one recipient');
		const fields = ((body.fields as unknown[] | undefined) ?? []).map((entry, index) => {
			const at = `fields[${index}]`;
			const field = checkBody(
				entry,
				{ required: { type: 'string' }, optional: { label: 'string', options: 'string[]' } },
				at,
			);
			const type = oneOf(
				field.type,
				['TEXT', 'NUMBER', 'DATE', 'CHECKBOX', 'DROPDOWN', 'NAME', 'EMAIL'] as const,
				`${at}.type`,
			);
			if (type === 'NAME' || type === 'EMAIL') {
				return { type, ...(field.label === undefined ? {} : { label: String(field.label) }) };
			}
			const choice = type === 'CHECKBOX' || type === 'DROPDOWN';
			if (choice !== (field.options !== undefined)) {
				throw badRequest(
					`"${at}.options" is given for CHECKBOX and DROPDOWN fields, and only for them`,
				);
			}
			return {
				type,
				label: nonEmpty(field.label, `${at}.label`),
				options: field.options as string[],
			};
		});
		const signers = signedSlots(slots).length;
		const ids = store.templateIds(slots.length, fields.length + signers);
		const template = buildTemplate({
			id: ids.template,
			title: nonEmpty(body.title, 'title'),
			days: 1,
			slots: slots.map((slot, index) => ({ ...slot, id: ids.slotIds[index] })),
			prefillable: fields.map(
				(field, index) => ({ ...field, id: ids.fieldIds[index] }) as Prefillable,
			),
			signatureFieldIds: ids.fieldIds.slice(fields.length),
			signingOrder,
		});
		store.templates.set(template.legacyId, template);
		return templateView(template);
	});

	app.post('/_sandbox/documents/:documentId/open', async (request) => {
		const document = findDocument(request);
		const { recipient } = namedRecipient(request, document);
		if (document.status === 'DRAFT') throw conflict('The document is DRAFT');
		store.open(document, recipient, actorOf(request));
		return documentView(document);
	});
	/** Signs as the recipient; `fields: [{id, value}]` are what the recipient fills in first (their name, a text…). */
	app.post('/_sandbox/documents/:documentId/sign', async (request) => {
		const document = findDocument(request);
		const { recipient, body } = namedRecipient(request, document, { fields: 'array' });
		mustBePending(document);
		mustActNow(recipient);
		// RECIPIENT_OUT_OF_TURN (complete-document-with-token.ts) in a SEQUENTIAL document.
		if (!isTurnOf(document, recipient)) {
			throw badRequest(
				`Recipient ${recipient.id} attempted to complete the document before it was their turn`,
			);
		}
		const filled = ((body.fields as unknown[] | undefined) ?? []).map((entry, index) => {
			const at = `fields[${index}]`;
			const given = checkBody(entry, { required: { id: 'integer', value: 'string' } }, at);
			const field = document.fields.find(
				(candidate) => candidate.id === given.id && candidate.recipientId === recipient.id,
			);
			if (!field) throw notFound(`Field ${String(given.id)} is not this recipient's`);
			if (field.inserted) throw conflict(`Field ${field.id} has already been inserted`);
			return { field, value: String(given.value) };
		});
		store.open(document, recipient, actorOf(request));
		for (const { field, value } of filled) store.insertField(document, recipient, field, value, actorOf(request));
		store.complete(document, recipient, actorOf(request));
		return documentView(document);
	});
	/** Recipients who sign at nearly the same moment (store.completeTogether): `{recipientIds}`. */
	app.post('/_sandbox/documents/:documentId/sign-together', async (request) => {
		const document = findDocument(request);
		const body = checkBody(request.body, { required: { recipientIds: 'array' } });
		const recipients = (body.recipientIds as unknown[]).map((id) => {
			const recipient = document.recipients.find((candidate) => candidate.id === id);
			if (!recipient) throw notFound('Recipient not found');
			return recipient;
		});
		if (recipients.length < 2) throw badRequest('"recipientIds" names at least two recipients');
		mustBePending(document);
		recipients.forEach(mustActNow);
		for (const recipient of recipients) store.open(document, recipient, actorOf(request));
		store.completeTogether(document, recipients, actorOf(request));
		return documentView(document);
	});
	app.post('/_sandbox/documents/:documentId/reject', async (request) => {
		const document = findDocument(request);
		const { recipient, body } = namedRecipient(request, document, { reason: 'string' });
		mustBePending(document);
		mustActNow(recipient);
		store.reject(
			document,
			recipient,
			(body.reason as string | undefined) ?? 'No reason given',
			actorOf(request),
		);
		return documentView(document);
	});
	app.post('/_sandbox/documents/:documentId/complete', async (request) => {
		const document = findDocument(request);
		if (request.body !== undefined) checkBody(request.body, {});
		mustBePending(document);
		for (const recipient of inSigningOrder(document).filter(mustAct)) {
			if (document.status !== 'PENDING') break;
			store.open(document, recipient, actorOf(request));
			store.complete(document, recipient, actorOf(request));
		}
		return documentView(document);
	});
	/** The scheduled reminder (process-signing-reminder.handler.ts) for one recipient. */
	app.post('/_sandbox/documents/:documentId/remind', async (request) => {
		const document = findDocument(request);
		const { recipient } = namedRecipient(request, document);
		mustBePending(document);
		store.remind(document, [recipient.id], actorOf(request));
		return documentView(document);
	});
	/** The expiry sweep (process-recipient-expired.handler.ts) for one recipient. */
	app.post('/_sandbox/documents/:documentId/expire', async (request) => {
		const document = findDocument(request);
		const { recipient } = namedRecipient(request, document);
		mustBePending(document);
		mustActNow(recipient);
		store.expire(document, recipient);
		return documentView(document);
	});
	/** Moves a document's times back, for "pending for more than 3 days". */
	app.post('/_sandbox/documents/:documentId/age', async (request) => {
		const document = findDocument(request);
		const body = checkBody(request.body, { required: { days: 'number' } });
		const shift = (body.days as number) * 24 * 3600 * 1000;
		const back = (time: string) => new Date(Date.parse(time) - shift).toISOString();
		document.createdAt = back(document.createdAt);
		document.updatedAt = back(document.updatedAt);
		return documentView(document);
	});

	// A recipient's signing page, outside the API: opening it is what fires DOCUMENT_OPENED.
	app.get('/sign/:token', async (request, reply) => {
		const { token } = request.params as { token: string };
		for (const document of store.documents.values()) {
			const recipient = document.recipients.find((candidate) => candidate.token === token);
			if (!recipient) continue;
			if (document.status !== 'DRAFT') store.open(document, recipient, actorOf(request));
			const text = `${document.title}\nFor ${recipient.name} (${recipient.role}): ${recipient.signingStatus}\n`;
			return await reply.type('text/plain; charset=utf-8').send(text);
		}
		return await reply.code(404).type('text/plain').send('Unknown signing link');
	});
}
