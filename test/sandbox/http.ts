/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * What the three simulated services share: auth, strict validation, the sliding-window rate
 * limit, the fault mode, the request log and the control endpoints under /_sandbox/.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

export class HttpProblem extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly details: Record<string, unknown> = {},
	) {
		super(message);
	}
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
	new HttpProblem(400, message, details);
export const notFound = (message: string) => new HttpProblem(404, message);

export interface ErrorStyle {
	/** Sends the service's own error shape for a status and message. */
	send(reply: FastifyReply, status: number, message: string, details?: Record<string, unknown>): FastifyReply;
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	rawBody: string;
	body: unknown;
	status: number;
	at: string;
}

export interface ServiceOptions {
	name: string;
	apiKey: string;
	/** Reads the key a request presents, or undefined. */
	presentedKey(request: FastifyRequest): string | undefined;
	errors: ErrorStyle;
	rateLimit: number | null;
	logger?: boolean;
	/** Puts the service's data back to its initial state. */
	reset(): void;
}

export interface Service {
	app: FastifyInstance;
	requests: RecordedRequest[];
}

const WINDOW_MS = 60_000;
const CONTROL_PREFIX = '/_sandbox/';

declare module 'fastify' {
	interface FastifyRequest {
		rawBody?: string;
	}
}

export function createService(options: ServiceOptions): Service {
	const app = Fastify({ logger: options.logger ?? false, bodyLimit: 10 * 1024 * 1024, forceCloseConnections: true });
	const requests: RecordedRequest[] = [];
	let rateLimit = options.rateLimit;
	let windowStarts: number[] = [];
	let fault: { status: number; count: number; delayMs: number; retryAfter?: number } | undefined;
	// Time every answer takes, as a service behind a network and a database would.
	let latencyMs = 0;

	app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
		request.rawBody = body as string;
		if (body === '') return done(null, undefined);
		try {
			done(null, JSON.parse(body as string));
		} catch {
			done(badRequest('The request body is not valid JSON'), undefined);
		}
	});

	const isControl = (request: FastifyRequest) => request.url.startsWith(CONTROL_PREFIX);

	app.addHook('onRequest', async (request, reply) => {
		if (isControl(request)) return;
		if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
		if (fault && fault.count > 0) {
			fault.count--;
			const { status, delayMs, retryAfter } = fault;
			if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
			if (status === 429) reply.header('retry-after', String(retryAfter ?? 1));
			return options.errors.send(reply, status, `Simulated fault ${status}`);
		}
		if (options.presentedKey(request) !== options.apiKey) {
			return options.errors.send(reply, 401, 'Unauthorized');
		}
		if (rateLimit !== null) {
			const now = Date.now();
			windowStarts = windowStarts.filter((at) => now - at < WINDOW_MS);
			if (windowStarts.length >= rateLimit) {
				const retryAfter = Math.max(1, Math.ceil((windowStarts[0] + WINDOW_MS - now) / 1000));
				reply.header('retry-after', String(retryAfter));
				return options.errors.send(reply, 429, 'Too many requests');
			}
			windowStarts.push(now);
		}
		return undefined;
	});

	app.addHook('onResponse', async (request, reply) => {
		if (isControl(request)) return;
		const [path] = request.url.split('?');
		requests.push({
			method: request.method,
			path,
			query: { ...(request.query as Record<string, string>) },
			headers: Object.fromEntries(
				Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
			),
			rawBody: request.rawBody ?? '',
			body: request.body,
			status: reply.statusCode,
			at: new Date().toISOString(),
		});
	});

	app.setErrorHandler((error, _request, reply) => {
		if (error instanceof HttpProblem) return options.errors.send(reply, error.status, error.message, error.details);
		const status = (error as { statusCode?: number }).statusCode ?? 500;
		return options.errors.send(reply, status, (error as Error).message);
	});
	app.setNotFoundHandler((request, reply) =>
		options.errors.send(reply, 404, `No route ${request.method} ${request.url.split('?')[0]}`),
	);

	app.get('/_sandbox/health', async () => ({ ok: true, service: options.name }));
	app.get('/_sandbox/requests', async () => ({ requests }));
	app.delete('/_sandbox/requests', async () => {
		requests.length = 0;
		return { ok: true };
	});
	app.put('/_sandbox/rate-limit', async (request) => {
		const { limit } = (request.body ?? {}) as { limit?: number | null };
		rateLimit = typeof limit === 'number' && limit > 0 ? limit : null;
		windowStarts = [];
		return { limit: rateLimit };
	});
	app.put('/_sandbox/faults', async (request) => {
		const body = (request.body ?? {}) as { status?: number; count?: number; delayMs?: number; retryAfter?: number };
		fault = {
			status: body.status ?? 503,
			count: body.count ?? 1,
			delayMs: body.delayMs ?? 0,
			retryAfter: body.retryAfter,
		};
		return fault;
	});
	app.put('/_sandbox/latency', async (request) => {
		const { ms } = (request.body ?? {}) as { ms?: number };
		latencyMs = typeof ms === 'number' && ms > 0 ? ms : 0;
		return { ms: latencyMs };
	});
	app.delete('/_sandbox/faults', async () => {
		fault = undefined;
		return { ok: true };
	});
	app.post('/_sandbox/reset', async () => {
		options.reset();
		requests.length = 0;
		windowStarts = [];
		fault = undefined;
		latencyMs = 0;
		rateLimit = options.rateLimit;
		return { ok: true };
	});

	return { app, requests };
}

