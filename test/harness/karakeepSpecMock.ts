/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * A validating stand-in for Karakeep's REST API, built from Karakeep's own OpenAPI document
 * (shared/real-services/specs/karakeep-openapi.json, generated from the zod schemas of Karakeep
 * commit 7ca5ee2). For what the real server cannot do here: `GET /bookmarks/search` needs
 * Meilisearch, and the real server answers it 500.
 *
 * Every request under `/api/v1` is validated against the document (openapi-backend: path, method,
 * query and path parameters with their types and enums, unknown query parameters, the JSON body)
 * and refused with `400` when it does not validate, in the shape of Karakeep's own validation errors.
 * A request without `Authorization: Bearer …` gets Karakeep's plain-text `401 Unauthorized`.
 * Stricter than Karakeep on purpose: a body field the document does not name is refused (Karakeep
 * drops it silently, e.g. `tags` on create, which is the kind of mistake these tests are for).
 *
 * Valid requests are answered:
 * - with an `upstream` (a real Karakeep from test/harness/karakeep.ts): forwarded to it, except
 *   search, which the mock answers itself over the upstream's bookmarks (below);
 * - without one: with an answer generated from the document's response schema.
 * Search answers are checked against the document's response schema too. `failNext` strikes the
 * next matching request with Karakeep's own 500 or a cut connection, before or after the upstream
 * carried it out (a write whose answer is lost).
 *
 * Search over the upstream (a stand-in for Meilisearch, not its ranking): every word of `q` must
 * occur (case-insensitive) in the title, note, summary, URL, text, or crawled title/description;
 * `#name` keeps bookmarks with that tag, `is:fav` / `is:archived` (or `-is:…`) filter by flag.
 * Results newest first (Karakeep sorts relevance ties by createdAt, descending), or by createdAt
 * for `sortOrder=asc|desc`; `limit` (default 20) and `cursor` (an offset, as Karakeep's
 * `{ver: 1, offset}` cursor is sent over REST: the decimal offset) page through them.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import addFormats from 'ajv-formats';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { type Document, OpenAPIBackend, type Request as OpenApiRequest } from 'openapi-backend';

import { realServicesDirs } from './realServices';

/** Where Karakeep's OpenAPI document is looked for: KARAKEEP_SPEC, then the shared specs (realServices.ts). */
export function karakeepSpecPath(env: NodeJS.ProcessEnv = process.env): string {
	const candidates = [
		env.KARAKEEP_SPEC?.trim(),
		...realServicesDirs(env).map((dir) => path.join(dir, 'specs', 'karakeep-openapi.json')),
	].filter((file): file is string => Boolean(file));
	const found = candidates.find((file) => existsSync(file));
	if (found) return found;
	throw new Error(`Karakeep's OpenAPI document is not available: looked for ${candidates.join(', ')}. Set KARAKEEP_SPEC to its path.`);
}

/**
 * The document says OpenAPI 3.0 and spells "greater than 0" the 3.0 way (`minimum: 0,
 * exclusiveMinimum: true`, three admin routes). openapi-backend checks the document, and ajv
 * validates, with draft-07 schemas, where the same constraint is `exclusiveMinimum: 0`.
 */
function toDraft07Bounds(node: unknown): void {
	if (Array.isArray(node)) {
		node.forEach(toDraft07Bounds);
		return;
	}
	if (!node || typeof node !== 'object') return;
	const schema = node as Record<string, unknown>;
	for (const [exclusive, bound] of [
		['exclusiveMinimum', 'minimum'],
		['exclusiveMaximum', 'maximum'],
	] as const) {
		if (typeof schema[exclusive] === 'boolean') {
			if (schema[exclusive]) schema[exclusive] = schema[bound];
			else delete schema[exclusive];
			delete schema[bound];
		}
	}
	Object.values(schema).forEach(toDraft07Bounds);
}

