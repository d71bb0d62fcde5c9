import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { bookmarkApis, bookmarkAdapter, type BookmarkAdapter, type Highlights } from './adapters';
import {
	DIGESTED,
	digestKept,
	type ChangeEvent,
	compare,
	compareLists,
	beforeAiTags,
	nameRemovedTags,
	type RecordChange,
	type RecordMemory,
	remember,
	removesTags,
} from './changes';

/**
 * The Bookmarks Trigger's Bookmark Changes (issue 44): each change of a record as an event, by
 * comparing what a poll reads with what the trigger remembers in the workflow's static data.
 *
 * What a poll reads, bounded whatever the library's size:
 * - the newest page of records (new and re-saved records come first) and SCAN_PAGES more pages in
 *   turn, from where the last poll stopped: a library of N records is compared whole every
 *   N / (100 × SCAN_PAGES) polls (Karakeep sorts by nothing that moves when a record changes);
 * - the lists (one request, and their record counts in one more); the records of a list whose
 *   count changed, and of one more list in turn (an addition and a removal leave the count as it was);
 * - the newest highlights, until the newest one seen before.
 * What it remembers: each record in a few bytes (see changes.ts), the lists' counts, the newest
 * highlight; a record not read in a whole turn (deleted) is forgotten.
 */

/** Pages of records read in turn per poll, beside the newest page. */
export const SCAN_PAGES = 4;
const PAGE_SIZE = 100;
/** Highlights of the same second as the newest one seen are remembered by id. */
const HIGHLIGHT_OVERLAP_MS = 1000;

export interface ChangesState {
	watch: 'changes';
	/**
	 * Record id → what is remembered, in one short string (see `encode`): flags, tags and lists as
	 * indexes into `tagIds` and `listIds`, title and note as digests, the turn it was last read in.
	 */
	records: Record<string, string>;
	tagIds: string[];
	listIds: string[];
	/** Title and note as kept (changes.ts `keep`) of the RECENT_TEXTS records changed or added last, for the old value. */
	texts: Record<string, [string, string]>;
	/** Where the next poll goes on reading records in turn; null: from the second page. */
	cursor: string | null;
	turn: number;
	/** List id → its number of records when last read. */
	lists: Record<string, number>;
	/** Index of the list read in turn next. */
	listTurn: number;
	/** The newest highlight's time (ms) and `<id>@<time>` of those within a second of it. */
	highlights: { newest: number; ids: string[] };
}

/** Records whose old title and note are kept as text (the others' by digest: their old value is not given). */
export const RECENT_TEXTS = 500;

type Remembered = RecordMemory & { c: number };

/** A kept text as stored: empty, or its digest with "p" before when it is the crawled page's title. */
function storedText(kept: string): string {
	const digested = digestKept(kept);
	if (digested === '') return '';
	const at = digested.indexOf(DIGESTED);
	return (at > 0 ? 'p' : '') + digested.slice(at + 1);
}

function loadedText(stored: string): string {
	if (stored === '') return '';
	return stored.startsWith('p') && stored.length > DIGEST_LENGTH ? `\u0000${DIGESTED}${stored.slice(1)}` : `${DIGESTED}${stored}`;
}

const DIGEST_LENGTH = 8;

class Tables {
	private readonly index: Map<string, number>;
	constructor(readonly ids: string[]) {
		this.index = new Map(ids.map((id, position) => [id, position]));
	}
	of(id: string): number {
		let position = this.index.get(id);
		if (position === undefined) {
			position = this.ids.push(id) - 1;
			this.index.set(id, position);
		}
		return position;
	}
}

function encode(memory: Remembered, tags: Tables, lists: Tables): string {
	const tagPart = Object.entries(memory.t)
		.map(([id, by]) => `${tags.of(id).toString(36)}${by}`)
		.join(',');
	const listPart = memory.l ? memory.l.map((id) => lists.of(id).toString(36)).join(',') : '-';
	return [`${memory.a}${memory.f}${memory.s}`, tagPart, listPart, storedText(memory.ti), storedText(memory.n), memory.c.toString(36)].join('|');
}

