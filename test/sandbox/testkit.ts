/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * What the contract tests share: one HTTP call read whole, a real webhook receiver on
 * 127.0.0.1 whose answers a test scripts, and waits for events (never for a time).
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { type ManualClock, STUCK_AFTER_MS } from './timers';

export interface Answer {
	status: number;
	headers: Headers;
	text: string;
	json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One HTTP call, its answer read whole; `body` is sent as JSON, `rawBody` as it is. */
export async function call(
	url: string,
	init: {
		method?: string;
		headers?: Record<string, string>;
		body?: unknown;
		rawBody?: string;
	} = {},
): Promise<Answer> {
	const headers = { ...init.headers };
	let body = init.rawBody;
	if (init.body !== undefined) {
		headers['content-type'] ??= 'application/json';
		body = JSON.stringify(init.body);
	}
	const response = await fetch(url, { method: init.method ?? 'GET', headers, body });
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, text, json };
}

export interface ReceivedDelivery {
	headers: IncomingHttpHeaders;
	rawBody: string;
	body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
	/** When the whole body had arrived (`Date.now()`), before the answer. */
	receivedAt: number;
}

/**
 * How the receiver answers one delivery: a status, at once or once `after` settles (to answer
 * late, e.g. after the sandbox's clock passed its webhook timeout).
 */
export type ScriptedAnswer = number | { status: number; after: Promise<unknown> };

export interface Receiver {
	url: string;
	received: ReceivedDelivery[];
	/** Answers to the next deliveries, in order; 200 once they run out. */
	answers: ScriptedAnswer[];
	/** Resolves with what arrived once `count` deliveries have; fails only a stuck test. */
	waitFor(count: number): Promise<ReceivedDelivery[]>;
	/** The same as waitFor (main's name for it, kept until its callers move). */
	arrived(count: number): Promise<ReceivedDelivery[]>;
	/** Forgets what arrived and the scripted answers. */
	clear(): void;
	close(): Promise<void>;
}

/**
 * Calls `probe` until it returns something other than undefined or false, and returns that:
 * a wait for a condition, never for a time. Fails only after `stuckAfterMs`, for a stuck run.
 */
export async function eventually<T>(
	what: string,
	probe: () => Promise<T | undefined | false> | T | undefined | false,
	stuckAfterMs = STUCK_AFTER_MS,
): Promise<T> {
	const deadline = Date.now() + stuckAfterMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`Still waiting for ${what} after ${stuckAfterMs} ms`);
		await sleep(10);
	}
}

/**
 * Moves a manual clock on to each of the sandbox's waits as soon as one is pending, until
 * `work` settles: the sandbox's time passes only as fast as the work asks for it.
 */
export async function driveClock<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
	let settled = false;
	const done = work.finally(() => (settled = true));
	done.catch(() => undefined);
	while (!settled) {
		const [next] = clock.pending();
		if (next) clock.advance(next.inMs);
		else await sleep(1);
	}
	return await done;
}

/**
 * The delivery log of a service (signing or survey) once every delivery sent so far has been
 * tried to the end: then nothing more arrives until the next event, so a test can check that
 * something was *not* delivered without sleeping.
 */
export async function settledDeliveries<T = any>(serviceUrl: string): Promise<T[]> { // eslint-disable-line @typescript-eslint/no-explicit-any
	return await eventually('the webhook deliveries to be tried to the end', async () => {
		const { json } = await call(`${serviceUrl}/_sandbox/deliveries`);
		return json.pending === 0 ? (json.deliveries as T[]) : undefined;
	});
}

export async function startReceiver(answers: ScriptedAnswer[] = []): Promise<Receiver> {
	const received: ReceivedDelivery[] = [];
	const arrivals = new EventEmitter();
	arrivals.setMaxListeners(0);
	const receiver = { answers: [...answers] } as Receiver;
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const rawBody = Buffer.concat(chunks).toString('utf8');
			received.push({ headers: request.headers, rawBody, body: JSON.parse(rawBody), receivedAt: Date.now() });
			arrivals.emit('arrival');
			const answer = receiver.answers.shift() ?? 200;
			const { status, after } =
				typeof answer === 'number' ? { status: answer, after: undefined } : answer;
			const respond = () => {
				if (!response.destroyed) response.writeHead(status).end();
			};
			if (after) void after.then(respond, respond);
			else respond();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return Object.assign(receiver, {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		async waitFor(count: number) {
			if (received.length >= count) return received;
			await new Promise<void>((resolve, reject) => {
				const stuck = setTimeout(() => {
					arrivals.off('arrival', onArrival);
					reject(new Error(`Expected ${count} deliveries, got ${received.length} in ${STUCK_AFTER_MS} ms`));
				}, STUCK_AFTER_MS);
				stuck.unref();
				const onArrival = () => {
					if (received.length < count) return;
					clearTimeout(stuck);
					arrivals.off('arrival', onArrival);
					resolve();
				};
				arrivals.on('arrival', onArrival);
			});
			return received;
		},
		async arrived(count: number) {
			return await receiver.waitFor(count);
		},
		clear() {
			received.length = 0;
			receiver.answers = [];
		},
		async close() {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	});
}
