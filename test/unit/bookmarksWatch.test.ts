import type { IDataObject } from 'n8n-workflow';

import {
	LOOKBACK_MS,
	MAX_REMEMBERED,
	startState,
	takeFresh,
	type WatchState,
} from '../../nodes/Bookmarks/watch';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const record = (
	id: string,
	createdAt: string | null,
	modifiedAt: string | null = createdAt,
): IDataObject => ({ id, createdAt, modifiedAt });

describe('what the Bookmarks Trigger remembers between polls', () => {
	it('forgets keys behind the window, and never re-emits what it still remembers', () => {
		const start = startState('newRecords', [record('a', at(NOW - 1000))], NOW);
		expect(start.seen).toEqual({ a: NOW - 1000 });
		const later = NOW + LOOKBACK_MS * 2;
		const { fresh, state } = takeFresh(
			start,
			[record('b', at(later - 5)), record('a', at(NOW - 1000))],
			later,
		);
		expect(fresh.map((r) => r.id)).toEqual(['b']);
		expect(state.seen).toEqual({ b: later - 5 });
		expect(state.floor).toBe(later - 5 - LOOKBACK_MS);
	});

	it('bounds the keys it keeps by shrinking the window to a time boundary', () => {
		const records = Array.from({ length: MAX_REMEMBERED + 500 }, (_, i) =>
			record(`r${i}`, at(NOW - 1000 - Math.floor(i / 2))),
		);
		const state: WatchState = {
			watch: 'newRecords',
			floor: NOW - LOOKBACK_MS,
			newest: NOW - LOOKBACK_MS,
			seen: {},
			undated: [],
		};
		const next = takeFresh(state, records, NOW);
		expect(next.fresh).toHaveLength(records.length);
		const kept = Object.values(next.state.seen);
		expect(kept.length).toBeLessThanOrEqual(MAX_REMEMBERED + 1);
		expect(kept.every((time) => time >= next.state.floor)).toBe(true);
		// Nothing the state still covers comes again.
		expect(takeFresh(next.state, records, NOW).fresh).toEqual([]);
	});

	it('caps the newest time at the poller’s clock, so a record from the future cannot hide the present', () => {
		const start = startState('newRecords', [], NOW);
		const future = record('future', '2099-01-01T00:00:00.000Z');
		const { fresh, state } = takeFresh(start, [future], NOW);
		expect(fresh).toEqual([future]);
		expect(state.newest).toBe(NOW);
		const next = takeFresh(state, [future, record('present', at(NOW + 10))], NOW + 20);
		expect(next.fresh.map((r) => r.id)).toEqual(['present']);
	});

	it('keys a change by record and modification time, and skips records never changed', () => {
		const start = startState('changedRecords', [], NOW);
		const created = at(NOW + 1);
		const first = takeFresh(
			start,
			[record('x', created, at(NOW + 5)), record('y', created)],
			NOW + 10,
		);
		expect(first.fresh.map((r) => r.id)).toEqual(['x']);
		expect(takeFresh(first.state, [record('x', created, at(NOW + 5))], NOW + 20).fresh).toEqual([]);
		expect(
			takeFresh(first.state, [record('x', created, at(NOW + 15))], NOW + 20).fresh.map((r) => r.id),
		).toEqual(['x']);
	});
});

/**
 * Issue 32 item 11: Karakeep's re-save (packages/trpc/routers/bookmarks.ts `createBookmark`) moves
 * `createdAt` (its last save) and `modifiedAt` to now and keeps `firstCreatedAt`; the real server's
 * behaviour is pinned in test/karakeep/nodes.test.ts.
 */
describe('a record saved again (Karakeep)', () => {
	const firstSaved = NOW - 3 * 24 * 3600 * 1000;
	const resaved = { ...record('r', at(NOW), at(NOW)), firstCreatedAt: at(firstSaved) };

	it('is not a new record, whether or not its id is still remembered', () => {
		const state = startState('newRecords', [], NOW - LOOKBACK_MS * 3);
		expect(takeFresh(state, [resaved], NOW).fresh).toEqual([]);
	});

	it('is a change, emitted once', () => {
		const state = startState('changedRecords', [], NOW - 1000);
		const first = takeFresh(state, [resaved], NOW);
		expect(first.fresh).toEqual([resaved]);
		expect(takeFresh(first.state, [resaved], NOW).fresh).toEqual([]);
	});

	it('is new, once, when it was first stored after the last read began and saved again before the next poll', () => {
		const lastRead = NOW - 59_700;
		const lastPoll = startState('newRecords', [record('old', at(lastRead - 5000))], lastRead + 2000, lastRead);
		// Stamped in whole seconds: saved in the second the read began, maybe after it.
		const quicklyResaved = { ...record('q', at(NOW), at(NOW)), firstCreatedAt: at(NOW - 60_000) };
		const next = takeFresh(lastPoll, [quicklyResaved, record('old', at(lastRead - 5000))], NOW, NOW - 1000);
		expect(next.fresh).toEqual([quicklyResaved]);
		const savedOnceMore = { ...quicklyResaved, createdAt: at(NOW + 5000), modifiedAt: at(NOW + 5000) };
		expect(takeFresh(next.state, [savedOnceMore], NOW + 10_000).fresh).toEqual([]);
	});

	it('is not new when it existed before the last read, even with a first save inside the window', () => {
		const lastRead = NOW - 60_000;
		const lastPoll = startState('newRecords', [], lastRead + 2000, lastRead);
		// Imported with an old creation time, so no read saw it; first stored before the last read.
		const imported = { ...record('i', at(NOW), at(NOW)), firstCreatedAt: at(lastRead - 120_000) };
		expect(takeFresh(lastPoll, [imported], NOW).fresh).toEqual([]);
	});

	it('a save that straddles a second is one save: a new record, not a change', () => {
		const fresh = { ...record('n', at(NOW), at(NOW)), firstCreatedAt: at(NOW - 1000) };
		expect(takeFresh(startState('newRecords', [], NOW - 1000), [fresh], NOW).fresh).toEqual([fresh]);
		expect(takeFresh(startState('changedRecords', [], NOW - 1000), [fresh], NOW).fresh).toEqual([]);
	});
});
