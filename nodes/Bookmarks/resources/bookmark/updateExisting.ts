import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { withDescription } from '../../../shared/request';

import { bookmarkAdapter, type NewRecord, type RecordChanges } from '../../adapters';

/**
 * Create → If URL Exists → Update It: applies the given title, note and tags to the record
 * stored under the URL, and returns it as it is now.
 *
 * Two writes, so a failure between them would leave the record half changed. Every limit is
 * checked before the first request (see `create`); the tags go first, because attaching tags
 * changes nothing else and attaching them again changes nothing, so a run that fails there has
 * changed nothing; if the title and note then fail, the error says exactly what was already
 * changed. Running the item again completes it either way.
 */
export async function updateExisting(
	ctx: IExecuteFunctions,
	itemIndex: number,
	recordId: string,
	body: NewRecord,
	existing: IDataObject,
): Promise<IDataObject> {
	const adapter = await bookmarkAdapter(ctx, itemIndex);
	const changes: RecordChanges = {};
	if (body.title !== undefined) changes.title = body.title;
	if (body.note !== undefined) changes.note = body.note;
	const fields = Object.keys(changes);
	const tags = body.tags ?? [];
	const progress = { tagsAttached: false, fieldsWritten: false };
	try {
		let record = existing;
		if (tags.length) {
			await adapter.changeTags(ctx, recordId, tags, 'attach', itemIndex);
			progress.tagsAttached = true;
		}
		if (fields.length) {
			record = await adapter.updateRecord(ctx, recordId, changes, itemIndex);
			progress.fieldsWritten = true;
		}
		// The PATCH answer already shows the attached tags; without one, read the record back.
		if (tags.length && !fields.length) {
			record = await adapter.getRecord(ctx, recordId, itemIndex);
		}
		return { ...record, alreadyExists: true };
	} catch (error) {
		const nothingChanged = !progress.tagsAttached && !progress.fieldsWritten;
		const state =
			fields.length && !progress.fieldsWritten
				? `Record ${recordId} was changed in part: the tags ${tags.join(', ')} were attached, but its ${fields.join(' and ')} ${fields.length > 1 ? 'were' : 'was'} not written.`
				: `Record ${recordId} was changed as asked; only reading it back failed.`;
		throw withDescription(
			ctx,
			error as Error,
			itemIndex,
			nothingChanged
				? undefined
				: `${state} Running this item again completes it: attaching the same tags again changes nothing.`,
		);
	}
}
