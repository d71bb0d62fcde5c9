import { createHash } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../shared/credentialTest';

/**
 * A record's changes as events (issue 44): what the Bookmarks triggers remember of each record,
 * and how a record read now compares with it. Pure; the triggers decide where the memory lives
 * (the polling trigger's static data, the webhook trigger's process) and when it is read.
 *
 * What is remembered of one record is small on purpose (a library of 10,000 records is kept
 * whole): two flags, its tags' ids with who attached them, its lists' ids, whether it has a
 * summary, and its title and note up to TEXT_KEPT characters (a longer one as that much and a
 * digest of the whole, so that a change beyond the kept part is still seen).
 */

export type ChangeEvent =
	| 'archived'
	| 'unarchived'
	| 'favourited'
	| 'unfavourited'
	| 'tagsAdded'
	| 'tagsRemoved'
	| 'addedToList'
	| 'removedFromList'
	| 'highlightAdded'
	| 'titleOrNoteChanged'
	| 'summaryAdded';

export interface ChangeEventOption {
	name: string;
	value: ChangeEvent;
	/** How n8n's nodes panel lists the event. */
	action: string;
	description: string;
}

/** Every change event, as the triggers offer them. */
export const CHANGE_EVENTS: ChangeEventOption[] = [
	{ name: 'Added to List', value: 'addedToList', action: 'On Bookmark Added to List', description: 'A record was put in a list' },
	{ name: 'Archived', value: 'archived', action: 'On Bookmark Archived', description: 'A record was archived' },
	{ name: 'Favourited', value: 'favourited', action: 'On Bookmark Favourited', description: 'A record was marked as a favourite' },
	{ name: 'Highlight Added', value: 'highlightAdded', action: 'On Highlight Added', description: 'A passage of a record was highlighted' },
	{ name: 'Removed From List', value: 'removedFromList', action: 'On Bookmark Removed From List', description: 'A record was taken out of a list' },
	{ name: 'Summary Added', value: 'summaryAdded', action: 'On Bookmark Summary Added', description: 'A record got a summary (by the AI or a person)' },
	{
		name: 'Tags Added',
		value: 'tagsAdded',
		action: 'On Bookmark Tags Added',
		description: 'Tags were attached to a record, each with who attached it (AI or a person)',
	},
	{ name: 'Tags Removed', value: 'tagsRemoved', action: 'On Bookmark Tags Removed', description: 'Tags were detached from a record' },
	{ name: 'Title or Note Changed', value: 'titleOrNoteChanged', action: 'On Bookmark Title or Note Changed', description: 'A record’s title or note changed (old and new value)' },
	{ name: 'Unarchived', value: 'unarchived', action: 'On Bookmark Unarchived', description: 'An archived record was brought back' },
	{ name: 'Unfavourited', value: 'unfavourited', action: 'On Bookmark Unfavourited', description: 'A record is no longer a favourite' },
];

/** The events a comparison of two states of a record can tell (lists and highlights are read apart). */
export const RECORD_FIELD_EVENTS: ReadonlySet<ChangeEvent> = new Set([
	'archived',
	'unarchived',
	'favourited',
	'unfavourited',
	'tagsAdded',
	'tagsRemoved',
	'titleOrNoteChanged',
	'summaryAdded',
]);

/** Marks a kept title that is the crawled page's own (see `titleKept`). */
const PAGE_TITLE = '\u0000';

/** Characters of a title or note kept as they are. */
export const TEXT_KEPT = 120;

/** What is remembered of one record. Short keys: a library's worth of these lives in static data. */
export interface RecordMemory {
	/** modifiedAt as read. */
	m: string | null;
	/** 1 archived, 0 not. */
	a: 0 | 1;
	/** 1 favourited. */
	f: 0 | 1;
	/** Tags: id → "a" (AI) or "h" (a person). */
	t: Record<string, 'a' | 'h'>;
	/** Title and note, kept (see `keep`). */
	ti: string;
	n: string;
	/** 1 when it has a summary; `sd` a digest of it. */
	s: 0 | 1;
	/** List ids; absent when its lists were never read. */
	l?: string[];
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 8);

/** A text as remembered: whole when short, else its first TEXT_KEPT characters, `…#` and a digest of the whole. */
export function keep(text: unknown): string {
	const value = typeof text === 'string' ? text : '';
	return value.length <= TEXT_KEPT ? value : `${value.slice(0, TEXT_KEPT)}…#${digest(value)}`;
}

/** Marks a text remembered by its digest alone (no old value to give). */
export const DIGESTED = '\u0001';

