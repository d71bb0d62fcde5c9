/*
 * Karakeep's own REST API v1, as its source answers (commit 7ca5ee2; facts, sources and the tests
 * that pin them against the real server in test/karakeep/README.md). Where Karakeep differs from
 * the documented API, the documented behaviour is composed from Karakeep's routes:
 * - tags are attached after creating (Karakeep drops `tags` on create);
 * - Get Many's query, tag and list go to Karakeep's search, tag and list routes (its record list
 *   ignores them), and what a route ignores is filtered here;
 * - If URL Exists looks the URL up first (Karakeep's create of a stored URL re-saves it);
 * - records' lists are read per record, list counts from Karakeep's `lists.stats`.
 */

import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapConcurrently } from '../../shared/concurrency';
import { isObject } from '../../shared/credentialTest';
import type { RequestContext, ServiceAnswer } from '../../shared/request';
import { withDescription } from '../../shared/request';
import { failedAfterWrite, type WriteOutcome, writeOutcome } from '../../shared/writeOutcome';
import { lostAnswerHints } from '../hints';
import { karakeepAssets } from './karakeepAssets';
import { karakeepBackups, karakeepFeeds } from './karakeepBackups';
import { karakeepContent } from './karakeepContent';
import { KARAKEEP_CREDENTIAL_PROBE, KARAKEEP_RECOGNITION } from './karakeepCredential';
import { karakeepHighlights } from './karakeepHighlights';
import { answer, KARAKEEP_RATE, KARAKEEP_SERVICE as SERVICE, request } from './karakeepRequest';
import { karakeepTags, tagPages } from './karakeepTags';
import { karakeepWebhooks } from './karakeepWebhooks';
import { documentedList, documentedRecord, documentedTag } from './karakeepShapes';
import { listPath, recordPath } from './paths';
import type { BookmarkAdapter, BookmarkFilters, ListKindFields, NewRecord, RecordPage, TagRef } from './types';

/** Karakeep's largest page (`limit` 1 to 100). */
const PAGE_SIZE = 100;

/** Records whose lists are read at the same time. */
const LIST_CONCURRENCY = 4;

/** The icon Karakeep's own form gives a new list (apps/web/components/dashboard/lists/EditListModal.tsx). */
const DEFAULT_LIST_ICON = '📁';

interface KarakeepPage {
	bookmarks: IDataObject[];
	nextCursor: string | null;
}

const tagNames = (record: IDataObject): string[] =>
	(Array.isArray(record.tags) ? record.tags : []).filter(isObject).map((tag) => String(tag.name));

/** The records of one Karakeep route that also pass the filters the route itself ignores. */
function keepMatching(records: IDataObject[], filters: BookmarkFilters, route: Route): IDataObject[] {
	return records.filter((record) => {
		if (filters.tags && route.kind !== 'tag' && !tagNames(record).includes(filters.tags)) return false;
		if (filters.archived && route.kind !== 'all' && String(record.archived === true) !== filters.archived) return false;
		if (filters.favourited && route.kind !== 'all' && String(record.favourited === true) !== filters.favourited) {
			return false;
		}
		if (filters.listId && route.kind === 'search') {
			const listIds = Array.isArray(record.listIds) ? record.listIds : [];
			if (!listIds.includes(filters.listId)) return false;
		}
		return true;
	});
}

interface Route {
	kind: 'search' | 'list' | 'tag' | 'all';
	path: string;
	qs: IDataObject;
}

/**
 * The Karakeep route that serves the filters best: search for a query (the only route that reads
 * it), else the list's or the tag's records, else all records with Karakeep's own archived and
 * favourited filters. `undefined` when the tag does not exist: no record can match.
 */
