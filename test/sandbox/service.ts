/**
 * What the three simulated services share: auth, the rate limit, the fault
 * mode, the request log, JSON bodies only, the sandbox's clock, and the control endpoints
 * under /_sandbox/.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

import { type RateLimit, SlidingWindowLimit } from './rateLimit';
import { type Clock, ManualClock, Sleeper } from './timers';
import { badRequest, checkBody, HttpProblem } from './validation';

export interface ErrorStyle {
	/** Sends the service's own error shape for a status and message. */
	send(
		reply: FastifyReply,
		status: number,
		message: string,
		details?: Record<string, unknown>,
	): FastifyReply;
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, unknown>;
	/** Lowercased names, as Node reads them. */
	headers: Record<string, string>;
	rawBody: string;
	body: unknown;
	status: number;
	at: string;
}

export interface ServiceOptions {
	name: 'signing' | 'bookmark' | 'survey';
	apiKey: string;
	/** Reads the key a request presents, or undefined. */
	presentedKey(request: FastifyRequest): string | undefined;
	errors: ErrorStyle;
	/** Requests per 60 s per key; null for no limit. */
	rateLimit: number | null;
	/** How the requests are counted: the contract's sliding window unless given (a platform's fixed windows). */
	rateWindows?: (limit: number | null, clock: Clock) => RateLimit;
	/** The sandbox's time, shared by its services (see timers.ts). */
	clock: Clock;
	/** Pages outside the API (a recipient's signing page): no auth, limit, fault or log. */
	openPrefixes?: string[];
	logger?: boolean;
	/** Puts the service's data back to its initial state. */
	reset(): void;
}

export interface Service {
	app: FastifyInstance;
	requests: RecordedRequest[];
}

interface Fault {
	status: number;
	count: number;
	delayMs: number;
	/** Retry-After of a simulated 429. */
	retryAfter: number;
	/**
	 * The service carries the request out, and only then does the fault strike, as when a gateway
	 * in front of it gives up (`status`) or the connection breaks (`drop`) before the answer arrives.
	 */
	afterHandling: boolean;
	/** The connection is closed without an answer (the client sees a network error). */
	drop: boolean;
	/** Only requests whose path ends with this are struck (and counted). */
	path?: string;
}

declare module 'fastify' {
	interface FastifyRequest {
		/** A fault that strikes once the request was carried out. */
		faultAfterHandling?: Fault;
	}
}

const CONTROL_PREFIX = '/_sandbox/';

declare module 'fastify' {
	interface FastifyRequest {
		rawBody?: string;
	}
}

