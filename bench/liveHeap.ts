/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * The live memory of an n8n started with `inspectorFlags()`: what is still reachable after a
 * full garbage collection (V8 heap plus the memory its objects hold outside it), read over the
 * inspector protocol. Resident memory, which the other figures use, also counts garbage V8 has
 * not collected yet and pages it keeps after collecting, so it grows with the heap V8 chose to
 * allow, not only with what a node holds.
 */
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
		await this.call('HeapProfiler.collectGarbage');
		const { result } = (await this.call('Runtime.evaluate', {
			expression: '(() => { const usage = process.memoryUsage(); return usage.heapUsed + usage.external; })()',
			returnByValue: true,
		})) as { result: { value: number } };
		return result.value;
	}

	/**
	 * Peak live bytes above what was live when it started, measured back to back (each measure is
	 * a full collection, so a run sampled this way is slower: time it in another run). Call the
	 * result to stop.
	 */
	async sampleLiveBytes(): Promise<() => Promise<number>> {
		const baseline = await this.liveBytes();
		let peak = baseline;
		let sampling = true;
		const loop = (async () => {
			while (sampling) {
				peak = Math.max(peak, await this.liveBytes());
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
		})();
		return async () => {
			sampling = false;
			await loop;
			return peak - baseline;
		};
	}

	/**
	 * Live bytes of what `expression` (JavaScript, may be a promise) gives, held in the inspected
	 * process: a control for what a node that keeps the same data must take at least.
	 */
	async heldBytes(expression: string): Promise<number> {
		const before = await this.liveBytes();
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
