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

export function invalidInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	problem: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem}`, {
		itemIndex,
		description: `Check the "${field}" parameter of item ${itemIndex}`,
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
 * An id that becomes a segment of a request path. `.` and `..` would change the path itself
 * (`documents/..` is `GET /api/v2/`), and such ids can come from an agent, so they are refused.
 */
export function requiredId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	displayName: string,
): string {
	const id = requiredString(ctx, itemIndex, parameter, displayName);
	if (id === '.' || id === '..') {
		throw invalidInput(ctx, itemIndex, displayName, `"${id}" is not a valid ID`);
	}
	return id;
}
