import type { IDataObject } from 'n8n-workflow';

export type PersonalDataMode = 'keep' | 'redact' | 'omit';

export type Kind = 'EMAIL' | 'PHONE' | 'NAME' | 'ADDRESS' | 'BIRTHDATE' | 'ID' | 'PERSONAL';

const REMOVED = '[removed]';

/*
 * Field names are judged by their words, whatever the naming style: `candidateName`,
 * `first_name`, `Full Name`, `emergency-contact-name` and `APPLICANTFULLNAME` all split
 * into words (or, run together, are matched by stems).
 */
function words(field: string): string[] {
	return field
		.replace(/([a-z\d])([A-Z])/g, '$1 $2')
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z\d]+/)
		.filter(Boolean);
}

/**
 * Words that, in front of "name", say it names a thing and not a person: `fileName`,
 * `surveyName`, `companyName`. Any other `…Name` is taken for a person's name, because a
 * leaked name costs more than a pseudonymised survey title.
 */
const THING_WORDS = new Set(
	(
		'file folder path survey company org organisation organization business employer firm ' +
		'institution school university college project product event host domain server app ' +
		'application brand team group list tag template document doc form field column table key ' +
		'variable var package module class type step stage workflow node device model channel venue ' +
		'course programme program job role position title category bank pet plan tier service ' +
		'campaign workshop session room building site website web store shop branch department dept ' +
		'unit code bucket queue topic track residency studio gallery exhibition artwork piece song ' +
		'album book film movie series show game item asset resource layer sheet tab page section ' +
		'question option choice status state region attribute property label'
	).split(' '),
);

/** Words that make any field personal, however the name goes on: `phoneNumber`, `mobileNo`. */
const EMAIL_STEMS = ['email'];
const EMAIL_WORDS = new Set(['mail']);
const PHONE_STEMS = ['phone'];
const PHONE_WORDS = new Set(['tel', 'mobile', 'cell', 'fax', 'whatsapp', 'msisdn', 'sms']);
const BIRTH_STEMS = ['birth'];
const BIRTH_WORDS = new Set(['dob', 'bday']);
const ADDRESS_STEMS = ['address', 'street', 'postcode', 'zipcode', 'postal'];
const ADDRESS_WORDS = new Set([
	'addr',
	'city',
	'town',
	'zip',
	'country',
	'county',
	'residence',
	'hometown',
]);
const ID_STEMS = ['passport', 'socialsecurity', 'nationalinsurance', 'nationalid', 'taxid'];
const ID_WORDS = new Set(['ssn', 'iban', 'nino']);
/** Names run together in one word (`fname`, `applicantfullname`) end in "name" after one of these. */
const NAME_RUN_TOGETHER =
	/^(?:.*(?:full|first|last|given|family|middle|maiden|legal|nick|user|display|preferred|sur|fore))?names?$|^[flm]names?$/;

function stemOrWord(all: string[], compact: string, stems: string[], set: Set<string>): boolean {
	return stems.some((stem) => compact.includes(stem)) || all.some((word) => set.has(word));
}

/** "name" alone (or "names") takes its meaning from the word before it, or from its parent field. */
function isPersonName(all: string[], parentWords: string[]): boolean {
	for (let index = 0; index < all.length; index++) {
		const word = all[index];
		if (word === 'name' || word === 'names') {
			const before = index > 0 ? all[index - 1] : parentWords[parentWords.length - 1];
			const after = all[index + 1] === 'of' ? all[index + 2] : undefined;
			if (before !== undefined && THING_WORDS.has(before)) return false;
			if (after !== undefined && THING_WORDS.has(after)) return false;
			return true;
		}
		if (word.endsWith('name') || word.endsWith('names')) {
			if (NAME_RUN_TOGETHER.test(word)) return true;
			const stem = word.replace(/names?$/, '');
			if ([...THING_WORDS].some((thing) => stem.endsWith(thing))) return false;
			// `candidatename`, `guardianname`: a person word run together with "name".
			if (stem.length >= 4) return true;
		}
	}
	return false;
}