function decode(stored: string, state: ChangesState, texts?: [string, string]): Remembered {
	const [flags, tagPart, listPart, title, note, turn] = stored.split('|');
	return {
		m: null,
		a: flags[0] === '1' ? 1 : 0,
		f: flags[1] === '1' ? 1 : 0,
		s: flags[2] === '1' ? 1 : 0,
		t: Object.fromEntries(
			(tagPart ? tagPart.split(',') : []).map((entry) => [state.tagIds[parseInt(entry.slice(0, -1), 36)], entry.slice(-1) as 'a' | 'h']),
		),
		...(listPart === '-' ? {} : { l: listPart ? listPart.split(',').map((entry) => state.listIds[parseInt(entry, 36)]) : [] }),
		ti: texts ? texts[0] : loadedText(title),
		n: texts ? texts[1] : loadedText(note),
		c: parseInt(turn, 36),
	};
}

export const readChangesState = (staticData: IDataObject): ChangesState | undefined =>
	staticData.watch === 'changes' && typeof staticData.changes === 'object' && staticData.changes !== null
		? (staticData.changes as unknown as ChangesState)
		: undefined;

interface Read {
	records: IDataObject[];
	nextCursor: string | null;
	/** Whether this read reached the library's end (a whole turn is done). */
	turnDone: boolean;
	lists?: IDataObject[];
	/** List id → its records' ids, for the lists read. */
	members: Map<string, string[]>;
	highlights: IDataObject[];
	requests: number;
}

async function allPages(
	ctx: IPollFunctions,
	adapter: BookmarkAdapter,
	listId: string | undefined,
	count: () => void,
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	let cursor: string | null = null;
	do {
		count();
		const page = await adapter.recordPage(ctx, listId ? { listId } : {}, { limit: PAGE_SIZE, cursor });
		records.push(...page.records);
		cursor = page.nextCursor;
	} while (cursor);
	return records;
}

async function newestHighlights(ctx: IPollFunctions, highlights: Highlights, since: number | undefined, count: () => void) {
	const found: IDataObject[] = [];
	let cursor: string | null = null;
	do {
		count();
		const page = await highlights.page(ctx, { limit: since === undefined ? 1 : PAGE_SIZE, cursor }, 0);
		found.push(...page.highlights);
		if (since === undefined) break;
		if (page.highlights.some((highlight) => timeOf(highlight) < since - HIGHLIGHT_OVERLAP_MS)) break;
		cursor = page.nextCursor;
	} while (cursor);
	return found;
}

const timeOf = (item: IDataObject) => Date.parse(String(item.createdAt ?? '')) || 0;
const manualLists = (lists: IDataObject[]) => lists.filter((list) => list.type !== 'smart');

/** What one poll reads (the first: everything, to learn the library). */
async function readPoll(
	ctx: IPollFunctions,
	adapter: BookmarkAdapter,
	state: ChangesState | undefined,
	events: ReadonlySet<ChangeEvent>,
): Promise<Read> {
	let requests = 0;
	const count = () => requests++;
	const read: Read = { records: [], nextCursor: null, turnDone: false, members: new Map(), highlights: [], requests: 0 };
	const wantsLists = events.has('addedToList') || events.has('removedFromList');
	if (!state) {
		read.records = await allPages(ctx, adapter, undefined, count);
		read.turnDone = true;
	} else {
		count();
		const newest = await adapter.recordPage(ctx, {}, { limit: PAGE_SIZE, cursor: null });
		read.records.push(...newest.records);
		let cursor = state.cursor ?? newest.nextCursor;
		for (let page = 0; page < SCAN_PAGES && cursor; page++) {
			count();
			const turn = await adapter.recordPage(ctx, {}, { limit: PAGE_SIZE, cursor });
			read.records.push(...turn.records);
			cursor = turn.nextCursor;
		}
		read.nextCursor = cursor;
		read.turnDone = cursor === null;
	}
	if (wantsLists || !state) {
		count();
		count();
		const lists = manualLists(await adapter.listLists(ctx, undefined, true));
		read.lists = lists;
		const inTurn = state && lists.length ? lists[state.listTurn % lists.length] : undefined;
		const toRead = lists.filter(
			(list) => !state || list === inTurn || state.lists[String(list.id)] !== Number(list.bookmarkCount ?? 0),
		);
		for (const list of toRead) {
			const records = await allPages(ctx, adapter, String(list.id), count);
			read.members.set(String(list.id), records.map((record) => String(record.id)));
		}
	}
	const highlights = adapter.highlights;
	if (highlights && (events.has('highlightAdded') || !state)) {
		read.highlights = await newestHighlights(ctx, highlights, state?.highlights.newest, count);
	}
	read.requests = requests;
	return read;
}

