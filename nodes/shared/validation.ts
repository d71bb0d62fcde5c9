import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

// Deliberately simple: the service is the judge of deliverability, this only catches typos.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
	return EMAIL_PATTERN.test(value);
}

export function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/**
 * The label of a field inside one entry of a list, as the form shows it:
 * `listEntryLabel('Recipients', 'recipient', 0, 'Email')` is `Recipients › Email (recipient 1)`.
 * Entries are counted from 1, as a person counts the rows they added.
 */
export function listEntryLabel(list: string, entry: string, position: number, field?: string): string {
	return `${field === undefined ? list : `${list} › ${field}`} (${entry} ${position + 1})`;
}

/**
 * An error's message naming its item as n8n names it, ` [item 1]`, when the node was given more
 * than one: the editor adds exactly that to the message of an error with an `itemIndex` when the
 * node's input has several items, unless the message names the item already (NodeErrorView in
 * n8n-editor-ui), so the editor shows the same, and so do the toast, the executions and the error
 * item of "Continue On Fail", which show the message only. With one item there is nothing to tell
 * apart, and n8n adds nothing either.
 */
export function messageNamingItem(ctx: object, itemIndex: number | undefined, message: string): string {
	const { getInputData } = ctx as { getInputData?: () => unknown[] };
	if (itemIndex === undefined || typeof getInputData !== 'function') return message;
	return getInputData.call(ctx).length > 1 ? `${message} [item ${itemIndex}]` : message;
}

/** What to do about a value refused before any request. */
export const CHANGE_THIS_VALUE = 'Change this value; nothing was sent for this item.';

/**
 * A bad parameter value. `label` is what the form shows (see `listEntryLabel` for list entries);
 * the message names it once, and the item as n8n does (`messageNamingItem`), which is also in `itemIndex`.
 */
export function invalidInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	problem: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), messageNamingItem(ctx, itemIndex, `${label}: ${problem}`), {
		itemIndex,
		description: CHANGE_THIS_VALUE,
	});
}

/** A trimmed string parameter that must not be empty. */
export function requiredString(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	displayName: string,
): string {
	// extractValue: a resource locator ({ mode, value }) gives its value; other parameters are unaffected.
	const value = ctx.getNodeParameter(parameter, itemIndex, '', { extractValue: true }) as unknown;
	const text = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value).trim();
	if (text === '') throw invalidInput(ctx, itemIndex, displayName, 'must not be empty');
	return text;
}

/**
 * Refuses an id that would change the request path it becomes a segment of: `.` and `..`
 * (`documents/..` is `GET /api/v2/`). Such ids can come from an agent through `$fromAI`.
 */
export function checkPathId(ctx: IExecuteFunctions, itemIndex: number, id: string, displayName: string): string {
	if (id === '.' || id === '..') {
		throw invalidInput(ctx, itemIndex, displayName, `"${id}" is not a valid ID`);
	}
	return id;
}

/** An id parameter that becomes a segment of a request path: not empty, not `.` or `..`. */
export function requiredId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	displayName: string,
): string {
	return checkPathId(ctx, itemIndex, requiredString(ctx, itemIndex, parameter, displayName), displayName);
}

/**
 * A whole number within `min`..`max`, or an error naming the field. Numbers typed as text by
 * an expression (`"20"`) are accepted; anything else (`"abc"`, NaN, 2.5, out of range) is not,
 * so a bad value never turns into a request the service refuses or into pages silently skipped.
 */
export function checkedInteger(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	displayName: string,
	range: { min: number; max?: number },
): number {
	const number =
		typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
	const wanted =
		range.max === undefined
			? `a whole number of at least ${range.min}`
			: `a whole number from ${range.min} to ${range.max}`;
	if (!Number.isInteger(number) || number < range.min || (range.max !== undefined && number > range.max)) {
		const shown = typeof value === 'string' ? `"${value}"` : String(value);
		throw invalidInput(ctx, itemIndex, displayName, `${shown} is not ${wanted}`);
	}
	return number;
}