/** What a field holds, judged by its own name and, for a bare "name", its parent's. */
export function kindOfFieldName(field: string, parent = ''): Kind | undefined {
	const all = words(field);
	if (all.length === 0) return undefined;
	const compact = all.join('');
	if (stemOrWord(all, compact, EMAIL_STEMS, EMAIL_WORDS)) return 'EMAIL';
	if (stemOrWord(all, compact, PHONE_STEMS, PHONE_WORDS)) return 'PHONE';
	if (stemOrWord(all, compact, BIRTH_STEMS, BIRTH_WORDS)) return 'BIRTHDATE';
	if (stemOrWord(all, compact, ID_STEMS, ID_WORDS)) return 'ID';
	if (stemOrWord(all, compact, ADDRESS_STEMS, ADDRESS_WORDS)) return 'ADDRESS';
	if (isPersonName(all, words(parent))) return 'NAME';
	return undefined;
}

/**
 * Fields named after a person (`guardian`, `referee`, `nextOfKin`, `parentOrGuardian`) hold a
 * name when their answer is text; when it is an object or a list, its own fields are judged.
 */
const PERSON_WORDS = new Set(
	(
		'applicant candidate guardian parent mother father spouse partner referee mentor supervisor ' +
		'witness signer signatory recipient respondent kin'
	).split(' '),
);
const PERSON_COMPOUNDS = ['contactperson', 'emergencycontact', 'nextofkin'];

export function namesAPerson(field: string): boolean {
	const all = words(field.split('.').pop() ?? '').map((word) => word.replace(/\d+$/, ''));
	const compact = all.join('');
	const last = all[all.length - 1];
	return (
		(last !== undefined && PERSON_WORDS.has(last.replace(/s$/, ''))) ||
		PERSON_COMPOUNDS.some((compound) => compact.endsWith(compound))
	);
}

/** Field names whose numbers are times, counts or amounts, never phone numbers. */
const NUMERIC_FIELD_WORDS = new Set(
	(
		'at time date timestamp ts epoch created updated modified ms seconds sec duration ttc id ' +
		'count total amount sum size bytes price cost budget score rating version'
	).split(' '),
);

