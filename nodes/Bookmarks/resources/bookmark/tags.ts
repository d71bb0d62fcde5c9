import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';
import { bookmarkAdapter } from '../../adapters';
import { recordLocator } from '../locators';
import { readTagsToSend, TAGS_HINT } from './tagList';

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

async function changeTags(
	ctx: IExecuteFunctions,
	itemIndex: number,
	change: 'attach' | 'detach',
): Promise<IDataObject> {
	const recordId = requiredId(ctx, itemIndex, 'recordId', 'Bookmark');
	const tags = readTagsToSend(ctx, itemIndex, true);
	const adapter = await bookmarkAdapter(ctx, itemIndex);
	const changed = await adapter.changeTags(ctx, recordId, tags, change, itemIndex);
	return { id: recordId, [change === 'attach' ? 'attached' : 'detached']: changed };
}

/** Output: `{ id, attached: [{ id, name }] }`. */
export async function addTags(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await changeTags(this, itemIndex, 'attach');
}

/** Output: `{ id, detached: [{ id, name }] }`, only the tags the record had. */
export async function removeTags(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await changeTags(this, itemIndex, 'detach');
}
