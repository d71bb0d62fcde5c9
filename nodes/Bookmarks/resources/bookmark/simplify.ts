import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { learnAlongside, runsAsTool } from '../../../shared/privacy';
import { getAllLists } from '../locators';

/** The Simplify option of the reads (absent = off for the node, on when it runs as a tool). */
export const simplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return only ID, title, URL, note, tag names, lists, archived, favourited and creation time instead of the full record. Without this option: the full record, but the simplified one when the node runs as an AI agent tool, so agents get short answers.',
};

export function wantsSimplified(ctx: IExecuteFunctions, itemIndex: number): boolean {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (typeof options.simplify === 'boolean') return options.simplify;
	return runsAsTool(ctx);
}

/** Compact records; lists are named, so one request for the lists serves all of them. */
export async function simplifyRecords(
	ctx: IExecuteFunctions,
	itemIndex: number,
	records: IDataObject[],
): Promise<IDataObject[]> {
	const needsLists = records.some((record) => ((record.listIds as string[]) ?? []).length > 0);
	const names = new Map<string, string>();
	if (needsLists) {
		for (const list of await getAllLists(ctx, itemIndex))
			names.set(String(list.id), String(list.name));
	}
	return records.map((record) => {
		const content = (record.content ?? {}) as IDataObject;
		return {
			id: record.id,
			title: record.title,
			url: content.url ?? null,
			note: record.note,
			tags: ((record.tags as IDataObject[]) ?? []).map((tag) => tag.name),
			lists: ((record.listIds as string[]) ?? []).map((id) => ({
				id,
				name: names.get(id) ?? null,
			})),
			archived: record.archived,
			favourited: record.favourited,
			createdAt: record.createdAt,
		};
	});
}

/** The records as they are, or simplified when the user (or tool use) asks for it. */
export async function shapeRecords(
	ctx: IExecuteFunctions,
	itemIndex: number,
	records: IDataObject[],
): Promise<IDataObject[]> {
	if (!wantsSimplified(ctx, itemIndex)) return records;
	// Redaction learns from the whole record: a name that an e-mail address in the text left out
	// gives away is still found in the title kept.
	const simplified = await simplifyRecords(ctx, itemIndex, records);
	return simplified.map((record, index) => learnAlongside(record, records[index]));
}