/** Each record's lists, from the lists read (the ids of lists not read this time kept as remembered). */
function listsOf(recordId: string, before: string[] | undefined, read: Read): string[] {
	const kept = (before ?? []).filter((listId) => !read.members.has(listId) && (read.lists ?? []).some((list) => list.id === listId));
	const found = [...read.members].filter(([, ids]) => ids.includes(recordId)).map(([listId]) => listId);
	return [...kept, ...found];
}

export interface ChangesOutcome {
	changes: Array<RecordChange & { recordId: string }>;
	state: ChangesState;
	requests: number;
}

/**
 * Compares a poll's read with the state and gives the changes and the new state. Pure and
 * synchronous: the caller stores the state in the same step, so that overlapping polls do not
 * both report a change.
 */
export function settleChanges(state: ChangesState | undefined, read: Read, events: ReadonlySet<ChangeEvent>): ChangesOutcome {
	const records = new Map<string, Remembered>(
		Object.entries(state?.records ?? {}).map(([id, stored]) => [id, decode(stored, state!, state!.texts[id])]),
	);
	const texts = new Map(Object.entries(state?.texts ?? {}));
	/** The records whose texts are kept, the last touched last. */
	const touch = (id: string, memory: RecordMemory) => {
		texts.delete(id);
		texts.set(id, [memory.ti, memory.n]);
	};
	const turn = state?.turn ?? 0;
	const found: ChangesOutcome['changes'] = [];
	const names = new Map((read.lists ?? []).map((list) => [String(list.id), String(list.name)]));
	const seen = new Set<string>();
	// Oldest first: on the first poll, the newest records' texts are the ones kept.
	for (const record of [...read.records].reverse()) {
		const id = String(record.id);
		if (seen.has(id)) continue;
		seen.add(id);
		const before = records.get(id);
		// A record first read after the first poll is new: what the AI (or a list) gave it since is a change.
		const base: RecordMemory = before ?? (state ? { ...beforeAiTags(record), l: [] } : remember(record));
		const changes = compare(base, record, events);
		for (const change of changes) found.push({ ...change, recordId: id });
		const now = { ...remember(record, base), c: turn };
		records.set(id, now);
		if (!state || !before || changes.length) touch(id, now);
		else if (texts.has(id)) texts.set(id, [now.ti, now.n]);
	}
	if (read.lists) {
		const listIds = new Set(read.lists.map((list) => String(list.id)));
		const inAList = new Set([...read.members.values()].flat());
		for (const [id, memory] of records) {
			if (!state) {
				records.set(id, { ...memory, l: listsOf(id, undefined, read) });
				continue;
			}
			const touched = inAList.has(id) || (memory.l ?? []).some((listId) => read.members.has(listId) || !listIds.has(listId));
			if (!touched) continue;
			const now = listsOf(id, memory.l, read);
			// A list deleted takes its records out without anyone removing them: no event.
			const withoutDeleted = { ...memory, l: (memory.l ?? []).filter((listId) => listIds.has(listId)) };
			for (const change of compareLists(withoutDeleted, now, names, events)) found.push({ ...change, recordId: id });
			records.set(id, { ...memory, l: now });
		}
	}
	let newest = state?.highlights.newest ?? 0;
	let ids = state?.highlights.ids ?? [];
	for (const highlight of [...read.highlights].sort((a, b) => timeOf(a) - timeOf(b))) {
		const time = timeOf(highlight);
		const key = `${String(highlight.id)}@${time}`;
		if (time < newest - HIGHLIGHT_OVERLAP_MS || ids.includes(key)) continue;
		if (state && events.has('highlightAdded')) {
			found.push({ event: 'highlightAdded', recordId: String(highlight.bookmarkId), changes: { highlight } });
		}
		if (time > newest) {
			newest = time;
			ids = ids.filter((kept) => Number(kept.split('@')[1]) >= newest - HIGHLIGHT_OVERLAP_MS);
		}
		ids = [...ids, key];
	}
	if (read.turnDone) {
		// Not read in a whole turn: deleted.
		for (const [id, memory] of records) if (memory.c < turn) records.delete(id);
	}
	const lists = { ...(state?.lists ?? {}) };
	if (read.lists) {
		for (const key of Object.keys(lists)) if (!read.lists.some((list) => String(list.id) === key)) delete lists[key];
		for (const list of read.lists) if (read.members.has(String(list.id))) lists[String(list.id)] = read.members.get(String(list.id))!.length;
	}
	// Tables rebuilt from what is still remembered: ids of deleted tags and lists go.
	const tagTable = new Tables([]);
	const listTable = new Tables([]);
	const stored: Record<string, string> = {};
	for (const [id, memory] of records) stored[id] = encode(memory, tagTable, listTable);
	const kept = [...texts].filter(([id]) => records.has(id)).slice(-RECENT_TEXTS);
	return {
		changes: found,
		requests: read.requests,
		state: {
			watch: 'changes',
			records: stored,
			tagIds: tagTable.ids,
			listIds: listTable.ids,
			texts: Object.fromEntries(kept),
			cursor: read.turnDone ? null : read.nextCursor,
			turn: read.turnDone ? turn + 1 : turn,
			lists,
			listTurn: (state?.listTurn ?? 0) + 1,
			highlights: { newest, ids },
		},
	};
}

