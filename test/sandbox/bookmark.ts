/** The bookmark service (CONTRACTS.md, section 2). */
import type { FastifyReply, FastifyRequest } from 'fastify';

import { newestFirst, newId } from './ids';
import { seedBookmarks, seedLists } from './seed';
import { bearerToken, createService, type Service } from './service';
import { type Clock, isoNow } from './timers';
import {
	badRequest,
	checkBody,
	checkQuery,
	httpUrl,
	integerParam,
	isoTime,
	nonEmpty,
	notFound,
	oneOf,
} from './validation';

export const BOOKMARKS_LIMIT = { fallback: 20, min: 1, max: 100 };

/** What a record is made of, as stored: creation input, seed data or generated. */
export type BookmarkFields = {
	id?: string;
	/** null or undefined only for records planted by tests of clients' robustness. */
	createdAt?: string | null;
	omitCreatedAt?: boolean;
	title?: string;
	archived?: boolean;
	favourited?: boolean;
	note?: string;
	tags?: string[];
	listIds?: string[];
} & (
	| { type: 'link'; url: string; description?: string; ocrText?: string | null }
	| { type: 'text'; text: string }
);

interface BookmarkRecord {
	id: string;
	/** Always a time for records made through the API; undefined is left out of the JSON. */
	createdAt: string | null | undefined;
	modifiedAt: string;
	title: string;
	note: string;
	archived: boolean;
	favourited: boolean;
	tags: Array<{ id: string; name: string }>;
	listIds: string[];
	content:
		| { type: 'link'; url: string; description: string; ocrText: string | null }
		| { type: 'text'; text: string };
}

export interface BookmarkOptions {
	apiKey: string;
	rateLimit: number | null;
	clock: Clock;
	seed: boolean;
	logger?: boolean;
}

const JSON_CODES: Record<number, string> = {
	400: 'BAD_REQUEST',
	404: 'NOT_FOUND',
	409: 'CONFLICT',
	500: 'INTERNAL_SERVER_ERROR',
	502: 'BAD_GATEWAY',
	503: 'SERVICE_UNAVAILABLE',
	504: 'GATEWAY_TIMEOUT',
};

