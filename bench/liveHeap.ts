/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The live memory of an n8n started with `inspectorFlags()`: what is still reachable after a
 * full garbage collection (V8 heap plus the memory its objects hold outside it), read over the
 * inspector protocol. Resident memory, which the other figures use, also counts garbage V8 has
 * not collected yet and pages it keeps after collecting, so it grows with the heap V8 chose to
 * allow, not only with what a node holds.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { freePort } from '../test/harness/n8n';

/** The Node flag that opens n8n's inspector on a free local port, and that port. */
export async function inspectorFlags(): Promise<{ flags: string[]; port: number }> {
	const port = await freePort();
	return { flags: [`--inspect=127.0.0.1:${port}`], port };
}

interface Reply {
	id: number;
	result?: Record<string, unknown>;
	error?: { message: string };
}

/** One connection to a Node inspector: protocol calls one at a time. */
export class InspectorSession {
	private nextId = 1;
	private readonly waiting = new Map<number, (reply: Reply) => void>();

	private constructor(private readonly socket: WebSocket) {
		socket.addEventListener('message', (event) => {
			const reply = JSON.parse(String(event.data)) as Reply;
			this.waiting.get(reply.id)?.(reply);
			this.waiting.delete(reply.id);
		});
	}

	static async open(port: number): Promise<InspectorSession> {
		if (typeof WebSocket === 'undefined') {
			throw new Error('Reading the live heap needs WebSocket: on Node 20, run with --experimental-websocket');
		}
		const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
			webSocketDebuggerUrl: string;
		}>;
		const socket = new WebSocket(target.webSocketDebuggerUrl);
		await new Promise<void>((resolve, reject) => {
			socket.addEventListener('open', () => resolve(), { once: true });
			socket.addEventListener('error', () => reject(new Error(`No inspector at port ${port}`)), { once: true });
		});
		return new InspectorSession(socket);
	}

	async call(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
		const id = this.nextId++;
		const reply = await new Promise<Reply>((resolve) => {
			this.waiting.set(id, resolve);
			this.socket.send(JSON.stringify({ id, method, params }));
		});
		if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
		return reply.result ?? {};
	}

	/** Bytes reachable now: collects all garbage first. */
	async liveBytes(): Promise<number> {
		return (await this.liveSample()).bytes;
	}

	/** Bytes reachable now (all garbage collected first), and when by the inspected process's clock. */
	async liveSample(): Promise<{ bytes: number; at: number }> {
		await this.call('HeapProfiler.collectGarbage');
		const { result } = (await this.call('Runtime.evaluate', {
			expression:
				'(() => { const usage = process.memoryUsage(); return { bytes: usage.heapUsed + usage.external, at: Date.now() }; })()',
			returnByValue: true,
		})) as { result: { value: { bytes: number; at: number } } };
		return result.value;
	}

	/**
	 * Live bytes once n8n has let go of what earlier work left: measured until two measures half a
	 * second apart differ by less than 256 KiB (an execution's data is released a little after
	 * the execution answered).
	 */
	async settledLiveBytes(): Promise<number> {
		let last = await this.liveBytes();
		for (let attempt = 0; attempt < 20; attempt++) {
			await new Promise((resolve) => setTimeout(resolve, 500));
			const now = await this.liveBytes();
			if (Math.abs(now - last) < 256 * 1024) return now;
			last = now;
		}
		return last;
	}

	/**
	 * Live bytes of what `expression` (JavaScript, may be a promise) gives, held in the inspected
	 * process: a control for what a node that keeps the same data must take at least.
	 */
	async heldBytes(expression: string): Promise<number> {
		const before = await this.settledLiveBytes();
		const { exceptionDetails } = (await this.call('Runtime.evaluate', {
			expression: `(async () => { globalThis.benchHeld = await (${expression}); })()`,
			awaitPromise: true,
		})) as { exceptionDetails?: { exception?: { description?: string } } };
		if (exceptionDetails) throw new Error(`heldBytes: ${exceptionDetails.exception?.description}`);
		const after = await this.liveBytes();
		await this.call('Runtime.evaluate', { expression: 'delete globalThis.benchHeld' });
		return after - before;
	}

	close(): void {
		this.socket.close();
	}
}

/**
 * A local URL for a workflow's last node to call: the call waits while the live bytes of n8n are
 * measured, so the measure is taken with every earlier node's output still held by the
 * execution. `next()` gives the measure of the next call.
 */
export async function startCheckpoint(session: InspectorSession) {
	let waiting: { resolve: (bytes: number) => void; reject: (error: Error) => void } | undefined;
	const server = createServer(async (request, response) => {
		request.resume();
		const taker = waiting;
		waiting = undefined;
		try {
			if (taker) taker.resolve(await session.liveBytes());
		} catch (error) {
			taker?.reject(error as Error);
		}
		response.end('{}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkpoint`,
		next: () => new Promise<number>((resolve, reject) => (waiting = { resolve, reject })),
		stop: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
