/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Karakeep's webhook deliveries, built exactly as its webhook worker builds them, and a local
 * receiver that records what arrives.
 *
 * The worker (Karakeep `apps/workers/workers/webhookWorker.ts`, commit 7ca5ee2, `runWebhook`) posts
 * with node-fetch 3.3.2 (`apps/workers/network.ts`, `fetchWithProxy`):
 *
 *   body    JSON.stringify({ jobId, bookmarkId, userId, url: bookmark?.link ? bookmark.link.url : undefined,
 *                            type: bookmark?.type, operation })   (undefined members are left out)
 *   headers Content-Type: application/json, and Authorization: Bearer <token> when the webhook has a token;
 *           node-fetch adds Accept, Accept-Encoding, Content-Length and User-Agent and sends its headers
 *           sorted by name in lower case; Node's http client then adds Host and Connection.
 *
 * test/karakeep/webhooks.test.ts checks, against deliveries of the real worker, that what
 * `buildKarakeepDelivery` builds is byte for byte what the worker sends.
 */
import * as http from 'node:http';

/** Karakeep's webhook events (`zWebhookEventSchema`, packages/shared/types/webhooks.ts). */
export type KarakeepWebhookOperation = 'created' | 'edited' | 'crawled' | 'ai tagged' | 'deleted';

export interface KarakeepDeliveryInput {
	/** The queue job's id: liteque's task id as a decimal string (`job.id.toString()`), the same on every attempt. */
	jobId: string;
	bookmarkId: string;
	userId: string;
	operation: KarakeepWebhookOperation;
	/**
	 * The bookmark as the worker reads it when it delivers: its `type`, and `url` for a link.
	 * `null` when it no longer exists (only `deleted` is delivered then, without `url` and `type`).
	 */
	bookmark: { type: 'link' | 'text' | 'asset'; url?: string } | null;
	/** The webhook's token (Karakeep's settings → Webhooks), sent as `Authorization: Bearer <token>`. */
	token?: string | null;
}

export interface KarakeepDelivery {
	/** The body's exact bytes. */
	body: Buffer;
	/** Header names and values, in the order and spelling the worker's request has (without Host and Connection). */
	headers: Array<[string, string]>;
}

/** The body and headers Karakeep's webhook worker sends for one attempt of one job. */
export function buildKarakeepDelivery(input: KarakeepDeliveryInput): KarakeepDelivery {
	const { bookmark } = input;
	const body = Buffer.from(
		JSON.stringify({
			jobId: input.jobId,
			bookmarkId: input.bookmarkId,
			userId: input.userId,
			url: bookmark?.type === 'link' ? bookmark.url : undefined,
			type: bookmark?.type,
			operation: input.operation,
		}),
		'utf8',
	);
	const headers: Array<[string, string]> = [
		['accept', '*/*'],
		['accept-encoding', 'gzip, deflate, br'],
		...(input.token ? [['authorization', `Bearer ${input.token}`] as [string, string]] : []),
		['content-length', String(body.length)],
		['content-type', 'application/json'],
		['user-agent', 'node-fetch'],
	];
	return { body, headers };
}

/** One request as received: the raw header list (names as sent, in order) and the body's bytes. */
export interface ReceivedRequest {
	method: string;
	path: string;
	rawHeaders: string[];
	headers: http.IncomingHttpHeaders;
	body: Buffer;
	/** The body parsed as JSON, or undefined. */
	json: unknown;
	/** Set once the receiver answered (or the sender gave up). */
	answered: Promise<void>;
}

/**
 * Sends a delivery the way the worker does: POST, the headers in its order and spelling, then
 * Host and Connection as Node's http client (under node-fetch) adds them. Resolves with the answer.
 */
