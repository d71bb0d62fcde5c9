/**
 * The envelope routes that replace the document and template routes Documenso removes on
 * 1 March 2027 (apps/docs/content/docs/developers/api/migrate-to-envelopes.mdx, tag v2.17.0):
 * reading several envelopes by their ids or legacy numbers (get-envelopes-by-ids.ts), making a
 * document from a template (use-envelope.ts, multipart), and reminding recipients
 * (redistribute-envelope.ts). Parsed and checked with the SDK's schemas, as routes.ts does.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { appError, inputValidationFailed, plainError } from './errors';
import { envelopeView, type Envelope } from './model';
import { checkPrefill, type Prefill } from './prefill';
import { documensoRoute, EMAIL, mustHaveSignatureFields } from './routes';
import { checkAnswer, isMultipartRecord, issue, multipartIssues, OPERATIONS } from './sdk';
import type { Actor, DocumensoStore } from './store';

type EnvelopeIds =
	| { type: 'envelopeId'; ids: string[] }
	| { type: 'documentId'; ids: number[] }
	| { type: 'templateId'; ids: number[] };

export function registerEnvelopeUseRoutes(app: FastifyInstance, store: DocumensoStore): void {
	const route = documensoRoute(app);
	const actorOf = (request: FastifyRequest): Actor => ({
		ipAddress: request.ip,
		userAgent: request.headers['user-agent'] ?? null,
	});
	const webappUrl = (request: FastifyRequest) => `${request.protocol}://${request.headers.host}`;

	/**
	 * getEnvelopesByIds (packages/lib/server-only/envelope/get-envelopes-by-ids.ts): the team's
	 * envelopes among the ids, of any type for `envelopeId`; a legacy number names a document
	 * (`documentId`) or a template (`templateId`) through its secondaryId. Ids it does not know
	 * are left out, without an error.
	 */
	route<{ ids: EnvelopeIds }>(
		'getEnvelopesByIds',
		(input) => {
			const { ids } = input;
			let found: Envelope[];
			if (ids.type === 'envelopeId') {
				found = ids.ids.flatMap((id) => {
					const envelope = store.findEnvelope(id);
					return envelope ? [envelope] : [];
				});
			} else {
				const map = ids.type === 'documentId' ? store.documents : store.templates;
				found = ids.ids.flatMap((id) => {
					const envelope = map.get(id);
					return envelope ? [envelope] : [];
				});
			}
			// No deletedAt filter (getMultipleEnvelopeWhereInput): a finished document deleted, and so
			// only hidden from lists, is still found by its id.
			return { data: found.map(envelopeView) };
		},
		// ZEnvelopeIdsSchema (get-envelopes-by-ids.types.ts): 1 to 20 ids, which the SDK's schema does not check.
		(input) =>
			input.ids.ids.length < 1 || input.ids.ids.length > 20
				? [
						issue(
							['ids', 'ids'],
							input.ids.ids.length < 1
								? 'Array must contain at least 1 element(s)'
								: 'Array must contain at most 20 element(s)',
							input.ids.ids.length < 1 ? 'too_small' : 'too_big',
						),
					]
				: [],
	);

	/**
	 * use-envelope.ts: the template by its envelope id (a document's id is NOT_FOUND), the
	 * document made as createDocumentFromTemplate makes it, then sent when asked; a failed send
	 * leaves the draft and answers DOCUMENT_SEND_FAILED whatever sendDocument said.
	 */
	app.post(OPERATIONS.useEnvelope.url, async (request, reply) => {
		const op = OPERATIONS.useEnvelope;
		const procedure = op.procedure;
		const record = request.body;
		if (!isMultipartRecord(record)) {
			throw inputValidationFailed(procedure, [issue(['payload'], 'Required', 'invalid_type')]);
		}
		const issues = multipartIssues(op, record);
		const payload = (
			issues.length === 0
				? op.request.parse(record.parts.find((part) => part.name === 'payload')!.json)
				: undefined
		) as
			| {
					envelopeId: string;
					externalId?: string;
					recipients?: Array<{ id: number; email: string; name?: string; signingOrder?: number }>;
					distributeDocument?: boolean;
					folderId?: string;
					prefillFields?: Prefill[];
					override?: { title?: string; subject?: string; message?: string; redirectUrl?: string };
					formValues?: Record<string, string | boolean | number>;
			  }
			| undefined;
		if (payload) {
			(payload.recipients ?? []).forEach((recipient, index) => {
				if (recipient.email !== '' && !EMAIL.test(recipient.email))
					issues.push(
						issue(['payload', 'recipients', index, 'email'], 'Invalid email', 'invalid_string'),
					);
			});
			const title = payload.override?.title;
			if (title !== undefined && (title.length < 1 || title.length > 255))
				issues.push(
					issue(
						['payload', 'override', 'title'],
						'String must contain between 1 and 255 character(s)',
					),
				);
		}
		if (issues.length > 0 || !payload) throw inputValidationFailed(procedure, issues);
		const template = store.findEnvelope(payload.envelopeId);
		if (!template || template.type !== 'TEMPLATE' || template.deletedAt !== null)
			throw appError(procedure, 'NOT_FOUND', 'Envelope not found');
		if (payload.folderId && !store.folders.has(payload.folderId))
			throw appError(procedure, 'NOT_FOUND', 'Folder not found');
		const recipients = payload.recipients ?? [];
		for (const recipient of recipients) {
			if (!template.recipients.some((slot) => slot.id === recipient.id)) {
				throw appError(
					procedure,
					'INVALID_BODY',
					`Recipient with ID ${recipient.id} not found in the template.`,
				);
			}
		}
		const prefill = checkPrefill(procedure, template, payload.prefillFields ?? [], store.timeZone);
		const document = store.createFromTemplate(
			template,
			{ ...payload, recipients, prefill: (fieldId) => prefill.get(fieldId) },
			actorOf(request),
		);
		if (payload.folderId) document.folderId = payload.folderId;
		if (payload.distributeDocument) {
			try {
				mustHaveSignatureFields(procedure, document);
				store.send(document, actorOf(request));
			} catch {
				throw appError(procedure, 'DOCUMENT_SEND_FAILED');
			}
		}
		return await reply.send(
			checkAnswer(op, {
				id: document.id,
				recipients: document.recipients.map((recipient) => ({
					id: recipient.id,
					name: recipient.name,
					email: recipient.email,
					token: recipient.token,
					role: recipient.role,
					signingOrder: recipient.signingOrder,
					signingUrl: `${webappUrl(request)}/sign/${recipient.token}`,
				})),
			}),
		);
	});

	/**
	 * redistribute-envelope.ts, resendDocument (resend-document.ts): a document of the team,
	 * pending; the given recipients who have not signed and are not CC get the invitation again.
	 */
	route<{ envelopeId: string; recipients: number[] }>(
		'redistributeEnvelope',
		(input, request) => {
			const procedure = OPERATIONS.redistributeEnvelope.procedure;
			const envelope = store.findEnvelope(input.envelopeId);
			if (!envelope || envelope.type !== 'DOCUMENT' || envelope.deletedAt !== null)
				throw appError(procedure, 'NOT_FOUND', 'Document not found');
			if (envelope.status === 'DRAFT') throw plainError(procedure, 'Can not send draft document');
			if (envelope.status !== 'PENDING')
				throw plainError(procedure, 'Can not send completed document');
			store.remind(envelope, input.recipients, actorOf(request));
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
		},
		(input) =>
			input.recipients.length === 0
				? [issue(['recipients'], 'Array must contain at least 1 element(s)', 'too_small')]
				: [],
	);
}
