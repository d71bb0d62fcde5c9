let counter = 0;

/**
 * Ids that sort (as strings) in creation order within a process, so that records created in
 * the same millisecond still have a strict order when sorted by time, then id.
 */
export function newId(prefix: string): string {
	counter++;
	const time = Date.now().toString(36).padStart(9, '0');
	const sequence = counter.toString(36).padStart(6, '0');
	return `${prefix}_${time}${sequence}${Math.random().toString(36).slice(2, 6).padEnd(4, '0')}`;
}

type Sortable = { createdAt: string; id: string };

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Newest first by creation time, then by id, both descending: a strict order. */
export const newestFirst = (a: Sortable, b: Sortable) =>
	compare(b.createdAt, a.createdAt) || compare(b.id, a.id);

/** Oldest first by creation time, then by id. */
export const oldestFirst = (a: Sortable, b: Sortable) => newestFirst(b, a);

const DAY_MS = 24 * 3600 * 1000;

/** An ISO time some days (and seconds) before now. */
export const daysAgo = (days: number, plusSeconds = 0) =>
	new Date(Date.now() - days * DAY_MS + plusSeconds * 1000).toISOString();
