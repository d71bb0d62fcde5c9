import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ifAlreadyGoneParameter, settleGone } from '../../../shared/alreadyGone';
import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { requireToolConsent } from '../../../shared/toolConsent';
import { checkedInteger, invalidInput, requiredId } from '../../../shared/validation';
import { bookmarkAdapter, bookmarkApis, type HighlightFields } from '../../adapters';
import { consentTo } from '../../personalData';
import { recordLocator } from '../locators';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

/**
 * Highlights (Karakeep): passages of a record's readable content marked with a colour and a note,
 * what Karakeep's reader and its MCP server's highlight tools work with.
 */

const HIGHLIGHTS_DEFAULT_LIMIT = 50;
/** Karakeep's largest page of highlights, as of its bookmarks. */
const HIGHLIGHTS_PAGE_SIZE = 100;
const COLOURS = ['yellow', 'red', 'green', 'blue'];

const show = (...operation: string[]) => ({ resource: ['highlight'], operation });

const colourField: INodeProperties = {
	displayName: 'Colour',
	name: 'color',
	type: 'options',
	default: 'yellow',
	options: COLOURS.map((colour) => ({ name: colour[0].toUpperCase() + colour.slice(1), value: colour })),
};
const noteField: INodeProperties = {
	displayName: 'Note',
	name: 'note',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	description: 'A note on the passage; empty clears it',
};

const highlightId: INodeProperties = {
	displayName: 'Highlight ID',
	name: 'highlightId',
	type: 'string',
	required: true,
	default: '',
	description: 'The ID of a highlight, as Highlight → Create or Get Many return it',
	displayOptions: { show: show('get', 'update', 'delete') },
};

const offset = (name: string, displayName: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	required: true,
	typeOptions: { minValue: 0 },
	default: 0,
	description,
	displayOptions: { show: show('create') },
});

export const highlightDescription: INodeProperties[] = [
	withPlatformOnly('Karakeep', ['create', 'delete', 'get', 'getMany', 'update'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['highlight'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a highlight',
				description: 'Mark a passage of a record’s content, with a colour and a note',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a highlight',
				description: 'Delete a highlight; the record stays as it is',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a highlight',
				description: 'Get one highlight by ID',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many highlights',
				description: 'Get every highlight, newest first, or those of one record',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a highlight',
				description: 'Change a highlight’s colour or note',
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices('Karakeep', 'highlight', { create: '', delete: '', get: '', getMany: '', update: '' }),
	recordLocator(show('create'), 'The record whose content the passage is in'),
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		description: 'The passage highlighted, as it reads in the record’s content (Bookmark → Get Content)',
		displayOptions: { show: show('create') },
	},
	offset('startOffset', 'Start Offset', 'Where the passage starts in the record’s content, in characters from 0'),
	offset('endOffset', 'End Offset', 'Where the passage ends (exclusive), after Start Offset'),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: show('create') },
		options: [colourField, { ...noteField, description: 'A note on the passage' }],
	},
	highlightId,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: show('update') },
		description: 'Only the fields added here are changed (Karakeep changes no other field of a highlight)',
		options: [colourField, noteField],
	},
	ifAlreadyGoneParameter(show('delete'), 'deleted'),
	{
		displayName: 'Highlights Of',
		name: 'scope',
		type: 'options',
		default: 'all',
		options: [
			{ name: 'All Records', value: 'all', description: 'Every highlight, newest first' },
			{ name: 'One Record', value: 'record', description: 'The highlights of one record' },
		],
		displayOptions: { show: show('getMany') },
	},
	recordLocator({ ...show('getMany'), scope: ['record'] }, 'The record whose highlights to get'),
	...returnAllAndLimit(show('getMany'), HIGHLIGHTS_DEFAULT_LIMIT),
];

const highlights = async (ctx: IExecuteFunctions, itemIndex: number, operation: string) =>
	bookmarkApis.capability(ctx, await bookmarkAdapter(ctx, itemIndex), 'highlights', `Highlight → ${operation}`, itemIndex);

function readColour(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string {
	const colour = String(value).trim().toLowerCase();
	if (!COLOURS.includes(colour)) {
		throw invalidInput(ctx, itemIndex, 'Colour', `"${String(value)}" is not one of ${COLOURS.join(', ')}`);
	}
	return colour;
}

async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const recordId = requiredId(this, itemIndex, 'recordId', 'Bookmark');
	const startOffset = checkedInteger(this, itemIndex, this.getNodeParameter('startOffset', itemIndex), 'Start Offset', { min: 0 });
	const endOffset = checkedInteger(this, itemIndex, this.getNodeParameter('endOffset', itemIndex), 'End Offset', { min: 0 });
	if (endOffset <= startOffset) {
		throw invalidInput(this, itemIndex, 'End Offset', `${endOffset} is not after Start Offset (${startOffset})`);
	}
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const text = String(this.getNodeParameter('text', itemIndex, '') ?? '');
	const fields: HighlightFields = {
		startOffset,
		endOffset,
		// Karakeep requires both present, either may be null.
		text: text === '' ? null : text,
		note: extra.note === undefined || extra.note === '' ? null : String(extra.note),
	};
	if (extra.color !== undefined) fields.color = readColour(this, itemIndex, extra.color);
	return await (await highlights(this, itemIndex, 'Create')).create(this, recordId, fields, itemIndex);
}

async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = requiredId(this, itemIndex, 'highlightId', 'Highlight ID');
	return await (await highlights(this, itemIndex, 'Get')).get(this, id, itemIndex);
}

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit(this, itemIndex, HIGHLIGHTS_DEFAULT_LIMIT);
	const capability = await highlights(this, itemIndex, 'Get Many');
	if (this.getNodeParameter('scope', itemIndex, 'all') === 'record') {
		const recordId = requiredId(this, itemIndex, 'recordId', 'Bookmark');
		const found = await capability.ofRecord(this, recordId, itemIndex);
		return limit === undefined ? found : found.slice(0, limit);
	}
	const found: IDataObject[] = [];
	let cursor: string | null = null;
	do {
		const wanted = limit === undefined ? HIGHLIGHTS_PAGE_SIZE : Math.min(limit - found.length, HIGHLIGHTS_PAGE_SIZE);
		const page = await capability.page(this, { limit: wanted, cursor }, itemIndex);
		found.push(...page.highlights);
		cursor = page.nextCursor;
	} while (cursor && (limit === undefined || found.length < limit));
	return limit === undefined ? found : found.slice(0, limit);
}

async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = requiredId(this, itemIndex, 'highlightId', 'Highlight ID');
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const changes: { color?: string; note?: string | null } = {};
	if (fields.color !== undefined) changes.color = readColour(this, itemIndex, fields.color);
	if (fields.note !== undefined && fields.note !== null) changes.note = fields.note === '' ? null : String(fields.note);
	if (Object.keys(changes).length === 0) {
		throw invalidInput(this, itemIndex, 'Update Fields', 'add Colour or Note');
	}
	return await (await highlights(this, itemIndex, 'Update')).update(this, id, changes, itemIndex);
}

/** Output: `{ deleted: true, id, alreadyGone }`. */
async function deleteHighlight(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Deleting highlights'));
	const id = requiredId(this, itemIndex, 'highlightId', 'Highlight ID');
	const answer = await (await highlights(this, itemIndex, 'Delete')).delete(this, id, itemIndex);
	return { deleted: true, id, alreadyGone: settleGone(this, itemIndex, answer) };
}

export const highlightOperations: Record<string, ItemOperation> = {
	create,
	delete: deleteHighlight,
	get,
	getMany,
	update,
};
