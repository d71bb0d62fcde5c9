import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	calendarDate,
	calendarDateProblem,
	describeType,
	instantOfDateValue,
	parseMoment,
	workflowTimeZone,
} from '../../../shared/dates';
import { invalidInput } from '../../../shared/validation';

/** A number written out in full, as the service reads numbers: `1e21` is 1000000000000000000000. */
function plainNumber(value: number): string {
	return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const EXPONENT_NUMBER = /^-?\d+(\.\d+)?e[+-]?\d+$/i;

/**
 * One prefill value as the service wants it (a string of the field's type), from what an
 * expression gave: text, a number, a boolean, or for a date field a JavaScript Date, a Luxon
 * DateTime or a date and time as text (`{{ $now }}`; n8n 2.x hands it over as ISO text), as its
 * date in the workflow's time zone. Anything else is refused,
 * naming the field and the type that was given.
 */
export function prefillValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: IDataObject,
	value: unknown,
): string {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		throw invalidInput(ctx, itemIndex, name, 'needs a value');
	}
	const instant = instantOfDateValue(value);
	if (instant !== undefined) {
		if (field.type !== 'date') {
			throw invalidInput(
				ctx,
				itemIndex,
				name,
				`got ${describeType(value)}, but this is a ${String(field.type)} field`,
			);
		}
		if (Number.isNaN(instant))
			throw invalidInput(
				ctx,
				itemIndex,
				name,
				`the ${describeType(value).replace(/^an? /, '')} given is invalid`,
			);
		return calendarDate(instant, workflowTimeZone(ctx));
	}
	if (typeof value === 'object') {
		throw invalidInput(
			ctx,
			itemIndex,
			name,
			`got ${describeType(value)}; give ${field.type === 'text' ? 'text' : `a ${String(field.type)} value`}`,
		);
	}
	if (typeof value === 'number' || typeof value === 'bigint') {
		if (typeof value === 'number' && !Number.isFinite(value)) {
			throw invalidInput(ctx, itemIndex, name, `${String(value)} is not a finite number`);
		}
		const text = typeof value === 'number' ? plainNumber(value) : String(value);
		if (['number', 'text', 'dropdown', 'radio'].includes(String(field.type))) return text;
		throw invalidInput(
			ctx,
			itemIndex,
			name,
			`got ${describeType(value)}, but this is a ${String(field.type)} field`,
		);
	}
	const text = String(value).trim();
	switch (field.type) {
		case 'number':
			if (PLAIN_NUMBER.test(text)) return text;
			if (EXPONENT_NUMBER.test(text)) return plainNumber(Number(text));
			throw invalidInput(ctx, itemIndex, name, `"${text}" is not a number`);
		case 'date': {
			if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
				const problem = calendarDateProblem(text);
				if (problem) throw invalidInput(ctx, itemIndex, name, problem);
				return text;
			}
			// A date and time as text, e.g. what n8n makes of {{ $now }} in a text field.
			const timeZone = workflowTimeZone(ctx);
			const moment = parseMoment(text, timeZone);
			if (moment.kind === 'instant') return calendarDate(Date.parse(moment.iso), timeZone);
			const problem = /^\d{4}-\d{2}-\d{2}[T ]/.test(text)
				? moment.problem
				: calendarDateProblem(text);
			throw invalidInput(ctx, itemIndex, name, problem ?? moment.problem);
		}
		case 'checkbox':
			if (text !== 'true' && text !== 'false') {
				throw invalidInput(
					ctx,
					itemIndex,
					name,
					`"${text}" is not a checkbox value: use true or false`,
				);
			}
			return text;
		// Radio buttons (Documenso) take one of their options, as a dropdown does.
		case 'dropdown':
		case 'radio': {
			const options = (field.options as string[] | undefined) ?? [];
			if (!options.includes(text)) {
				throw invalidInput(
					ctx,
					itemIndex,
					name,
					`"${text}" is not one of its options: ${options.join(', ')}`,
				);
			}
			return text;
		}
		default:
			return String(value);
	}
}
