/**
 * What the Bookmarks triggers remember of a record and how a record read later compares with it
 * (nodes/Bookmarks/changes.ts, issue 44): the parts the real-Karakeep tests do not reach (long texts,
 * texts remembered by digest alone, the crawler's page title, a read that overtook another, the
 * webhook trigger's bound). Each change through Karakeep's API is in test/karakeep/changeEvents.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	CHANGE_EVENTS,
	type ChangeEvent,
	compare,
	digestKept,
	isOlderThan,
	remember,
	TEXT_KEPT,
	WebhookRecordMemory,
} from '../../nodes/Bookmarks/changes';

const ALL = new Set<ChangeEvent>(CHANGE_EVENTS.map((event) => event.value));
const record = (fields: IDataObject = {}): IDataObject => ({
	id: 'r1',
	modifiedAt: '2026-11-01T10:00:00.000Z',
	archived: false,
	favourited: false,
	title: null,
	note: null,
	summary: null,
	tags: [],
	content: { type: 'link', url: 'https://example.org/', title: null },
	...fields,
});

describe('title and note changes', () => {
	test('a note longer than what is kept: its kept beginning with "…" and fromShortened; a change past it is still seen', () => {
		const long = 'x'.repeat(TEXT_KEPT) + ' and then the part that changes';
		const before = remember(record({ note: long }));
		const [change] = compare(before, record({ note: `${long}!` }), ALL);
		expect(change).toEqual({
			event: 'titleOrNoteChanged',
			changes: { note: { from: `${'x'.repeat(TEXT_KEPT)}…`, to: `${long}!`, fromShortened: true } },
		});
	});

	test('a text remembered by its digest alone: the change is seen, its old value not known', () => {
		const before = remember(record({ title: 'Old' }));
		const digested = { ...before, ti: digestKept(before.ti) };
		expect(compare(digested, record({ title: 'Old' }), ALL)).toEqual([]);
		expect(compare(digested, record({ title: 'New' }), ALL)).toEqual([
			{ event: 'titleOrNoteChanged', changes: { title: { from: null, to: 'New', fromKnown: false } } },
		]);
	});

	test('the crawler filling in the page title is no change; a person replacing it is', () => {
		const uncrawled = remember(record());
		const crawled = record({ title: 'The page', content: { type: 'link', title: 'The page' } });
		expect(compare(uncrawled, crawled, ALL)).toEqual([]);
		const named = record({ title: 'Mine', content: { type: 'link', title: 'The page' } });
		expect(compare(remember(crawled), named, ALL)).toEqual([
			{ event: 'titleOrNoteChanged', changes: { title: { from: 'The page', to: 'Mine' } } },
		]);
	});
});

test('only the chosen events are reported', () => {
	const before = remember(record());
	const after = record({ archived: true, favourited: true });
	expect(compare(before, after, new Set<ChangeEvent>(['favourited'])).map((change) => change.event)).toEqual(['favourited']);
});

test('a read older than what is remembered (it overtook another) is recognised', () => {
	const memory = remember(record({ modifiedAt: '2026-11-01T10:00:05.000Z' }));
	expect(isOlderThan(record({ modifiedAt: '2026-11-01T10:00:04.000Z' }), memory)).toBe(true);
	expect(isOlderThan(record({ modifiedAt: '2026-11-01T10:00:05.000Z' }), memory)).toBe(false);
});

test('the webhook trigger remembers at most its bound per trigger, the least recently delivered forgotten first', () => {
	const store = new WebhookRecordMemory(3);
	const memory = remember(record());
	for (const id of ['a', 'b', 'c']) store.set('trigger', id, { memory, recent: [] });
	store.set('trigger', 'a', { memory, recent: [] });
	store.set('trigger', 'd', { memory, recent: [] });
	expect(store.size('trigger')).toBe(3);
	expect(store.get('trigger', 'b')).toBeUndefined();
	expect(store.get('trigger', 'a')).toBeDefined();
	expect(store.get('other trigger', 'a')).toBeUndefined();
});
