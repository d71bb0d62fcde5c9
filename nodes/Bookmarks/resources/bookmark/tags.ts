import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput, requiredId } from '../../../shared/validation';
import { bookmarkRequest, MAX_TAGS_PER_REQUEST, recordPath } from '../../transport';
import { recordLocator } from '../locators';
import { readTagList, TAGS_HINT } from './tagList';

const show = { resource: ['bookmark'], operation: ['addTags', 'removeTags'] };

export const tagsDescription: INodeProperties[] = [
	recordLocator(show, 'The record whose tags change'),
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'shortlist, residency',
		description:
			'Tag names (1 to 50). Adding creates tags that do not exist yet; a tag the record already has is no error.',
		hint: TAGS_HINT,
		displayOptions: { show },
	},
];

function readTags(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const tags = readTagList(ctx, itemIndex, ctx.getNodeParameter('tags', itemIndex, ''));
	if (tags.length === 0) throw invalidInput(ctx, itemIndex, 'Tags', 'give at least one tag name');
	if (tags.length > MAX_TAGS_PER_REQUEST) {
		throw invalidInput(
			ctx,
			itemIndex,
			'Tags',
			`${tags.length} tags given; at most ${MAX_TAGS_PER_REQUEST} at a time`,
		);
	}
	return tags;
}

async function changeTags(
	ctx: IExecuteFunctions,
	itemIndex: number,
	method: 'POST' | 'DELETE',
): Promise<IDataObject> {
	const recordId = requiredId(ctx, itemIndex, 'recordId', 'Bookmark');
	const tags = readTags(ctx, itemIndex);
	const answer = await bookmarkRequest(ctx, {
		method,
		path: recordPath(recordId, '/tags'),
		body: { tags },
		itemIndex,
		// The answer lists what this very request attached or detached: sent again after the first
		// one was carried out, a removal would report nothing removed.
		repeatable: false,
	});
	return { id: recordId, ...answer };
}

/** Output: `{ id, attached: [{ id, name }] }`. */
export async function addTags(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await changeTags(this, itemIndex, 'POST');
}

/** Output: `{ id, detached: [{ id, name }] }`, only the tags the record had. */
export async function removeTags(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await changeTags(this, itemIndex, 'DELETE');
}