/**
 * One poll of Bookmark Changes: the changes of the chosen events with the record each is about,
 * or none on the first poll (it learns the library). Records are read again only for changes a
 * page did not carry (lists, highlights).
 */
export async function pollChanges(
	ctx: IPollFunctions,
	events: ReadonlySet<ChangeEvent>,
): Promise<{ changes: Array<RecordChange & { recordId: string; record: IDataObject }>; requests: number }> {
	const adapter = await bookmarkAdapter(ctx);
	bookmarkApis.capability(ctx, adapter, 'highlights', 'Trigger On: Bookmark Changes');
	const staticData = ctx.getWorkflowStaticData('node');
	const read = await readPoll(ctx, adapter, readChangesState(staticData), events);
	// The records the changes are about, read before anything is stored: a failed read loses nothing.
	const trial = settleChanges(readChangesState(staticData), read, events);
	const byId = new Map(read.records.map((record) => [String(record.id), record]));
	const missing = [...new Set(trial.changes.map((change) => change.recordId))].filter((id) => !byId.has(id));
	for (const id of missing) {
		read.requests++;
		byId.set(id, await adapter.getRecord(ctx, id).catch(() => ({ id })));
	}
	let tagNames = new Map<string, string>();
	if (removesTags(trial.changes)) {
		read.requests++;
		tagNames = new Map((await adapter.listTags(ctx)).map((tag) => [String(tag.id), String(tag.name)]));
	}
	// From here to the store, no await: an overlapping poll sees this one's state.
	const outcome = settleChanges(readChangesState(staticData), read, events);
	staticData.watch = 'changes';
	staticData.changes = outcome.state as unknown as IDataObject;
	const named = nameRemovedTags(outcome.changes, tagNames) as ChangesOutcome['changes'];
	return {
		changes: named.map((change) => ({ ...change, record: byId.get(change.recordId) ?? { id: change.recordId } })),
		requests: outcome.requests,
	};
}
