/**
 * Ids as Formbricks makes them: records (surveys, responses, webhooks, workspaces) get Prisma's
 * `@default(cuid())` (25 characters, starting with `c`; packages/database/schema/main.prisma),
 * questions, choices and blocks the editor's `createId()` (cuid2, 24 characters). Both pass
 * Formbricks' `z.cuid2()` check (lower-case letters and digits), which its routes apply to ids.
 * Nothing in an id says what it is: only a question's headline tells what it asks.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

function randomChars(count: number): string {
	return [...randomBytes(count)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

let counter = 0;

/** A cuid v1 as Prisma makes them: `c`, the time, a counter, then random characters. */
export function cuid(): string {
	counter = (counter + 1) % 36 ** 4;
	const time = Date.now().toString(36).slice(-8).padStart(8, '0');
	return `c${time}${counter.toString(36).padStart(4, '0')}${randomChars(12)}`;
}

/** A cuid2 as `createId()` makes them: a letter, then 23 letters or digits. */
export function createId(): string {
	return `${ALPHABET[10 + (randomBytes(1)[0] % 26)]}${randomChars(23)}`;
}

/** What `z.cuid2()` accepts (zod 4's pattern), the check Formbricks applies to ids in routes. */
export const CUID2_PATTERN = /^[0-9a-z]+$/;
