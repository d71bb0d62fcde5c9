import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../shared/credentialTest';
import { sha256Hex } from '../../shared/webhooks';
import { documentedDocument } from './documensoShapes';
import type { EventOption, SigningEvent } from './types';

/**
 * Documenso's webhook deliveries (documenso/documenso, tag v2.17.0, commit
 * 75330166cc00b29c14399bc2e391e4b4d8080c00): the body is built in
 * packages/lib/jobs/definitions/internal/execute-webhook.handler.ts as
 * `{event, payload, createdAt, webhookEndpoint}` on every run of the job, and sent by
 * packages/lib/server-only/webhooks/execute-webhook-call.ts with `X-Documenso-Secret` (the
 * webhook's secret, or empty). The payload is the document (ZWebhookDocumentSchema,
 * packages/lib/types/webhook-payload.ts), frozen when the event happened.
 */

/** Documenso's events (WebhookTriggerEvents) by the documented name, and the extra ones the trigger offers. */
export const DOCUMENSO_EVENTS: Record<string, string> = {
	DOCUMENT_CREATED: 'document.created',
	DOCUMENT_SENT: 'document.sent',
	DOCUMENT_OPENED: 'document.opened',
	DOCUMENT_SIGNED: 'document.signed',
	DOCUMENT_COMPLETED: 'document.completed',
	DOCUMENT_REJECTED: 'document.rejected',
	DOCUMENT_CANCELLED: 'document.cancelled',
	DOCUMENT_RECIPIENT_COMPLETED: 'document.recipient_completed',
	DOCUMENT_REMINDER_SENT: 'document.reminder_sent',
	RECIPIENT_EXPIRED: 'document.recipient_expired',
};

/** The events Documenso sends that the documented API has not (the trigger adds "(Documenso)" to each name). */
export const DOCUMENSO_EXTRA_EVENTS: EventOption[] = [
	{
		name: 'Recipient Completed',
		value: 'document.recipient_completed',
		description: 'Documenso only: a recipient signed, approved or viewed as asked (fires with Document Signed)',
	},
	{
		name: 'Recipient Expired',
		value: 'document.recipient_expired',
		description: 'Documenso only: a recipient’s signing link expired; the recipient is in "recipient"',
	},
	{
		name: 'Reminder Sent',
		value: 'document.reminder_sent',
		description: 'Documenso only: the invitation was sent again (Resend, or a scheduled reminder)',
	},
];

const latest = (recipients: IDataObject[], field: string): IDataObject | undefined =>
	recipients
		.filter((recipient) => typeof recipient[field] === 'string')
		.sort((a, b) => String(b[field]).localeCompare(String(a[field])))[0];

/**
 * Who acted, which Documenso's payload does not say: it is the document as it was right after
 * the event, so
 * - signed, recipient completed: the recipient with the latest `signedAt` (the one who just signed);
 * - rejected: the recipient whose `signingStatus` is REJECTED (a rejection ends the document);
 * - recipient expired: the recipient with the latest `expirationNotifiedAt` (set when it expired);
 * - opened: the one recipient who has opened and not yet signed or rejected. Documenso fires it only
 *   on a recipient's first opening; when several have opened and not signed, the payload cannot
 *   tell which of them it was, and `recipient` is null.
 * Other events have no acting recipient.
 */
export function actingRecipient(event: string, recipients: IDataObject[]): IDataObject | null {
	switch (event) {
		case 'DOCUMENT_SIGNED':
		case 'DOCUMENT_RECIPIENT_COMPLETED':
			return latest(
				recipients.filter((recipient) => recipient.signingStatus === 'SIGNED'),
				'signedAt',
			) ?? null;
		case 'DOCUMENT_REJECTED':
			return recipients.find((recipient) => recipient.signingStatus === 'REJECTED') ?? null;
		case 'RECIPIENT_EXPIRED':
			return latest(recipients, 'expirationNotifiedAt') ?? null;
		case 'DOCUMENT_OPENED': {
			const waiting = recipients.filter(
				(recipient) => recipient.readStatus === 'OPENED' && recipient.signingStatus === 'NOT_SIGNED',
			);
			return waiting.length === 1 ? waiting[0] : null;
		}
		default:
			return null;
	}
}

/** The events Documenso sends after a recipient's signing committed, reading the document only then. */
const SIGNING_EVENTS = new Set(['DOCUMENT_SIGNED', 'DOCUMENT_RECIPIENT_COMPLETED']);

/**
 * How long before the latest signing another one may still be in the same payload as a signing of
 * its own: the time one signing request takes from its commit to its last read of the document.
 */
const SIGNED_TOGETHER_MS = 60_000;

/**
 * The signings a signed event's payload can stand for, oldest first: every recipient signed within
 * SIGNED_TOGETHER_MS of the latest, each keyed by the document, the recipient and its `signedAt`,
 * which every attempt of every delivery showing that signing repeats. Earlier signings are left
 * out: their own deliveries brought them.
 */
function signings(event: string, document: IDataObject, recipients: IDataObject[]): SigningEvent['byRecipient'] {
	const signed = recipients
		.filter((recipient) => recipient.signingStatus === 'SIGNED' && typeof recipient.signedAt === 'string')
		.map((recipient) => ({ recipient, at: Date.parse(String(recipient.signedAt)) }))
		.filter(({ at }) => Number.isFinite(at))
		.sort((a, b) => a.at - b.at);
	const latest = signed.at(-1)?.at;
	if (latest === undefined) return undefined;
	return signed
		.filter(({ at }) => at >= latest - SIGNED_TOGETHER_MS)
		.map(({ recipient }) => ({
			deliveryKey: `documenso:${event}:${String(document.id)}:${String(recipient.recipientId)}:${String(recipient.signedAt)}`,
			recipient,
		}));
}

/**
 * A delivery as the documented event. Its key for recognising redeliveries is the event and a
 * hash of the payload: a retry repeats the same payload with a new `createdAt` (and there is no
 * delivery id), while two events differ in the event or in the payload, since each payload is
 * the document right after its own event. The document's `updatedAt` would not do: signing,
 * opening and rejecting change only recipient rows, so two signers' events carry the same
 * `updatedAt`. The signed events are keyed per recipient instead (`signings`): two signers close
 * together get the same payload in both their deliveries.
 */
export function documensoEvent(body: unknown, baseUrl: string): SigningEvent | undefined {
	if (!isObject(body) || typeof body.event !== 'string' || !isObject(body.payload)) return undefined;
	const { event, payload } = body;
	const document = documentedDocument(payload, baseUrl);
	const recipients = (document.recipients as IDataObject[]) ?? [];
	const acted = actingRecipient(event, recipients);
	const mapped: IDataObject = { ...document };
	if (acted) mapped.recipient = acted;
	return {
		// The documented name (as registry.ts's documentedEventName gives it, which this module cannot
		// import: the registry imports the adapters); events without one (TEMPLATE_…) keep their own.
		event: DOCUMENSO_EVENTS[event] ?? event,
		createdAt: body.createdAt ?? null,
		deliveryKey: `documenso:${sha256Hex(`${event}\n${JSON.stringify(payload)}`)}`,
		byRecipient: SIGNING_EVENTS.has(event) ? signings(event, document, recipients) : undefined,
		payload: mapped,
		beyond: { documensoEvent: event, webhookEndpoint: body.webhookEndpoint ?? null },
	};
}
