import type { IDataObject } from 'n8n-workflow';

/**
 * What the Bookmarks Trigger remembers between polls, and how a poll's records become the
 * ones it emits: each record (New Records) or each change of a record (Changed Records)
 * exactly once.
 *
 * A watermark alone ("newest time seen") loses records: one whose time is unreadable
 * (null, missing) poisons it, and one that becomes visible after a newer one was polled
 * (a slow transaction, an import with its original dates, another server's clock) is
 * behind it. So the trigger re-reads a window of LOOKBACK_MS behind the newest time it has
 * seen and remembers what it emitted in that window, by key. Records without a readable
 * time are remembered by key alone.
 *
 * Overlapping polls (n8n starts the next poll on schedule even when one still runs) share
 * this state object in the process: `takeFresh` reads and updates it in one synchronous
 * step after the last request, so a record claimed by one poll is not emitted by the other.
 */
export type WatchMode = 'newRecords' | 'changedRecords';

/** How far behind the newest time seen a late record is still caught. */
export const LOOKBACK_MS = 10 * 60 * 1000;
/** At most this many keys are kept for the window; beyond, the window shrinks. */
export const MAX_REMEMBERED = 2000;
/** Keys of records without a readable time, kept the longest. */
export const MAX_UNDATED = 1000;

export interface WatchState {
	watch: WatchMode;
	/** Records whose time is before this (ms since the epoch) are old news. */
	floor: number;
	/** The newest time seen, never later than the poller's clock. */
	newest: number;
	/** Keys emitted (or present at the start) within the window, with their time. */
	seen: Record<string, number>;
	/** Keys of records without a readable time, emitted once. */
	undated: string[];
	/** When the last poll began to read (the poller's clock): a record first stored after it was not in that read. */
	readAt?: number;
}

/** The time a record is sorted by in this mode. */
export const sortField = (watch: WatchMode) =>
	watch === 'newRecords' ? 'createdAt' : 'modifiedAt';

/** A readable time in ms, or undefined for null, missing or unparseable values. */
export function timeOf(record: IDataObject, field: string): number | undefined {
	const value = record[field];
	if (typeof value !== 'string') return undefined;
	const time = Date.parse(value);
	return Number.isFinite(time) ? time : undefined;
}

/** What makes an emission unique: the record, or the record at one modification time. */
export function keyOf(record: IDataObject, watch: WatchMode): string {
	const id = String(record.id);
	return watch === 'newRecords' ? id : `${id}@${String(record.modifiedAt)}`;
}

/** Karakeep stamps a record's first creation and its save apart, in whole seconds: a save may straddle one. */
const SAME_SAVE_MS = 1000;

/**
 * Whether a record was saved again after it was first stored. Where a service keeps the first
 * creation apart (Karakeep: `firstCreatedAt`; its `createdAt` is the last save, which posting the
 * same URL again moves to now, with `modifiedAt`), a `createdAt` later than it.
 */
function isResaved(record: IDataObject): boolean {
	const first = timeOf(record, 'firstCreatedAt');
	const saved = timeOf(record, 'createdAt');
	return first !== undefined && saved !== undefined && saved - first > SAME_SAVE_MS;
}

/**
 * New Records: a record when it is first saved, not when it is saved again. Changed Records: a
 * record never changed since it was created is a new record, not a change; one saved again is.
 * `unreadSince`, where the trigger knows when its last read began: a record first stored after
 * that was in no read, so it is still new when it was saved again before this poll (the window's
 * keys keep it from coming twice). First saves are stamped in whole seconds: one stamped in the
 * second the read began may have been missed by it, and counts as new (never emitted before, it is
 * emitted rather than lost).
 */
export function isWatched(record: IDataObject, watch: WatchMode, unreadSince?: number): boolean {
	if (watch === 'newRecords') {
		if (!isResaved(record)) return true;
		const firstSaved = timeOf(record, 'firstCreatedAt');
		return (
			unreadSince !== undefined &&
			firstSaved !== undefined &&
			firstSaved >= unreadSince - (unreadSince % SAME_SAVE_MS)
		);
	}
	return record.modifiedAt !== record.createdAt || isResaved(record);
}