// Auth and rate-limit refusals come from the service's middleware as plain text; the API's own errors are JSON.
const bookmarkErrors = {
	send: (reply: FastifyReply, status: number, message: string) => {
		if (status === 401) return reply.code(401).type('text/plain').send('Unauthorized');
		if (status === 429) return reply.code(429).type('text/plain').send('Too Many Requests');
		const code = JSON_CODES[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
		return reply.code(status).type('application/json').send({ code, message });
	},
};

type SortBy = 'createdAt' | 'modifiedAt';
type SortKey = { time: string; id: string };

// A record without a creation time sorts first, newest first, as a database's NULLS FIRST does.
const UNDATED = '\uffff';
const sortKey = (record: BookmarkRecord, by: SortBy): SortKey => ({
	time: record[by] ?? UNDATED,
	id: record.id,
});
const compareKeys = (a: SortKey, b: SortKey) =>
	newestFirst({ createdAt: a.time, id: a.id }, { createdAt: b.time, id: b.id });

// The cursor is the sort key of the last record served, so records added meanwhile do not shift
// pages; it names its sort field, so a cursor of one order is refused in the other.
const encodeCursor = (by: SortBy, { time, id }: SortKey) =>
	Buffer.from(JSON.stringify({ [by]: time, id })).toString('base64url');

function decodeCursor(cursor: string, by: SortBy): SortKey {
	try {
		const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<
			string,
			unknown
		>;
		if (typeof key[by] === 'string' && typeof key.id === 'string') {
			return { time: key[by] as string, id: key.id };
		}
	} catch {
		// not base64 of JSON: the same answer as a key of the wrong shape
	}
	throw badRequest('Invalid cursor');
}

const booleanParam = (value: string | undefined, name: string): boolean | undefined => {
	if (value === undefined) return undefined;
	if (value === 'true' || value === 'false') return value === 'true';
	throw badRequest(`"${name}" must be true or false`);
};

/** 1 to 50 tag names, none empty, without repetitions. */
function tagNames(value: unknown): string[] {
	const names = value as string[];
	if (names.length < 1 || names.length > 50) throw badRequest('"tags" must hold 1 to 50 names');
	return [...new Set(names.map((name) => nonEmpty(name, 'tags').trim()))];
}

/** The texts `q` searches: title, note, URL, description, OCR text (and a text record's text). */
function searchable(record: BookmarkRecord): string[] {
	const { content } = record;
	return content.type === 'link'
		? [record.title, record.note, content.url, content.description, content.ocrText ?? '']
		: [record.title, record.note, content.text];
}

interface ListRecord {
	id: string;
	name: string;
	icon: string;
	description: string;
}

export function createBookmarkService(options: BookmarkOptions): Service {
	/** Newest first, always. */
	let records: BookmarkRecord[] = [];
	let lists: ListRecord[] = [];
	let tagIds = new Map<string, string>();

	const tag = (name: string) => {
		if (!tagIds.has(name)) tagIds.set(name, newId('tag'));
		return { id: tagIds.get(name)!, name };
	};

	const newRecord = (fields: BookmarkFields): BookmarkRecord => {
		const now = isoNow(options.clock);
		const createdAt = fields.omitCreatedAt
			? undefined
			: fields.createdAt === undefined
				? now
				: fields.createdAt;
		return {
			id: fields.id ?? newId('bm'),
			createdAt,
			modifiedAt: createdAt ?? now,
			title:
				fields.title ??
				(fields.type === 'link' ? new URL(fields.url).hostname : fields.text.slice(0, 60)),
			note: fields.note ?? '',
			archived: fields.archived ?? false,
			favourited: fields.favourited ?? false,
			tags: [...new Set(fields.tags ?? [])].map(tag),
			listIds: fields.listIds ?? [],
			content:
				fields.type === 'link'
					? {
							type: 'link',
							url: fields.url,
							description: fields.description ?? '',
							ocrText: fields.ocrText ?? null,
						}
					: { type: 'text', text: fields.text },
		};
	};

	const insert = (added: BookmarkRecord[]) => {
		records.push(...added);
		records.sort((a, b) => compareKeys(sortKey(a, 'createdAt'), sortKey(b, 'createdAt')));
	};
	/** A change moves modifiedAt forward, strictly, even within one millisecond. */
	const touch = (record: BookmarkRecord) => {
		const now = options.clock.now();
		const previous = Date.parse(record.modifiedAt);
		record.modifiedAt = new Date(
			Number.isNaN(previous) ? now : Math.max(now, previous + 1),
		).toISOString();
	};
	const presentList = (list: ListRecord) => ({
		...list,
		bookmarkCount: records.filter((record) => record.listIds.includes(list.id)).length,
	});

	const reset = () => {
		records = [];
		tagIds = new Map();
		lists = options.seed ? seedLists() : [];
		if (options.seed) insert(seedBookmarks().map(newRecord));
	};
	reset();

	const service = createService({
		name: 'bookmark',
		apiKey: options.apiKey,
		presentedKey: bearerToken,
		errors: bookmarkErrors,
		rateLimit: options.rateLimit,
		clock: options.clock,
		logger: options.logger,
		reset,
	});
	const { app } = service;

	const findRecord = (request: FastifyRequest) => {
		const { recordId } = request.params as { recordId: string };
		const record = records.find((candidate) => candidate.id === recordId);
		if (!record) throw notFound('Bookmark not found');
		return record;
	};
	const findList = (request: FastifyRequest) => {
		const { listId } = request.params as { listId: string };
		const list = lists.find((candidate) => candidate.id === listId);
		if (!list) throw notFound('List not found');
		return list;
	};
	const checkListIds = (listIds: string[]) => {
		const unknown = listIds.find((id) => !lists.some((list) => list.id === id));
		if (unknown !== undefined) throw badRequest(`Unknown list "${unknown}"`);
		return listIds;
	};

	app.post('/api/v1/bookmarks', async (request, reply) => {
		checkQuery(request.query, []);
		const body = checkBody(request.body, {
			required: { type: 'string' },
			optional: {
				url: 'string',
				text: 'string',
				title: 'string',
				tags: 'string[]',
				note: 'string',
			},
		});
		const type = oneOf(body.type, ['link', 'text'] as const, 'type');
		const common = {
			title: body.title as string | undefined,
			note: body.note as string | undefined,
			tags: body.tags as string[] | undefined,
		};
		if (type === 'text') {
			if (body.url !== undefined) throw badRequest('"url" is only for records of type link');
			if (body.text === undefined) throw badRequest('Missing required field "text"');
			const record = newRecord({ type, text: nonEmpty(body.text, 'text'), ...common });
			insert([record]);
			return await reply.code(201).send(record);
		}
		if (body.text !== undefined) throw badRequest('"text" is only for records of type text');
		if (body.url === undefined) throw badRequest('Missing required field "url"');
		const url = httpUrl(body.url, 'url');
		const existing = records.find(
			(record) => record.content.type === 'link' && record.content.url === url,
		);
		if (existing) return await reply.code(200).send({ ...existing, alreadyExists: true });
		const record = newRecord({ type, url, ...common });
		insert([record]);
		return await reply.code(201).send(record);
	});

	app.get('/api/v1/bookmarks', async (request) => {
		const query = checkQuery(request.query, [
			'q',
			'tags',
			'listId',
			'limit',
			'cursor',
			'archived',
			'favourited',
			'sortBy',
		]);
		const limit = integerParam(query.limit, 'limit', BOOKMARKS_LIMIT);
		const sortBy = oneOf(
			query.sortBy ?? 'createdAt',
			['createdAt', 'modifiedAt'] as const,
			'sortBy',
		);
		const archived = booleanParam(query.archived, 'archived');
		const favourited = booleanParam(query.favourited, 'favourited');
		const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, sortBy);
		const needle = query.q?.toLowerCase();
		const ordered =
			sortBy === 'createdAt'
				? records
				: [...records].sort((a, b) => compareKeys(sortKey(a, sortBy), sortKey(b, sortBy)));
		const matching = ordered.filter(
			(record) =>
				(!after || compareKeys(sortKey(record, sortBy), after) > 0) &&
				(archived === undefined || record.archived === archived) &&
				(favourited === undefined || record.favourited === favourited) &&
				(!query.tags || record.tags.some((t) => t.name === query.tags)) &&
				(!query.listId || record.listIds.includes(query.listId)) &&
				(!needle || searchable(record).some((text) => text.toLowerCase().includes(needle))),
		);
		const page = matching.slice(0, limit);
		return {
			bookmarks: page,
			nextCursor:
				matching.length > limit
					? encodeCursor(sortBy, sortKey(page[page.length - 1], sortBy))
					: null,
		};
	});

	app.get('/api/v1/bookmarks/:recordId', async (request) => {
		checkQuery(request.query, []);
		return findRecord(request);
	});

	app.patch('/api/v1/bookmarks/:recordId', async (request) => {
		checkQuery(request.query, []);
		const record = findRecord(request);
		const body = checkBody(request.body, {
			optional: { title: 'string', note: 'string', archived: 'boolean', favourited: 'boolean' },
		});
		if (Object.keys(body).length === 0) {
			throw badRequest('Give at least one of "title", "note", "archived", "favourited"');
		}
		if (body.title !== undefined) record.title = nonEmpty(body.title, 'title');
		if (body.note !== undefined) record.note = body.note as string;
		if (body.archived !== undefined) record.archived = body.archived as boolean;
		if (body.favourited !== undefined) record.favourited = body.favourited as boolean;
		touch(record);
		return record;
	});

	app.delete('/api/v1/bookmarks/:recordId', async (request, reply) => {
		checkQuery(request.query, []);
		const record = findRecord(request);
		records = records.filter((candidate) => candidate !== record);
		return await reply.code(204).send();
	});

	app.post('/api/v1/bookmarks/:recordId/tags', async (request) => {
		checkQuery(request.query, []);
		const record = findRecord(request);
		const body = checkBody(request.body, { required: { tags: 'string[]' } });
		const attached = tagNames(body.tags).map(tag);
		const added = attached.filter((t) => !record.tags.some((has) => has.id === t.id));
		if (added.length) {
			record.tags.push(...added);
			touch(record);
		}
		return { attached };
	});

	app.delete('/api/v1/bookmarks/:recordId/tags', async (request) => {
		checkQuery(request.query, []);
		const record = findRecord(request);
		const body = checkBody(request.body, { required: { tags: 'string[]' } });
		const names = tagNames(body.tags);
		const detached = record.tags.filter((t) => names.includes(t.name));
		if (detached.length) {
			record.tags = record.tags.filter((t) => !detached.includes(t));
			touch(record);
		}
		return { detached };
	});

	app.get('/api/v1/tags', async (request) => {
		checkQuery(request.query, []);
		const tags = [...tagIds.entries()]
			.map(([name, id]) => ({
				id,
				name,
				bookmarkCount: records.filter((record) => record.tags.some((t) => t.id === id)).length,
			}))
			.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		return { tags };
	});

	app.get('/api/v1/lists', async (request) => {
		checkQuery(request.query, []);
		return { lists: lists.map(presentList) };
	});

	const LIST_FIELDS = { name: 'string', icon: 'string', description: 'string' } as const;

	app.post('/api/v1/lists', async (request, reply) => {
		checkQuery(request.query, []);
		const body = checkBody(request.body, {
			required: { name: 'string' },
			optional: { icon: 'string', description: 'string' },
		});
		const list: ListRecord = {
			id: newId('list'),
			name: nonEmpty(body.name, 'name').trim(),
			icon: (body.icon as string | undefined) ?? '📁',
			description: (body.description as string | undefined) ?? '',
		};
		lists.push(list);
		return await reply.code(201).send(presentList(list));
	});

	app.patch('/api/v1/lists/:listId', async (request) => {
		checkQuery(request.query, []);
		const list = findList(request);
		const body = checkBody(request.body, { optional: LIST_FIELDS });
		if (Object.keys(body).length === 0) {
			throw badRequest('Give at least one of "name", "icon", "description"');
		}
		if (body.name !== undefined) list.name = nonEmpty(body.name, 'name').trim();
		if (body.icon !== undefined) list.icon = body.icon as string;
		if (body.description !== undefined) list.description = body.description as string;
		return presentList(list);
	});

	app.delete('/api/v1/lists/:listId', async (request, reply) => {
		checkQuery(request.query, []);
		const list = findList(request);
		lists = lists.filter((candidate) => candidate !== list);
		for (const record of records) {
			if (record.listIds.includes(list.id)) {
				record.listIds = record.listIds.filter((id) => id !== list.id);
				touch(record);
			}
		}
		return await reply.code(204).send();
	});

	app.put('/api/v1/lists/:listId/bookmarks/:recordId', async (request, reply) => {
		checkQuery(request.query, []);
		const list = findList(request);
		const record = findRecord(request);
		if (!record.listIds.includes(list.id)) {
			record.listIds.push(list.id);
			touch(record);
		}
		return await reply.code(204).send();
	});

	app.delete('/api/v1/lists/:listId/bookmarks/:recordId', async (request, reply) => {
		checkQuery(request.query, []);
		const list = findList(request);
		const record = findRecord(request);
		if (!record.listIds.includes(list.id)) throw notFound('The bookmark is not in this list');
		record.listIds = record.listIds.filter((id) => id !== list.id);
		touch(record);
		return await reply.code(204).send();
	});

	// Control endpoints: records in bulk for pagination and polling tests, and list membership.
	app.post('/_sandbox/bookmarks/generate', async (request) => {
		// createdAt: a time to give every generated record (one that shows up late), or null or
		// "missing" for records without one, as a client must survive them.
		const { createdAt, ...rest } = (request.body ?? {}) as Record<string, unknown>;
		const body = checkBody(rest, {
			required: { count: 'integer' },
			optional: { tag: 'string', listId: 'string' },
		});
		if (createdAt !== undefined && createdAt !== null && createdAt !== 'missing') {
			isoTime(createdAt, 'createdAt');
		}
		const count = body.count as number;
		if (count < 1 || count > 100_000) throw badRequest('"count" must be between 1 and 100000');
		const listIds = body.listId === undefined ? [] : checkListIds([String(body.listId)]);
		const created = Array.from({ length: count }, (_, index) =>
			newRecord({
				type: 'link',
				url: `https://example.org/generated/${newId('page')}`,
				title: `Generated record ${index + 1}`,
				note: 'A generated record',
				tags: body.tag === undefined ? [] : [String(body.tag)],
				listIds: [...listIds],
				...(createdAt === 'missing'
					? { omitCreatedAt: true }
					: createdAt === undefined
						? {}
						: { createdAt: createdAt === null ? null : isoTime(createdAt, 'createdAt') }),
			}),
		);
		insert(created);
		return { count: created.length, ids: created.map((record) => record.id) };
	});
	app.put('/_sandbox/bookmarks/:recordId/lists', async (request) => {
		const record = findRecord(request);
		const body = checkBody(request.body, { required: { listIds: 'string[]' } });
		record.listIds = checkListIds([...new Set(body.listIds as string[])]);
		touch(record);
		return record;
	});

	return service;
}
