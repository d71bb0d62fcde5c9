import type { FastifyReply } from 'fastify';

import {
	badRequest,
	bearerToken,
	checkBody,
	checkQuery,
	createService,
	integerParam,
	newId,
	notFound,
	type Service,
} from './http';
import { seedBookmarks, seedLists } from './seed';

export const BOOKMARKS_DEFAULT_LIMIT = 20;
export const BOOKMARKS_MAX_LIMIT = 100;

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

// The service answers auth and rate-limit errors in plain text, the others in JSON.
const bookmarkErrors = {
	send: (reply: FastifyReply, status: number, message: string) => {
		if (status === 401) return reply.code(401).type('text/plain').send('Unauthorized');
		if (status === 429) return reply.code(429).type('text/plain').send('Too Many Requests');
		const code = status === 400 ? 'BAD_REQUEST' : status === 404 ? 'NOT_FOUND' : 'INTERNAL_SERVER_ERROR';
		return reply.code(status).type('application/json').send({ code, message });
	},
};

type Cursor = { createdAt: string; id: string };
const encodeCursor = (record: BookmarkRecord) =>
	Buffer.from(JSON.stringify({ createdAt: record.createdAt, id: record.id })).toString('base64url');
function decodeCursor(cursor: string): Cursor {
	try {
		const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Cursor;
		if (typeof parsed.createdAt === 'string' && typeof parsed.id === 'string') return parsed;
	} catch {
		// falls through to the error below
	}
	throw badRequest('Invalid cursor');
}

/** Newest first; records of the same millisecond by id, descending. */
const newestFirst = (a: Cursor, b: Cursor) =>
	a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1;

export function createBookmarkService(options: BookmarkOptions): Service {
	let records: BookmarkRecord[] = [];
	let lists: Array<{ id: string; name: string; icon: string }> = [];
	const tagIds = new Map<string, string>();
	let lastCreatedAt = 0;

	const tag = (name: string) => {
		if (!tagIds.has(name)) tagIds.set(name, newId('tag'));
		return { id: tagIds.get(name)!, name };
	};
	// Creation times strictly increase, as a database sequence would make them.
	const nextCreatedAt = (at = Date.now()) => {
		lastCreatedAt = Math.max(at, lastCreatedAt + 1);
		return new Date(lastCreatedAt).toISOString();
	};

	const insert = (fields: {
		type: 'link' | 'text';
		url?: string;
		text?: string;
		title?: string;
		note?: string;
		tags?: string[];
		listIds?: string[];
		description?: string;
		ocrText?: string | null;
		createdAt?: string;
	}): BookmarkRecord => {
		const createdAt = fields.createdAt ?? nextCreatedAt();
		const record: BookmarkRecord = {
			id: newId('bm'),
			createdAt,
			modifiedAt: createdAt,
			title: fields.title ?? (fields.url ? new URL(fields.url).hostname : String(fields.text).slice(0, 60)),
			note: fields.note ?? '',
			tags: [...new Set(fields.tags ?? [])].map(tag),
			listIds: fields.listIds ?? [],
			content:
				fields.type === 'link'
					? { type: 'link', url: fields.url!, description: fields.description ?? '', ocrText: fields.ocrText ?? null }
					: { type: 'text', text: fields.text! },
		};
		records.push(record);
		records.sort(newestFirst);
		return record;
	};

	const reset = () => {
		records = [];
		lastCreatedAt = 0;
		lists = options.seed ? seedLists() : [];
		if (options.seed) for (const record of seedBookmarks()) insert({ ...record, createdAt: nextCreatedAt(Date.parse(record.createdAt)) });
		lastCreatedAt = Math.max(lastCreatedAt, Date.now());
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

	app.post('/api/v1/bookmarks', async (request, reply) => {
		checkQuery(request.query, []);
		const body = checkBody(
			request.body,
			{ type: 'string' },
			{ url: 'string', text: 'string', title: 'string', tags: 'array', note: 'string' },
		);
		const tags = (body.tags as unknown[] | undefined) ?? [];
		if (tags.some((entry) => typeof entry !== 'string')) throw badRequest('"tags" must be an array of strings');
		if (body.type === 'link') {
			if (body.text !== undefined) throw badRequest('"text" is only for records of type text');
			const url = String(body.url ?? '');
			try {
				if (!/^https?:$/.test(new URL(url).protocol)) throw new Error();
			} catch {
				throw badRequest('"url" must be an http(s) URL');
			}
			const existing = records.find((record) => record.content.type === 'link' && record.content.url === url);
			if (existing) return reply.code(200).send({ ...existing, alreadyExists: true });
			const record = insert({ type: 'link', url, title: body.title as string, note: body.note as string, tags: tags as string[] });
			return reply.code(201).send(record);
		}
		if (body.type === 'text') {
			if (body.url !== undefined) throw badRequest('"url" is only for records of type link');
			if (typeof body.text !== 'string' || body.text.trim() === '') throw badRequest('Missing required field "text"');
			const record = insert({ type: 'text', text: body.text, title: body.title as string, note: body.note as string, tags: tags as string[] });
			return reply.code(201).send(record);
		}
		throw badRequest('"type" must be link or text');
	});

	app.get('/api/v1/bookmarks', async (request) => {
		const query = checkQuery(request.query, ['q', 'tags', 'listId', 'limit', 'cursor']);
		const limit = integerParam(query.limit, 'limit', BOOKMARKS_DEFAULT_LIMIT, 1, BOOKMARKS_MAX_LIMIT);
		const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
		const needle = query.q?.toLowerCase();
		const matching = records.filter((record) => {
			if (after && newestFirst(record, after) <= 0) return false;
			if (query.tags && !record.tags.some((t) => t.name === query.tags)) return false;
			if (query.listId && !record.listIds.includes(query.listId)) return false;
			if (!needle) return true;
			const content = record.content;
			const haystack = [
				record.title,
				record.note,
				content.type === 'link' ? content.url : content.text,
				content.type === 'link' ? content.description : '',
				content.type === 'link' ? (content.ocrText ?? '') : '',
			];
			return haystack.some((text) => text.toLowerCase().includes(needle));
		});
		const page = matching.slice(0, limit);
		return {
			bookmarks: page,
			nextCursor: matching.length > limit ? encodeCursor(page[page.length - 1]) : null,
		};
	});

	app.get('/api/v1/bookmarks/:recordId', async (request) => {
		checkQuery(request.query, []);
		const record = records.find((r) => r.id === (request.params as { recordId: string }).recordId);
		if (!record) throw notFound('Bookmark not found');
		return record;
	});

	app.get('/api/v1/lists', async (request) => {
		checkQuery(request.query, []);
		return { lists };
	});

	app.post('/_sandbox/bookmarks/generate', async (request) => {
		const body = checkBody(request.body, { count: 'number' }, { tag: 'string', listId: 'string' });
		const created = Array.from({ length: Number(body.count) }, (_, index) =>
			insert({
				type: 'link',
				url: `https://example.org/generated/${newId('page')}`,
				title: `Generated record ${index + 1}`,
				note: 'A generated record',
				tags: body.tag ? [String(body.tag)] : [],
				listIds: body.listId ? [String(body.listId)] : [],
			}),
		);
		return { count: created.length, ids: created.map((record) => record.id) };
	});

	return service;
}

