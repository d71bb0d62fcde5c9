/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a script: it prints to stdout */
/**
 * What the Bookmarks Trigger's Bookmark Changes costs (issue 44): requests per poll and the bytes it
 * keeps in the workflow's static data, for a library of 1,000 and of 10,000 records, against an
 * in-process stand-in for Karakeep's routes (the same answers' shapes as the real server; the
 * requests are counted, not timed, so the figures do not depend on the machine).
 *
 *   npx ts-node --transpile-only bench/changeEvents.ts
 */
import type { IDataObject, IHttpRequestOptions, IPollFunctions } from 'n8n-workflow';

import type { BookmarksTrigger as Trigger } from '../nodes/Bookmarks/BookmarksTrigger.node';

// By its file name: under ts-node, Node finds the node's .json (its codex) before its .ts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { BookmarksTrigger } = require('../nodes/Bookmarks/BookmarksTrigger.node.ts') as { BookmarksTrigger: typeof Trigger };

const LISTS = 20;
const TAGS = 200;

export interface FakeKarakeep {
	bookmarks: IDataObject[];
	lists: IDataObject[];
	members: Map<string, Set<string>>;
	highlights: IDataObject[];
	tags: IDataObject[];
	requests: string[];
	answer(options: IHttpRequestOptions): { statusCode: number; headers: IDataObject; body: unknown };
}

const id = (prefix: string, n: number) => `${prefix}${String(n).padStart(24 - prefix.length, '0')}`;
const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();

/** A library of `size` records, 20 lists holding each record in one list of two, 200 tags. */
export function fakeKarakeep(size: number, now = Date.UTC(2026, 10, 1)): FakeKarakeep {
	const tags = Array.from({ length: TAGS }, (_, n) => ({ id: id('t', n), name: `tag-${n}` }));
	const bookmarks = Array.from({ length: size }, (_, n) => ({
		id: id('b', n),
		createdAt: iso(now - (size - n) * 60_000),
		modifiedAt: iso(now - (size - n) * 60_000),
		title: `A page about subject number ${n} and what it says`,
		archived: n % 7 === 0,
		favourited: n % 11 === 0,
		note: n % 5 === 0 ? 'Read again before the meeting' : null,
		summary: null,
		tags: [tags[n % TAGS], tags[(n * 7) % TAGS]].map((tag, index) => ({ ...tag, attachedBy: index ? 'ai' : 'human' })),
		content: { type: 'link', url: `https://example.org/${n}`, title: null },
	})) as IDataObject[];
	const lists = Array.from({ length: LISTS }, (_, n) => ({ id: id('l', n), name: `List ${n}`, icon: '📁', type: 'manual' }));
	const members = new Map(lists.map((list) => [String(list.id), new Set<string>()]));
	bookmarks.forEach((bookmark, n) => n % 2 === 0 && members.get(String(lists[n % LISTS].id))!.add(String(bookmark.id)));
	const fake: FakeKarakeep = {
		bookmarks,
		lists,
		members,
		highlights: [],
		tags,
		requests: [],
		answer(options) {
			const url = new URL(String(options.url));
			const qs = (options.qs ?? {}) as IDataObject;
			fake.requests.push(`${options.method ?? 'GET'} ${url.pathname}`);
			const ok = (body: unknown) => ({ statusCode: 200, headers: {}, body });
			const newestFirst = [...fake.bookmarks].sort((a, b) =>
				String(b.createdAt).localeCompare(String(a.createdAt)) || String(b.id).localeCompare(String(a.id)),
			);
			const page = (records: IDataObject[]) => {
				const limit = Number(qs.limit ?? 20);
				const start = qs.cursor ? records.findIndex((record) => `${String(record.id)}_${String(record.createdAt)}` === qs.cursor) : 0;
				const slice = records.slice(start, start + limit);
				const next = records[start + limit];
				return ok({ bookmarks: slice, nextCursor: next ? `${String(next.id)}_${String(next.createdAt)}` : null });
			};
			const path = url.pathname.replace(/^\/api\/v1/, '');
			let match: RegExpMatchArray | null;
			if (path === '/bookmarks') return page(newestFirst);
			if ((match = path.match(/^\/lists\/([^/]+)\/bookmarks$/))) {
				const inList = fake.members.get(match[1]) ?? new Set();
				return page(newestFirst.filter((record) => inList.has(String(record.id))));
			}
			if (path === '/lists') return ok({ lists: fake.lists });
			if (url.pathname === '/api/trpc/lists.stats') {
				return ok({ result: { data: { json: { stats: [...fake.members].map(([listId, ids]) => [listId, ids.size]) } } } });
			}
			if (path === '/highlights') {
				const sorted = [...fake.highlights].sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
				return ok({ highlights: sorted.slice(0, Number(qs.limit ?? 20)), nextCursor: null });
			}
			if (path === '/tags') return ok({ tags: fake.tags, nextCursor: null });
			if ((match = path.match(/^\/bookmarks\/([^/]+)\/lists$/))) {
				return ok({ lists: fake.lists.filter((list) => fake.members.get(String(list.id))!.has(match![1])) });
			}
			if ((match = path.match(/^\/bookmarks\/([^/]+)$/))) {
				const record = fake.bookmarks.find((bookmark) => bookmark.id === match![1]);
				return record ? ok(record) : { statusCode: 404, headers: {}, body: 'Bookmark not found' };
			}
			return { statusCode: 404, headers: {}, body: 'Not found' };
		},
	};
	return fake;
}

