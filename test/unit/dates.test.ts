import {
	calendarDate,
	calendarDateProblem,
	describeType,
	parseMoment,
	workflowTimeZone,
} from '../../nodes/shared/dates';

const iso = (value: unknown, zone: string) => {
	const moment = parseMoment(value, zone);
	return moment.kind === 'instant' ? moment.iso : `problem: ${moment.problem}`;
};

describe('dates as n8n users give them (nodes/shared/dates.ts)', () => {
	it('reads a zone-less date or time in the given time zone, summer and winter', () => {
		expect(iso('2026-07-01', 'Europe/Berlin')).toBe('2026-06-30T22:00:00.000Z');
		expect(iso('2026-01-01', 'Europe/Berlin')).toBe('2025-12-31T23:00:00.000Z');
		expect(iso('2026-07-01T12:00', 'America/Los_Angeles')).toBe('2026-07-01T19:00:00.000Z');
		expect(iso('2026-07-01 12:00:05.25', 'Asia/Kolkata')).toBe('2026-07-01T06:30:05.250Z');
		expect(iso('2026-07-01T12:00:00', 'UTC')).toBe('2026-07-01T12:00:00.000Z');
	});

	it('moves a time skipped by the change to summer time forward; a repeated hour is read in winter time', () => {
		// 2026-03-29 02:30 does not happen in Berlin (02:00 → 03:00).
		expect(iso('2026-03-29T02:30', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
		// 2026-10-25 02:30 happens twice in Berlin (03:00 → 02:00): the second, in winter time.
		expect(iso('2026-10-25T02:30', 'Europe/Berlin')).toBe('2026-10-25T01:30:00.000Z');
	});

	it('keeps a zone that is given', () => {
		expect(iso('2026-07-01T12:00:00Z', 'Europe/Berlin')).toBe('2026-07-01T12:00:00.000Z');
		expect(iso('2026-07-01T12:00:00-0300', 'Europe/Berlin')).toBe('2026-07-01T15:00:00.000Z');
		expect(iso('2026-07-01T12:00+02', 'UTC')).toBe('2026-07-01T10:00:00.000Z');
		expect(iso('Wed Jul 01 2026 12:00:00 GMT+0200 (Central European Summer Time)', 'UTC')).toBe(
			'2026-07-01T10:00:00.000Z',
		);
	});

	it('refuses dates and times that do not exist, saying so', () => {
		expect(iso('2026-02-30', 'UTC')).toBe('problem: February 30, 2026 does not exist');
		expect(iso('2025-02-29', 'UTC')).toBe('problem: February 29, 2025 does not exist');
		expect(iso('2024-02-29', 'UTC')).toBe('2024-02-29T00:00:00.000Z');
		expect(iso('2026-04-31T10:00', 'UTC')).toBe('problem: April 31, 2026 does not exist');
		expect(iso('2026-00-10', 'UTC')).toBe('problem: there is no month 0');
		expect(iso('2026-01-10T24:30', 'UTC')).toMatch(/no such time of day/);
		expect(iso('next tuesday', 'UTC')).toMatch(/is not a date or time: use YYYY-MM-DD/);
		expect(iso('07/01/2026', 'UTC')).toMatch(/is not a date or time/);
		expect(iso({ year: 2026 }, 'UTC')).toBe('problem: an object is not a date or time');
		expect(calendarDateProblem('2026-02-30')).toBe('February 30, 2026 does not exist');
		expect(calendarDateProblem('2026-2-3')).toMatch(/is not a date as YYYY-MM-DD/);
		expect(calendarDateProblem('2026-02-28')).toBeUndefined();
	});

	it('takes a JavaScript Date and a Luxon DateTime at their instant', () => {
		const instant = Date.UTC(2026, 6, 1, 22, 30);
		expect(iso(new Date(instant), 'UTC')).toBe('2026-07-01T22:30:00.000Z');
		const dateTime = {
			isLuxonDateTime: true,
			isValid: true,
			toMillis: () => instant,
			toISO: () => '',
		};
		expect(iso(dateTime, 'UTC')).toBe('2026-07-01T22:30:00.000Z');
		expect(iso({ ...dateTime, isValid: false }, 'UTC')).toBe(
			'problem: the DateTime given is invalid',
		);
		expect(iso(new Date(Number.NaN), 'UTC')).toMatch(/invalid/);
	});

	it('gives the calendar date of an instant in a time zone', () => {
		const instant = Date.UTC(2026, 6, 1, 22, 30);
		expect(calendarDate(instant, 'UTC')).toBe('2026-07-01');
		expect(calendarDate(instant, 'Europe/Berlin')).toBe('2026-07-02');
		expect(calendarDate(instant, 'America/New_York')).toBe('2026-07-01');
	});

	it('names what was given instead', () => {
		expect(describeType([1])).toBe('a list');
		expect(describeType({})).toBe('an object');
		expect(describeType(new Date())).toBe('a JavaScript Date');
		expect(describeType(true)).toBe('true (a boolean)');
		expect(describeType(null)).toBe('null');
	});

	it('uses the workflow’s time zone, or UTC when none or an unknown one is given', () => {
		expect(workflowTimeZone({ getTimezone: () => 'Europe/Paris' })).toBe('Europe/Paris');
		expect(workflowTimeZone({ getTimezone: () => 'Mars/Olympus' })).toBe('UTC');
		expect(workflowTimeZone({})).toBe('UTC');
	});
});