/** Every property name a body schema allows, through allOf / anyOf / oneOf. */
function allowedProperties(schema: unknown, into = new Set<string>()): Set<string> {
	if (!schema || typeof schema !== 'object') return into;
	const node = schema as Record<string, unknown>;
	if (node.properties && typeof node.properties === 'object') Object.keys(node.properties).forEach((key) => into.add(key));
	for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
		if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((part) => allowedProperties(part, into));
	}
	return into;
}

/** One part of a multipart/form-data body, as the mock read it. */
export interface MultipartPart {
	name: string;
	/** Set for a file part (`Content-Disposition: …; filename="…"`). */
	fileName?: string;
	contentType?: string;
	body: Buffer;
}

export interface SpecMockRequest {
	method: string;
	path: string;
	query: Record<string, string | string[]>;
	/** A multipart body's parts (their bytes kept, to compare with what was sent). */
	parts?: MultipartPart[];
	operationId: string | undefined;
	valid: boolean;
	/** Why it was refused (validation errors, an unknown route or field, no Bearer token). */
	errors: string[];
	status: number;
}

/**
 * A fault for the next valid request that matches: Karakeep's own `500 Internal server error`
 * (`status`), or the connection cut without an answer (`drop`); with `afterHandling`, only once
 * the upstream carried the request out, as when the answer is lost on the way back.
 */
export interface SpecMockFault {
	method: string;
	/** Matched against the path, `/api/v1/…`. */
	path: RegExp;
	status?: number;
	drop?: boolean;
	afterHandling?: boolean;
	/** Matching requests let through before the one struck; 0 by default. */
	skip?: number;
}

export interface KarakeepSpecMock {
	/** The base URL to put in a credential (without `/api/v1`). */
	url: string;
	/** Every request received, in order, with its validation result. */
	requests: SpecMockRequest[];
	/** Strikes the next valid request that matches, once (see `SpecMockFault`). */
	failNext(fault: SpecMockFault): void;
	stop(): Promise<void>;
}

export interface KarakeepSpecMockOptions {
	/** A real Karakeep to forward valid requests to (and to search over). */
	upstream?: { url: string };
	/**
	 * Without an upstream: every generated answer is a last page (`nextCursor: null`). Generated
	 * answers otherwise repeat one item and one cursor on every page, which a reader would follow
	 * for ever.
	 */
	lastPages?: boolean;
	/** 0 (the default): a free port. */
	port?: number;
}

interface BookmarkLike {
	id: string;
	createdAt: string;
	title?: string | null;
	note?: string | null;
	summary?: string | null;
	archived?: boolean;
	favourited?: boolean;
	tags?: Array<{ name: string }>;
	content?: Record<string, unknown>;
}