const EMAIL_IN_TEXT = /[^\s@<>()[\]"',;:/]+@[^\s@<>()[\]"',;:/]+\.[A-Za-z]{2,}/g;
/** Dates and times are set aside before phone numbers are looked for, so they neither match nor hide one. */
const DATE_IN_TEXT =
	/\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|\b\d{1,2}[./-]\d{1,2}[./-]\d{4}\b|\b\d{4}[./]\d{2}[./]\d{2}\b/g;
const PHONE_IN_TEXT = /(?:\+|\b)\d[\d\s().-]{5,}\d\b/g;
const MIN_PHONE_DIGITS = 7;
/** Without a leading + or 0, a run of digits is a phone number only from this length (else: amounts, years). */
const MIN_BARE_PHONE_DIGITS = 10;

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

const WORD = /[\p{L}\p{N}]+/gu;
/** What may stand between the parts of a known value where it recurs: `ada lovelace`, `ada-lovelace`, `ada.lovelace`. */
const PART_SEPARATOR = /^[\s._'’-]+$/;
/** Known values of more parts than this (a paragraph in a personal field) are not looked for in free text. */
const MAX_KNOWN_PARTS = 16;

/** A known value's parts: `Ada Lovelace`, `ada-lovelace` and `ada.lovelace` are the same parts. */
function parts(value: string): string[] {
	return (value.toLowerCase().match(WORD) ?? []) as string[];
}

interface KnownValue {
	kind: Kind;
	/** The value as found in its field, whose pseudonym its recurrences get. */
	value: string;
}

interface KnownPart extends KnownValue {
	/** The spellings matched: as written in the name, and in capitals. */
	spellings: Set<string>;
}

/** Parts of names too common on their own to look for: `van`, `der`, `del`. */
const NAME_PARTICLES = new Set(
	'van von der den del della des dos das los las the and mrs miss'.split(' '),
);

function foldAccents(text: string): string {
	return /[^ -~\s]/.test(text) ? text.normalize('NFD').replace(/\p{M}/gu, '') : text;
}

/** Known values shorter than this (in letters and digits) are too common to look for in free text. */
const MIN_KNOWN_LENGTH = 3;
/** Placeholders people type into personal fields; replacing them everywhere would garble other answers. */
const PLACEHOLDERS = new Set(
	'none null nil n a unknown anonymous anon test yes no true false undefined private withheld not applicable'.split(
		' ',
	),
);

/**
 * Replaces personal data with pseudonyms such as `EMAIL_1`. The same value always gets the
 * same token within one Redactor (one export), so records can still be counted and matched
 * without revealing who they are about.
 *
 * Personal data is found by field name (at any depth, in any naming style, plus the user's
 * extra field names), by value (e-mail addresses and phone numbers anywhere, object keys and
 * JSON inside strings included), and by recurrence: a value seen in a personal field is
 * replaced wherever it recurs in the records this Redactor has learnt, in any case and with
 * spaces, hyphens, underscores or dots between its parts (`ada-lovelace`, `ada.lovelace`).
 */
export class Redactor {
	private readonly tokens = new Map<string, string>();
	private readonly counters = new Map<Kind, number>();
	private readonly extraFields: Set<string>;
	/** Known values by their parts in lower case joined by one space, with and without accents. */
	private readonly knownPhrases = new Map<string, KnownValue>();
	/** Known values of several parts by their parts run together (`adalovelace`). */
	private readonly knownRunTogether = new Map<string, KnownValue>();
	/** Parts of known names on their own, by the part in lower case. */
	private readonly knownParts = new Map<string, KnownPart>();
	/** Every leading run of parts of a known phrase, so that a scan stops where no known value goes on. */
	private readonly knownPrefixes = new Set<string>();
	private readonly kindCache = new Map<string, Kind | undefined>();

	constructor(
		private readonly mode: PersonalDataMode,
		extraFieldNames: string[] = [],
	) {
		this.extraFields = new Set(extraFieldNames.map(normaliseFieldPath).filter(Boolean));
	}

	/** The kind of a field by its name alone (no parent), the extra personal fields included. */
	kindOfField(field: string): Kind | undefined {
		return this.kindAt([field]);
	}

	/** The kind of a field holding this value: by its path, or a name when a text answer sits in a field named after a person. */
	private kindOf(path: string[], value: unknown): Kind | undefined {
		const kind = this.kindAt(path);
		if (kind) return kind;
		return typeof value === 'string' &&
			namesAPerson(path[path.length - 1] ?? '') &&
			parseJsonAnswer(value) === undefined
			? 'NAME'
			: undefined;
	}

	/**
	 * The kind of the field at a path of keys (array indexes left out). A field is personal when
	 * its name says so or when any field it sits in does (`address.line1`); dotted keys of
	 * flattened records are read as paths too.
	 */
	private kindAt(path: string[]): Kind | undefined {
		const cacheKey = path.join('\u0000');
		if (this.kindCache.has(cacheKey)) return this.kindCache.get(cacheKey);
		const kind = this.judge(path);
		this.kindCache.set(cacheKey, kind);
		return kind;
	}

	private judge(path: string[]): Kind | undefined {
		const segments = path.flatMap((key) => key.split('.')).filter((key) => !/^\d+$/.test(key));
		if (this.isExtra(segments)) return 'PERSONAL';
		for (let index = 0; index < segments.length; index++) {
			const kind = kindOfFieldName(segments[index], segments[index - 1]);
			if (kind) return kind;
		}
		return undefined;
	}

	/** Extra Personal Fields match a field's own name, its dotted path as shown in the output, or any tail of it. */
	private isExtra(segments: string[]): boolean {
		if (this.extraFields.size === 0) return false;
		for (let start = 0; start < segments.length; start++) {
			if (this.extraFields.has(normaliseFieldPath(segments.slice(start).join('.')))) return true;
		}
		return segments.some((segment) => this.extraFields.has(normaliseFieldPath(segment)));
	}

	private token(kind: Kind, value: string): string {
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

	private replacement(kind: Kind, value: string): string {
		return this.mode === 'omit' ? REMOVED : this.token(kind, value);
	}

	/** Remembers a value of a personal field, to replace where it recurs in free text. */
	private know(kind: Kind, value: string): void {
		const valueParts = parts(value);
		if (valueParts.join('').length < MIN_KNOWN_LENGTH || valueParts.length > MAX_KNOWN_PARTS)
			return;
		if (valueParts.every((part) => PLACEHOLDERS.has(part))) return;
		const phrase = valueParts.join(' ');
		if (this.knownPhrases.has(phrase)) return;
		this.token(kind, value);
		const known: KnownValue = { kind, value };
		// `Émilie du Châtelet` recurs as the slug `emilie-du-chatelet`.
		for (const form of new Set([phrase, foldAccents(phrase)])) {
			if (!this.knownPhrases.has(form)) this.knownPhrases.set(form, known);
			const formParts = form.split(' ');
			for (let count = 1; count < formParts.length; count++) {
				this.knownPrefixes.add(formParts.slice(0, count).join(' '));
			}
			const runTogether = form.replace(/ /g, '');
			if (valueParts.length > 1 && !this.knownRunTogether.has(runTogether)) {
				this.knownRunTogether.set(runTogether, known);
			}
		}
		if (kind === 'NAME' && valueParts.length > 1) this.knowNameParts(value);
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
			const known = this.knownParts.get(lower) ?? {
				kind: 'NAME',
				value: name,
				spellings: new Set(),
			};
			known.spellings.add(part);
			known.spellings.add(part.toUpperCase());
			this.knownParts.set(lower, known);
		}
	}

	/**
	 * Pass 1 of two: learns the values of the record's personal fields, so that applying this
	 * Redactor to any record replaces their recurrences too.
	 */
	learn(record: IDataObject): void {
		if (this.mode === 'keep') return;
		this.learnValue(record, [], undefined);
	}

	private learnValue(value: unknown, path: string[], kind: Kind | undefined): void {
		if (typeof value === 'string') {
			const parsed = parseJsonAnswer(value);
			if (parsed !== undefined) return this.learnValue(parsed, path, kind);
			if (kind) this.know(kind, value);
			if (kind === 'EMAIL') this.knowEmailLocalPart(value);
			return;
		}
		if (Array.isArray(value)) return value.forEach((entry) => this.learnValue(entry, path, kind));
		if (value !== null && typeof value === 'object') {
			for (const [field, entry] of Object.entries(value as IDataObject)) {
				const fieldPath = [...path, field];
				this.learnValue(entry, fieldPath, kind ?? this.kindOf(fieldPath, entry));
			}
		}
	}

	/** `ada.lovelace@…` says the name too: its local part is replaced where it recurs (a URL slug). */
	private knowEmailLocalPart(email: string): void {
		const local = /^([^@\s]+)@/.exec(email.trim())?.[1];
		if (local && parts(local).filter((part) => /\p{L}/u.test(part)).length > 1)
			this.know('NAME', local);
	}

	/** Personal data found by value inside free text: e-mail addresses, phone numbers, known values. */
	scrubText(text: string): string {
		const parsed = parseJsonAnswer(text);
		if (parsed !== undefined) {
			const scrubbed = JSON.stringify(this.value(parsed, [], undefined));
			return scrubbed === JSON.stringify(parsed) ? text : scrubbed;
		}
		const withoutEmails = text.replace(EMAIL_IN_TEXT, (match) => this.replacement('EMAIL', match));
		return this.replaceKnown(this.replacePhones(withoutEmails));
	}

	private replacePhones(text: string): string {
		let result = '';
		let last = 0;
		const scrub = (segment: string) =>
			segment.replace(PHONE_IN_TEXT, (match: string, offset: number) =>
				isPhoneLike(match, segment.slice(Math.max(0, offset - 1), offset))
					? this.replacement('PHONE', match)
					: match,
			);
		for (const date of text.matchAll(DATE_IN_TEXT)) {
			result += scrub(text.slice(last, date.index)) + date[0];
			last = date.index + date[0].length;
		}
		return result + scrub(text.slice(last));
	}

	/**
	 * Replaces known values among the words of a text: at each word, the longest run of words
	 * (joined by usual separators) that is a known value, else the word as a known value run
	 * together (`adalovelace`), else as a part of a known name.
	 */
	private replaceKnown(text: string): string {
		if (this.knownPhrases.size === 0) return text;
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
				const known = this.knownPhrases.get(phrase) ?? this.knownPhrases.get(folded);
				if (known) hit = { known, through };
				if (!this.knownPrefixes.has(phrase) && !this.knownPrefixes.has(folded)) break;
			}
			if (!hit) {
				const word = found[index][0];
				const lower = word.toLowerCase();
				const part = this.knownParts.get(lower);
				const known =
					this.knownRunTogether.get(lower) ??
					this.knownRunTogether.get(foldAccents(lower)) ??
					(part?.spellings.has(word) ? part : undefined);
				if (known) hit = { known, through: index };
			}
			if (!hit) continue;
			const end = found[hit.through].index + found[hit.through][0].length;
			result +=
				text.slice(last, found[index].index) + this.replacement(hit.known.kind, hit.known.value);
			last = end;
			index = hit.through;
		}
		return result + text.slice(last);
	}

	private value(value: unknown, path: string[], kind: Kind | undefined): unknown {
		if (kind) return this.personalValue(value, kind);
		if (typeof value === 'string') return this.scrubText(value);
		if (typeof value === 'number') return this.number(value, path);
		if (Array.isArray(value)) return value.map((entry) => this.value(entry, path, undefined));
		if (value !== null && typeof value === 'object') return this.object(value as IDataObject, path);
		return value;
	}

	/** A number is a phone number when it is as long as one and its field is no time, count or amount. */
	private number(value: number, path: string[]): unknown {
		const digits = Number.isInteger(value) ? String(Math.abs(value)) : '';
		if (digits.length < MIN_BARE_PHONE_DIGITS || digits.length > 15) return value;
		const fieldWords = words(path[path.length - 1] ?? '');
		if (fieldWords.some((word) => NUMERIC_FIELD_WORDS.has(word))) return value;
		return this.replacement('PHONE', digits);
	}

	/** A value in a personal field, replaced whole (strings, numbers) or leaf by leaf (objects, lists). */
	private personalValue(value: unknown, kind: Kind): unknown {
		if (value === null || value === undefined || value === '' || typeof value === 'boolean')
			return value;
		if (typeof value === 'string') {
			const parsed = parseJsonAnswer(value);
			if (parsed !== undefined) return JSON.stringify(this.personalValue(parsed, kind));
			return this.replacement(kind, value);
		}
		if (Array.isArray(value)) return value.map((entry) => this.personalValue(entry, kind));
		if (typeof value === 'object') {
			const result: IDataObject = {};
			for (const [field, entry] of Object.entries(value as IDataObject)) {
				result[this.key(field, result)] = this.personalValue(
					entry,
					kind,
				) as IDataObject[keyof IDataObject];
			}
			return result;
		}
		return this.replacement(kind, String(value));
	}

	/** Object keys can be personal data too (`referees: { "alan@turing.org": … }`). */
	private key(field: string, into: IDataObject): string {
		const scrubbed = this.scrubText(field);
		if (scrubbed === field) return field;
		let unique = scrubbed;
		for (let index = 2; unique in into; index++) unique = `${scrubbed} (${index})`;
		return unique;
	}

	private object(record: IDataObject, path: string[]): IDataObject {
		const result: IDataObject = {};
		for (const [field, value] of Object.entries(record)) {
			const fieldPath = [...path, field];
			const kind = this.kindOf(fieldPath, value);
			if (kind && this.mode === 'omit' && !isBlank(value)) continue;
			result[this.key(field, result)] = this.value(
				value,
				fieldPath,
				kind,
			) as IDataObject[keyof IDataObject];
		}
		return result;
	}

	/** The record with its personal data handled as the mode says. */
	apply(record: IDataObject): IDataObject {
		if (this.mode === 'keep') return record;
		this.learn(record);
		return this.object(record, []);
	}
}

function isBlank(value: unknown): boolean {
	return value === null || value === undefined || value === '' || typeof value === 'boolean';
}

/** `passport number`, `passportNumber` and `Passport_Number` name the same field. */
function normaliseFieldPath(field: string): string {
	return field
		.trim()
		.split('.')
		.filter((segment) => !/^\d+$/.test(segment.trim()))
		.map((segment) => words(segment).join(''))
		.join('.');
}

function normaliseValue(value: string): string {
	const trimmed = value.trim().toLowerCase();
	// A name and its slug or e-mail local part are one value: `Ada Lovelace` = `ada-lovelace`.
	return /@/.test(trimmed) ? trimmed : (trimmed.match(WORD) ?? [trimmed]).join(' ');
}

/** An answer holding a JSON object or list, as some survey questions store them. */
function parseJsonAnswer(text: string): IDataObject | unknown[] | undefined {
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