/** A polling context on the fake server, its static data kept between polls as n8n keeps it. */
export function fakePollContext(fake: FakeKarakeep, parameters: IDataObject, staticData: IDataObject = {}): IPollFunctions {
	const credentials = { api: 'karakeep', baseUrl: 'http://karakeep.invalid', apiKey: 'ak2_bench' };
	return {
		getMode: () => 'trigger',
		getNode: () => ({ id: 'bench', name: 'Bookmarks Trigger', typeVersion: 2 }),
		getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
		getWorkflowStaticData: () => staticData,
		getCredentials: async () => credentials,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => fake.answer(options),
			returnJsonArray: (data: IDataObject[]) => data.map((json) => ({ json })),
		},
	} as unknown as IPollFunctions;
}

const ALL_EVENTS = [
	'archived',
	'unarchived',
	'favourited',
	'unfavourited',
	'tagsAdded',
	'tagsRemoved',
	'addedToList',
	'removedFromList',
	'highlightAdded',
	'titleOrNoteChanged',
	'summaryAdded',
];

async function measure(size: number) {
	const fake = fakeKarakeep(size);
	const staticData: IDataObject = {};
	const ctx = fakePollContext(fake, { watch: 'changes', changeEvents: ALL_EVENTS }, staticData);
	const trigger = new BookmarksTrigger();
	const polls: number[] = [];
	let events = 0;
	for (let poll = 0; poll < 4; poll++) {
		fake.requests.length = 0;
		// A change between polls: one old record archived, one record added to a list.
		if (poll > 0) {
			fake.bookmarks[poll].archived = !fake.bookmarks[poll].archived;
			fake.members.get(String(fake.lists[1].id))!.add(String(fake.bookmarks[poll * 2 + 1].id));
		}
		events += (await trigger.poll.call(ctx))?.[0].length ?? 0;
		polls.push(fake.requests.length);
	}
	const bytes = Buffer.byteLength(JSON.stringify(staticData), 'utf8');
	// Until every change is emitted: the archived records are the oldest, read last in the turn.
	let pollsToAll = 3;
	while (events < 6 && pollsToAll < 200) {
		events += (await trigger.poll.call(ctx))?.[0].length ?? 0;
		pollsToAll++;
	}
	return {
		size,
		firstPoll: polls[0],
		laterPolls: polls.slice(1),
		staticDataBytes: bytes,
		bytesPerRecord: Math.round(bytes / size),
		pollsToAll,
	};
}

async function main() {
	for (const size of [1_000, 10_000]) {
		const figures = await measure(size);
		process.stdout.write(
			`${size} records: first poll ${figures.firstPoll} requests, later polls ${figures.laterPolls.join(', ')} requests; static data ${figures.staticDataBytes} bytes (${figures.bytesPerRecord} per record); the 6 changes made in polls 1-3 all emitted by poll ${figures.pollsToAll}\n`,
		);
	}
}

if (require.main === module) void main();