export async function sendKarakeepDelivery(
	url: string,
	delivery: KarakeepDelivery,
): Promise<{ status: number; body: string }> {
	const target = new URL(url);
	const agent = new http.Agent({ keepAlive: true });
	try {
		return await new Promise((resolve, reject) => {
			const request = http.request(target, { method: 'POST', agent, setHost: false });
			for (const [name, value] of delivery.headers) request.setHeader(name, value);
			request.setHeader('Host', target.host);
			request.setHeader('Connection', 'keep-alive');
			request.on('response', (response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () =>
					resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
				);
				response.on('error', reject);
			});
			request.on('error', reject);
			request.end(delivery.body);
		});
	} finally {
		agent.destroy();
	}
}

/** What the receiver answers to a request: a status, or `hold` to never answer (a hanging endpoint). */
export type ReceiverAnswer = number | 'hold';

export interface WebhookReceiver {
	url: string;
	received: ReceivedRequest[];
	/** Resolves with the first request (already received or still to come) that `match` accepts. */
	next(match: (request: ReceivedRequest) => boolean, what: string): Promise<ReceivedRequest>;
	/** Resolves once `count` requests that `match` accepts have arrived. */
	count(match: (request: ReceivedRequest) => boolean, count: number, what: string): Promise<ReceivedRequest[]>;
	close(): Promise<void>;
}

/** Only stops a stuck run: the webhook worker polls its queue every second. */
const RECEIVE_DEADLINE_MS = 120_000;

/** A local HTTP endpoint on 127.0.0.1 that records every request; `answer` picks each answer (default 200). */
export async function startWebhookReceiver(
	answer: (request: ReceivedRequest) => ReceiverAnswer = () => 200,
	path = '/karakeep-hook',
): Promise<WebhookReceiver> {
	const received: ReceivedRequest[] = [];
	const waiters = new Set<() => void>();
	const held: http.ServerResponse[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			let json: unknown;
			try {
				json = JSON.parse(body.toString('utf8'));
			} catch {
				json = undefined;
			}
			let markAnswered = () => {};
			const answered = new Promise<void>((resolve) => (markAnswered = resolve));
			res.on('close', markAnswered);
			const request: ReceivedRequest = {
				method: req.method ?? '',
				path: req.url ?? '',
				rawHeaders: [...req.rawHeaders],
				headers: req.headers,
				body,
				json,
				answered,
			};
			received.push(request);
			const status = answer(request);
			if (status === 'hold') held.push(res);
			else res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'refused');
			for (const wake of [...waiters]) wake();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;

	const count = (match: (request: ReceivedRequest) => boolean, wanted: number, what: string) =>
		new Promise<ReceivedRequest[]>((resolve, reject) => {
			const check = () => {
				const matching = received.filter(match);
				if (matching.length < wanted) return false;
				done();
				resolve(matching.slice(0, wanted));
				return true;
			};
			const deadline = setTimeout(() => {
				done();
				reject(new Error(`No ${what} within ${RECEIVE_DEADLINE_MS / 1000} s; received: ${received.map((r) => r.body.toString('utf8')).join(' | ')}`));
			}, RECEIVE_DEADLINE_MS);
			const done = () => {
				clearTimeout(deadline);
				waiters.delete(wake);
			};
			const wake = () => void check();
			waiters.add(wake);
			check();
		});

	return {
		url: `http://127.0.0.1:${port}${path}`,
		received,
		next: async (match, what) => (await count(match, 1, what))[0],
		count,
		close: async () => {
			for (const res of held) res.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** The body of a received Karakeep delivery, typed; throws when it is not one. */
export function karakeepDeliveryBody(request: ReceivedRequest): {
	jobId: string;
	bookmarkId: string;
	userId: string;
	url?: string;
	type?: string;
	operation: KarakeepWebhookOperation;
} {
	const body = request.json as Record<string, unknown> | undefined;
	if (!body || typeof body.jobId !== 'string' || typeof body.bookmarkId !== 'string' || typeof body.operation !== 'string') {
		throw new Error(`Not a Karakeep delivery: ${request.body.toString('utf8')}`);
	}
	return body as ReturnType<typeof karakeepDeliveryBody>;
}
