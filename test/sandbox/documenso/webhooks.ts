/**
 * Webhook deliveries exactly as Documenso builds them (documenso/documenso, tag v2.17.0, commit
 * 75330166cc00b29c14399bc2e391e4b4d8080c00):
 *
 * - packages/lib/server-only/webhooks/trigger/trigger-webhook.ts queues one job
 *   `internal.execute-webhook` per enabled endpoint subscribed to the event, with the document as
 *   it is at that moment (`data`, already parsed by ZWebhookDocumentSchema, stored as JSON).
 * - packages/lib/jobs/definitions/internal/execute-webhook.handler.ts builds the body on every run
 *   of the job: `{event, payload: data, createdAt: new Date().toISOString(), webhookEndpoint: url}`,
 *   so a retry carries a new `createdAt` and nothing else identifies it (no delivery id).
 * - packages/lib/server-only/webhooks/execute-webhook-call.ts POSTs `JSON.stringify(body)` with
 *   `Content-Type: application/json` and `X-Documenso-Secret: <secret or "">`, 10 s timeout; any
 *   non-2xx answer fails the job, which the job runner retries: the default local runner
 *   (packages/lib/jobs/client/local.ts) at once, up to maxRetries 3 (4 attempts in all); BullMQ
 *   3 attempts with exponential backoff from 1 s; Inngest its own default.
 */
import type { Deliverer } from '../deliveries';
import { prefixedId } from './model';

/** WebhookTriggerEvents (packages/prisma/schema.prisma). */
export const WEBHOOK_EVENTS = [
	'DOCUMENT_CREATED',
	'DOCUMENT_SENT',
	'DOCUMENT_OPENED',
	'DOCUMENT_SIGNED',
	'DOCUMENT_COMPLETED',
	'DOCUMENT_REJECTED',
	'DOCUMENT_CANCELLED',
	'RECIPIENT_EXPIRED',
	'DOCUMENT_RECIPIENT_COMPLETED',
	'DOCUMENT_REMINDER_SENT',
	'TEMPLATE_CREATED',
	'TEMPLATE_UPDATED',
	'TEMPLATE_DELETED',
	'TEMPLATE_USED',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The local job runner's attempts: the first run and maxRetries (3) more. */
export const DOCUMENSO_ATTEMPTS = 4;
/** WEBHOOK_TIMEOUT_MS in execute-webhook-call.ts. */
export const DOCUMENSO_WEBHOOK_TIMEOUT_MS = 10_000;

/** A webhook as a team admin configures it in Documenso's settings (model Webhook). */
export interface WebhookEndpoint {
	id: string;
	webhookUrl: string;
	eventTriggers: WebhookEvent[];
	secret: string | null;
	enabled: boolean;
}

/** Queues one delivery per endpoint that listens to the event; `data` is frozen now. */
export function triggerWebhook(
	deliverer: Deliverer,
	endpoints: WebhookEndpoint[],
	event: WebhookEvent,
	data: unknown,
): void {
	// The job payload goes through JSON: dates are ISO strings from here on.
	const frozen = JSON.parse(JSON.stringify(data)) as unknown;
	for (const webhook of endpoints) {
		if (!webhook.enabled || !webhook.eventTriggers.includes(event)) continue;
		const url = webhook.webhookUrl;
		const headers = {
			'Content-Type': 'application/json',
			'X-Documenso-Secret': webhook.secret ?? '',
		};
		deliverer.send({
			// Documenso sends no delivery id; this is the background job's, for the sandbox's log only.
			deliveryId: prefixedId('job'),
			event,
			url,
			body: () =>
				JSON.stringify({
					event,
					payload: frozen,
					createdAt: new Date().toISOString(),
					webhookEndpoint: url,
				}),
			headers: () => headers,
		});
	}
}
