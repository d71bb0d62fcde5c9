import type { Kind } from './types';

/*
 * Values seen in personal fields, found again where they recur in free text: a statement
 * repeating the applicant's name, a URL slug (`…/ada-lovelace`), a handle (`AdaLovelace`).
 */

const WORD = /[\p{L}\p{N}]+/gu;
/** What may stand between the parts of a known value where it recurs: `ada lovelace`, `ada-lovelace`, `ada.lovelace`. */
const PART_SEPARATOR = /^[\s._'’-]+$/;
/** Known values of more parts than this (a paragraph in a personal field) are not looked for in free text. */
const MAX_KNOWN_PARTS = 16;
/** Known values shorter than this (in letters and digits) are too common to look for in free text. */
const MIN_KNOWN_LENGTH = 3;
/** Placeholders people type into personal fields; replacing them everywhere would garble other answers. */
const PLACEHOLDERS = new Set(
	'none null nil n a unknown anonymous anon test yes no true false undefined private withheld not applicable'.split(
		' ',
	),
);
/**
 * A value of digits alone shorter than this is no one's details on its own (a year, a cohort, an
 * amount): it is not looked for in free text, where it would be found inside dates and numbers.
 */
const MIN_KNOWN_DIGITS = 7;
/** What ends a run of text that is a word, a date, an ID or a URL: spaces, quotes, brackets, commas, semicolons. */
const TOKEN_END = /[\s"'“”‘’()[\]{}<>,;]/u;
const URL_START = /^(?:[a-z][a-z\d+.-]*:\/\/|www\.)/i;

/**
 * Whether a recurrence found at `start`–`end` stands where it may be replaced. A value with
 * letters (a name) is replaced wherever it stands as whole words, in a slug or a host name too
 * (`…/ada-lovelace`, `grace-hopper.example.com`), since a URL naming someone names them. A value of
 * digits alone only where it is a whole run of text, never inside a timestamp, an ID, a URL or a
 * longer number (a known `1234567` in `1234567-2026`, `resp_1234567`, `?id=1234567`).
 */
function standsAlone(text: string, start: number, end: number): boolean {
	if (/\p{L}/u.test(text.slice(start, end))) return true;
	let tokenStart = start;
	while (tokenStart > 0 && !TOKEN_END.test(text[tokenStart - 1])) tokenStart--;
	let tokenEnd = end;
	while (tokenEnd < text.length && !TOKEN_END.test(text[tokenEnd])) tokenEnd++;
	const trailing = /[.:!?]*$/.exec(text.slice(end, tokenEnd))![0];
	return tokenStart === start && end + trailing.length === tokenEnd && !URL_START.test(text.slice(tokenStart));
}

/** Parts of names too common on their own to look for: `van`, `der`, `del`. */
const NAME_PARTICLES = new Set(
	'van von der den del della des dos das los las the and mrs miss'.split(' '),
);

/** A known value's parts: `Ada Lovelace`, `ada-lovelace` and `ada.lovelace` are the same parts. */
function parts(value: string): string[] {
	return (value.toLowerCase().match(WORD) ?? []) as string[];
}

function foldAccents(text: string): string {
	return /[^ -~\s]/.test(text) ? text.normalize('NFD').replace(/\p{M}/gu, '') : text;
}

export interface KnownValue {
	kind: Kind;
	/** The value as found in its field, whose pseudonym its recurrences get. */
	value: string;
}

interface KnownPart extends KnownValue {
	/** The spellings matched: as written in the name, and in capitals. */
	spellings: Set<string>;
}

export class KnownValues {
	/** Known values by their parts in lower case joined by one space, with and without accents. */
	private readonly phrases = new Map<string, KnownValue>();
	/** Known values of several parts by their parts run together (`adalovelace`). */
	private readonly runTogether = new Map<string, KnownValue>();
	/** Parts of known names on their own, by the part in lower case. */
	private readonly nameParts = new Map<string, KnownPart>();
	/** Every leading run of parts of a known phrase, so that a scan stops where no known value goes on. */
	private readonly prefixes = new Set<string>();

	/** @param onKnown called for each value learnt, so that pseudonyms follow the order values are found in */
	constructor(private readonly onKnown: (kind: Kind, value: string) => void) {}

	/** Remembers a value of a personal field, to replace where it recurs in free text. */
	know(kind: Kind, value: string): void {
		const valueParts = parts(value);
		if (valueParts.join('').length < MIN_KNOWN_LENGTH || valueParts.length > MAX_KNOWN_PARTS)
			return;
		if (valueParts.every((part) => PLACEHOLDERS.has(part))) return;
		if (valueParts.every((part) => /^\d+$/.test(part)) && valueParts.join('').length < MIN_KNOWN_DIGITS) return;
		const phrase = valueParts.join(' ');
		if (this.phrases.has(phrase)) return;
		this.onKnown(kind, value);
		const known: KnownValue = { kind, value };
		// `Émilie du Châtelet` recurs as the slug `emilie-du-chatelet`.
		for (const form of new Set([phrase, foldAccents(phrase)])) {
			if (!this.phrases.has(form)) this.phrases.set(form, known);
			const formParts = form.split(' ');
			for (let count = 1; count < formParts.length; count++) {
				this.prefixes.add(formParts.slice(0, count).join(' '));
			}
			const runTogether = form.replace(/ /g, '');
			if (valueParts.length > 1 && !this.runTogether.has(runTogether)) {
				this.runTogether.set(runTogether, known);
			}
		}
		if (kind === 'NAME' && valueParts.length > 1) this.knowNameParts(value);
	}

	/** `ada.lovelace@…` says the name too: its local part is replaced where it recurs (a URL slug). */
	knowEmailLocalPart(email: string): void {
		const local = /^([^@\s]+)@/.exec(email.trim())?.[1];
		if (local && parts(local).filter((part) => /\p{L}/u.test(part)).length > 1)
			this.know('NAME', local);
	}

	/**
	 * A part of a known name (`Lovelace` of `Ada Lovelace`) is replaced where it recurs on its own,
	 * but only written as in the name or in capitals, so that `Grace` is found and `with grace` kept.
	 */
	private knowNameParts(name: string): void {
		for (const part of name.match(WORD) ?? []) {
			const lower = part.toLowerCase();
			if (lower.length < MIN_KNOWN_LENGTH || NAME_PARTICLES.has(lower) || PLACEHOLDERS.has(lower)) {
				continue;
			}
			const known = this.nameParts.get(lower) ?? {
				kind: 'NAME',
				value: name,
				spellings: new Set(),
			};
			known.spellings.add(part);
			known.spellings.add(part.toUpperCase());
			this.nameParts.set(lower, known);
		}
	}

	/**
	 * Replaces known values among the words of a text: at each word, the longest run of words
	 * (joined by usual separators) that is a known value, else the word as a known value run
	 * together (`adalovelace`), else as a part of a known name.
	 */
	replace(text: string, replacement: (known: KnownValue) => string): string {
		if (this.phrases.size === 0) return text;
		const found = [...text.matchAll(WORD)];
		let result = '';
		let last = 0;
		for (let index = 0; index < found.length; index++) {
			let phrase = '';
			let hit: { known: KnownValue; through: number } | undefined;
			for (let through = index; through < found.length; through++) {
				if (through > index) {
					const gap = text.slice(
						found[through - 1].index + found[through - 1][0].length,
						found[through].index,
					);
					if (!PART_SEPARATOR.test(gap)) break;
				}
				phrase += (through > index ? ' ' : '') + found[through][0].toLowerCase();
				const folded = foldAccents(phrase);
				const known = this.phrases.get(phrase) ?? this.phrases.get(folded);
				if (known) hit = { known, through };
				if (!this.prefixes.has(phrase) && !this.prefixes.has(folded)) break;
			}
			if (!hit) {
				const word = found[index][0];
				const lower = word.toLowerCase();
				const part = this.nameParts.get(lower);
				const known =
					this.runTogether.get(lower) ??
					this.runTogether.get(foldAccents(lower)) ??
					(part?.spellings.has(word) ? part : undefined);
				if (known) hit = { known, through: index };
			}
			if (!hit) continue;
			const end = found[hit.through].index + found[hit.through][0].length;
			if (!standsAlone(text, found[index].index, end)) continue;
			result += text.slice(last, found[index].index) + replacement(hit.known);
			last = end;
			index = hit.through;
		}
		return result + text.slice(last);
	}
}