export async function startKarakeepSpecMock(options: KarakeepSpecMockOptions = {}): Promise<KarakeepSpecMock> {
	const document = JSON.parse(readFileSync(karakeepSpecPath(), 'utf8')) as Record<string, unknown>;
	toDraft07Bounds(document);
	const api = new OpenAPIBackend({
		definition: document as unknown as Document,
		apiRoot: '/api/v1',
		strict: true,
		validate: true,
		customizeAjv: (ajv) => {
			addFormats(ajv as never);
			return ajv;
		},
	});
	await api.init();

	const requests: SpecMockRequest[] = [];
	const faults: SpecMockFault[] = [];
	// Files up to Karakeep's own default limit (MAX_ASSET_SIZE_MB, 50) and more pass through.
	const app = Fastify({ logger: false, bodyLimit: 128 * 1024 * 1024 });
	// The body is validated as JSON but forwarded as the exact bytes received.
	app.removeAllContentTypeParsers();
	app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

	app.all('/api/v1/*', async (request, reply) => {
		const url = new URL(request.url, 'http://mock');
		const query: Record<string, string | string[]> = {};
		for (const [key, value] of url.searchParams) {
			const seen = query[key];
			query[key] = seen === undefined ? value : ([] as string[]).concat(seen, value);
		}
		const raw = Buffer.isBuffer(request.body) ? request.body : undefined;
		const record: SpecMockRequest = {
			method: request.method,
			path: url.pathname,
			query,
			operationId: undefined,
			valid: false,
			errors: [],
			status: 0,
		};
		requests.push(record);
		const refuse = (status: number, errors: string[], body: unknown) => {
			record.errors = errors;
			record.status = status;
			if (typeof body === 'string') return reply.code(status).type('text/plain;charset=UTF-8').send(body);
			return reply.code(status).type('application/json').send(body);
		};

		let parsedBody: unknown;
		const contentType = String(request.headers['content-type'] ?? '');
		if (raw && raw.length > 0 && contentType.startsWith('multipart/form-data')) {
			const parts = parseMultipart(raw, contentType);
			if (typeof parts === 'string') return refuse(400, [parts], validationError([parts]));
			record.parts = parts;
			// What openapi-backend validates: the fields by name, a file as the string "binary" it declares.
			parsedBody = Object.fromEntries(parts.map((part) => [part.name, part.fileName === undefined ? part.body.toString('utf8') : 'binary']));
		} else if (raw && raw.length > 0) {
			try {
				parsedBody = JSON.parse(raw.toString('utf8'));
			} catch {
				return refuse(400, ['the body is not JSON'], validationError(['the body is not JSON']));
			}
		}
		const openApiRequest: OpenApiRequest = {
			// HEAD is GET without the body (RFC 9110, 9.3.2): the document lists GET only.
			method: request.method === 'HEAD' ? 'get' : request.method.toLowerCase(),
			path: url.pathname,
			query,
			headers: request.headers as Record<string, string>,
			body: parsedBody,
		};
		const operation = api.matchOperation(openApiRequest);
		if (!operation) {
			return refuse(404, [`${request.method} ${url.pathname} is not in Karakeep's OpenAPI document`], '404 Not Found');
		}
		record.operationId = operation.operationId;
		const authorization = request.headers.authorization;
		if (!authorization?.startsWith('Bearer ') || authorization.length <= 'Bearer '.length) {
			return refuse(401, ['no Authorization: Bearer <API key>'], 'Unauthorized');
		}
		const validation = api.validateRequest(openApiRequest, operation);
		const errors = (validation.errors ?? []).map(
			(error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
		);
		const content = (operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content;
		const multipartSchema = content?.['multipart/form-data']?.schema as
			| { properties?: Record<string, { format?: string }>; required?: string[] }
			| undefined;
		const bodySchema = content?.['application/json']?.schema ?? multipartSchema;
		if (bodySchema && parsedBody && typeof parsedBody === 'object' && !Array.isArray(parsedBody)) {
			const allowed = allowedProperties(bodySchema);
			for (const key of Object.keys(parsedBody)) {
				if (!allowed.has(key)) errors.push(`/requestBody has a field the document does not name: "${key}" (Karakeep drops it silently)`);
			}
		}
		if (multipartSchema) {
			// openapi-backend leaves binary fields out of `required`: the mock checks them itself.
			if (!record.parts) errors.push(`/requestBody must be multipart/form-data (got ${contentType || 'no Content-Type'})`);
			for (const name of multipartSchema.required ?? []) {
				const part = record.parts?.find((candidate) => candidate.name === name);
				if (!part) errors.push(`/requestBody has no part "${name}"`);
				else if (multipartSchema.properties?.[name]?.format === 'binary' && part.fileName === undefined) {
					errors.push(`/requestBody part "${name}" is not a file (no filename)`);
				}
			}
		}
		if (errors.length > 0) return refuse(400, errors, validationError(errors));
		record.valid = true;

		const fault = faults.find((candidate) => candidate.method === request.method && candidate.path.test(url.pathname));
		if (fault && (fault.skip ?? 0) > 0) fault.skip = (fault.skip ?? 0) - 1;
		else if (fault) {
			faults.splice(faults.indexOf(fault), 1);
			if (fault.afterHandling && options.upstream) await (await upstreamAnswer(options.upstream.url, request, raw)).arrayBuffer();
			record.errors = ['simulated fault'];
			if (fault.drop) {
				reply.hijack();
				request.raw.socket.destroy();
				return reply;
			}
			return refuse(fault.status ?? 500, record.errors, 'Internal server error');
		}

		// Only with `lastPages` is a generated answer made a last page: the default keeps the generator's cursor.
		const asked = <T>(answer: T): T => (options.lastPages ? lastPage(answer) : answer);
		if (operation.operationId === 'searchBookmarks') {
			const answer = options.upstream
				? await searchUpstream(options.upstream.url, authorization, query)
				: asked(api.mockResponseForOperation('searchBookmarks').mock);
			const checked = api.validateResponse(answer, operation, 200);
			if (checked.errors?.length) {
				record.status = 500;
				return reply.code(500).type('application/json').send({
					message: 'The mock built a search answer that does not validate against the document',
					errors: checked.errors,
				});
			}
			record.status = 200;
			return reply.code(200).type('application/json').send(answer);
		}
		if (options.upstream) return forward(options.upstream.url, request, reply, raw, record);
		// A creating route (201 in the document) answers as for something new.
		const created = operation.responses && '201' in operation.responses ? { code: 201 } : {};
		const mocked = api.mockResponseForOperation(operation.operationId ?? '', created);
		asked(mocked.mock);
		record.status = mocked.status;
		return reply.code(mocked.status).type('application/json').send(mocked.mock ?? null);
	});

	await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
	const address = app.server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		failNext: (fault) => void faults.push(fault),
		stop: async () => void (await app.close()),
	};
}

/** A generated answer as a last page: its `nextCursor`, where it has one, null. */
function lastPage<T>(answer: T): T {
	if (answer && typeof answer === 'object' && 'nextCursor' in answer) {
		(answer as Record<string, unknown>).nextCursor = null;
	}
	return answer;
}

/**
 * The parts of a multipart/form-data body (RFC 7578), or why it is not one: every part framed by
 * the boundary, the body closed by `--boundary--`, each part with a `Content-Disposition: form-data`.
 */
export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] | string {
	const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	if (!boundary) return 'a multipart body without a boundary in its Content-Type';
	const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	const parts: MultipartPart[] = [];
	let at = body.indexOf(delimiter);
	if (at !== 0) return 'the multipart body does not start with its boundary';
	for (;;) {
		at += delimiter.length;
		if (body.subarray(at, at + 2).toString() === '--') {
			return body.subarray(at + 2).toString().replace(/\r\n$/, '') === '' ? parts : 'bytes after the closing boundary';
		}
		if (body.subarray(at, at + 2).toString() !== '\r\n') return 'a boundary not followed by CRLF';
		const headersEnd = body.indexOf('\r\n\r\n', at);
		const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headersEnd);
		if (headersEnd < 0 || next < 0) return 'a part without its headers or its end';
		const headers = body.subarray(at + 2, headersEnd).toString('utf8').split('\r\n');
		const disposition = headers.find((line) => /^content-disposition:/i.test(line)) ?? '';
		const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
		if (!/^content-disposition:\s*form-data/i.test(disposition) || name === undefined) return 'a part without Content-Disposition: form-data; name';
		const fileName = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1];
		const type = headers.find((line) => /^content-type:/i.test(line))?.replace(/^content-type:\s*/i, '');
		parts.push({ name, fileName, contentType: type, body: Buffer.from(body.subarray(headersEnd + 4, next)) });
		at = next + 2;
	}
}

