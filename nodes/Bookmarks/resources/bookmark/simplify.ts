import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { learnAlongside, runsAsTool } from '../../../shared/privacy';
import type { RequestContext } from '../../../shared/request';
import { givesOneShape, simplifyParameter } from '../../../shared/simplify';
import { getAllLists } from '../locators';

/**
 * The one shape of a bookmark record (issue 28), from the record as the contract documents it
 * (`id`, `title`, `note`, `tags: [{ id, name }]`, `listIds`, `content: { type, url | text, … }`,
 * `archived`, `favourited`, `createdAt`, `modifiedAt`). Adapters of other bookmark managers
 * turn their records into that shape first. The lists' names are looked up beforehand; the whole
 * record stays what redaction learns from (`learnAlongside`).
 */
export function simplifyBookmark(record: IDataObject, listNames: ReadonlyMap<string, string>): IDataObject {
	const content = (record.content ?? {}) as IDataObject;
	const simplified: IDataObject = {
		id: record.id,
		type: content.type ?? null,
		title: record.title,
		url: content.url ?? null,
		text: content.text ?? null,
		note: record.note,
		tags: ((record.tags as IDataObject[]) ?? []).map((tag) => tag.name),
		lists: listIdsOf(record).map((id) => ({ id, name: listNames.get(id) ?? null })),
		archived: record.archived,
		favourited: record.favourited,
		createdAt: record.createdAt,
		modifiedAt: record.modifiedAt ?? null,
	};
	// A file's record (Karakeep's asset records: a PDF, an image) names its file, for Asset → Download.
	if (content.type === 'asset') {
		simplified.file = {
			assetId: content.assetId ?? null,
			type: content.assetType ?? null,
			fileName: content.fileName ?? null,
			size: content.size ?? null,
		};
	}
	// Create says whether the URL was stored already; the simplified record keeps saying it.
	if (typeof record.alreadyExists === 'boolean') simplified.alreadyExists = record.alreadyExists;
	// Redaction learns from the whole record: a name that an e-mail address in a description or
	// an OCR transcript left out here gives away is still found in the title kept.
	return learnAlongside(simplified, record);
}

export const listIdsOf = (record: IDataObject) => ((record.listIds as string[]) ?? []).map(String);

/** What the simplified record holds, for the switch's description. */
const SHAPE = 'ID, type, title, URL or text, note, tag names, lists, archived, favourited and times';

/** Version 2's Simplify switch, for the bookmark operations that return a record. */
export const simplifyBookmarksParameter = (operations: string[]): INodeProperties =>
	simplifyParameter(SHAPE, { resource: ['bookmark'], operation: operations });

/** The Bookmarks Trigger's Simplify switch (version 2). */
export const simplifyTriggerParameter = simplifyParameter(SHAPE);

/**
 * Version 1's Simplify, an option of Get, Get Many and Search: absent = full records for the
 * node, simplified ones when it runs as a tool.
 */
export const simplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return only ID, title, URL, note, tag names, lists, archived, favourited and creation time instead of the full record. Without this option: the full record, but the simplified one when the node runs as an AI agent tool, so agents get short answers.',
};

export function wantsSimplified(ctx: IExecuteFunctions, itemIndex: number): boolean {
	if (givesOneShape(ctx)) return ctx.getNodeParameter('simplify', itemIndex, true) as boolean;
	const operation = ctx.getNodeParameter('operation', itemIndex) as string;
	if (!['get', 'getMany', 'search'].includes(operation)) return false;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (typeof options.simplify === 'boolean') return options.simplify;
	return runsAsTool(ctx);
}

/**
 * The lists' names, read once per run of the node (keyed by n8n's context object, new for
 * each run) and only when asked for.
 */
const listNamesByRun = new WeakMap<object, Promise<Map<string, string>>>();

export async function listNames(ctx: RequestContext, itemIndex?: number): Promise<Map<string, string>> {
	let names = listNamesByRun.get(ctx);
	if (!names) {
		names = getAllLists(ctx, itemIndex).then(
			(lists) => new Map(lists.map((list) => [String(list.id), String(list.name)])),
		);
		// A failed read is not kept: the next item may try again.
		names.catch(() => listNamesByRun.delete(ctx));
		listNamesByRun.set(ctx, names);
	}
	return await names;
}

/** Simplified records; the lists are read only when one of the records is in a list. */
export async function simplifyBookmarks(
	ctx: RequestContext,
	records: IDataObject[],
	itemIndex?: number,
): Promise<IDataObject[]> {
	const needsNames = records.some((record) => listIdsOf(record).length > 0);
	const names = needsNames ? await listNames(ctx, itemIndex) : new Map<string, string>();
	return records.map((record) => simplifyBookmark(record, names));
}

/** The records as they are, or simplified when the user (or tool use, in version 1) asks for it. */
export async function shapeRecords(
	ctx: IExecuteFunctions,
	itemIndex: number,
	records: IDataObject[],
): Promise<IDataObject[]> {
	if (!wantsSimplified(ctx, itemIndex)) return records;
	return await simplifyBookmarks(ctx, records, itemIndex);
}

/**
 * For operations that write (Create, Update): the lists' names are read before the write when the
 * output is simplified, so that a failed read can never lose the answer of a write that happened.
 */
export async function shapeWrite(
	ctx: IExecuteFunctions,
	itemIndex: number,
	write: () => Promise<IDataObject>,
): Promise<IDataObject> {
	if (!wantsSimplified(ctx, itemIndex)) return await write();
	const names = await listNames(ctx, itemIndex);
	const record = await write();
	return simplifyBookmark(record, names);
}
