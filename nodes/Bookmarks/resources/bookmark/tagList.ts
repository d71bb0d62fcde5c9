import type { IExecuteFunctions } from 'n8n-workflow';

import { describeType } from '../../../shared/dates';
import { invalidInput } from '../../../shared/validation';
import { MAX_TAGS_PER_REQUEST } from '../../transport';

/** How to give tags, for the Tags fields' hints and an agent's `$fromAI` description. */
export const TAGS_HINT =
	'Separate tags with commas, or give a JSON array such as ["Smith, John", "shortlist"] for tags that contain a comma';

/**
 * Tag names from a Tags field: an array (an expression's), a JSON array written as text (what
 * an agent's `$fromAI` gives, and the way to pass a tag containing a comma: text starting with
 * `[` is read so), or text separated by commas. Trimmed, empty ones dropped, each once.
 */
export function readTagList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label = 'Tags',
): string[] {
	let parts: unknown[];
	const text = typeof value === 'string' ? value.trim() : undefined;
	if (Array.isArray(value)) {
		parts = value;
	} else if (text !== undefined && text.startsWith('[')) {
		try {
			parts = JSON.parse(text) as unknown[];
		} catch {
			throw invalidInput(
				ctx,
				itemIndex,
				label,
				'looks like a JSON array but is not valid JSON (e.g. ["Smith, John", "shortlist"])',
			);
		}
		if (!Array.isArray(parts)) parts = [parts];
	} else if (value === undefined || value === null || text !== undefined) {
		parts = (text ?? '').split(',');
	} else if (typeof value === 'number') {
		parts = [value];
	} else {
		throw invalidInput(ctx, itemIndex, label, `got ${describeType(value)}; give tag names`);
	}
	const names = parts.map((part, position) => {
		if (typeof part === 'string' || typeof part === 'number') return String(part).trim();
		throw invalidInput(
			ctx,
			itemIndex,
			label,
			`tag ${position + 1} is ${describeType(part)}, not a name`,
		);
	});
	return [...new Set(names.filter((name) => name !== ''))];
}

/**
 * The Tags parameter of an operation whose tags go to the service in one request, which takes at
 * most 50: checked before anything is sent. `required`: at least one name.
 */
export function readTagsToSend(ctx: IExecuteFunctions, itemIndex: number, required = false): string[] {
	const tags = readTagList(ctx, itemIndex, ctx.getNodeParameter('tags', itemIndex, ''));
	if (required && tags.length === 0) throw invalidInput(ctx, itemIndex, 'Tags', 'give at least one tag name');
	if (tags.length > MAX_TAGS_PER_REQUEST) {
		throw invalidInput(ctx, itemIndex, 'Tags', `${tags.length} tags given; at most ${MAX_TAGS_PER_REQUEST}`);
	}
	return tags;
}
