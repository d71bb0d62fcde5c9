/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/** A real HTTP server on 127.0.0.1 that records webhook deliveries, for contract tests. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
	headers: IncomingHttpHeaders;
	rawBody: string;
	body: Record<string, unknown>;
}

export interface Receiver {
	url: string;
	received: ReceivedDelivery[];
	/** Statuses to answer, in order; 200 once they run out. */
	answers: number[];
	waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
	close(): Promise<void>;
}

export async function startReceiver(answers: number[] = []): Promise<Receiver> {
	const received: ReceivedDelivery[] = [];
	const receiver = { answers: [...answers] } as Receiver;
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const rawBody = Buffer.concat(chunks).toString('utf8');
			received.push({ headers: request.headers, rawBody, body: JSON.parse(rawBody) as Record<string, unknown> });
			response.writeHead(receiver.answers.shift() ?? 200).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return Object.assign(receiver, {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		async waitFor(count: number, timeoutMs = 10_000) {
			const deadline = Date.now() + timeoutMs;
			while (received.length < count) {
				if (Date.now() > deadline) throw new Error(`Expected ${count} deliveries, got ${received.length}`);
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			return received;
		},
		async close() {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	});
}

export interface Answer {
	status: number;
	headers: Headers;
	text: string;
	json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One HTTP call, its answer read whole. */
export async function call(
	url: string,
	init: { method?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<Answer> {
	const headers = { ...init.headers };
	let body = init.rawBody;
	if (init.body !== undefined) {
		headers['content-type'] = 'application/json';
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
