/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * What the contract tests share: one HTTP call read whole, and a real webhook receiver on
 * 127.0.0.1 whose answers a test scripts.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

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
	/** Date.now() on arrival. */
	at: number;
}

/** How the receiver answers one delivery: a status, after an optional delay. */
export type ScriptedAnswer = number | { status: number; delayMs: number };

export interface Receiver {
	url: string;
	received: ReceivedDelivery[];
	/** Answers to the next deliveries, in order; 200 once they run out. */
	answers: ScriptedAnswer[];
	/** Resolves with what arrived once `count` deliveries have; fails after `timeoutMs`. */
	waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
	/**
	 * Resolves with what arrived once `count` deliveries have, woken by their arrival; no deadline
	 * of its own (the test's timeout bounds it), so a busy machine only makes it later.
	 */
	arrived(count: number): Promise<ReceivedDelivery[]>;
	/** Forgets what arrived and the scripted answers. */
	clear(): void;
	close(): Promise<void>;
}

export async function startReceiver(answers: ScriptedAnswer[] = []): Promise<Receiver> {
	const received: ReceivedDelivery[] = [];
	const timers = new Set<NodeJS.Timeout>();
	const waiters = new Set<() => void>();
	const receiver = { answers: [...answers] } as Receiver;
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const rawBody = Buffer.concat(chunks).toString('utf8');
			received.push({
				headers: request.headers,
				rawBody,
				body: JSON.parse(rawBody),
				at: Date.now(),
			});
			for (const wake of waiters) wake();
			const answer = receiver.answers.shift() ?? 200;
			const { status, delayMs } =
				typeof answer === 'number' ? { status: answer, delayMs: 0 } : answer;
			const timer = setTimeout(() => {
				timers.delete(timer);
				if (!response.destroyed) response.writeHead(status).end();
			}, delayMs);
			timers.add(timer);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return Object.assign(receiver, {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		async waitFor(count: number, timeoutMs = 5_000) {
			const deadline = Date.now() + timeoutMs;
			while (received.length < count) {
				if (Date.now() > deadline) {
					throw new Error(`Expected ${count} deliveries, got ${received.length}`);
				}
				await sleep(10);
			}
			return received;
		},
		async arrived(count: number) {
			while (received.length < count) {
				await new Promise<void>((resolve) => {
					const wake = () => {
						waiters.delete(wake);
						resolve();
					};
					waiters.add(wake);
				});
			}
			return received;
		},
		clear() {
			received.length = 0;
			receiver.answers = [];
		},
		async close() {
			for (const timer of timers) clearTimeout(timer);
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	});
}
