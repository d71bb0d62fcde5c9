import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';
import { bookmarkAdapter } from '../../adapters';
import { recordLocator } from '../locators';
import { inVersion1 } from '../../../shared/simplify';
import { bookmarksPersonalDataOption } from '../../personalData';
import { shapeRecords, simplifyBookmarksParameter, simplifyOption } from './simplify';

const show = { resource: ['bookmark'], operation: ['get'] };

export const getDescription: INodeProperties[] = [
	recordLocator(
		show,
		'The record to read in full: title, notes, tags, lists, URL, description and OCR text',
	),
	simplifyBookmarksParameter(['get']),
	// Version 1's Simplify option; version 2 has the top-level switch above.
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { ...show, ...inVersion1 } },
		options: [bookmarksPersonalDataOption, simplifyOption],
	},
];

/** The record complete: with what an API leaves out of its lists (Karakeep: an asset's extracted text, crawled HTML). */
export async function getRecord(
	ctx: IExecuteFunctions,
	itemIndex: number,
	recordId: string,
): Promise<IDataObject> {
	return await (await bookmarkAdapter(ctx, itemIndex)).getRecord(ctx, recordId, itemIndex, true);
}

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const recordId = requiredId(this, itemIndex, 'recordId', 'Bookmark');
	return await shapeRecords(this, itemIndex, [await getRecord(this, itemIndex, recordId)]);
}
