import { createHmac, timingSafeEqual } from 'crypto';

export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export interface StandardWebhookHeaders {
	id?: string;
	timestamp?: string;
	signature?: string;
}

export type Verification =
	| { valid: true }
	/** `configurationError`: the secret itself is unusable, whatever the delivery carries. */
	| { valid: false; reason: string; configurationError?: boolean };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The HMAC key of a `whsec_<base64>` secret, or undefined when the secret is not one:
 * a lenient decoder turns `whsec_` alone or non-base64 text into an empty or arbitrary key,
 * and an empty key would let anyone who knows that compute valid signatures.
 */
export function standardWebhookKey(secret: string): Buffer | undefined {
	const encoded = secret.trim().replace(/^whsec_/, '');
	if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined;
	const key = Buffer.from(encoded, 'base64');
	return key.length > 0 ? key : undefined;
}

function sign(key: Buffer, id: string, timestamp: number, body: Buffer | string): Buffer {
	return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

export function signStandardWebhook(secret: string, id: string, timestamp: number, body: Buffer | string): string {
	const key = standardWebhookKey(secret);
	if (!key) throw new TypeError('Not a Standard Webhooks secret (whsec_<base64>)');
	return `v1,${sign(key, id, timestamp, body).toString('base64')}`;
}

/**
 * Checks a delivery as the Standard Webhooks specification says: HMAC-SHA256 over
 * `id.timestamp.body` (the body's exact bytes), any one of the space-separated `v1`
 * signatures may match, and a timestamp more than five minutes away from now is a replay.
 * A secret that is not `whsec_<base64>` of at least one byte is never used as a key.
 */
export function verifyStandardWebhook(
	secret: string,
	headers: StandardWebhookHeaders,
	rawBody: Buffer | string,
	nowSeconds = Math.floor(Date.now() / 1000),
): Verification {
	const key = standardWebhookKey(secret);
	if (!key) {
		return {
			valid: false,
			configurationError: true,
			reason: 'The webhook secret is not a Standard Webhooks secret (whsec_ followed by base64)',
		};
	}
	const { id, timestamp, signature } = headers;
	if (!id || !timestamp || !signature) {
		return { valid: false, reason: 'Missing webhook-id, webhook-timestamp or webhook-signature header' };
	}
	const sentAt = Number(timestamp);
	if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - sentAt) > SIGNATURE_TOLERANCE_SECONDS) {
		return { valid: false, reason: 'The webhook timestamp is missing, malformed or too old' };
	}
	const expected = sign(key, id, sentAt, rawBody);
	const matches = signature.split(' ').some((candidate) => {
		const [version, value] = candidate.split(',', 2);
		if (version !== 'v1' || !value) return false;
		const received = Buffer.from(value, 'base64');
		return received.length === expected.length && timingSafeEqual(received, expected);
	});
	return matches ? { valid: true } : { valid: false, reason: 'No webhook signature matches' };
}
