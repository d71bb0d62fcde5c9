/**
 * Reading a numbered list (`page`, `perPage`) each record exactly once while it changes.
 *
 * Numbered pages are offsets: when a record before the next page leaves the list (a document
 * that completes leaves "Status: Pending") every later record moves up by one, and reading
 * page 2 at its fixed offset skips the record that moved onto page 1. A record added before it
 * moves them down, and the next page repeats one.
 *
 * So each page after the first is chosen to start a few records before the last record read
 * (the anchor), and reading goes on after wherever the anchor is now, whatever moved before it.
 * Records present for the whole read keep their order (the list is sorted by creation), so none
 * of them is skipped or read twice. A page that no longer holds any record already read (many
 * moved at once) cannot be placed: the whole list is read again, up to `maxAttempts` times.
 *
 * The page fetch is a parameter, so a service adapter with its own paging shape can reuse this.
 */

/** One page of the list: `page` counts from 1, `perPage` records at most. */
export type FetchNumberedPage<T> = (page: number, perPage: number) => Promise<T[]>;

export interface NumberedPagesOptions<T> {
	/** The service's largest page. */
	maxPerPage: number;
	/** Records wanted; undefined for all of them. */
	limit?: number;
	idOf: (record: T) => unknown;
	/** Whole reads before giving up; 3 by default. */
	maxAttempts?: number;
}

/** Records the anchor may have moved up by between two pages and still be found. */
const SLACK = 10;

/**
 * The page (numbered from 1) and page size whose page holds the record at `anchor`, with room
 * before it, and as many records after it as possible. Pages are offsets in whole multiples of
 * their size, so the size is what moves the start. Some size always fits once `maxPerPage` is 20
 * or more and the list has fewer than 232,792,560 records (the least common multiple of 1 to 20);
 * past that, the page after the anchor is read without overlap.
 */
export function pageAround(anchor: number, maxPerPage: number): { page: number; perPage: number } {
	for (let slack = Math.min(SLACK, Math.floor(maxPerPage / 4)); slack >= 0; slack--) {
		const latestStart = Math.max(0, anchor - slack);
		let best: { page: number; perPage: number; after: number } | undefined;
		for (let perPage = maxPerPage; perPage >= 2; perPage--) {
			const start = Math.floor(latestStart / perPage) * perPage;
			const after = start + perPage - 1 - anchor;
			if (after > 0 && after > (best?.after ?? 0))
				best = { page: start / perPage + 1, perPage, after };
		}
		if (best) return { page: best.page, perPage: best.perPage };
	}
	return { page: Math.floor((anchor + 1) / maxPerPage) + 1, perPage: maxPerPage };
}

/** One read of the whole list; undefined when a page could not be placed after the previous one. */
async function readOnce<T>(
	fetchPage: FetchNumberedPage<T>,
	{ maxPerPage, limit, idOf }: NumberedPagesOptions<T>,
): Promise<T[] | undefined> {
	const records: T[] = [];
	const seen = new Set<unknown>();
	const full = () => limit !== undefined && records.length >= limit;
	let request = { page: 1, perPage: Math.min(maxPerPage, Math.max(1, limit ?? maxPerPage)) };
	for (;;) {
		const page = await fetchPage(request.page, request.perPage);
		// Where the records not read yet begin: after the last record already read, if any.
		let next = 0;
		if (records.length > 0) {
			let anchor = -1;
			page.forEach((record, index) => {
				if (seen.has(idOf(record))) anchor = index;
			});
			if (anchor < 0) return undefined;
			next = anchor + 1;
		}
		for (const record of page.slice(next)) {
			const id = idOf(record);
			if (seen.has(id)) continue;
			seen.add(id);
			records.push(record);
			if (full()) return records;
		}
		if (page.length < request.perPage) return records;
		const start = (request.page - 1) * request.perPage;
		request = pageAround(start + page.length - 1, maxPerPage);
	}
}

/**
 * A numbered list's records in its order, each exactly once, up to `limit`; undefined when the
 * list kept changing too much to be read in `maxAttempts` reads (the caller says so).
 */
export async function readNumberedPages<T>(
	fetchPage: FetchNumberedPage<T>,
	options: NumberedPagesOptions<T>,
): Promise<T[] | undefined> {
	for (let attempt = 1; attempt <= (options.maxAttempts ?? 3); attempt++) {
		const records = await readOnce(fetchPage, options);
		if (records) return records;
	}
	return undefined;
}
