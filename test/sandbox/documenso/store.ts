/**
 * The Documenso flavour's state and what happens to a document, step by step as Documenso's
 * server-only code does it (packages/lib/server-only/…, tag v2.17.0). Only a change of the
 * envelope row moves its `updatedAt` (Prisma's @updatedAt): sending, sealing, cancelling,
 * deleting. A recipient signing, opening or rejecting changes recipient rows only.
 */
import type { Deliverer } from '../deliveries';
import { dateText } from './prefill';
import { DOCUMENSO_SEED, documensoSeedTemplates } from './seed';
import {
	type AuditLog,
	type Envelope,
	type EnvelopeItem,
	type Field,
	type Folder,
	inSigningOrder,
	mustAct,
	OWNER,
	prefixedId,
	type Recipient,
	recipientToken,
	webhookDocument,
} from './model';
import {
	triggerWebhook,
	type WebhookEndpoint,
	type WebhookEvent,
	WEBHOOK_EVENTS,
} from './webhooks';

/** Who did something, for the audit log: the API token's team, or a recipient in a browser. */
export interface Actor {
	recipient?: Recipient;
	ipAddress: string | null;
	userAgent: string | null;
}

const EMAIL_TYPE: Record<string, string> = {
	SIGNER: 'SIGNING_REQUEST',
	APPROVER: 'APPROVE_REQUEST',
	VIEWER: 'VIEW_REQUEST',
	ASSISTANT: 'ASSISTING_REQUEST',
};

const now = () => new Date().toISOString();

export class DocumensoStore {
	templates = new Map<number, Envelope>();
	documents = new Map<number, Envelope>();
	endpoints: WebhookEndpoint[] = [];
	/**
	 * The server's own time zone (its TZ), which Documenso's luxon reads and writes dates in where
	 * nothing else is said (create-document-from-template.ts, DateTime.fromJSDate).
	 */
	timeZone = 'Etc/UTC';
	folders = new Map<string, Folder>();
	private nextDocumentId = 0;
	private nextRecipientId = 0;
	private nextFieldId = 0;

	constructor(
		private readonly deliverer: Deliverer,
		private readonly seed: boolean,
		private readonly initialEndpoints: Array<{
			url: string;
			secret?: string;
			events?: WebhookEvent[];
		}>,
	) {
		this.reset();
	}

	reset(): void {
		this.deliverer.log.length = 0;
		this.templates = new Map(
			(this.seed ? documensoSeedTemplates() : []).map((template) => [template.legacyId, template]),
		);
		this.documents = new Map();
		this.folders = new Map();
		this.endpoints = this.initialEndpoints.map((endpoint) => this.endpoint(endpoint));
		this.timeZone = 'Etc/UTC';
		this.nextDocumentId = DOCUMENSO_SEED.firstDocumentId;
		this.nextRecipientId = 101;
		this.nextFieldId = 1001;
	}

	endpoint(spec: { url: string; secret?: string; events?: WebhookEvent[] }): WebhookEndpoint {
		return {
			id: prefixedId('webhook'),
			webhookUrl: spec.url,
			eventTriggers: spec.events ?? [...WEBHOOK_EVENTS],
			secret: spec.secret ?? null,
			enabled: true,
		};
	}

	/** Ids for a template added through the control endpoint, after the seed's. */
	templateIds(slots: number, fields: number) {
		const template = Math.max(0, ...this.templates.keys()) + 1;
		const slotIds = Array.from({ length: slots }, () => this.nextRecipientId++);
		const fieldIds = Array.from({ length: fields }, () => this.nextFieldId++);
		return { template, slotIds, fieldIds };
	}

	/** Ids for a new recipient and a new field, continuing the store's numbering. */
	newRecipientId(): number {
		return this.nextRecipientId++;
	}

	newField(spec: Omit<Field, 'id' | 'secondaryId' | 'customText' | 'inserted' | 'fieldMeta'> & { fieldMeta?: Field['fieldMeta'] }): Field {
		const id = this.nextFieldId++;
		return { customText: '', inserted: false, ...spec, fieldMeta: spec.fieldMeta ?? null, id, secondaryId: `field_${id}` };
	}

