/**
 * The links Formbricks hands out for its surveys (b66c1dd):
 * - a contact's personal link, `${PUBLIC_URL}/c/<JWT>` (apps/web/modules/ee/contacts/lib/contact-survey-link.ts):
 *   an HS256 token signed with the server's ENCRYPTION_KEY over the contact's and the survey's ids,
 *   each encrypted with that key, expiring after `expirationDays` when given; a survey with
 *   single-use links on gets `?suId=…` (and `&suToken=…` when the ids are not encrypted);
 * - single-use links, `${PUBLIC_URL}/s/<surveyId>?suId=<cuid2>&suToken=<HMAC>` or, with encrypted
 *   ids, `?suId=<encrypted cuid2>` (apps/web/lib/utils/single-use-surveys.ts).
 */
import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

import { createId } from './ids';

/** The sandbox server's ENCRYPTION_KEY (32 bytes as hex, as Formbricks' setup generates). */
const ENCRYPTION_KEY = createHash('sha256').update('formbricks-sandbox').digest('hex');

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** `symmetricEncrypt` (apps/web/lib/crypto.ts): AES-256-GCM, `iv:ciphertext:tag` in hex. */
function symmetricEncrypt(text: string): string {
	const iv = randomBytes(16);
	const cipher = createCipheriv('aes-256-gcm', Buffer.from(ENCRYPTION_KEY, 'hex'), iv);
	const encrypted = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
	return `${iv.toString('hex')}:${encrypted.toString('hex')}:${cipher.getAuthTag().toString('hex')}`;
}

function signJwt(payload: Record<string, unknown>): string {
	const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
	const body = base64url(JSON.stringify(payload));
	const signature = createHmac('sha256', ENCRYPTION_KEY).update(`${header}.${body}`).digest('base64url');
	return `${header}.${body}.${signature}`;
}

/** The token's payload, as Formbricks' survey page reads it before decrypting the ids. */
export function readJwt(token: string): Record<string, unknown> {
	return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

export interface SingleUse {
	enabled: boolean;
	isEncrypted: boolean;
}

/** `generateSurveySingleUseLinkParams`: an encrypted id alone, or an id with its HMAC. */
function singleUseParams(surveyId: string, isEncrypted: boolean): URLSearchParams {
	const suId = createId();
	if (isEncrypted) return new URLSearchParams({ suId: symmetricEncrypt(suId) });
	const suToken = createHmac('sha256', ENCRYPTION_KEY).update(`formbricks.single-use.v1:${surveyId}:${suId}`).digest('hex');
	return new URLSearchParams({ suId, suToken });
}

/** `getContactSurveyLink`. */
export function personalLink(
	publicUrl: string,
	survey: { id: string; singleUse?: SingleUse | null },
	contactId: string,
	expirationDays?: number,
): string {
	const now = Math.floor(Date.now() / 1000);
	const token = signJwt({
		contactId: symmetricEncrypt(contactId),
		surveyId: symmetricEncrypt(survey.id),
		iat: now,
		...(expirationDays ? { exp: now + expirationDays * 24 * 3600 } : {}),
	});
	const url = `${publicUrl}/c/${token}`;
	return survey.singleUse?.enabled ? `${url}?${singleUseParams(survey.id, survey.singleUse.isEncrypted).toString()}` : url;
}

/** The map of a single-use link list (apps/web/app/api/v1/management/surveys/[surveyId]/singleUseIds/route.ts). */
export function singleUseLink(publicUrl: string, survey: { id: string; singleUse: SingleUse }): string {
	const url = new URL(`${publicUrl}/s/${survey.id}`);
	for (const [name, value] of singleUseParams(survey.id, survey.singleUse.isEncrypted)) url.searchParams.set(name, value);
	return url.toString();
}

/** `calculateExpirationDate` (…/contact-links/lib/utils.ts): now plus the days, as ISO. */
export function expirationDate(expirationDays: number): string {
	const date = new Date();
	date.setDate(date.getDate() + expirationDays);
	return date.toISOString();
}
