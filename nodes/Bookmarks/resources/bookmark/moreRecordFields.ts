import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { dateTextField } from '../../../shared/dateText';
import { parseMoment, workflowTimeZone } from '../../../shared/dates';
import { isHttpUrl, invalidInput } from '../../../shared/validation';
import type { MoreRecordChanges } from '../../adapters';

/**
 * Bookmark → Update's fields beyond title, note, archived and favourited: what Karakeep edits
 * besides (`PATCH /bookmarks/{id}`, packages/shared/types/bookmarks.ts `zUpdateBookmarksRequestSchema`
 * at 7ca5ee2). On the documented API they fail before anything is sent.
 */

const text = (name: keyof MoreRecordChanges, displayName: string, description: string, rows = 1): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	...(rows > 1 ? { typeOptions: { rows } } : {}),
	default: '',
	description,
});
const date = (name: keyof MoreRecordChanges, displayName: string, description: string): INodeProperties =>
	dateTextField(name, displayName, description);

const DATE_FIELDS = new Set<string>(['dateModified', 'datePublished', 'createdAt']);

export const moreRecordFieldsOptions: INodeProperties[] = [
	text('author', 'Author', 'A link’s author (Karakeep); empty clears it'),
	date('dateModified', 'Date Modified', 'When the linked page was last changed (Karakeep); empty clears it'),
	date('datePublished', 'Date Published', 'When the linked page was published (Karakeep); empty clears it'),
	text('description', 'Description', 'A link’s description (Karakeep); empty clears it', 2),
	text(
		'assetContent',
		'Extracted Text',
		'A file record’s text, as Karakeep’s OCR extracts it from a PDF or an image (Karakeep); empty clears it',
		4,
	),
	text('publisher', 'Publisher', 'A link’s publisher or site name (Karakeep); empty clears it'),
	{
		...date('createdAt', 'Saved At', 'When the record was saved (Karakeep’s createdAt)'),
		hint: 'Read in the workflow’s time zone unless it names one. Karakeep lists, pages and polls records by this time: moving it moves the record in Karakeep’s order (and a New Records trigger does not see it again)',
	},
	text('summary', 'Summary', 'The record’s summary (Karakeep; its AI writes one when set up); empty clears it', 3),
	text('text', 'Text', 'A text record’s content (Karakeep)', 4),
	text('url', 'URL', 'A link’s URL (Karakeep); an http(s) URL'),
];

/** The fields added (Karakeep's names), checked: `null` for an emptied one that may be cleared. */
export function moreChangesOf(ctx: IExecuteFunctions, itemIndex: number, fields: IDataObject): MoreRecordChanges {
	const changes: IDataObject = {};
	for (const option of moreRecordFieldsOptions) {
		const value = fields[option.name];
		if (value === undefined || value === null) continue;
		const given = String(value).trim();
		if (DATE_FIELDS.has(option.name) && (given !== '' || typeof value !== 'string')) {
			// A date alone is its first instant, a time without a zone the wall clock, in the workflow's time zone.
			const moment = parseMoment(value, workflowTimeZone(ctx));
			if (moment.kind === 'problem') throw invalidInput(ctx, itemIndex, option.displayName, moment.problem);
			changes[option.name] = moment.iso;
			continue;
		}
		if (given !== '') {
			changes[option.name] = option.name === 'text' || option.name === 'assetContent' ? String(value) : given;
			continue;
		}
		if (option.name === 'createdAt' || option.name === 'text' || option.name === 'url') {
			throw invalidInput(ctx, itemIndex, option.displayName, 'must not be empty (it cannot be cleared)');
		}
		changes[option.name] = null;
	}
	if (typeof changes.url === 'string' && !isHttpUrl(changes.url)) {
		throw invalidInput(ctx, itemIndex, 'URL', `"${changes.url}" is not an http(s) URL`);
	}
	return changes as MoreRecordChanges;
}