async function routeFor(ctx: RequestContext, filters: BookmarkFilters, itemIndex?: number): Promise<Route | undefined> {
	if (filters.q) {
		// Newest first, as the documented API lists matches.
		return { kind: 'search', path: '/api/v1/bookmarks/search', qs: { q: filters.q, sortOrder: 'desc' } };
	}
	// Karakeep leaves a file's extracted text out of a list's records unless asked (packages/api/utils/types.ts).
	if (filters.listId) return { kind: 'list', path: listPath(filters.listId, '/bookmarks'), qs: { includeContent: 'true' } };
	if (filters.tags) {
		const tagId = await tagIdNamed(ctx, filters.tags, itemIndex);
		if (tagId === undefined) return undefined;
		return { kind: 'tag', path: `/api/v1/tags/${encodeURIComponent(tagId)}/bookmarks`, qs: {} };
	}
	const qs: IDataObject = {};
	if (filters.archived) qs.archived = filters.archived;
	if (filters.favourited) qs.favourited = filters.favourited;
	return { kind: 'all', path: '/api/v1/bookmarks', qs };
}

/** The id of the tag with exactly this name (Karakeep's `nameContains` matches parts of names). */
async function tagIdNamed(ctx: RequestContext, name: string, itemIndex?: number): Promise<string | undefined> {
	const tags = await tagPages(ctx, { nameContains: name }, itemIndex);
	const tag = tags.find((candidate) => candidate.name === name);
	return tag ? String(tag.id) : undefined;
}

/**
 * Where the next page of a search starts: Karakeep's search cursor is an offset into results that
 * move while the index changes (packages/api/routes/bookmarks.ts; searchBookmarks in
 * packages/trpc/routers/bookmarks.ts pages Meilisearch by offset), so the cursor handed on also
 * names the last records read, `<offset>:<id>,<id>…`. The next page is read from a few records
 * before the offset and goes on after the last of them found: a record added before it (the
 * newest come first) would otherwise come twice, one that left the results would make one skipped.
 */
const SEARCH_OVERLAP = 10;

interface SearchCursor {
	offset: number;
	lastRead: string[];
}

function readSearchCursor(cursor: string | null): SearchCursor {
	const [offset, ids] = (cursor ?? '0').split(':');
	return { offset: Number.parseInt(offset, 10) || 0, lastRead: ids ? ids.split(',') : [] };
}

/** One page of search results after the records already read, each record once. */
async function searchPage(
	ctx: RequestContext,
	route: Route,
	page: { limit: number; cursor: string | null },
	itemIndex?: number,
): Promise<KarakeepPage> {
	const { offset, lastRead } = readSearchCursor(page.cursor);
	let start = lastRead.length > 0 ? Math.max(0, offset - SEARCH_OVERLAP) : offset;
	const read = async (limit: number) => {
		const qs: IDataObject = { ...route.qs, limit };
		if (start > 0) qs.cursor = String(start);
		return await request<KarakeepPage>(ctx, { method: 'GET', path: route.path, qs, itemIndex });
	};
	let { bookmarks, nextCursor } = await read(Math.min(Math.max(page.limit, 1) + offset - start, PAGE_SIZE));
	// Results that shrank to end before `start` answer an empty page, though the records that moved
	// up before it are unread: read back from earlier until the records already read are found.
	while (lastRead.length > 0 && bookmarks.length === 0 && start > 0) {
		start = Math.max(0, start - PAGE_SIZE);
		({ bookmarks, nextCursor } = await read(PAGE_SIZE));
	}
	let after = 0;
	if (lastRead.length > 0 && bookmarks.length > 0) {
		const alreadyRead = new Set(lastRead);
		bookmarks.forEach((bookmark, index) => {
			if (alreadyRead.has(String(bookmark.id))) after = index + 1;
		});
		if (after === 0) {
			throw new NodeOperationError(ctx.getNode(), 'The search results kept changing while they were read', {
				itemIndex,
				description:
					'So many records were added to the results or left them between two pages that the next page could not be placed after the records already read, which would have returned some twice or skipped some. Run the node again.',
			});
		}
	}
	const next =
		nextCursor === null
			? null
			: `${start + bookmarks.length}:${bookmarks
					.slice(-SEARCH_OVERLAP)
					.map((bookmark) => String(bookmark.id))
					.join(',')}`;
	return { bookmarks: bookmarks.slice(after), nextCursor: next };
}