export function createService(options: ServiceOptions): Service {
	const app = Fastify({
		logger: options.logger ?? false,
		bodyLimit: 10 * 1024 * 1024,
		// stop() must not wait for clients that keep connections alive.
		forceCloseConnections: true,
	});
	const requests: RecordedRequest[] = [];
	const { clock } = options;
	const sleeper = new Sleeper(clock);
	const outsideApi = [CONTROL_PREFIX, ...(options.openPrefixes ?? [])];
	const rateLimit = (options.rateWindows ?? ((limit, time) => new SlidingWindowLimit(limit, time)))(options.rateLimit, clock);
	let fault: Fault | undefined;
	// Time every answer takes, as a service behind a network and a database would (benchmarks).
	let latencyMs = 0;

	const isApi = (request: FastifyRequest) =>
		!outsideApi.some((prefix) => request.url.startsWith(prefix));

	acceptJsonBodiesOnly(app);
	app.addHook('preClose', async () => sleeper.close());

	app.addHook('onRequest', async (request, reply) => {
		if (!isApi(request)) return undefined;
		await sleeper.sleep(latencyMs, 'latency');
		if (fault && fault.count > 0 && (!fault.path || request.url.split('?')[0].endsWith(fault.path))) {
			fault.count--;
			const { status, delayMs, retryAfter } = fault;
			await sleeper.sleep(delayMs, 'fault delay');
			if (fault.afterHandling) {
				request.faultAfterHandling = fault;
				return undefined;
			}
			if (fault.drop) {
				reply.hijack();
				request.raw.socket.destroy();
				return reply;
			}
			if (status === 429) reply.header('retry-after', String(retryAfter));
			return options.errors.send(reply, status, `Simulated fault ${status}`);
		}
		const key = options.presentedKey(request);
		if (key !== options.apiKey) return options.errors.send(reply, 401, 'Unauthorized');
		const retryAfter = rateLimit.take(key);
		if (retryAfter !== undefined) {
			reply.header('retry-after', String(retryAfter));
			return options.errors.send(reply, 429, 'Too many requests');
		}
		return undefined;
	});

	app.addHook('onSend', async (request, reply, payload) => {
		// The services' time, which a client reads their windows from, is the sandbox's clock's.
		reply.header('date', new Date(clock.now()).toUTCString());
		const after = request.faultAfterHandling;
		if (!after) return payload;
		if (after.drop) {
			request.raw.socket.destroy();
			return payload;
		}
		// A gateway's answer, not the service's: plain text.
		reply.code(after.status).type('text/plain');
		return `Simulated fault ${after.status} after the request was carried out`;
	});

	app.addHook('onResponse', async (request, reply) => {
		if (!isApi(request)) return;
		requests.push({
			method: request.method,
			path: request.url.split('?')[0],
			query: { ...(request.query as Record<string, unknown>) },
			headers: Object.fromEntries(
				Object.entries(request.headers).map(([name, value]) => [
					name,
					Array.isArray(value) ? value.join(', ') : String(value),
				]),
			),
			rawBody: request.rawBody ?? '',
			body: request.body,
			status: reply.statusCode,
			at: new Date(clock.now()).toISOString(),
		});
	});

	app.setErrorHandler((error, _request, reply) => {
		if (error instanceof HttpProblem) {
			return options.errors.send(reply, error.status, error.message, error.details);
		}
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
		const body = checkBody(request.body, { required: { limit: 'integer|null' } });
		if (body.limit !== null && (body.limit as number) < 1) {
			throw badRequest('"limit" must be at least 1, or null');
		}
		rateLimit.set(body.limit as number | null);
		return { limit: rateLimit.current };
	});
	app.put('/_sandbox/faults', async (request) => {
		const body = checkBody(request.body, {
			required: { status: 'integer', count: 'integer' },
			optional: {
				delayMs: 'integer',
				retryAfter: 'integer',
				afterHandling: 'boolean',
				drop: 'boolean',
				path: 'string',
			},
		});
		const next: Fault = {
			status: body.status as number,
			count: body.count as number,
			delayMs: (body.delayMs as number | undefined) ?? 0,
			retryAfter: (body.retryAfter as number | undefined) ?? 1,
			afterHandling: (body.afterHandling as boolean | undefined) ?? false,
			drop: (body.drop as boolean | undefined) ?? false,
			path: body.path as string | undefined,
		};
		if (next.status < 400 || next.status > 599) {
			throw badRequest('"status" must be an error status, 400 to 599');
		}
		if (next.count < 1 || next.delayMs < 0 || next.retryAfter < 0) {
			throw badRequest('"count" must be at least 1; "delayMs" and "retryAfter" not negative');
		}
		fault = next;
		return fault;
	});
	app.delete('/_sandbox/faults', async () => {
		fault = undefined;
		return { ok: true };
	});
	app.put('/_sandbox/latency', async (request) => {
		const body = checkBody(request.body, { required: { ms: 'integer' } });
		if ((body.ms as number) < 0) throw badRequest('"ms" must not be negative');
		latencyMs = body.ms as number;
		return { ms: latencyMs };
	});
	app.get('/_sandbox/clock', async () => ({
		mode: clock instanceof ManualClock ? 'manual' : 'system',
		now: new Date(clock.now()).toISOString(),
		pending: clock instanceof ManualClock ? clock.pending() : [],
	}));
	app.post('/_sandbox/clock/advance', async (request, reply) => {
		const body = checkBody(request.body, { required: { ms: 'integer' } });
		if ((body.ms as number) < 0) throw badRequest('"ms" must not be negative');
		if (!(clock instanceof ManualClock)) {
			return options.errors.send(
				reply,
				409,
				'The sandbox runs on the system clock; start it with a manual clock (SANDBOX_CLOCK=manual) to move time',
			);
		}
		const ended = clock.advance(body.ms as number);
		return { now: new Date(clock.now()).toISOString(), ended, pending: clock.pending() };
	});
	app.post('/_sandbox/reset', async () => {
		options.reset();
		requests.length = 0;
		rateLimit.set(options.rateLimit);
		fault = undefined;
		latencyMs = 0;
		return { ok: true };
	});

	return { app, requests };
}

/** Bodies are JSON; anything else (another media type, broken JSON) is a 400, not a 415. */
function acceptJsonBodiesOnly(app: FastifyInstance) {
	const parser =
		(isJson: boolean) =>
		(
			request: FastifyRequest,
			body: string | Buffer,
			done: (error: Error | null, body?: unknown) => void,
		) => {
			request.rawBody = String(body);
			if (request.rawBody === '') return done(null, undefined);
			if (!isJson) {
				return done(badRequest('The request body must be JSON (Content-Type: application/json)'));
			}
			try {
				return done(null, JSON.parse(request.rawBody));
			} catch {
				return done(badRequest('The request body is not valid JSON'));
			}
		};
	app.addContentTypeParser('application/json', { parseAs: 'string' }, parser(true));
	app.addContentTypeParser('*', { parseAs: 'string' }, parser(false));
}

export function bearerToken(request: FastifyRequest): string | undefined {
	const header = request.headers.authorization;
	return (typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header) : null)?.[1];
}

export async function listen(app: FastifyInstance, host: string, port: number): Promise<number> {
	await app.listen({ host, port });
	const address = app.server.address();
	return typeof address === 'object' && address ? address.port : port;
}
