/**
 * Prefilled fields as createDocumentFromTemplate checks and applies them
 * (packages/lib/server-only/template/create-document-from-template.ts, tag v2.17.0): each id must
 * be a field of the template, each `type` the field's own (lower case), each value one the field
 * takes; a date is written into the field (`customText`, inserted), the others into its fieldMeta.
 */
import { appError } from './errors';
import type { Envelope, Field } from './model';

export type Prefill = {
	id: number;
	type: string;
	value?: string | string[];
	label?: string;
	placeholder?: string;
};

/** The wall clock of `instant` in `timeZone`, as the numbers a UTC date would have. */
function wallClock(instant: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(instant));
	const part = (type: string) => Number(parts.find((candidate) => candidate.type === type)?.value);
	return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}

/**
 * `new Date(value)` on a server whose time zone is `timeZone`: ECMAScript reads a date alone
 * (`2027-01-15`) as UTC midnight, a date and time without an offset (`2027-01-15T00:00:00`) as
 * the server's local time, and a time with `Z` or an offset as that instant. Other forms are read
 * as this process reads them.
 */
export function serverDate(value: string, timeZone: string): Date {
	const local = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value);
	if (!local) return new Date(value);
	const [year, month, day, hour, minute, second = '0', millis = '0'] = local.slice(1);
	const wall = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second, +millis.padEnd(3, '0'));
	// The offset at the guessed instant, then at the instant it gives (right across a DST change).
	const guess = wall - (wallClock(wall, timeZone) - Math.floor(wall / 1000) * 1000);
	return new Date(wall - (wallClock(guess, timeZone) - Math.floor(guess / 1000) * 1000));
}

/** "yyyy-MM-dd hh:mm a", the template's date format, as luxon writes it in the server's time zone. */
export function dateText(date: Date, timeZone = 'Etc/UTC'): string {
	const wall = new Date(wallClock(date.getTime(), timeZone));
	const hours = wall.getUTCHours();
	const twelve = String(hours % 12 === 0 ? 12 : hours % 12).padStart(2, '0');
	const minutes = String(wall.getUTCMinutes()).padStart(2, '0');
	return `${wall.toISOString().slice(0, 10)} ${twelve}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/**
 * Prefill as createDocumentFromTemplate checks and applies it (create-document-from-template.ts),
 * on a server in `timeZone`: a date is `DateTime.fromJSDate(new Date(value))` in the server's zone.
 */
export function checkPrefill(
	procedure: string,
	template: Envelope,
	entries: Prefill[],
	timeZone = 'Etc/UTC',
) {
	const invalid = entries.filter(
		(entry) => !template.fields.some((field) => field.id === entry.id),
	);
	if (invalid.length > 0) {
		throw appError(
			procedure,
			'INVALID_BODY',
			`The following field IDs do not exist in the template: ${invalid.map((entry) => entry.id).join(', ')}`,
		);
	}
	const applied = new Map<number, Partial<Field>>();
	for (const entry of entries) {
		const field = template.fields.find((candidate) => candidate.id === entry.id) as Field;
		const expected = field.type.toLowerCase();
		if (expected !== entry.type) {
			throw appError(
				procedure,
				'INVALID_BODY',
				`Field type mismatch for field ${entry.id}: expected ${expected}, got ${entry.type}`,
			);
		}
		const meta = (field.fieldMeta ?? {}) as { values?: Array<{ value: string }> };
		const bad = (message: string) => appError(procedure, 'INVALID_BODY', message);
		switch (entry.type) {
			case 'date': {
				if (!entry.value) throw bad(`Date value is required for field ${field.id}`);
				const date = serverDate(String(entry.value), timeZone);
				if (Number.isNaN(date.getTime()))
					throw bad(`Invalid date value for field ${field.id}: ${entry.value}`);
				applied.set(field.id, { customText: dateText(date, timeZone), inserted: true });
				break;
			}
			case 'checkbox': {
				if (!entry.value) throw bad(`Value is required for CHECKBOX field ${entry.id}`);
				const values = entry.value as string[];
				for (const value of values) {
					if (!meta.values?.some((option) => option.value === value)) {
						throw bad(`Value "${value}" not found in options for CHECKBOX field ${entry.id}`);
					}
				}
				applied.set(field.id, {
					fieldMeta: {
						...field.fieldMeta,
						label: entry.label,
						values: meta.values?.map((option) => ({
							...option,
							checked: values.includes(option.value),
						})),
					},
				});
				break;
			}
			case 'dropdown':
			case 'radio':
				if (
					typeof entry.value !== 'string' ||
					!meta.values?.some((option) => option.value === entry.value)
				) {
					throw bad(
						`Value "${entry.value}" not found in options for ${entry.type.toUpperCase()} field ${entry.id}`,
					);
				}
				applied.set(field.id, {
					fieldMeta: { ...field.fieldMeta, label: entry.label, defaultValue: entry.value },
				});
				break;
			default:
				if (typeof entry.value !== 'string') {
					throw bad(
						`Invalid value for ${entry.type.toUpperCase()} field ${entry.id}: expected string, got ${typeof entry.value}`,
					);
				}
				applied.set(field.id, {
					fieldMeta: {
						...field.fieldMeta,
						label: entry.label,
						placeholder: entry.placeholder,
						...(entry.type === 'text' ? { text: entry.value } : { value: entry.value }),
					},
				});
		}
	}
	return applied;
}