async function routePage(
	ctx: RequestContext,
	route: Route,
	filters: BookmarkFilters,
	page: { limit: number; cursor: string | null },
	itemIndex?: number,
): Promise<RecordPage> {
	let answered: KarakeepPage;
	if (route.kind === 'search') answered = await searchPage(ctx, route, page, itemIndex);
	else {
		const qs: IDataObject = { ...route.qs, limit: Math.min(Math.max(page.limit, 1), PAGE_SIZE) };
		if (page.cursor) qs.cursor = page.cursor;
		answered = await request<KarakeepPage>(ctx, { method: 'GET', path: route.path, qs, itemIndex });
	}
	const { bookmarks, nextCursor } = answered;
	let records = bookmarks.map((bookmark) => documentedRecord(bookmark));
	if (filters.listId && route.kind === 'search') records = await karakeepAdapter.withListIds(ctx, records, itemIndex);
	return { records: keepMatching(records, filters, route), nextCursor: nextCursor ?? null };
}

/**
 * Newest change first, which no Karakeep route sorts by: every page of the route is read and
 * sorted here (ties by id, descending, as the documented API breaks them).
 */
async function allByModifiedAt(
	ctx: RequestContext,
	route: Route,
	filters: BookmarkFilters,
	itemIndex?: number,
): Promise<RecordPage> {
	const records: IDataObject[] = [];
	let cursor: string | null = null;
	do {
		const page = await routePage(ctx, route, filters, { limit: PAGE_SIZE, cursor }, itemIndex);
		records.push(...page.records);
		cursor = page.nextCursor;
	} while (cursor);
	const time = (record: IDataObject) => Date.parse(String(record.modifiedAt ?? record.createdAt ?? '')) || 0;
	records.sort((a, b) => time(b) - time(a) || (String(a.id) < String(b.id) ? 1 : -1));
	return { records, nextCursor: null };
}

/**
 * The record stored under exactly this URL. Karakeep's check-url ignores a fragment and a
 * trailing slash, where its create (and the documented API) compare the exact string.
 */
async function storedUnder(ctx: RequestContext, url: string, itemIndex: number): Promise<IDataObject | undefined> {
	const { bookmarkId } = await request<{ bookmarkId: string | null }>(ctx, {
		method: 'GET',
		path: '/api/v1/bookmarks/check-url',
		qs: { url },
		itemIndex,
	});
	if (!bookmarkId) return undefined;
	const record = await karakeepAdapter.getRecord(ctx, bookmarkId, itemIndex);
	return isObject(record.content) && record.content.url === url ? record : undefined;
}

/** Every list's number of records, from Karakeep's `lists.stats` (tRPC, the same key; superjson: a Map as pairs). */
async function listCounts(ctx: RequestContext, itemIndex?: number): Promise<Map<string, number> | undefined> {
	const stats = await answer(ctx, { method: 'GET', path: '/api/trpc/lists.stats', itemIndex, acceptStatuses: [404, 405] });
	const pairs = (stats.body as { result?: { data?: { json?: { stats?: unknown } } } } | undefined)?.result?.data?.json?.stats;
	if (stats.error || !Array.isArray(pairs)) return undefined;
	return new Map(
		pairs.filter((pair): pair is [string, number] => Array.isArray(pair) && pair.length === 2).map(([id, count]) => [String(id), Number(count)]),
	);
}

/** A list's number of records counted page by page, where `lists.stats` does not answer (a later Karakeep). */
async function countListRecords(ctx: RequestContext, listId: string, itemIndex?: number): Promise<number> {
	const route: Route = { kind: 'list', path: listPath(listId, '/bookmarks'), qs: {} };
	let count = 0;
	let cursor: string | null = null;
	do {
		const page = await routePage(ctx, route, {}, { limit: PAGE_SIZE, cursor }, itemIndex);
		count += page.records.length;
		cursor = page.nextCursor;
	} while (cursor);
	return count;
}

async function withCounts(ctx: RequestContext, lists: IDataObject[], itemIndex?: number): Promise<IDataObject[]> {
	const counts = await listCounts(ctx, itemIndex);
	return await mapConcurrently(
		lists.map((list) => async () =>
			documentedList(list, counts ? (counts.get(String(list.id)) ?? 0) : await countListRecords(ctx, String(list.id), itemIndex)),
		),
		LIST_CONCURRENCY,
	);
}