/** A kept text as remembered by digest: the page-title mark kept, empty stays empty. */
export function digestKept(kept: string): string {
	if (kept === '' || kept.includes(DIGESTED)) return kept;
	const page = kept.startsWith(PAGE_TITLE);
	return `${page ? PAGE_TITLE : ''}${DIGESTED}${digest(page ? kept.slice(1) : kept)}`;
}

/** What a kept text says of the old value: the text, or its kept beginning with "…". */
function keptValue(kept: string): { value: string | null; whole: boolean } {
	const cut = kept.length > TEXT_KEPT ? kept.lastIndexOf('…#') : -1;
	if (cut === TEXT_KEPT) return { value: `${kept.slice(0, TEXT_KEPT)}…`, whole: false };
	return { value: kept === '' ? null : kept, whole: true };
}

const tagsOf = (record: IDataObject): IDataObject[] => (Array.isArray(record.tags) ? record.tags.filter(isObject) : []);

/** Who attached a tag, as Karakeep says it (`attachedBy`: "ai" or "human"). */
const attachedBy = (tag: IDataObject): 'ai' | 'human' => (tag.attachedBy === 'ai' ? 'ai' : 'human');

/**
 * Marks a title that is the crawled page's own (Karakeep shows the page's title where the user gave
 * none): the crawler filling it in is no edit, a person's title replacing it is.
 */

function titleKept(record: IDataObject): string {
	const content = isObject(record.content) ? record.content : {};
	const pageTitle = typeof content.title === 'string' && content.title !== '' && record.title === content.title;
	return pageTitle ? PAGE_TITLE + keep(record.title) : keep(record.title);
}

/** Whether two kept titles differ only by the crawler: none and the page's, or two of the page's. */
const onlyCrawled = (was: string, is: string) =>
	(was === '' || was.startsWith(PAGE_TITLE)) && (is === '' || is.startsWith(PAGE_TITLE));

/** What to remember of a record; `listIds` when they were read (kept from `before` otherwise). */
export function remember(record: IDataObject, before?: RecordMemory): RecordMemory {
	const memory: RecordMemory = {
		m: typeof record.modifiedAt === 'string' ? record.modifiedAt : null,
		a: record.archived === true ? 1 : 0,
		f: record.favourited === true ? 1 : 0,
		t: Object.fromEntries(tagsOf(record).map((tag) => [String(tag.id), attachedBy(tag) === 'ai' ? 'a' : 'h'])),
		ti: titleKept(record),
		n: keep(record.note),
		s: typeof record.summary === 'string' && record.summary !== '' ? 1 : 0,
	};
	const listIds = Array.isArray(record.listIds) ? record.listIds.map(String) : before?.l;
	if (listIds) memory.l = listIds;
	return memory;
}

/** One change of a record: the event and what changed, from → to. */
export interface RecordChange {
	event: ChangeEvent;
	changes: IDataObject;
}

/**
 * The changes between what was remembered of a record and the record read now, each once, in a
 * fixed order. `events` limits the comparison to those events (others are not reported).
 */
export function compare(before: RecordMemory, record: IDataObject, events: ReadonlySet<ChangeEvent>): RecordChange[] {
	const now = remember(record, before);
	const found: RecordChange[] = [];
	const add = (event: ChangeEvent, changes: IDataObject) => {
		if (events.has(event)) found.push({ event, changes });
	};
	if (before.a !== now.a) add(now.a ? 'archived' : 'unarchived', { archived: { from: before.a === 1, to: now.a === 1 } });
	if (before.f !== now.f) {
		add(now.f ? 'favourited' : 'unfavourited', { favourited: { from: before.f === 1, to: now.f === 1 } });
	}
	const tags = tagsOf(record);
	const added = tags.filter((tag) => !(String(tag.id) in before.t));
	if (added.length) {
		add('tagsAdded', {
			tags: { added: added.map((tag) => ({ id: String(tag.id), name: tag.name ?? null, attachedBy: attachedBy(tag) })) },
		});
	}
	const removed = Object.entries(before.t).filter(([id]) => !(id in now.t));
	if (removed.length) {
		add('tagsRemoved', {
			tags: { removed: removed.map(([id, by]) => ({ id, attachedBy: by === 'a' ? 'ai' : 'human' })) },
		});
	}
	const texts: IDataObject = {};
	for (const [field, was, is] of [
		['title', before.ti, now.ti],
		['note', before.n, now.n],
	] as const) {
		const digested = was.includes(DIGESTED);
		const compared = digested ? digestKept(is) : is;
		if (was === compared || (field === 'title' && onlyCrawled(was, compared))) continue;
		const from = keptValue(was.startsWith(PAGE_TITLE) ? was.slice(1) : was);
		const value = record[field];
		texts[field] = {
			from: digested ? null : from.value,
			to: typeof value === 'string' && value !== '' ? value : null,
			...(digested ? { fromKnown: false } : from.whole ? {} : { fromShortened: true }),
		};
	}
	if (Object.keys(texts).length) add('titleOrNoteChanged', texts);
	if (before.s === 0 && now.s === 1) add('summaryAdded', { summary: { from: null, to: record.summary } });
	return found;
}

