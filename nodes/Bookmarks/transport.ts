import type { IDataObject } from 'n8n-workflow';

import type { RequestContext, ServiceAnswer, ServiceRequest } from '../shared/request';
import { serviceAnswer, serviceRequest } from '../shared/request';

export const BOOKMARKS_MAX_PAGE_SIZE = 100;
export const BOOKMARKS_DEFAULT_LIMIT = 20;
/** The most tag names the service attaches or detaches in one request. */
export const MAX_TAGS_PER_REQUEST = 50;

export async function bookmarkRequest<T = IDataObject>(
	ctx: RequestContext,
	request: ServiceRequest,
): Promise<T> {
	return await serviceRequest<T>(ctx, 'bookmarkApi', 'bookmark service', request);
}

/** The whole answer, with whether the request had to be repeated (see `serviceAnswer`). */
export async function bookmarkAnswer<T = IDataObject>(
	ctx: RequestContext,
	request: ServiceRequest,
): Promise<ServiceAnswer<T>> {
	return await serviceAnswer<T>(ctx, 'bookmarkApi', 'bookmark service', request);
}

export interface BookmarkFilters {
	q?: string;
	tags?: string;
	listId?: string;
	archived?: 'true' | 'false';
	favourited?: 'true' | 'false';
	sortBy?: 'createdAt' | 'modifiedAt';
}

interface BookmarkPage {
	bookmarks: IDataObject[];
	nextCursor: string | null;
}

/** Path of one record, or of something below it. */
export const recordPath = (recordId: string, below = '') =>
	`/api/v1/bookmarks/${encodeURIComponent(recordId)}${below}`;
export const listPath = (listId: string, below = '') =>
	`/api/v1/lists/${encodeURIComponent(listId)}${below}`;

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
	const records: IDataObject[] = [];
	let cursor: string | null = null;
	do {
		const wanted = limit === undefined ? BOOKMARKS_MAX_PAGE_SIZE : limit - records.length;
		const qs: IDataObject = { limit: Math.min(wanted, BOOKMARKS_MAX_PAGE_SIZE) };
		for (const [key, value] of Object.entries(filters)) if (value) qs[key] = value;
		if (cursor) qs.cursor = cursor;
		const page: BookmarkPage = await bookmarkRequest<BookmarkPage>(ctx, {
			method: 'GET',
			path: '/api/v1/bookmarks',
			qs,
			itemIndex,
		});
		records.push(...page.bookmarks);
		if (shouldStop?.(page.bookmarks)) break;
		cursor = page.nextCursor;
	} while (cursor && (limit === undefined || records.length < limit));
	return limit === undefined ? records : records.slice(0, limit);
}
