import type { IDataObject } from 'n8n-workflow';

import {
	holdsQuantities,
	kindOfFieldName,
	namesAPerson,
	normaliseFieldPath,
} from './fieldNames';
import {
	emailsIn,
	labelledValues,
	namesBesideEmails,
	parseJsonAnswer,
	phoneDigitsOf,
	replaceEmails,
	replacePhones,
} from './freeText';
import { kindOfHeadline } from './headlines';
import { Pseudonyms } from './pseudonyms';
import { KnownValues } from './recurrences';
import type { Kind, PersonalDataMode } from './types';
import { REMOVED } from './types';

/**
 * What the caller knows about fields beyond their names: what a survey question asks (its
 * headline, for an answer keyed by a random id), which fields hold things rather than people.
 */
export interface FieldGuide {
	/**
	 * The kind of a field's values; null when it is known to be no personal field (its text is
	 * still scanned), undefined to judge by its name. `holder` is the object the field is in.
	 */
	kindOf?(path: string[], value: unknown, holder: IDataObject): Kind | null | undefined;
	/**
	 * For a list whose positions mean different things (Formbricks' contact info: first name, last
	 * name, e-mail, phone, company), the kind of each position's value, null where it is no one's
	 * details (its text is still scanned); asked only of a field `kindOf` does not call personal.
	 */
	kindsByPosition?(path: string[], value: unknown[], holder: IDataObject): Array<Kind | null> | undefined;
	/** The path as the output shows it, where it differs from the keys (a question's headline for its id), for Extra Personal Fields. */
	shownAs?(path: string[]): string[] | undefined;
}

export interface RedactorOptions {
	/** More fields to treat as personal: their names as the output shows them, plain or dotted, in any naming style. */
	extraFields?: string[];
	guide?: FieldGuide;
	/**
	 * The pseudonyms and remembered values to share with other Redactors of the same output (a
	 * node's items are redacted operation by operation, each with its own guide, into one output).
	 */
	memory?: RedactionMemory;
}

/**
 * What redaction remembers across one output: which pseudonym each value got, and the values
 * seen in personal fields, to replace where they recur.
 */
export class RedactionMemory {
	readonly pseudonyms = new Pseudonyms();
	readonly known = new KnownValues((kind, value) => this.pseudonyms.of(kind, value));
}

/**
 * Replaces personal data with pseudonyms such as `EMAIL_1`. The same value always gets the
 * same token within one Redactor (one output), so records can still be counted and matched
 * without revealing who they are about.
 *
 * Personal data is found by field name (at any depth, in any naming style, plus the user's
 * extra field names), by value (e-mail addresses and phone numbers anywhere, object keys and
 * JSON inside strings included), and by recurrence: a value seen in a personal field is
 * replaced wherever it recurs in the records this Redactor has learnt, in any case and with
 * spaces, hyphens, underscores or dots between its parts (`ada-lovelace`, `ada.lovelace`).
 */
export class Redactor {
	private readonly pseudonyms: Pseudonyms;
	private readonly known: KnownValues;
	private readonly extraFields: Set<string>;
	private readonly guide: FieldGuide;
	private readonly kindCache = new Map<string, Kind | undefined>();
	private readonly labelKinds = new Map<string, Kind | undefined>();

	constructor(
		private readonly mode: PersonalDataMode,
		options: RedactorOptions = {},
	) {
		this.extraFields = new Set((options.extraFields ?? []).map(normaliseFieldPath).filter(Boolean));
		this.guide = options.guide ?? {};
		const memory = options.memory ?? new RedactionMemory();
		this.pseudonyms = memory.pseudonyms;
		this.known = memory.known;
	}

	/** The kind of a field by its name alone (no parent), the extra personal fields included. */
	kindOfField(field: string): Kind | undefined {
		return this.kindAt([field]);
	}