	/**
	 * createEnvelope (packages/lib/server-only/envelope/create-envelope.ts) for an upload: a DRAFT
	 * with one item per file, the recipients in the order given (ids ascending), their fields.
	 * DOCUMENT_CREATED is audited and fired.
	 */
	createUpload(
		input: {
			type: 'DOCUMENT' | 'TEMPLATE';
			title: string;
			externalId?: string;
			folderId?: string;
			meta?: Partial<Pick<Envelope['meta'], 'subject' | 'message' | 'redirectUrl' | 'distributionMethod' | 'signingOrder'>>;
			recipients: Array<{ email: string; name: string; role: Recipient['role']; signingOrder?: number }>;
		},
		files: Array<{ title: string; pdf: Buffer }>,
		actor: Actor,
	): Envelope {
		const created = now();
		const items: EnvelopeItem[] = files.map((file, index) => ({
			id: prefixedId('envelope_item'),
			title: file.title,
			documentDataId: prefixedId('document_data'),
			order: index + 1,
			pdf: file.pdf,
		}));
		const legacyId =
			input.type === 'DOCUMENT' ? this.nextDocumentId++ : Math.max(0, ...this.templates.keys()) + 1;
		const envelope: Envelope = {
			id: prefixedId('envelope'),
			type: input.type,
			legacyId,
			title: input.title,
			status: 'DRAFT',
			source: 'DOCUMENT',
			externalId: input.externalId ?? null,
			templateId: null,
			formValues: null,
			createdAt: created,
			updatedAt: created,
			completedAt: null,
			deletedAt: null,
			meta: {
				id: prefixedId('document_meta'),
				subject: input.meta?.subject ?? null,
				message: input.meta?.message ?? null,
				redirectUrl: input.meta?.redirectUrl ?? null,
				timezone: 'Etc/UTC',
				dateFormat: 'yyyy-MM-dd hh:mm a',
				language: 'en',
				distributionMethod: input.meta?.distributionMethod ?? 'EMAIL',
				signingOrder: input.meta?.signingOrder ?? 'PARALLEL',
			},
			recipients: input.recipients.map((recipient) => ({
				id: this.nextRecipientId++,
				// ZRecipientEmailSchema trims and lower-cases the address.
				email: recipient.email.trim().toLowerCase(),
				name: recipient.name,
				token: recipientToken(),
				role: recipient.role,
				readStatus: 'NOT_OPENED',
				signingStatus: 'NOT_SIGNED',
				sendStatus: 'NOT_SENT',
				signedAt: null,
				rejectionReason: null,
				signingOrder: recipient.signingOrder ?? null,
				expiresAt: null,
				expirationNotifiedAt: null,
			})),
			fields: [],
			item: { id: items[0].id, title: items[0].title, documentDataId: items[0].documentDataId },
			items,
			folderId: input.folderId ?? null,
			auditLogs: [],
		};
		if (input.type === 'TEMPLATE') {
			this.templates.set(envelope.legacyId, envelope);
			return envelope;
		}
		this.documents.set(envelope.legacyId, envelope);
		this.audit(envelope, 'DOCUMENT_CREATED', { title: envelope.title, source: { type: 'DOCUMENT' } }, actor);
		this.fire('DOCUMENT_CREATED', envelope);
		return envelope;
	}

	/** Any envelope by its `envelope_…` id: documents first, then templates. */
	findEnvelope(envelopeId: string): Envelope | undefined {
		return [...this.documents.values(), ...this.templates.values()].find(
			(envelope) => envelope.id === envelopeId,
		);
	}

	fire(event: WebhookEvent, envelope: Envelope): void {
		triggerWebhook(this.deliverer, this.endpoints, event, webhookDocument(envelope));
	}

	/** createDocumentAuditLogData (packages/lib/utils/document-audit-logs.ts). */
	audit(
		envelope: Envelope,
		type: string,
		data: Record<string, unknown>,
		actor?: Actor | null,
	): void {
		const entry: AuditLog = {
			id: prefixedId('audit'),
			createdAt: now(),
			type,
			data,
			// Through the API, the audit user is the token's team (authenticatedMiddleware).
			name: actor?.recipient ? actor.recipient.name || null : actor ? OWNER.teamName : null,
			email: actor?.recipient ? actor.recipient.email : null,
			userId: null,
			userAgent: actor?.userAgent ?? null,
			ipAddress: actor?.ipAddress ?? null,
		};
		envelope.auditLogs.push(entry);
	}

