/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * Webhook delivery as the services do it: up to three attempts in all, on any non-2xx
 * answer or a timeout, so receivers see the same delivery more than once. Deliveries to
 * one endpoint go out one after another, in the order the events happened.
 */
export const MAX_ATTEMPTS = 3;

export interface DeliveryAttempt {
	deliveryId: string;
	event: string;
	url: string;
	attempt: number;
	status?: number;
	error?: string;
	at: string;
	headers: Record<string, string>;
	body: string;
}

export interface Delivery {
	deliveryId: string;
	event: string;
	url: string;
	body: string;
	/** Headers for one attempt (a signature may depend on the attempt's time). */
	headers(attempt: number): Record<string, string>;
}

export class Deliverer {
	readonly log: DeliveryAttempt[] = [];
	private readonly queues = new Map<string, Promise<void>>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly controllers = new Set<AbortController>();
	private stopped = false;

	constructor(
		private readonly retryDelayMs: number,
		private readonly timeoutMs: number,
	) {}

	send(delivery: Delivery): void {
		const previous = this.queues.get(delivery.url) ?? Promise.resolve();
		const next = previous.then(async () => await this.deliver(delivery));
		this.queues.set(delivery.url, next);
	}

	/** Resolves once every queued delivery has been tried to the end. */
	async idle(): Promise<void> {
		await Promise.all([...this.queues.values()]);
	}

	stop(): void {
		this.stopped = true;
		for (const timer of this.timers) clearTimeout(timer);
		for (const controller of this.controllers) controller.abort();
		this.timers.clear();
	}

	private async wait(ms: number): Promise<void> {
		await new Promise<void>((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.add(timer);
		});
	}

	private async deliver(delivery: Delivery): Promise<void> {
		for (let attempt = 1; attempt <= MAX_ATTEMPTS && !this.stopped; attempt++) {
			const headers = delivery.headers(attempt);
			const entry: DeliveryAttempt = {
				deliveryId: delivery.deliveryId,
				event: delivery.event,
				url: delivery.url,
				attempt,
				at: new Date().toISOString(),
				headers,
				body: delivery.body,
			};
			const controller = new AbortController();
			this.controllers.add(controller);
			const timeout = setTimeout(() => controller.abort(), this.timeoutMs);
			try {
				const response = await fetch(delivery.url, {
					method: 'POST',
					headers,
					body: delivery.body,
					signal: controller.signal,
				});
				await response.arrayBuffer();
				entry.status = response.status;
			} catch (error) {
				entry.error = controller.signal.aborted ? 'timeout' : (error as Error).message;
			} finally {
				clearTimeout(timeout);
				this.controllers.delete(controller);
			}
			this.log.push(entry);
			if (entry.status !== undefined && entry.status >= 200 && entry.status < 300) return;
			if (attempt < MAX_ATTEMPTS && !this.stopped) await this.wait(this.retryDelayMs);
		}
	}
}
