/**
 * Dates and times as n8n users give them: typed in a date field, or from an expression as
 * text, a JavaScript Date or a Luxon DateTime (`{{ $now }}`). A time without a zone is a time
 * in the workflow's time zone (its settings, else the instance's `GENERIC_TIMEZONE`), as n8n's
 * own nodes read it. A date that does not exist (`2026-02-30`) is refused, never moved on to
 * the next month as JavaScript's Date would.
 *
 * No Luxon: nodes may import only n8n-workflow and crypto, and n8n-workflow does not re-export
 * it. `Intl` knows every IANA time zone, which is all that is needed.
 */

const MONTHS = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
];

/** The workflow's time zone, or UTC when the runtime does not know the one given. */
export function workflowTimeZone(ctx: { getTimezone?: () => string }): string {
	const zone = typeof ctx.getTimezone === 'function' ? ctx.getTimezone() : undefined;
	if (!zone) return 'UTC';
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return zone;
	} catch {
		return 'UTC';
	}
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		formatters.set(timeZone, formatter);
	}
	return formatter;
}

/** The wall-clock date and time in `timeZone` at an instant. */
function wallClock(instant: number, timeZone: string) {
	const parts = Object.fromEntries(
		formatterFor(timeZone)
			.formatToParts(new Date(instant))
			.map((part) => [part.type, Number(part.value)]),
	) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
	return parts;
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(instant: number, timeZone: string): number {
	const { year, month, day, hour, minute, second } = wallClock(instant, timeZone);
	const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
	return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/**
 * The instant a wall-clock time in `timeZone` names. A time skipped by a change to summer time
 * is read with the offset before the change, i.e. moved forward, as Luxon does.
 */
function instantOfWallClock(wall: number, timeZone: string): number {
	const first = wall - offsetMinutes(wall, timeZone) * 60_000;
	return wall - offsetMinutes(first, timeZone) * 60_000;
}

/** `YYYY-MM-DD` of an instant in `timeZone`. */
export function calendarDate(instant: number, timeZone: string): string {
	const { year, month, day } = wallClock(instant, timeZone);
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A Luxon DateTime (n8n's `$now`, `DateTime.fromISO(…)`), seen without importing Luxon. */
interface DateTimeLike {
	toMillis(): number;
	isValid?: boolean;
}

const isJsDate = (value: unknown): value is Date =>
	Object.prototype.toString.call(value) === '[object Date]';

const isDateTime = (value: unknown): value is DateTimeLike =>
	value !== null &&
	typeof value === 'object' &&
	typeof (value as Partial<DateTimeLike>).toMillis === 'function' &&
	((value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true ||
		typeof (value as { toISO?: unknown }).toISO === 'function');

/**
 * The instant of a JavaScript Date or a Luxon DateTime; undefined for anything else, and
 * NaN for an invalid one.
 */
export function instantOfDateValue(value: unknown): number | undefined {
	if (isJsDate(value)) return value.getTime();
	if (isDateTime(value)) return value.isValid === false ? Number.NaN : value.toMillis();
	return undefined;
}

/** What a value is, in words, for an error that says what was given instead. */
export function describeType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (isJsDate(value)) return 'a JavaScript Date';
	if (isDateTime(value)) return 'a DateTime';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'boolean') return `${String(value)} (a boolean)`;
	if (typeof value === 'number') return `the number ${String(value)}`;
	return typeof value;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
/** Words or offsets that make a free-form date string (`…GMT+0100`) exact whatever the zone. */
const EXPLICIT_ZONE = /(?:\bGMT\b|\bUTC\b|Z$|[+-]\d{2}:?\d{2}\b)/i;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Why a year, month and day are no date, or undefined when they are one. */
function calendarProblem(year: number, month: number, day: number): string | undefined {
	if (month < 1 || month > 12) return `there is no month ${month}`;
	if (day < 1 || day > daysIn(year, month)) {
		return `${MONTHS[month - 1]} ${day}, ${year} does not exist`;
	}
	return undefined;
}

/** Checks `YYYY-MM-DD` as a calendar date; undefined when it is one, else what is wrong. */
export function calendarDateProblem(text: string): string | undefined {
	const match = DATE.exec(text);
	if (!match) return `"${text}" is not a date as YYYY-MM-DD (e.g. 2027-01-04)`;
	return calendarProblem(Number(match[1]), Number(match[2]), Number(match[3]));
}

export type ParsedMoment = { kind: 'instant'; iso: string } | { kind: 'problem'; problem: string };

/**
 * An instant from what a user gave for a date field: a Date or DateTime; `YYYY-MM-DD` (its
 * first instant in `timeZone`); `YYYY-MM-DDTHH:mm[:ss[.fff]]` with a zone (exact) or without
 * (in `timeZone`); or another text that names its zone (`…GMT+0100`, as a Date prints).
 */
export function parseMoment(value: unknown, timeZone: string): ParsedMoment {
	const instant = instantOfDateValue(value);
	if (instant !== undefined) {
		return Number.isNaN(instant)
			? {
					kind: 'problem',
					problem: `the ${isJsDate(value) ? 'JavaScript Date' : 'DateTime'} given is invalid`,
				}
			: { kind: 'instant', iso: new Date(instant).toISOString() };
	}
	if (typeof value !== 'string') {
		return { kind: 'problem', problem: `${describeType(value)} is not a date or time` };
	}
	const text = value.trim();
	const date = DATE.exec(text);
	const dateTime = date ? undefined : DATE_TIME.exec(text);
	if (date || dateTime) {
		const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone] =
			(date ?? dateTime) as RegExpExecArray;
		const problem = calendarProblem(Number(year), Number(month), Number(day));
		if (problem) return { kind: 'problem', problem };
		if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) {
			return { kind: 'problem', problem: `"${text}" has no such time of day (00:00 to 23:59:59)` };
		}
		const milliseconds = Number(fraction.padEnd(3, '0').slice(0, 3));
		const wall = Date.UTC(
			Number(year),
			Number(month) - 1,
			Number(day),
			Number(hour),
			Number(minute),
			Number(second),
			milliseconds,
		);
		// Date.UTC reads years 0-99 as 1900-1999.
		const wallTime = Number(year) < 100 ? new Date(wall).setUTCFullYear(Number(year)) : wall;
		let exact: number;
		if (zone === undefined) exact = instantOfWallClock(wallTime, timeZone);
		else if (zone.toUpperCase() === 'Z') exact = wallTime;
		else {
			const sign = zone.startsWith('-') ? -1 : 1;
			const digits = zone.slice(1).replace(':', '');
			exact =
				wallTime - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * 60_000;
		}
		return { kind: 'instant', iso: new Date(exact).toISOString() };
	}
	const parsed = Date.parse(text);
	if (EXPLICIT_ZONE.test(text) && !Number.isNaN(parsed)) {
		return { kind: 'instant', iso: new Date(parsed).toISOString() };
	}
	return {
		kind: 'problem',
		problem: `"${text}" is not a date or time: use YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss (optionally with a zone, e.g. Z or +02:00)`,
	};
}