	/**
	 * The kind of a field holding this value: what the guide knows (a question's headline), else
	 * by its path, or a name when a text answer sits in a field named after a person.
	 */
	private kindOf(path: string[], value: unknown, holder: IDataObject): Kind | undefined {
		const guided = this.guide.kindOf?.(path, value, holder);
		if (guided === null) return this.isExtraField(path) ? 'PERSONAL' : undefined;
		if (guided) return this.isExtraField(path) ? 'PERSONAL' : guided;
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
		if (this.isExtraField(path)) return 'PERSONAL';
		const segments = keySegments(path);
		for (let index = 0; index < segments.length; index++) {
			const kind = kindOfFieldName(segments[index], segments[index - 1]);
			if (kind) return kind;
		}
		return undefined;
	}

	/** Whether the field is one of the Extra Personal Fields, by its keys or as the output shows it. */
	private isExtraField(path: string[]): boolean {
		if (this.extraFields.size === 0) return false;
		if (this.isExtra(keySegments(path))) return true;
		const shown = this.guide.shownAs?.(path);
		return shown !== undefined && this.isExtra(keySegments(shown));
	}

	/** Extra Personal Fields match a field's own name, its dotted path as shown in the output, or any tail of it. */
	private isExtra(segments: string[]): boolean {
		for (let start = 0; start < segments.length; start++) {
			if (this.extraFields.has(normaliseFieldPath(segments.slice(start).join('.')))) return true;
		}
		return segments.some((segment) => this.extraFields.has(normaliseFieldPath(segment)));
	}

