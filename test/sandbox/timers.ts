/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * Waits that a stopping sandbox can cut short, so that no timer outlives it: jest waits for
 * pending timers before it exits, and a retry scheduled after stop() would reach a closed test.
 */
export class Sleeper {
	private readonly pending = new Map<NodeJS.Timeout, () => void>();
	private closed = false;

	async sleep(ms: number): Promise<void> {
		if (ms <= 0 || this.closed) return;
		await new Promise<void>((resolve) => {
			const timer = setTimeout(() => {
				this.pending.delete(timer);
				resolve();
			}, ms);
			this.pending.set(timer, resolve);
		});
	}

	/**
	 * Ends every wait now, and every later one at once (code stopped in the middle of an
	 * attempt may still ask to wait): the waiting code carries on and sees that it was stopped.
	 */
	close(): void {
		this.closed = true;
		for (const [timer, resolve] of this.pending) {
			clearTimeout(timer);
			resolve();
		}
		this.pending.clear();
	}
}