/** Karakeep's own validation refusal is `{"success":false,"error":{"name":"ZodError","message":…}}`. */
function validationError(errors: string[]) {
	return { success: false, error: { name: 'OpenAPIValidationError', message: errors.join('; ') } };
}

/** The request as sent to the upstream Karakeep, and its answer. */
async function upstreamAnswer(upstream: string, request: FastifyRequest, raw: Buffer | undefined): Promise<Response> {
	const headers: Record<string, string> = { authorization: String(request.headers.authorization) };
	if (request.headers['content-type']) headers['content-type'] = String(request.headers['content-type']);
	return await fetch(new URL(request.url, upstream), {
		method: request.method,
		headers,
		body: raw && raw.length > 0 ? raw : undefined,
	});
}

async function forward(
	upstream: string,
	request: FastifyRequest,
	reply: FastifyReply,
	raw: Buffer | undefined,
	record: SpecMockRequest,
) {
	const response = await upstreamAnswer(upstream, request, raw);
	record.status = response.status;
	const body = Buffer.from(await response.arrayBuffer());
	const contentType = response.headers.get('content-type');
	if (contentType) reply.type(contentType);
	// A HEAD answer says how long the GET's body would be.
	const length = response.headers.get('content-length');
	if (request.method === 'HEAD' && length !== null) reply.header('content-length', length);
	return reply.code(response.status).send(response.status === 204 || request.method === 'HEAD' ? undefined : body);
}