export function bearerToken(request: FastifyRequest): string | undefined {
	const header = request.headers.authorization;
	const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header) : null;
	return match?.[1];
}

/** Strict query validation: unknown parameters are refused, not ignored. */
export function checkQuery(query: unknown, allowed: string[]): Record<string, string> {
	const params = (query ?? {}) as Record<string, string | string[]>;
	for (const [name, value] of Object.entries(params)) {
		if (!allowed.includes(name)) throw badRequest(`Unknown query parameter "${name}"`);
		if (Array.isArray(value)) throw badRequest(`Query parameter "${name}" given more than once`);
	}
	return params as Record<string, string>;
}

export function integerParam(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
	if (value === undefined) return fallback;
	if (!/^\d+$/.test(value)) throw badRequest(`"${name}" must be an integer`);
	const number = Number(value);
	if (number < min || number > max) throw badRequest(`"${name}" must be between ${min} and ${max}`);
	return number;
}

type FieldType = 'string' | 'number' | 'array' | 'boolean' | 'object';
const typeOf = (value: unknown): FieldType | 'other' =>
	Array.isArray(value) ? 'array' : value !== null && typeof value === 'object' ? 'object' : (typeof value as FieldType);

/** Strict body validation: required fields, their types, and no unknown field. */
export function checkBody(
	body: unknown,
	required: Record<string, FieldType>,
	optional: Record<string, FieldType> = {},
): Record<string, unknown> {
	if (typeOf(body) !== 'object') throw badRequest('The request body must be a JSON object');
	const fields = body as Record<string, unknown>;
	for (const name of Object.keys(fields)) {
		if (!(name in required) && !(name in optional)) throw badRequest(`Unknown field "${name}"`);
	}
	for (const [name, type] of Object.entries({ ...required, ...optional })) {
		const value = fields[name];
		if (value === undefined) {
			if (name in required) throw badRequest(`Missing required field "${name}"`);
			continue;
		}
		if (typeOf(value) !== type) throw badRequest(`Field "${name}" must be of type ${type}`);
	}
	return fields;
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

let counter = 0;
/** Ids that sort in creation order and never repeat within a process. */
export function newId(prefix: string): string {
	counter++;
	return `${prefix}_${Date.now().toString(36)}${counter.toString(36).padStart(5, '0')}${Math.random().toString(36).slice(2, 6)}`;
}

export async function listen(app: FastifyInstance, host: string, port: number): Promise<number> {
	await app.listen({ host, port });
	const address = app.server.address();
	return typeof address === 'object' && address ? address.port : port;
}