/**
 * One record as a documented one, without its lists (Karakeep reads them in a request of their
 * own); `complete`: with what Karakeep leaves out unless asked (`includeContent`: an asset's
 * extracted text, a link's crawled HTML).
 */
async function readBookmark(ctx: RequestContext, recordId: string, itemIndex?: number, complete = false): Promise<IDataObject> {
	const qs = complete ? { includeContent: 'true' } : undefined;
	return documentedRecord(await request(ctx, { method: 'GET', path: recordPath(recordId), qs, itemIndex }));
}

/**
 * Attaches or detaches tags by name. Karakeep's answer is ids only, and a detach lists every
 * existing tag named, also those the record did not have: the record read before (detach) or
 * after (attach) names them, and comes back beside them. Both requests give the same result when
 * repeated, so they may be. A read after the attach that fails is marked `failedAfterWrite`.
 */
async function changeTagsOf(
	ctx: RequestContext,
	recordId: string,
	names: string[],
	change: 'attach' | 'detach',
	itemIndex: number,
): Promise<{ tags: TagRef[]; record: IDataObject }> {
	const before = change === 'detach' ? await readBookmark(ctx, recordId, itemIndex) : undefined;
	const result = await request(ctx, {
		method: change === 'attach' ? 'POST' : 'DELETE',
		path: recordPath(recordId, '/tags'),
		body: { tags: names.map((tagName) => ({ tagName })) },
		itemIndex,
		repeatable: true,
	});
	const ids = (change === 'attach' ? result.attached : result.detached) as unknown;
	const changed = new Set(Array.isArray(ids) ? ids.map(String) : []);
	let record = before;
	if (!record) {
		try {
			record = await readBookmark(ctx, recordId, itemIndex);
		} catch (error) {
			throw failedAfterWrite(error);
		}
	}
	const tags = (Array.isArray(record.tags) ? record.tags : [])
		.filter(isObject)
		.filter((tag) => changed.has(String(tag.id)))
		.map((tag) => ({ ...tag, id: String(tag.id), name: String(tag.name) }) as TagRef);
	return { tags, record };
}

/** Karakeep's list body: a list with a query is a smart one (`type: "smart"`, which Karakeep requires beside it). */
const withListType = <Fields extends ListKindFields & { name: string }>(fields: Fields) =>
	fields.query === undefined ? fields : { ...fields, type: 'smart' };

/**
 * What exists after Create stored the record and attaching its tags (Karakeep's request of its
 * own) failed, and what running the item again would do: a link is found by its URL again, a
 * text record is stored anew.
 */
function createdWithoutTags(record: NewRecord, recordId: string, tags: WriteOutcome): string {
	const names = (record.tags ?? []).join(', ');
	const state = {
		written: `Record ${recordId} was created and its tags (${names}) attached; only reading it back failed: Bookmark → Get ${recordId} shows it.`,
		unknown: `Record ${recordId} was created; whether its tags (${names}) were attached is unknown, as the answer was lost: Bookmark → Get ${recordId} shows them.`,
		'not written': `Record ${recordId} was created without its tags (${names}): Karakeep attaches tags in a request of their own, and that request failed.`,
	}[tags];
	const attach = tags === 'written' ? '' : ` To attach them, use Bookmark → Add Tags on record ${recordId}`;
	if (record.type === 'text') {
		return `${state}${attach}${attach ? '.' : ''} Do not run this item again: a text record is stored anew each time, so that would make a second record.`;
	}
	return `${state}${attach ? `${attach}, or run this item again with If URL Exists → Update It (it finds the record by its URL).` : ''}`;
}

/** Karakeep's 400 for removing a record from a list it is not in (packages/trpc/models/lists.ts `removeBookmark`). */
const NOT_IN_LIST = /is already not in list/;

