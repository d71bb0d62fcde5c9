import { createHmac } from 'crypto';

import { Webhook } from 'standardwebhooks';

import { verifyStandardWebhook } from '../../nodes/shared/standardWebhooks';

const secret = `whsec_${Buffer.from('a-test-secret-of-24-bytes!').toString('base64')}`;
const otherSecret = `whsec_${Buffer.from('another-secret-24-bytes!!').toString('base64')}`;
const body = JSON.stringify({ event: 'responseFinished', surveyId: 'srv_1', responseId: 'resp_1' });
const now = Math.floor(Date.now() / 1000);

/** Signs with the reference library, independently of the code under test. */
function signed(withSecret = secret, id = 'msg_1', timestamp = now, payload = body) {
	const signature = new Webhook(withSecret).sign(id, new Date(timestamp * 1000), payload);
	return { id, timestamp: String(timestamp), signature };
}

describe('verifyStandardWebhook', () => {
	it('accepts a delivery signed by the reference implementation', () => {
		expect(verifyStandardWebhook(secret, signed(), body, now)).toEqual({ valid: true });
	});

	it('rejects a wrong secret', () => {
		expect(verifyStandardWebhook(secret, signed(otherSecret), body, now).valid).toBe(false);
	});

	it('rejects a tampered body', () => {
		expect(verifyStandardWebhook(secret, signed(), body.replace('resp_1', 'resp_2'), now).valid).toBe(false);
	});

	it('rejects a tampered id or timestamp', () => {
		const headers = signed();
		expect(verifyStandardWebhook(secret, { ...headers, id: 'msg_2' }, body, now).valid).toBe(false);
		expect(verifyStandardWebhook(secret, { ...headers, timestamp: String(now - 1) }, body, now).valid).toBe(false);
	});

	it('rejects a timestamp more than five minutes away, either way', () => {
		expect(verifyStandardWebhook(secret, signed(secret, 'msg_1', now - 301), body, now).valid).toBe(false);
		expect(verifyStandardWebhook(secret, signed(secret, 'msg_1', now + 301), body, now).valid).toBe(false);
		expect(verifyStandardWebhook(secret, signed(secret, 'msg_1', now - 299), body, now).valid).toBe(true);
	});

	it.each(['id', 'timestamp', 'signature'] as const)('rejects a delivery without its %s header', (header) => {
		const headers: Record<string, string | undefined> = signed();
		headers[header] = undefined;
		expect(verifyStandardWebhook(secret, headers, body, now).valid).toBe(false);
	});

	it('accepts when one of several signatures matches', () => {
		const good = signed().signature;
		const bad = signed(otherSecret).signature;
		expect(verifyStandardWebhook(secret, { ...signed(), signature: `${bad} ${good}` }, body, now).valid).toBe(true);
		expect(verifyStandardWebhook(secret, { ...signed(), signature: `${bad} v2,${good.slice(3)}` }, body, now).valid).toBe(
			false,
		);
	});

	it('accepts a secret given without its whsec_ prefix', () => {
		expect(verifyStandardWebhook(secret.slice(6), signed(), body, now).valid).toBe(true);
	});
});

describe('unusable secrets', () => {
	it.each(['whsec_', 'whsec_!!!!', 'whsec_not base64', ''])('refuses %p as a configuration error', (bad) => {
		// Signed with the empty key a lenient decoder would make of it.
		const signature = `v1,${createHmac('sha256', Buffer.alloc(0)).update(`msg_1.${now}.${body}`).digest('base64')}`;
		const verification = verifyStandardWebhook(bad, { id: 'msg_1', timestamp: String(now), signature }, body, now);
		expect(verification).toEqual(expect.objectContaining({ valid: false, configurationError: true }));
	});
});

describe('exact bytes', () => {
	it('verifies the HMAC over the body as received, also when it is not UTF-8', () => {
		// "Zoë" in Latin-1: 0xEB is not valid UTF-8 and would become U+FFFD if decoded.
		const raw = Buffer.concat([Buffer.from('{"name":"Zo'), Buffer.from([0xeb]), Buffer.from('"}')]);
		const key = Buffer.from(secret.slice(6), 'base64');
		const digest = createHmac('sha256', key).update(`msg_1.${now}.`).update(raw).digest('base64');
		const headers = { id: 'msg_1', timestamp: String(now), signature: `v1,${digest}` };
		expect(verifyStandardWebhook(secret, headers, raw, now)).toEqual({ valid: true });
		expect(verifyStandardWebhook(secret, headers, raw.toString('utf8'), now).valid).toBe(false);
	});
});
