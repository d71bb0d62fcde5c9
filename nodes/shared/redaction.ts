import type { IDataObject } from 'n8n-workflow';

export type PersonalDataMode = 'keep' | 'redact' | 'omit';

type Kind = 'EMAIL' | 'PHONE' | 'NAME' | 'ADDRESS' | 'BIRTHDATE' | 'PERSONAL';

const FIELD_KINDS: Array<[RegExp, Kind]> = [
	[/e[-_]?mail/i, 'EMAIL'],
	[/phone|mobile|^tel$|telephone|whatsapp/i, 'PHONE'],
	[/birth|^dob$/i, 'BIRTHDATE'],
	[/address|street|city|zip|postal|postcode|country/i, 'ADDRESS'],
	[/^(full|first|last|given|family|middle|sur|applicant|contact|legal|display)?[-_]?name$/i, 'NAME'],
];

const EMAIL_IN_TEXT = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[A-Za-z]{2,}/g;
// A run of digits with the usual phone separators; ISO dates and times are left alone below.
const PHONE_IN_TEXT = /(?:\+|\b)\d[\d\s().-]{6,}\d\b/g;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}/;
const MIN_PHONE_DIGITS = 7;

/**
 * Replaces personal data with pseudonyms such as `EMAIL_1`. The same value always gets the
 * same token within one Redactor (one export), so records can still be counted and matched
 * without revealing who they are about.
 */
export class Redactor {
	private readonly tokens = new Map<string, string>();
	private readonly counters = new Map<Kind, number>();
	private readonly extraFields: Set<string>;

	constructor(
		private readonly mode: PersonalDataMode,
		extraFieldNames: string[] = [],
	) {
		this.extraFields = new Set(extraFieldNames.map((name) => name.trim().toLowerCase()).filter(Boolean));
	}

	kindOfField(field: string): Kind | undefined {
		if (this.extraFields.has(field.toLowerCase())) return 'PERSONAL';
		return FIELD_KINDS.find(([pattern]) => pattern.test(field))?.[1];
	}

	private token(kind: Kind, value: string): string {
		const key = `${kind}\u0000${value.trim().toLowerCase()}`;
		let token = this.tokens.get(key);
		if (!token) {
			const next = (this.counters.get(kind) ?? 0) + 1;
			this.counters.set(kind, next);
			token = `${kind}_${next}`;
			this.tokens.set(key, token);
		}
		return token;
	}

	/** Personal data found by value inside free text: e-mail addresses and phone numbers. */
	scrubText(text: string): string {
		const replace = (kind: Kind) => (match: string) =>
			this.mode === 'omit' ? '[removed]' : this.token(kind, match);
		return text.replace(EMAIL_IN_TEXT, replace('EMAIL')).replace(PHONE_IN_TEXT, (match) => {
			const digits = match.replace(/\D/g, '');
			if (digits.length < MIN_PHONE_DIGITS || DATE_LIKE.test(match.trim())) return match;
			return replace('PHONE')(match);
		});
	}

	private value(value: unknown): unknown {
		if (typeof value === 'string') return this.scrubText(value);
		if (Array.isArray(value)) return value.map((entry) => this.value(entry));
		if (value !== null && typeof value === 'object') return this.object(value as IDataObject);
		return value;
	}

	private object(record: IDataObject): IDataObject {
		const result: IDataObject = {};
		for (const [field, value] of Object.entries(record)) {
			const kind = this.kindOfField(field);
			if (!kind || value === null || value === undefined || value === '') {
				result[field] = kind ? value : (this.value(value) as IDataObject[keyof IDataObject]);
			} else if (this.mode === 'redact') {
				result[field] = this.token(kind, typeof value === 'string' ? value : JSON.stringify(value));
			}
		}
		return result;
	}

	/** The record with its personal data handled as the mode says. */
	apply(record: IDataObject): IDataObject {
		return this.mode === 'keep' ? record : this.object(record);
	}
}