/** Reads the state from static data; undefined when there is none for this mode. */
export function readState(staticData: IDataObject, watch: WatchMode): WatchState | undefined {
	if (staticData.watch === watch && typeof staticData.floor === 'number') {
		return {
			watch,
			floor: staticData.floor,
			newest: Number(staticData.newest),
			seen: (staticData.seen as Record<string, number>) ?? {},
			undated: (staticData.undated as string[]) ?? [],
			readAt: typeof staticData.readAt === 'number' ? staticData.readAt : undefined,
		};
	}
	// The state of versions before Watch: { since, idsAtSince }. A since that is no time
	// (the "null" that stopped those versions) starts over from now.
	const since = typeof staticData.since === 'string' ? Date.parse(staticData.since) : NaN;
	if (watch === 'newRecords' && staticData.watch === undefined && Number.isFinite(since)) {
		const ids = (staticData.idsAtSince as string[] | undefined) ?? [];
		return {
			watch,
			floor: since,
			newest: since,
			seen: Object.fromEntries(ids.map((id) => [id, since])),
			undated: [],
		};
	}
	return undefined;
}

/** What to store: the state's fields, and the old fields cleared. */
export function stateToStore(state: WatchState): IDataObject {
	return {
		watch: state.watch,
		floor: state.floor,
		newest: state.newest,
		seen: state.seen,
		undated: state.undated,
		readAt: state.readAt,
		since: undefined,
		idsAtSince: undefined,
	};
}

/** Whether a page reaches records behind the window, so older pages need not be read. */
export function reachesBehind(page: IDataObject[], state: WatchState): boolean {
	const field = sortField(state.watch);
	return page.some((record) => {
		const time = timeOf(record, field);
		return time !== undefined && time < state.floor;
	});
}

function settle(state: WatchState, newestRead: number | undefined, now: number, readAt: number): WatchState {
	const newest = Math.max(state.newest, Math.min(newestRead ?? -Infinity, now));
	let floor = Math.max(state.floor, newest - LOOKBACK_MS);
	let times = Object.values(state.seen).filter((time) => time >= floor);
	if (times.length > MAX_REMEMBERED) {
		// Raise the floor to a time boundary, so that no key at the floor itself is forgotten.
		floor = times.sort((a, b) => b - a)[MAX_REMEMBERED - 1];
		times = times.filter((time) => time >= floor);
	}
	const seen = Object.fromEntries(Object.entries(state.seen).filter(([, time]) => time >= floor));
	return { ...state, newest, floor, seen, undated: state.undated.slice(-MAX_UNDATED), readAt };
}

/**
 * The state of a first activation: what exists now counts as seen, so that only what comes
 * after is emitted. `readAt`: when the read of `records` began (`now` unless given).
 */
export function startState(watch: WatchMode, records: IDataObject[], now: number, readAt = now): WatchState {
	const field = sortField(watch);
	let newestRead: number | undefined;
	for (const record of records) {
		const time = timeOf(record, field);
		if (time !== undefined) newestRead = Math.max(newestRead ?? time, time);
	}
	const newest = Math.min(newestRead ?? now, now);
	const initial: WatchState = { watch, floor: newest - LOOKBACK_MS, newest, seen: {}, undated: [] };
	return takeFresh(initial, records, now, readAt).state;
}

/**
 * The records of a poll not emitted before, oldest first, and the state that remembers them.
 * Pure: the caller stores the state in the same synchronous step. `readAt`: when the read of
 * `records` began (`now` unless given).
 */
export function takeFresh(
	state: WatchState,
	records: IDataObject[],
	now: number,
	readAt = now,
): { fresh: IDataObject[]; state: WatchState } {
	const field = sortField(state.watch);
	const seen = { ...state.seen };
	const undated = [...state.undated];
	const dated: Array<{ record: IDataObject; time: number }> = [];
	const timeless: IDataObject[] = [];
	let newestRead: number | undefined;
	for (const record of records) {
		if (!isWatched(record, state.watch, state.readAt)) continue;
		const key = keyOf(record, state.watch);
		const time = timeOf(record, field);
		if (time === undefined) {
			if (!undated.includes(key)) {
				undated.push(key);
				timeless.push(record);
			}
			continue;
		}
		newestRead = Math.max(newestRead ?? time, time);
		if (time < state.floor || key in seen) continue;
		seen[key] = time;
		dated.push({ record, time });
	}
	dated.sort((a, b) => a.time - b.time || String(a.record.id).localeCompare(String(b.record.id)));
	return {
		fresh: [...dated.map(({ record }) => record), ...timeless.reverse()],
		state: settle({ ...state, seen, undated }, newestRead, now, readAt),
	};
}
