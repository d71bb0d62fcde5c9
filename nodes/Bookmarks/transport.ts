import type { IDataObject } from 'n8n-workflow';

import type { RequestContext } from '../shared/request';
import { bookmarkAdapter, type BookmarkFilters } from './adapters';

export type { BookmarkFilters } from './adapters';

export const BOOKMARKS_MAX_PAGE_SIZE = 100;
export const BOOKMARKS_DEFAULT_LIMIT = 20;
/** The most tag names the service attaches or detaches in one request. */
export const MAX_TAGS_PER_REQUEST = 50;

/**
 * Records newest first, following the cursor until `limit` records (all when undefined)
 * or the end. `shouldStop` ends early once a page reaches records already known.
 */
export async function fetchBookmarks(
	ctx: RequestContext,
	filters: BookmarkFilters,
	limit: number | undefined,
	itemIndex?: number,
	shouldStop?: (page: IDataObject[]) => boolean,
): Promise<IDataObject[]> {
	const adapter = await bookmarkAdapter(ctx, itemIndex);
	const records: IDataObject[] = [];
	let cursor: string | null = null;
	do {
		const wanted = limit === undefined ? BOOKMARKS_MAX_PAGE_SIZE : limit - records.length;
		const page = await adapter.recordPage(
			ctx,
			filters,
			{ limit: Math.min(wanted, BOOKMARKS_MAX_PAGE_SIZE), cursor },
			itemIndex,
		);
		records.push(...page.records);
		if (shouldStop?.(page.records)) break;
		cursor = page.nextCursor;
	} while (cursor && (limit === undefined || records.length < limit));
	return limit === undefined ? records : records.slice(0, limit);
}
