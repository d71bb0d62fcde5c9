/** The bookmark service (CONTRACTS.md, section 2). */
import type { FastifyReply, FastifyRequest } from 'fastify';

import { newestFirst, newId } from './ids';
import { seedBookmarks, seedLists } from './seed';
import { bearerToken, createService, type Service } from './service';
import {
	badRequest,
	checkBody,
	checkQuery,
	httpUrl,
	integerParam,
	nonEmpty,
	notFound,
	oneOf,
} from './validation';

export const BOOKMARKS_LIMIT = { fallback: 20, min: 1, max: 100 };

/** What a record is made of, as stored: creation input, seed data or generated. */
export type BookmarkFields = {
	id?: string;
	createdAt?: string;
	title?: string;
	note?: string;
	tags?: string[];
	listIds?: string[];
} & (
	| { type: 'link'; url: string; description?: string; ocrText?: string | null }
	| { type: 'text'; text: string }
);

interface BookmarkRecord {
	id: string;
	createdAt: string;
	modifiedAt: string;
	title: string;
	note: string;
	tags: Array<{ id: string; name: string }>;
	listIds: string[];
	content:
		| { type: 'link'; url: string; description: string; ocrText: string | null }
		| { type: 'text'; text: string };
}

export interface BookmarkOptions {
	apiKey: string;
	rateLimit: number | null;
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

type SortKey = { createdAt: string; id: string };

// The cursor is the sort key of the last record served, so records added meanwhile do not shift pages.
const encodeCursor = ({ createdAt, id }: SortKey) =>
	Buffer.from(JSON.stringify({ createdAt, id })).toString('base64url');

function decodeCursor(cursor: string): SortKey {
	try {
		const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<SortKey>;
		if (typeof key.createdAt === 'string' && typeof key.id === 'string') {
			return { createdAt: key.createdAt, id: key.id };
		}
	} catch {
		// not base64 of JSON: the same answer as a key of the wrong shape
	}
	throw badRequest('Invalid cursor');
}

/** The texts `q` searches: title, note, URL, description, OCR text (and a text record's text). */
function searchable(record: BookmarkRecord): string[] {
	const { content } = record;
	return content.type === 'link'
		? [record.title, record.note, content.url, content.description, content.ocrText ?? '']
		: [record.title, record.note, content.text];
}

export function createBookmarkService(options: BookmarkOptions): Service {
	/** Newest first, always. */
	let records: BookmarkRecord[] = [];
	let lists: Array<{ id: string; name: string; icon: string }> = [];
	let tagIds = new Map<string, string>();

	const tag = (name: string) => {
		if (!tagIds.has(name)) tagIds.set(name, newId('tag'));
		return { id: tagIds.get(name)!, name };
	};

	const newRecord = (fields: BookmarkFields): BookmarkRecord => {
		const createdAt = fields.createdAt ?? new Date().toISOString();
		return {
			id: fields.id ?? newId('bm'),
			createdAt,
			modifiedAt: createdAt,
			title:
				fields.title ??
				(fields.type === 'link' ? new URL(fields.url).hostname : fields.text.slice(0, 60)),
			note: fields.note ?? '',
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
		records.sort(newestFirst);
	};

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
		const query = checkQuery(request.query, ['q', 'tags', 'listId', 'limit', 'cursor']);
		const limit = integerParam(query.limit, 'limit', BOOKMARKS_LIMIT);
		const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
		const needle = query.q?.toLowerCase();
		const matching = records.filter(
			(record) =>
				(!after || newestFirst(record, after) > 0) &&
				(!query.tags || record.tags.some((t) => t.name === query.tags)) &&
				(!query.listId || record.listIds.includes(query.listId)) &&
				(!needle || searchable(record).some((text) => text.toLowerCase().includes(needle))),
		);
		const page = matching.slice(0, limit);
		return {
			bookmarks: page,
			nextCursor: matching.length > limit ? encodeCursor(page[page.length - 1]) : null,
		};
	});

	app.get('/api/v1/bookmarks/:recordId', async (request) => {
		checkQuery(request.query, []);
		return findRecord(request);
	});

	app.get('/api/v1/lists', async (request) => {
		checkQuery(request.query, []);
		return { lists };
	});

	// Control endpoints: records in bulk for pagination and polling tests, and list membership.
	app.post('/_sandbox/bookmarks/generate', async (request) => {
		const body = checkBody(request.body, {
			required: { count: 'integer' },
			optional: { tag: 'string', listId: 'string' },
		});
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
				listIds,
			}),
		);
		insert(created);
		return { count: created.length, ids: created.map((record) => record.id) };
	});
	app.put('/_sandbox/bookmarks/:recordId/lists', async (request) => {
		const record = findRecord(request);
		const body = checkBody(request.body, { required: { listIds: 'string[]' } });
		record.listIds = checkListIds([...new Set(body.listIds as string[])]);
		record.modifiedAt = new Date().toISOString();
		return record;
	});

	return service;
}
