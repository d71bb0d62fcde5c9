import { createHmac, timingSafeEqual } from 'crypto';

export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export interface StandardWebhookHeaders {
	id?: string;
	timestamp?: string;
	signature?: string;
}

export type Verification = { valid: true } | { valid: false; reason: string };

function secretKey(secret: string): Buffer {
	return Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
}

export function signStandardWebhook(secret: string, id: string, timestamp: number, body: string): string {
	const digest = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
	return `v1,${digest}`;
}

/**
 * Checks a delivery as the Standard Webhooks specification says: HMAC-SHA256 over
 * `id.timestamp.body`, any one of the space-separated `v1` signatures may match, and a
 * timestamp more than five minutes away from now is a replay.
 */
export function verifyStandardWebhook(
	secret: string,
	headers: StandardWebhookHeaders,
	rawBody: string,
	nowSeconds = Math.floor(Date.now() / 1000),
): Verification {
	const { id, timestamp, signature } = headers;
	if (!id || !timestamp || !signature) {
		return { valid: false, reason: 'Missing webhook-id, webhook-timestamp or webhook-signature header' };
	}
	const sentAt = Number(timestamp);
	if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - sentAt) > SIGNATURE_TOLERANCE_SECONDS) {
		return { valid: false, reason: 'The webhook timestamp is missing, malformed or too old' };
	}
	const expected = Buffer.from(signStandardWebhook(secret, id, sentAt, rawBody).slice(3), 'base64');
	const matches = signature.split(' ').some((candidate) => {
		const [version, value] = candidate.split(',', 2);
		if (version !== 'v1' || !value) return false;
		const received = Buffer.from(value, 'base64');
		return received.length === expected.length && timingSafeEqual(received, expected);
	});
	return matches ? { valid: true } : { valid: false, reason: 'No webhook signature matches' };
}