	private replacement(kind: Kind, value: string): string {
		return this.mode === 'omit' ? REMOVED : this.pseudonyms.of(kind, value);
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
			if (kind) this.known.know(kind, value);
			if (kind === 'EMAIL') this.known.knowEmailLocalPart(value);
			if (!kind) this.learnFreeText(value);
			return;
		}
		if (Array.isArray(value)) return value.forEach((entry) => this.learnValue(entry, path, kind));
		if (value !== null && typeof value === 'object') {
			for (const [field, entry] of Object.entries(value as IDataObject)) {
				const fieldPath = [...path, field];
				const fieldKind = kind ?? this.kindOf(fieldPath, entry, value as IDataObject);
				const positions = fieldKind ? undefined : this.positionKinds(fieldPath, entry, value as IDataObject);
				if (positions) {
					(entry as unknown[]).forEach((item, index) => this.learnValue(item, fieldPath, positions[index] ?? undefined));
				} else {
					this.learnValue(entry, fieldPath, fieldKind);
				}
			}
		}
	}

	/** The kinds of a list's positions, where the guide knows them. */
	private positionKinds(path: string[], value: unknown, holder: IDataObject): Array<Kind | null> | undefined {
		return Array.isArray(value) ? this.guide.kindsByPosition?.(path, value, holder) : undefined;
	}

	/**
	 * What free text tells about people by itself: values written after a personal label
	 * ("Applicant: Ada Lovelace"), and the name in an e-mail address (`ada.lovelace@…`).
	 */
	private learnFreeText(text: string): void {
		for (const { kind, value } of this.labelled(text)) {
			this.known.know(kind, value);
			if (kind === 'EMAIL') this.known.knowEmailLocalPart(value);
		}
		for (const email of emailsIn(text)) this.known.knowEmailLocalPart(email);
	}

	/**
	 * What a message about records tells about people: labelled values, and a name written just
	 * before an e-mail address in brackets, as services list recipients in their refusals
	 * (`Ada Lovelace (ada@…, id: 5)`, `Ada Lovelace <ada@…>`).
	 */
	learnFromMessage(text: string): void {
		if (this.mode === 'keep') return;
		this.learnFreeText(text);
		for (const name of namesBesideEmails(text)) this.known.know('NAME', name);
	}

	/**
	 * Values after a label that names personal data, judged as a field name or a question's
	 * headline; an e-mail address is one whatever its label says (`Recipient: "ada@…"`).
	 */
	private labelled(text: string) {
		return this.labelledAs(text).map((found) =>
			found.kind !== 'EMAIL' && isEmailAddress(found.value) ? { ...found, kind: 'EMAIL' as const } : found,
		);
	}

	private labelledAs(text: string) {
		return labelledValues(
			text,
			(label) => {
				if (!this.labelKinds.has(label)) {
					const kind =
						kindOfFieldName(label) ?? kindOfHeadline(label) ?? (namesAPerson(label) ? 'NAME' : undefined);
					this.labelKinds.set(label, kind);
				}
				return this.labelKinds.get(label);
			},
			(kind) => kind !== 'ADDRESS',
		);
	}

	/** Values after personal labels replaced, the rest of the text as it is. */
	private replaceLabelled(text: string): string {
		let result = '';
		let last = 0;
		for (const { kind, value, index } of this.labelled(text)) {
			if (index < last) continue;
			result += text.slice(last, index) + this.replacement(kind, value);
			last = index + value.length;
		}
		return result + text.slice(last);
	}

	/** Personal data found by value inside free text: labelled values, e-mail addresses, phone numbers, known values. */
	scrubText(text: string): string {
		const parsed = parseJsonAnswer(text);
		if (parsed !== undefined) {
			const scrubbed = JSON.stringify(this.value(parsed, [], undefined));
			return scrubbed === JSON.stringify(parsed) ? text : scrubbed;
		}
		const withoutLabelled = this.replaceLabelled(text);
		const withoutEmails = replaceEmails(withoutLabelled, (email) =>
			this.replacement('EMAIL', email),
		);
		const withoutPhones = replacePhones(withoutEmails, (phone) => this.replacement('PHONE', phone));
		return this.known.replace(withoutPhones, (known) => this.replacement(known.kind, known.value));
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
		const digits = phoneDigitsOf(value);
		if (digits === undefined || holdsQuantities(path[path.length - 1] ?? '')) return value;
		return this.replacement('PHONE', digits);
	}

	/** A value in a personal field, replaced whole (strings, numbers) or leaf by leaf (objects, lists). */
	private personalValue(value: unknown, kind: Kind): unknown {
		if (isBlank(value)) return value;
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
			const kind = this.kindOf(fieldPath, value, record);
			if (kind && this.mode === 'omit' && !isBlank(value)) continue;
			const positions = kind ? undefined : this.positionKinds(fieldPath, value, record);
			result[this.key(field, result)] = (
				positions ? this.positional(value as unknown[], fieldPath, positions) : this.value(value, fieldPath, kind)
			) as IDataObject[keyof IDataObject];
		}
		return result;
	}

	/**
	 * A list whose positions mean different things, each handled by its own kind. Omit cannot leave
	 * a position out without moving the ones after it, so a personal position becomes `[removed]`.
	 */
	private positional(list: unknown[], path: string[], kinds: Array<Kind | null>): unknown[] {
		return list.map((entry, index) => {
			const kind = kinds[index];
			if (!kind) return this.value(entry, path, undefined);
			return this.mode === 'omit' && !isBlank(entry) ? REMOVED : this.personalValue(entry, kind);
		});
	}

	/** The record with its personal data handled as the mode says. */
	apply(record: IDataObject): IDataObject {
		if (this.mode === 'keep') return record;
		this.learn(record);
		return this.object(record, []);
	}
}

/** A path's keys, dotted keys of flattened records split, array indexes left out. */
function keySegments(path: string[]): string[] {
	return path.flatMap((key) => key.split('.')).filter((key) => !/^\d+$/.test(key));
}

const isEmailAddress = (value: string) => emailsIn(value)[0] === value.trim();

/** Empty values and booleans say nothing about anyone (`emailOptIn: true`). */
function isBlank(value: unknown): boolean {
	return value === null || value === undefined || value === '' || typeof value === 'boolean';
}
