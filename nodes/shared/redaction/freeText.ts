import type { IDataObject } from 'n8n-workflow';

/*
 * What free text gives away by its form alone: e-mail addresses and phone numbers, wherever
 * they stand. Values known from personal fields are found again by `recurrences.ts`.
 */

/** An address, also percent-encoded as it stands in a request's path (`ada%40example.org`). */
const EMAIL_IN_TEXT = /[^\s@<>()[\]"',;:/]+?(?:@|%40)[^\s@<>()[\]"',;:/%]+\.[A-Za-z]{2,}/g;
const decodedAt = (email: string) => email.replace(/%40/i, '@');
/** Dates and times are set aside before phone numbers are looked for, so they neither match nor hide one. */
const DATE_IN_TEXT =
	/\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|\b\d{1,2}[./-]\d{1,2}[./-]\d{4}\b|\b\d{4}[./]\d{2}[./]\d{2}\b/g;
/** UUIDs (asset, record and response IDs) are set aside too: `96246566-7389-…` begins like a phone number. */
const UUID_IN_TEXT = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const NOT_A_PHONE = new RegExp(`${UUID_IN_TEXT.source}|${DATE_IN_TEXT.source}`, 'gi');
const PHONE_IN_TEXT = /(?:\+|\b)\d[\d\s().-]{5,}\d\b/g;
const MIN_PHONE_DIGITS = 7;
/** Without a leading + or 0, a run of digits is a phone number only from this length (else: amounts, years). */
const MIN_BARE_PHONE_DIGITS = 10;
const MAX_PHONE_DIGITS = 15;

/**
 * Whether a run of digits is a phone number. One starting with `+`, `0` or `(` is from 7 digits;
 * any other needs 10 digits, no group of a single digit (an ISBN: `978-3-16-148410-0`), and must
 * not stand in a URL or parameter (`?id=1234567890`).
 */
function isPhoneLike(candidate: string, before: string): boolean {
	const digits = candidate.replace(/\D/g, '');
	if (digits.length < MIN_PHONE_DIGITS) return false;
	if (/^[+0(]/.test(candidate)) return true;
	if (digits.length < MIN_BARE_PHONE_DIGITS || /[=/?&#:]$/.test(before)) return false;
	return candidate.split(/[\s().-]+/).every((group) => group.length !== 1);
}

/** A number as long as a phone number (10 to 15 digits, a whole number): its digits, else undefined. */
export function phoneDigitsOf(value: number): string | undefined {
	const digits = Number.isInteger(value) ? String(Math.abs(value)) : '';
	return digits.length >= MIN_BARE_PHONE_DIGITS && digits.length <= MAX_PHONE_DIGITS
		? digits
		: undefined;
}

/** The text with each e-mail address replaced. */
export function replaceEmails(text: string, replace: (email: string) => string): string {
	return text.replace(EMAIL_IN_TEXT, (email) => replace(decodedAt(email)));
}

/** Up to four capitalised words right before an e-mail address in brackets: `Ada Lovelace (ada@…`, `Ada Lovelace <ada@…`. */
const NAME_BESIDE_EMAIL = new RegExp(
	`(\\p{Lu}[\\p{L}\\p{M}'’-]*(?:[ \\t]+\\p{Lu}[\\p{L}\\p{M}'’-]*){0,3})[ \\t]*[(<\\[][ \\t]*(?=${EMAIL_IN_TEXT.source})`,
	'gu',
);

/** Names written beside an e-mail address, as a list of people reads: `Ada Lovelace (ada@example.org)`. */
export function namesBesideEmails(text: string): string[] {
	if (!text.includes('@')) return [];
	return [...text.matchAll(NAME_BESIDE_EMAIL)].map((match) => match[1]);
}

/** The e-mail addresses in a text. */
export function emailsIn(text: string): string[] {
	return (text.match(EMAIL_IN_TEXT) ?? []).map(decodedAt);
}

/** The text with each phone number replaced; dates, times and UUIDs are left as they are. */
export function replacePhones(text: string, replace: (phone: string) => string): string {
	let result = '';
	let last = 0;
	const scrub = (segment: string) =>
		segment.replace(PHONE_IN_TEXT, (match: string, offset: number) =>
			isPhoneLike(match, segment.slice(Math.max(0, offset - 1), offset)) ? replace(match) : match,
		);
	for (const kept of text.matchAll(NOT_A_PHONE)) {
		result += scrub(text.slice(last, kept.index)) + kept[0];
		last = kept.index + kept[0].length;
	}
	return result + scrub(text.slice(last));
}

/** An answer holding a JSON object or list, as some survey questions store them. */
export function parseJsonAnswer(text: string): IDataObject | unknown[] | undefined {
	const trimmed = text.trim();
	if (!/^[[{][\s\S]*[\]}]$/.test(trimmed)) return undefined;
	try {
		const parsed = JSON.parse(trimmed) as unknown;
		return parsed !== null && typeof parsed === 'object'
			? (parsed as IDataObject | unknown[])
			: undefined;
	} catch {
		return undefined;
	}
}

export interface LabelledValue<K> {
	kind: K;
	value: string;
	/** Where the value starts in the text. */
	index: number;
}

/**
 * "Label: value" written into free text, as people do in notes and titles ("Applicant: Ada
 * Lovelace", "E-mail: …", "Date de naissance : 10/12/1815"). A label is one to three words at the
 * start of a line, after `;`, `|`, `•`, `(` or a comma, or inside a sentence (crawled pages and PDFs
 * run lines together), followed by a colon and a space.
 */
const LABEL =
	/(^|[\n;|•(]|,\s|\s[-–—]\s|[ \t])[ \t]*([\p{L}][\p{L}\p{M}'’&/-]*(?:[ \t]+[\p{L}\p{M}'’&/-]+){0,2})[ \t]*[:：][ \t]+/gu;
/**
 * A name written in running text, after a label inside a sentence ("… as noted, Applicant: Ada K.
 * Lovelace applied twice"): its capitalised words (initials, particles such as `van` and `du`
 * between them), where the sentence goes on in lower case.
 */
const NAME_IN_RUNNING_TEXT =
	/^\p{Lu}[\p{L}\p{M}'’-]*\.?(?:[ \t]+(?:(?:van|von|der|den|de|du|del|della|da|di|le|la|bin|ibn|al)[ \t]+)*\p{Lu}[\p{L}\p{M}'’-]*\.?)*/u;
/** Where a value ends: the end of its line, a separator, or the next label. */
const VALUE_END = /[\n;|•\t]|,\s+[\p{L}][\p{L}\p{M}'’&/ -]{0,40}[:：]\s|\s{2,}/u;
/** Values of these kinds also end at a comma or a bracket ("Name: Ada Lovelace, born 1815"); addresses go on. */
const SHORT_VALUE_END = /[,(]|\s[-–—]\s|[^\s.][^\s.]\.\s/u;
const MAX_LABELLED_VALUE = 120;
const QUOTED_VALUE = /^["“„«']([^"“”„«»'\n]{1,120})["”“»']/u;
/** What redaction wrote already (`NAME_1`, `[removed]`): text scrubbed twice keeps it. */
const isPseudonym = (value: string) => /^(?:[A-Z]+_\d+|\[removed\])$/.test(value.trim());

export function labelledValues<K extends string>(
	text: string,
	kindOfLabel: (label: string) => K | undefined,
	isShort: (kind: K) => boolean,
): Array<LabelledValue<K>> {
	if (!/[:：]/.test(text)) return [];
	const found: Array<LabelledValue<K>> = [];
	for (const match of text.matchAll(LABEL)) {
		const kind = kindOfLabel(match[2]);
		if (kind === undefined) continue;
		// Inside a sentence (crawled pages and PDFs run lines together), not where a line or a list entry starts.
		const running = /^(?:[ \t]|,\s)$/.test(match[1]);
		const start = match.index + match[0].length;
		// A quoted value ends at its closing quote (`Recipient: "ada@…" is not a recipient`).
		const quoted = QUOTED_VALUE.exec(text.slice(start, start + MAX_LABELLED_VALUE + 2));
		if (quoted) {
			if (!isPseudonym(quoted[1])) found.push({ kind, value: quoted[1], index: start + 1 });
			continue;
		}
		const index = start;
		let rest = text.slice(index, index + MAX_LABELLED_VALUE);
		const end = VALUE_END.exec(rest);
		if (end) rest = rest.slice(0, end.index);
		if (running && kind === 'NAME') {
			const name = NAME_IN_RUNNING_TEXT.exec(rest)?.[0].replace(/[.]$/, (dot, at: number, whole: string) =>
				/(?:^|\s)\p{Lu}\.$/u.test(whole) ? dot : '',
			);
			if (name) {
				if (!isPseudonym(name)) found.push({ kind, value: name, index });
				continue;
			}
		}
		if (isShort(kind)) {
			const shortEnd = SHORT_VALUE_END.exec(rest);
			// A sentence's full stop ends a name, but an initial's ("Ada K. Lovelace") does not.
			if (shortEnd) rest = rest.slice(0, shortEnd.index + (/\.\s$/.test(shortEnd[0]) ? 2 : 0));
		}
		const value = rest.replace(/[\s.!?]+$/, '');
		if (value !== '' && !isPseudonym(value)) found.push({ kind, value, index });
	}
	return found;
}
