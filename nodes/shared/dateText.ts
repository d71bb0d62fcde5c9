import type { INodeProperties } from 'n8n-workflow';

/**
 * A date parameter as a text field, not n8n's `dateTime` picker: the picker rewrites what is typed
 * into it (Element Plus reads `2026-02-30` as March 2, drops a date without a time and any zone, and
 * stores `YYYY-MM-DDTHH:mm:ss`), so the checks of `parseMoment` would never see what the user wrote.
 * `description` says what the date is for; the field adds how to write it.
 */
export const dateTextField = (name: string, displayName: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder: 'e.g. 2026-10-06 or 2026-10-06 18:30',
	description: `${description}: YYYY-MM-DD, optionally with a time and a zone, or a date from an expression such as {{ $now.minus({ days: 7 }) }}`,
	hint: 'Read in the workflow’s time zone (workflow settings) unless it names one, e.g. 2026-10-06 18:30+02:00',
});
