import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { withDescription } from '../../../shared/request';
import { type WriteOutcome, writeOutcome } from '../../../shared/writeOutcome';

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
	const progress: { tags?: WriteOutcome; fields?: WriteOutcome } = {};
	let step: keyof typeof progress | undefined;
	try {
		let record = existing;
		if (tags.length) {
			step = 'tags';
			await adapter.changeTags(ctx, recordId, tags, 'attach', itemIndex);
			progress.tags = 'written';
		}
		if (fields.length) {
			step = 'fields';
			record = await adapter.updateRecord(ctx, recordId, changes, itemIndex);
			progress.fields = 'written';
		}
		step = undefined;
		// The PATCH answer already shows the attached tags; without one, read the record back.
		if (tags.length && !fields.length) {
			record = await adapter.getRecord(ctx, recordId, itemIndex);
		}
		return { ...record, alreadyExists: true };
	} catch (error) {
		if (step) progress[step] = writeOutcome(error);
		throw withDescription(ctx, error as Error, itemIndex, changedSoFar(recordId, tags, fields, progress));
	}
}

/**
 * What Update It had changed when it failed, in words; undefined when nothing was. A step not
 * reached (undefined) was not written.
 */
function changedSoFar(
	recordId: string,
	tags: string[],
	fields: string[],
	progress: { tags?: WriteOutcome; fields?: WriteOutcome },
): string | undefined {
	const steps = [
		tags.length ? { outcome: progress.tags ?? 'not written', words: `the tags ${tags.join(', ')}`, were: 'were', done: 'attached' } : undefined,
		fields.length
			? { outcome: progress.fields ?? 'not written', words: `its ${fields.join(' and ')}`, were: fields.length > 1 ? 'were' : 'was', done: 'written' }
			: undefined,
	].filter((step) => step !== undefined);
	if (steps.every((step) => step.outcome === 'not written')) return undefined;
	const rerun = 'Running this item again completes it: attaching the same tags again changes nothing.';
	if (steps.every((step) => step.outcome === 'written')) {
		return `Record ${recordId} was changed as asked; only reading it back failed. ${rerun}`;
	}
	const parts = steps.map(({ outcome, words, were, done }) =>
		outcome === 'unknown'
			? `whether ${words} ${were} ${done} is unknown, as the answer was lost`
			: `${words} ${were}${outcome === 'written' ? '' : ' not'} ${done}`,
	);
	return `Record ${recordId} was changed in part: ${parts.join(', but ')}. ${rerun}`;
}
