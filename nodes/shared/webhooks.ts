import { createHash, timingSafeEqual } from 'crypto';
import type { IHookFunctions, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** Compares two secrets in time independent of where they differ, and of their lengths. */
export function secretsMatch(received: string, expected: string): boolean {
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return timingSafeEqual(digest(received), digest(expected));
}

export function rejectUnauthorized(ctx: IWebhookFunctions, reason: string): IWebhookResponseData {
	ctx.getResponseObject().status(401).json({ message: reason }).end();
	return { noWebhookResponse: true };
}

export function rejectBadRequest(ctx: IWebhookFunctions, reason: string): IWebhookResponseData {
	ctx.getResponseObject().status(400).json({ message: reason }).end();
	return { noWebhookResponse: true };
}

/** The optional "Webhook Secret" of the node's credential; empty when there is none. */
export async function credentialWebhookSecret(ctx: IWebhookFunctions, credentialType: string): Promise<string> {
	if (!ctx.getNode().credentials?.[credentialType]) return '';
	const credentials = await ctx.getCredentials(credentialType);
	return typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
}

/** Acknowledges a delivery that must start nothing (an unselected event, a redelivery). */
export const ACKNOWLEDGE_ONLY: IWebhookResponseData = { webhookResponse: 'OK' };

const DEFAULT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * Delivery ids seen recently, per workflow and node. n8n does not reliably keep what a
 * webhook writes to static data while it starts an execution, and reads and writes static
 * data whole, so concurrent deliveries would overwrite each other; an in-process store
 * has neither problem. It covers one n8n process and is lost on restart.
 */
export class RecentDeliveries {
	private readonly seen = new Map<string, Map<string, number>>();

	constructor(
		private readonly maxAgeMs = DEFAULT_MAX_AGE_MS,
		private readonly maxEntries = DEFAULT_MAX_ENTRIES,
	) {}

	/** Records the id and tells whether it had been seen already. */
	checkAndRemember(scope: string, deliveryId: string, now = Date.now()): boolean {
		let ids = this.seen.get(scope);
		if (!ids) {
			ids = new Map();
			this.seen.set(scope, ids);
		}
		const seenAt = ids.get(deliveryId);
		if (seenAt !== undefined && now - seenAt <= this.maxAgeMs) return true;
		ids.delete(deliveryId);
		ids.set(deliveryId, now);
		// Maps iterate in insertion order, so the oldest entries come first.
		for (const [id, at] of ids) {
			if (ids.size <= this.maxEntries && now - at <= this.maxAgeMs) break;
			ids.delete(id);
		}
		return false;
	}

	forget(scope: string): void {
		this.seen.delete(scope);
	}
}

export const recentDeliveries = new RecentDeliveries();

export function deliveryScope(ctx: IWebhookFunctions | IHookFunctions): string {
	return `${ctx.getWorkflow().id ?? 'unsaved'}:${ctx.getNode().id}`;
}

/** The raw body as received, for signatures and for body-based redelivery detection. */
export function rawBodyOf(ctx: IWebhookFunctions): string {
	const request = ctx.getRequestObject() as { rawBody?: Buffer | string; body?: unknown };
	if (request.rawBody !== undefined) return request.rawBody.toString();
	return JSON.stringify(request.body ?? {});
}

export function sha256Hex(value: string): string {
	return createHash('sha256').update(value, 'utf8').digest('hex');
}

