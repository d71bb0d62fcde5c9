import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { withDescription } from '../../../shared/request';
import { checkPathId } from '../../../shared/validation';
import { type WriteOutcome, writeOutcome } from '../../../shared/writeOutcome';
import { bookmarkAdapter, bookmarkApis } from '../../adapters';
import { bookmarksPersonalDataOption } from '../../personalData';
import { binaryFieldParameter, checkedInputFile, fileNameOption, largestFileOption } from '../asset/upload';
import { listPicker } from '../locators';
import { shapeWrite, simplifyBookmarksParameter } from './simplify';
import { tagsAndNotes } from './create';
import { readTagsToSend } from './tagList';

/**
 * Bookmark → Create From File: an input file (a PDF or an image) kept as a record of its own, which
 * the service searches by the file's extracted text. Four steps, each a request of its own on
 * Karakeep: upload the file, make a record of it, attach the tags, add it to the list. Every check
 * comes before the upload; a failure after it says exactly what exists already, and the item is not
 * run again by the node (that would store the file twice).
 */

const show = { resource: ['bookmark'], operation: ['createFromFile'] };

/** Shown right below the operation, after "Karakeep only." (shared/platformOnly.ts). */
export const CREATE_FROM_FILE_NOTICE =
	'The file becomes a record of its own (a PDF or an image). Its text is searchable, and Get Content reads it, once Karakeep has extracted it in the background.';

export const createFromFileDescription: INodeProperties[] = [
	binaryFieldParameter(show, 'to keep as a record'),
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		description: 'Title of the record; without one, the service shows the file name',
		displayOptions: { show },
	},
	...tagsAndNotes(show, 'signed, agreement'),
	simplifyBookmarksParameter(['createFromFile']),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{ ...listPicker('list', 'A list to file the new record in'), displayName: 'Add to List' },
			fileNameOption,
			largestFileOption,
			bookmarksPersonalDataOption,
		],
	},
];

function readListId(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const list = options.list as { value?: string } | string | undefined;
	const listId = (typeof list === 'string' ? list : list?.value)?.trim();
	return listId ? checkPathId(ctx, itemIndex, listId, 'Add to List') : undefined;
}

export async function createFromFile(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const adapter = await bookmarkAdapter(this, itemIndex);
	const assets = bookmarkApis.capability(this, adapter, 'assets', 'Bookmark → Create From File', itemIndex);
	const title = String(this.getNodeParameter('title', itemIndex, '') ?? '').trim();
	const note = String(this.getNodeParameter('notes', itemIndex, '') ?? '').trim();
	const tags = readTagsToSend(this, itemIndex);
	const listId = readListId(this, itemIndex);
	const file = await checkedInputFile(
		this,
		itemIndex,
		assets,
		Object.keys(assets.recordTypes),
		'Only PDFs and images are kept as a record of their own: attach other files to a record with Asset → Attach.',
	);

	return await shapeWrite(this, itemIndex, async () => {
		const uploaded = await assets.upload(this, file, itemIndex);
		const progress: Progress = { assetId: uploaded.assetId, tags, listId, outcomes: {} };
		let step: Step | undefined = 'record';
		try {
			const record = await assets.createRecord(
				this,
				{
					assetId: uploaded.assetId,
					assetType: assets.recordTypes[file.mimeType],
					fileName: file.fileName,
					...(title ? { title } : {}),
					...(note ? { note } : {}),
				},
				itemIndex,
			);
			progress.outcomes.record = 'written';
			const recordId = (progress.recordId = String(record.id));
			if (tags.length) {
				step = 'tags';
				await adapter.changeTags(this, recordId, tags, 'attach', itemIndex);
				progress.outcomes.tags = 'written';
			}
			if (listId) {
				step = 'list';
				await adapter.changeMembership(this, listId, recordId, 'add', itemIndex);
				progress.outcomes.list = 'written';
			}
			step = undefined;
			return await adapter.getRecord(this, recordId, itemIndex);
		} catch (error) {
			if (step) progress.outcomes[step] = writeOutcome(error);
			throw withDescription(this, error as Error, itemIndex, halfWay(progress));
		}
	});
}

type Step = 'record' | 'tags' | 'list';

interface Progress {
	assetId: string;
	tags: string[];
	listId?: string;
	recordId?: string;
	/** Each step's write as it ended; a step not reached (undefined) was not written. */
	outcomes: Partial<Record<Step, WriteOutcome>>;
}

/** What a Create From File that failed after the upload left, and how to complete it without a second copy. */
function halfWay({ assetId, tags, listId, recordId, outcomes }: Progress): string {
	const again = 'Running this item again would store the file a second time.';
	const names = tags.join(', ');
	if (recordId === undefined) {
		const notDone = [tags.length ? `its tags (${names}) were not attached` : '', listId ? `it was not added to list ${listId}` : ''];
		const notYet = notDone.some(Boolean) ? ` Either way, ${notDone.filter(Boolean).join(' and ')}.` : '';
		if (outcomes.record === 'unknown') {
			return `The file was uploaded (asset ${assetId}); whether a record was made of it is unknown, as the answer was lost: Bookmark → Get Many lists it if so.${notYet} ${again}`;
		}
		return `The file was uploaded (asset ${assetId}) but no record was made of it: it is kept unattached. ${again}`;
	}
	const done = [`Record ${recordId} was created from the file (asset ${assetId})`];
	const unknown: string[] = [];
	const missing: string[] = [];
	const sort = (outcome: WriteOutcome | undefined, doneWords: string, unknownWords: string, missingWords: string) => {
		if (outcome === 'written') done.push(doneWords);
		else if (outcome === 'unknown') {
			unknown.push(unknownWords);
			missing.push(missingWords);
		} else missing.push(missingWords);
	};
	if (tags.length) {
		sort(
			outcomes.tags,
			`its tags (${names}) were attached`,
			`whether its tags (${names}) were attached`,
			`attach the tags (${names}) with Bookmark → Add Tags`,
		);
	}
	if (listId) {
		sort(
			outcomes.list,
			`it was added to list ${listId}`,
			`whether it was added to list ${listId}`,
			`add it to list ${listId} with Bookmark → Add to List`,
		);
	}
	const lost = unknown.length ? `; ${unknown.join(' and ')} is unknown, as the answer was lost` : '';
	const repeatable = unknown.length ? ' (doing it again changes nothing if it was done)' : '';
	return missing.length
		? `${done.join(', ')}${lost}; to complete it, ${missing.join(' and ')}${repeatable}. ${again}`
		: `${done.join(', ')}, as asked; only reading it back failed. ${again}`;
}