export const karakeepAdapter: BookmarkAdapter = {
	api: 'karakeep',
	option: {
		name: 'Karakeep',
		description:
			'Karakeep’s own REST API v1 (checked against Karakeep’s source at commit 7ca5ee2); see "Using with Karakeep" in the README',
	},
	like: 'Karakeep',
	apiName: 'the Karakeep API',
	serviceName: SERVICE,
	rate: KARAKEEP_RATE,
	credentialProbe: KARAKEEP_CREDENTIAL_PROBE,
	recognition: KARAKEEP_RECOGNITION,
	webhooks: karakeepWebhooks,

	async createRecord(ctx, record, itemIndex) {
		if (record.type === 'link' && record.url) {
			const stored = await storedUnder(ctx, record.url, itemIndex);
			if (stored) return { ...stored, alreadyExists: true };
		}
		const body: IDataObject = { type: record.type };
		for (const key of ['url', 'text', 'title', 'note'] as const) if (record[key] !== undefined) body[key] = record[key];
		const created = await request(ctx, {
			method: 'POST',
			path: '/api/v1/bookmarks',
			body,
			itemIndex,
			lostAnswerHint: lostAnswerHints.createRecord(record),
		});
		const recordId = String(created.id);
		// Stored by someone else between the look-up and the create: Karakeep answered the stored record.
		if (created.alreadyExists === true) {
			return { ...(await karakeepAdapter.getRecord(ctx, recordId, itemIndex)), alreadyExists: true };
		}
		if (!record.tags?.length) return { ...documentedRecord(created, []), alreadyExists: false };
		try {
			// The record read to name the tags is the record as it is now; a new one is in no list.
			const { record: tagged } = await changeTagsOf(ctx, recordId, record.tags, 'attach', itemIndex);
			return { ...tagged, listIds: [], alreadyExists: false };
		} catch (error) {
			throw withDescription(ctx, error as Error, itemIndex, createdWithoutTags(record, recordId, writeOutcome(error)));
		}
	},

	async getRecord(ctx, recordId, itemIndex, complete) {
		const record = await readBookmark(ctx, recordId, itemIndex, complete);
		const [listed] = await karakeepAdapter.withListIds(ctx, [record], itemIndex);
		return listed;
	},

	async recordPage(ctx, filters, page, itemIndex) {
		const route = await routeFor(ctx, filters, itemIndex);
		if (!route) return { records: [], nextCursor: null };
		if (filters.sortBy === 'modifiedAt') return await allByModifiedAt(ctx, route, filters, itemIndex);
		return await routePage(ctx, route, filters, page, itemIndex);
	},

	async withListIds(ctx, records, itemIndex) {
		return await mapConcurrently(
			records.map((record) => async (pacer) => {
				if (Array.isArray(record.listIds)) return record;
				const { lists } = await request<{ lists: IDataObject[] }>(ctx, {
					method: 'GET',
					path: recordPath(String(record.id), '/lists'),
					itemIndex,
					pacer,
				});
				return { ...record, listIds: lists.map((list) => String(list.id)) };
			}),
			LIST_CONCURRENCY,
		);
	},

	async updateRecord(ctx, recordId, changes, itemIndex) {
		await request(ctx, {
			method: 'PATCH',
			path: recordPath(recordId),
			body: { ...changes },
			itemIndex,
			lostAnswerHint: lostAnswerHints.updateRecord(recordId),
		});
		// Karakeep's PATCH answers the bare record (no tags, no content): read it whole.
		try {
			return await karakeepAdapter.getRecord(ctx, recordId, itemIndex);
		} catch (error) {
			throw failedAfterWrite(error);
		}
	},

	async deleteRecord(ctx, recordId, itemIndex) {
		return await answer(ctx, { method: 'DELETE', path: recordPath(recordId), itemIndex, acceptStatuses: [404] });
	},

	async changeTags(ctx, recordId, names, change, itemIndex) {
		return (await changeTagsOf(ctx, recordId, names, change, itemIndex)).tags;
	},

	async listTags(ctx, itemIndex) {
		return (await tagPages(ctx, { sort: 'name' }, itemIndex)).map(documentedTag);
	},

	async listLists(ctx, itemIndex, counted = false) {
		const { lists } = await request<{ lists: IDataObject[] }>(ctx, { method: 'GET', path: '/api/v1/lists', itemIndex });
		return counted ? await withCounts(ctx, lists, itemIndex) : lists.map((list) => documentedList(list));
	},

	async createList(ctx, fields, itemIndex) {
		const list = await request(ctx, {
			method: 'POST',
			path: '/api/v1/lists',
			body: { ...fields, icon: fields.icon ?? DEFAULT_LIST_ICON },
			itemIndex,
			lostAnswerHint: lostAnswerHints.createList(fields.name),
		});
		return documentedList(list, 0);
	},

	async updateList(ctx, listId, fields, itemIndex) {
		const list = await request(ctx, {
			method: 'PATCH',
			path: listPath(listId),
			body: { ...fields },
			itemIndex,
			lostAnswerHint: lostAnswerHints.updateList(listId),
		});
		// Its count is read after the change: a failure there leaves the change made.
		try {
			const [counted] = await withCounts(ctx, [list], itemIndex);
			return counted;
		} catch (error) {
			throw failedAfterWrite(error);
		}
	},

	async deleteList(ctx, listId, itemIndex) {
		return await answer(ctx, { method: 'DELETE', path: listPath(listId), itemIndex, acceptStatuses: [404] });
	},

	async changeMembership(ctx, listId, recordId, change, itemIndex) {
		const result: ServiceAnswer<unknown> = await answer(ctx, {
			method: change === 'add' ? 'PUT' : 'DELETE',
			path: listPath(listId, `/bookmarks/${encodeURIComponent(recordId)}`),
			itemIndex,
			acceptStatuses: change === 'remove' ? [400, 404] : [],
		});
		// Karakeep says "not in the list" with a 400; any other 400 is an error of its own.
		if (result.statusCode === 400 && !NOT_IN_LIST.test(String(result.body ?? ''))) throw result.error;
		return result;
	},

	tags: karakeepTags,
	highlights: karakeepHighlights,
	readableContent: karakeepContent,
	assets: karakeepAssets,
	backups: karakeepBackups,
	feeds: karakeepFeeds,

	moreRecordFields: {
		// Karakeep's PATCH takes them beside the documented fields.
		update: async (ctx, recordId, changes, itemIndex) => await karakeepAdapter.updateRecord(ctx, recordId, changes, itemIndex),
	},

	listKinds: {
		async get(ctx, listId, itemIndex) {
			const [counted] = await withCounts(ctx, [await request(ctx, { method: 'GET', path: listPath(listId), itemIndex })], itemIndex);
			return counted;
		},
		create: async (ctx, fields, itemIndex) => await karakeepAdapter.createList(ctx, withListType(fields), itemIndex),
		update: async (ctx, listId, fields, itemIndex) => await karakeepAdapter.updateList(ctx, listId, fields, itemIndex),
	},

	userStats: {
		get: async (ctx, itemIndex) => await request(ctx, { method: 'GET', path: '/api/v1/users/me/stats', itemIndex }),
	},

	urlCheck: {
		async savedUnder(ctx, url, itemIndex) {
			const { bookmarkId } = await request<{ bookmarkId: string | null }>(ctx, {
				method: 'GET',
				path: '/api/v1/bookmarks/check-url',
				qs: { url },
				itemIndex,
			});
			return bookmarkId ?? null;
		},
	},

	summaries: {
		// packages/trpc/routers/bookmarks.ts `summarizeBookmark`: a 400 "No inference client configured"
		// without an AI provider, a 404 "Bookmark not found or not a link" for a text or file record.
		async summarize(ctx, recordId, itemIndex) {
			const result = await answer(ctx, {
				method: 'POST',
				path: recordPath(recordId, '/summarize'),
				itemIndex,
				acceptStatuses: [400, 404],
			});
			if (result.error) {
				const text = String(result.body ?? '');
				const hint = NO_INFERENCE.test(text)
					? 'This Karakeep server has no AI provider to summarize with: its administrator sets OPENAI_API_KEY (or OLLAMA_BASE_URL) on the server, as for AI tagging.'
					: NOT_A_LINK.test(text)
						? 'Karakeep summarizes link records only (a page it crawled), not text or file records; or the record does not exist.'
						: undefined;
				throw withDescription(ctx, result.error, itemIndex, hint);
			}
			return String((result.body as { summary?: unknown }).summary ?? '');
		},
	},
};

const NO_INFERENCE = /No inference client configured/;
const NOT_A_LINK = /not found or not a link/;