	/** createDocumentFromTemplate (packages/lib/server-only/template/create-document-from-template.ts). */
	createFromTemplate(
		template: Envelope,
		input: {
			recipients: Array<{ id: number; email: string; name?: string; signingOrder?: number }>;
			externalId?: string;
			override?: {
				title?: string;
				subject?: string;
				message?: string;
				redirectUrl?: string;
				language?: string;
			};
			formValues?: Record<string, string | boolean | number>;
			prefill: (
				fieldId: number,
			) =>
				| Partial<Pick<Envelope['fields'][number], 'customText' | 'inserted' | 'fieldMeta'>>
				| undefined;
		},
		actor: Actor,
	): Envelope {
		const slotIds = new Map<number, number>();
		const recipients: Recipient[] = template.recipients.map((slot) => {
			const given = input.recipients.find((recipient) => recipient.id === slot.id);
			const id = this.nextRecipientId++;
			slotIds.set(slot.id, id);
			return {
				...slot,
				id,
				name: given ? (given.name ?? '') : slot.name,
				// ZRecipientEmailSchema trims and lower-cases the address.
				email: given ? given.email.trim().toLowerCase() : slot.email,
				signingOrder: given?.signingOrder ?? slot.signingOrder,
				token: recipientToken(),
			};
		});
		const created = now();
		const { override = {} } = input;
		const document: Envelope = {
			id: prefixedId('envelope'),
			type: 'DOCUMENT',
			legacyId: this.nextDocumentId++,
			title: override.title || template.title,
			status: 'DRAFT',
			source: 'TEMPLATE',
			externalId: input.externalId ?? null,
			templateId: template.legacyId,
			formValues: input.formValues ?? null,
			createdAt: created,
			updatedAt: created,
			completedAt: null,
			deletedAt: null,
			meta: {
				...template.meta,
				id: prefixedId('document_meta'),
				subject: override.subject ?? template.meta.subject,
				message: override.message ?? template.meta.message,
				redirectUrl: override.redirectUrl ?? template.meta.redirectUrl,
				language: override.language ?? template.meta.language,
			},
			recipients,
			fields: template.fields.map((field) => ({
				...field,
				id: this.nextFieldId,
				secondaryId: `field_${this.nextFieldId++}`,
				recipientId: slotIds.get(field.recipientId) ?? field.recipientId,
				...input.prefill(field.id),
			})),
			item: {
				id: prefixedId('envelope_item'),
				title: template.item.title,
				documentDataId: prefixedId('document_data'),
			},
			auditLogs: [],
		};
		this.documents.set(document.legacyId, document);
		this.audit(
			document,
			'DOCUMENT_CREATED',
			{ title: document.title, source: { type: 'TEMPLATE', templateId: template.legacyId } },
			actor,
		);
		this.fire('DOCUMENT_CREATED', document);
		this.fire('TEMPLATE_USED', document);
		return document;
	}

	/**
	 * sendDocument (packages/lib/server-only/document/send-document.ts): PENDING, DOCUMENT_SENT,
	 * then one invitation e-mail per recipient not yet sent (send.signing.requested.email, a job
	 * of its own: the webhook's payload still shows them NOT_SENT); in a SEQUENTIAL document only
	 * to the first recipient but CC who has not signed. The route checks the signature fields
	 * first (`signersWithoutSignatureField`).
	 */
	send(document: Envelope, actor: Actor): void {
		if (document.recipients.every((recipient) => !mustAct(recipient))) {
			this.seal(document);
			return;
		}
		if (document.status === 'DRAFT') this.audit(document, 'DOCUMENT_SENT', {}, actor);
		document.status = 'PENDING';
		document.updatedAt = now();
		this.fire('DOCUMENT_SENT', document);
		if (document.meta.distributionMethod !== 'EMAIL') return;
		const toNotify =
			document.meta.signingOrder === 'SEQUENTIAL'
				? inSigningOrder(document)
						.filter((recipient) => recipient.role !== 'CC' && recipient.signingStatus === 'NOT_SIGNED')
						.slice(0, 1)
				: document.recipients;
		for (const recipient of toNotify) {
			if (recipient.sendStatus === 'SENT' || recipient.role === 'CC') continue;
			recipient.sendStatus = 'SENT';
			this.emailSent(document, recipient, false, actor);
		}
	}

