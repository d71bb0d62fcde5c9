import type { Kind } from './types';

const WORD = /[\p{L}\p{N}]+/gu;

/** One value however it is written: `Ada Lovelace` = `ada-lovelace`; e-mail addresses by case only. */
function normaliseValue(value: string): string {
	const trimmed = value.trim().toLowerCase();
	return /@/.test(trimmed) ? trimmed : (trimmed.match(WORD) ?? [trimmed]).join(' ');
}

/**
 * Stable pseudonyms: the same value always gets the same token (`EMAIL_1`, `NAME_2`) within one
 * output, so records can still be counted and matched without revealing who they are about.
 */
export class Pseudonyms {
	private readonly tokens = new Map<string, string>();
	private readonly counters = new Map<Kind, number>();

	of(kind: Kind, value: string): string {
		const key = `${kind}\u0000${normaliseValue(value)}`;
		let token = this.tokens.get(key);
		if (!token) {
			const next = (this.counters.get(kind) ?? 0) + 1;
			this.counters.set(kind, next);
			token = `${kind}_${next}`;
			this.tokens.set(key, token);
		}
		return token;
	}
}