async function searchUpstream(upstream: string, authorization: string, query: Record<string, string | string[]>) {
	const one = (name: string) => {
		const value = query[name];
		return Array.isArray(value) ? value[0] : value;
	};
	const all: BookmarkLike[] = [];
	let cursor: string | null = null;
	do {
		const listing = new URL('/api/v1/bookmarks', upstream);
		listing.searchParams.set('limit', '100');
		if (one('includeContent')) listing.searchParams.set('includeContent', one('includeContent')!);
		if (cursor) listing.searchParams.set('cursor', cursor);
		const response = await fetch(listing, { headers: { authorization } });
		if (!response.ok) throw new Error(`The upstream Karakeep answered ${response.status} to ${listing.pathname}`);
		const page = (await response.json()) as { bookmarks: BookmarkLike[]; nextCursor: string | null };
		all.push(...page.bookmarks);
		cursor = page.nextCursor;
	} while (cursor);

	const terms = (one('q') ?? '').split(/\s+/).filter(Boolean);
	const matches = all.filter((bookmark) => terms.every((term) => matchesTerm(bookmark, term)));
	const order = one('sortOrder') === 'asc' ? 1 : -1;
	matches.sort((a, b) => order * (Date.parse(a.createdAt) - Date.parse(b.createdAt)));
	const offset = Number.parseInt(one('cursor') ?? '0', 10) || 0;
	const limit = Number(one('limit') ?? 20);
	const page = matches.slice(offset, offset + limit);
	return {
		bookmarks: page,
		nextCursor: offset + page.length < matches.length ? String(offset + page.length) : null,
	};
}

function matchesTerm(bookmark: BookmarkLike, term: string): boolean {
	const negated = term.startsWith('-');
	const bare = negated ? term.slice(1) : term;
	let hit: boolean;
	if (bare.startsWith('#')) {
		const name = bare.slice(1).toLowerCase();
		hit = (bookmark.tags ?? []).some((tag) => tag.name.toLowerCase() === name);
	} else if (bare === 'is:fav') {
		hit = bookmark.favourited === true;
	} else if (bare === 'is:archived') {
		hit = bookmark.archived === true;
	} else {
		const content = bookmark.content ?? {};
		const haystack = [
			bookmark.title,
			bookmark.note,
			bookmark.summary,
			content.url,
			content.text,
			content.title,
			content.description,
		]
			.filter((value): value is string => typeof value === 'string')
			.join('\n')
			.toLowerCase();
		hit = haystack.includes(bare.toLowerCase());
	}
	return negated ? !hit : hit;
}