	private emailSent(
		document: Envelope,
		recipient: Recipient,
		isResending: boolean,
		actor: Actor | null,
	) {
		this.audit(
			document,
			'EMAIL_SENT',
			{
				emailType: EMAIL_TYPE[recipient.role] ?? 'SIGNING_REQUEST',
				recipientEmail: recipient.email,
				recipientName: recipient.name,
				recipientRole: recipient.role,
				recipientId: recipient.id,
				isResending,
			},
			actor,
		);
	}

	/** viewedDocument (viewed-document.ts): only the first opening counts, and fires DOCUMENT_OPENED. */
	open(document: Envelope, recipient: Recipient, actor: Actor): boolean {
		if (recipient.readStatus === 'OPENED') return false;
		recipient.readStatus = 'OPENED';
		recipient.sendStatus = 'SENT';
		this.audit(
			document,
			'DOCUMENT_OPENED',
			{
				recipientEmail: recipient.email,
				recipientId: recipient.id,
				recipientName: recipient.name,
				recipientRole: recipient.role,
				accessAuth: [],
			},
			{ ...actor, recipient },
		);
		this.fire('DOCUMENT_OPENED', document);
		return true;
	}

	/**
	 * signFieldWithToken (packages/lib/server-only/field/sign-field-with-token.ts): the value goes
	 * into the field's `customText` (a DATE field gets the signing time in the document's format, a
	 * signature field keeps its text empty and the signature apart), the field is inserted, and the
	 * audit log records the value (DOCUMENT_FIELD_INSERTED, `field: {type, data}`).
	 */
	insertField(document: Envelope, recipient: Recipient, field: Field, value: string, actor: Actor): void {
		const signature = field.type === 'SIGNATURE' || field.type === 'FREE_SIGNATURE';
		if (!signature) field.customText = field.type === 'DATE' ? dateText(new Date(), this.timeZone) : value;
		field.inserted = true;
		this.audit(
			document,
			'DOCUMENT_FIELD_INSERTED',
			{
				recipientEmail: recipient.email,
				recipientId: recipient.id,
				recipientName: recipient.name,
				recipientRole: recipient.role,
				fieldId: field.secondaryId,
				field: { type: field.type, data: signature ? value : field.customText },
			},
			{ ...actor, recipient },
		);
	}

	/**
	 * completeDocumentWithToken (complete-document-with-token.ts): the recipient is SIGNED (signers,
	 * approvers and viewers alike), DOCUMENT_RECIPIENT_COMPLETED fires, the seal job is queued once
	 * everyone but CC has signed, then DOCUMENT_SIGNED fires. Sealing (a PDF job) usually takes
	 * longer than that, so here DOCUMENT_SIGNED (still PENDING) comes before DOCUMENT_COMPLETED;
	 * on a real server the order is not guaranteed.
	 */
	complete(document: Envelope, recipient: Recipient, actor: Actor): void {
		this.completeTogether(document, [recipient], actor);
	}

	/**
	 * completeDocumentWithToken for recipients who sign at nearly the same moment. Each request
	 * commits its recipient (SIGNED, `signedAt`) in a transaction, and only after it reads the
	 * document for its webhooks (`findUniqueOrThrow` for DOCUMENT_RECIPIENT_COMPLETED,
	 * `findFirstOrThrow` for DOCUMENT_SIGNED, at the end): when the transactions all commit before
	 * the first read, every recipient's events carry the document with all of them signed, the
	 * payloads byte for byte the same.
	 */
	completeTogether(document: Envelope, recipients: Recipient[], actor: Actor): void {
		for (const recipient of recipients) {
			recipient.signingStatus = 'SIGNED';
			recipient.signedAt = now();
			recipient.readStatus = 'OPENED';
			this.audit(
				document,
				'DOCUMENT_RECIPIENT_COMPLETED',
				{
					recipientEmail: recipient.email,
					recipientName: recipient.name,
					recipientId: recipient.id,
					recipientRole: recipient.role,
					actionAuth: [],
				},
				{ ...actor, recipient },
			);
		}
		// Each request's events, read after every transaction committed.
		recipients.forEach(() => {
			this.fire('DOCUMENT_RECIPIENT_COMPLETED', document);
			this.fire('DOCUMENT_SIGNED', document);
		});
		const next = inSigningOrder(document).find(mustAct);
		if (!next) {
			this.seal(document);
			return;
		}
		// SEQUENTIAL: the next recipient's turn has come, and their invitation goes out.
		if (document.meta.signingOrder === 'SEQUENTIAL' && next.sendStatus === 'NOT_SENT') {
			next.sendStatus = 'SENT';
			this.emailSent(document, next, false, null);
		}
	}