/** The list events of one record whose lists were read: lists joined and left since remembered. */
export function compareLists(
	before: RecordMemory,
	listIds: readonly string[],
	listNames: ReadonlyMap<string, string>,
	events: ReadonlySet<ChangeEvent>,
): RecordChange[] {
	if (!before.l) return [];
	const was = new Set(before.l);
	const is = new Set(listIds);
	const list = (id: string) => ({ list: { id, name: listNames.get(id) ?? null } });
	return [
		...(events.has('addedToList') ? listIds.filter((id) => !was.has(id)).map((id) => ({ event: 'addedToList' as const, changes: list(id) })) : []),
		...(events.has('removedFromList')
			? before.l.filter((id) => !is.has(id)).map((id) => ({ event: 'removedFromList' as const, changes: list(id) }))
			: []),
	];
}

/** Whether the record read is older than what is remembered (a read that overtook another): it teaches nothing. */
export function isOlderThan(record: IDataObject, memory: RecordMemory): boolean {
	const read = Date.parse(String(record.modifiedAt ?? ''));
	const kept = Date.parse(String(memory.m ?? ''));
	return Number.isFinite(read) && Number.isFinite(kept) && read < kept;
}

/** A remembered record and the changes the last deliveries about it gave (a retry of one gives them again). */
export interface Remembered {
	memory: RecordMemory;
	recent: Array<{ deliveryId: string; changes: RecordChange[] }>;
}

/** Deliveries per record whose changes are kept for their retries. */
export const RECENT_DELIVERIES_PER_RECORD = 4;

/** Records remembered per webhook trigger, at most; the least recently touched are forgotten first. */
export const MAX_REMEMBERED_PER_TRIGGER = 10_000;

/**
 * What the Bookmarks Webhook Trigger last knew of each record, per trigger (workflow, node and URL),
 * in the n8n process: what a webhook writes to static data is not reliably kept (and concurrent
 * deliveries would overwrite each other's). Lost on restart; the first delivery about a record
 * after it teaches the record again.
 */
export class WebhookRecordMemory {
	private readonly scopes = new Map<string, Map<string, Remembered>>();

	constructor(private readonly maxPerScope = MAX_REMEMBERED_PER_TRIGGER) {}

	get(scope: string, recordId: string): Remembered | undefined {
		return this.scopes.get(scope)?.get(recordId);
	}

	set(scope: string, recordId: string, remembered: Remembered): void {
		let records = this.scopes.get(scope);
		if (!records) this.scopes.set(scope, (records = new Map()));
		// Re-inserted: the map stays ordered by the last touch, the oldest first.
		records.delete(recordId);
		records.set(recordId, remembered);
		for (const oldest of records.keys()) {
			if (records.size <= this.maxPerScope) break;
			records.delete(oldest);
		}
	}

	forget(scope: string): void {
		this.scopes.delete(scope);
	}

	size(scope: string): number {
		return this.scopes.get(scope)?.size ?? 0;
	}
}

export const webhookRecordMemory = new WebhookRecordMemory();

/** Names the tags of `tagsRemoved` changes (what is remembered keeps only their ids): `names` maps id → name. */
export function nameRemovedTags(found: RecordChange[], names: ReadonlyMap<string, string>): RecordChange[] {
	return found.map((change) => {
		if (change.event !== 'tagsRemoved') return change;
		const tags = change.changes.tags as { removed: IDataObject[] };
		return {
			...change,
			changes: { tags: { removed: tags.removed.map((tag) => ({ id: tag.id, name: names.get(String(tag.id)) ?? null, attachedBy: tag.attachedBy })) } },
		};
	});
}

/** Whether any change removed tags (their names are then read). */
export const removesTags = (found: RecordChange[]) => found.some((change) => change.event === 'tagsRemoved');

/** What is remembered of a record the AI has just tagged and the trigger did not know: it, without its AI tags. */
export function beforeAiTags(record: IDataObject): RecordMemory {
	const memory = remember(record);
	memory.t = Object.fromEntries(Object.entries(memory.t).filter(([, by]) => by !== 'a'));
	return memory;
}

export const CHANGE_EVENT_VALUES: ReadonlySet<string> = new Set(CHANGE_EVENTS.map((event) => event.value));
