import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput, requiredId } from '../../../shared/validation';
import { bookmarkAdapter, bookmarkApis, type RecordChanges } from '../../adapters';
import { recordLocator } from '../locators';
import { changeReadBack } from '../readBack';
import { moreChangesOf, moreRecordFieldsOptions } from './moreRecordFields';
import { shapeWrite, simplifyBookmarksParameter } from './simplify';

const show = { resource: ['bookmark'], operation: ['update'] };

export const updateDescription: INodeProperties[] = [
	recordLocator(show, 'The record to change'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		description: 'Only the fields added here are changed; the others stay as they are',
		// The documented fields and Karakeep's, by name as n8n lists them.
		options: (
			[
			{
				displayName: 'Archived',
				name: 'archived',
				type: 'boolean',
				default: true,
				description: 'Whether the record is archived (hidden from the everyday view, kept)',
			},
			{
				displayName: 'Favourited',
				name: 'favourited',
				type: 'boolean',
				default: true,
				description: 'Whether the record is marked as a favourite',
			},
			{
				displayName: 'Note',
				name: 'note',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'New note, replacing the old one; empty clears it',
			},
			{
				displayName: 'Title',
				name: 'title',
				type: 'string',
				default: '',
				description: 'New title; left unchanged when empty',
			},
			...moreRecordFieldsOptions,
			] as INodeProperties[]
		).sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
	simplifyBookmarksParameter(['update']),
];

/** A yes/no field as a boolean; an agent may send "true" or "false" as text. */
export function readBoolean(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): boolean {
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 'false') return value === 'true';
	throw invalidInput(ctx, itemIndex, field, `"${String(value)}" is not true or false`);
}

/** The PATCH body from the fields the user set: title (when not empty), note, archived, favourited. */
export function changesOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: IDataObject,
): RecordChanges {
	const body: RecordChanges = {};
	const title = String(fields.title ?? '').trim();
	if (title) body.title = title;
	if (fields.note !== undefined && fields.note !== null) body.note = String(fields.note);
	if (fields.archived !== undefined) {
		body.archived = readBoolean(ctx, itemIndex, fields.archived, 'Archived');
	}
	if (fields.favourited !== undefined) {
		body.favourited = readBoolean(ctx, itemIndex, fields.favourited, 'Favourited');
	}
	return body;
}

export async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const recordId = requiredId(this, itemIndex, 'recordId', 'Bookmark');
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body = changesOf(this, itemIndex, fields);
	const more = moreChangesOf(this, itemIndex, fields);
	if (Object.keys(body).length === 0 && Object.keys(more).length === 0) {
		throw invalidInput(this, itemIndex, 'Update Fields', 'add at least one field');
	}
	const adapter = await bookmarkAdapter(this, itemIndex);
	let change = async () => await adapter.updateRecord(this, recordId, body, itemIndex);
	if (Object.keys(more).length > 0) {
		const named = moreRecordFieldsOptions.filter((option) => option.name in more).map((option) => option.displayName);
		const moreFields = bookmarkApis.capability(this, adapter, 'moreRecordFields', `Bookmark → Update of ${named.join(', ')}`, itemIndex);
		change = async () => await moreFields.update(this, recordId, { ...body, ...more }, itemIndex);
	}
	return await shapeWrite(this, itemIndex, async () =>
		await changeReadBack(this, itemIndex, `Record ${recordId}`, 'Bookmark → Get', change),
	);
}