	/** rejectDocumentWithToken, then the seal job: REJECTED and DOCUMENT_REJECTED. */
	reject(document: Envelope, recipient: Recipient, reason: string, actor: Actor, onBehalf = false): void {
		recipient.signingStatus = 'REJECTED';
		recipient.rejectionReason = reason;
		this.audit(
			document,
			'DOCUMENT_RECIPIENT_REJECTED',
			{
				recipientEmail: recipient.email,
				recipientName: recipient.name,
				recipientId: recipient.id,
				recipientRole: recipient.role,
				reason,
				// reject-document-on-behalf-of.ts: an API user recorded it, flagged as external.
				...(onBehalf ? { isExternal: true } : {}),
			},
			onBehalf ? actor : { ...actor, recipient },
		);
		this.seal(document);
	}

	/** The seal-document job (jobs/definitions/internal/seal-document.handler.ts). */
	seal(document: Envelope): void {
		const rejected = document.recipients.some(
			(recipient) => recipient.signingStatus === 'REJECTED',
		);
		document.status = rejected ? 'REJECTED' : 'COMPLETED';
		document.completedAt = document.updatedAt = now();
		this.audit(document, 'DOCUMENT_COMPLETED', { transactionId: prefixedId('transaction') }, null);
		this.fire(rejected ? 'DOCUMENT_REJECTED' : 'DOCUMENT_COMPLETED', document);
	}

	/** cancelDocument (cancel-document.ts): PENDING only; completedAt is set too. */
	cancel(document: Envelope, reason: string | undefined, actor: Actor): void {
		document.status = 'CANCELLED';
		document.completedAt = document.updatedAt = now();
		this.audit(document, 'DOCUMENT_CANCELLED', reason === undefined ? {} : { reason }, actor);
		this.fire('DOCUMENT_CANCELLED', document);
	}

	/**
	 * deleteDocument (delete-document.ts): a finished document (completed, rejected, cancelled) is
	 * kept with `deletedAt`; a draft or pending one is deleted for good. DOCUMENT_CANCELLED fires
	 * either way, with the document's status unchanged.
	 */
	delete(document: Envelope, actor: Actor): void {
		if (document.deletedAt === null) {
			const finished = ['COMPLETED', 'REJECTED', 'CANCELLED'].includes(document.status);
			this.audit(document, 'DOCUMENT_DELETED', { type: finished ? 'SOFT' : 'HARD' }, actor);
			if (finished) document.deletedAt = document.updatedAt = now();
			else this.documents.delete(document.legacyId);
		}
		this.fire('DOCUMENT_CANCELLED', document);
	}

	/**
	 * resendDocument (resend-document.ts): the given ids that are on the document, not signed and
	 * not CC get the invitation again; other ids are skipped without an error. DOCUMENT_REMINDER_SENT.
	 */
	remind(document: Envelope, recipientIds: number[], actor: Actor): Recipient[] {
		const reminded = document.recipients.filter(
			(recipient) =>
				recipientIds.includes(recipient.id) &&
				recipient.signingStatus === 'NOT_SIGNED' &&
				recipient.role !== 'CC',
		);
		for (const recipient of reminded) {
			recipient.sendStatus = 'SENT';
			this.emailSent(document, recipient, true, actor);
		}
		this.fire('DOCUMENT_REMINDER_SENT', document);
		return reminded;
	}

	/** process-recipient-expired.handler.ts: the signing link ran out. */
	expire(document: Envelope, recipient: Recipient): void {
		recipient.expiresAt = recipient.expiresAt ?? now();
		recipient.expirationNotifiedAt = now();
		this.audit(
			document,
			'DOCUMENT_RECIPIENT_EXPIRED',
			{ recipientEmail: recipient.email, recipientName: recipient.name, recipientId: recipient.id },
			null,
		);
		this.fire('RECIPIENT_EXPIRED', document);
	}
}
