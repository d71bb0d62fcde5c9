/**
 * Webhook delivery as the signing and survey services do it: up to three attempts in all, on
 * any non-2xx answer or a timeout, so receivers see the same delivery more than once.
 * Deliveries to one URL go out one after another, in the order the events happened, so that
 * `document.created` is never overtaken by `document.sent` while it is being retried.
 */
import { type Clock, Sleeper } from './timers';

export const MAX_ATTEMPTS = 3;

export interface DeliveryAttempt {
	/** The id the receiver sees on every attempt of one delivery (X-Signing-Delivery, webhook-id). */
	deliveryId: string;
	event: string;
	url: string;
	attempt: number;
	/** The receiver's status, when it answered. */
	status?: number;
	/** `timeout`, or the network error, when it did not. */
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
	/** Headers of one attempt: a signature covers the attempt's own timestamp. */
	headers(): Record<string, string>;
}

export interface DelivererOptions {
	retryDelayMs: number;
	timeoutMs: number;
	/** Times the retry delays, the timeouts and each attempt's `at`. */
	clock: Clock;
}

export class Deliverer {
	readonly log: DeliveryAttempt[] = [];
	private readonly queues = new Map<string, Promise<void>>();
	private readonly inFlight = new Set<AbortController>();
	private readonly sleeper: Sleeper;
	private stopped = false;
	private unfinished = 0;
	/** Moves on at every reset: deliveries of an earlier generation are dropped. */
	private generation = 0;

	constructor(private readonly options: DelivererOptions) {
		this.sleeper = new Sleeper(options.clock);
	}

	/**
	 * Deliveries sent and not yet tried to the end (queued, in flight, or waiting for a retry).
	 * At 0, every event so far has been delivered or given up, and `log` has all its attempts:
	 * what a test waits for instead of sleeping to see that nothing more arrives.
	 */
	get pending(): number {
		return this.unfinished;
	}

	/** What GET /_sandbox/deliveries answers. */
	report(): { deliveries: DeliveryAttempt[]; pending: number } {
		return { deliveries: this.log, pending: this.pending };
	}

	send(delivery: Delivery): void {
		if (this.stopped) return;
		this.unfinished++;
		const previous = this.queues.get(delivery.url) ?? Promise.resolve();
		const generation = this.generation;
		const next = previous
			.then(async () => await this.deliver(delivery, generation))
			.finally(() => this.unfinished--);
		this.queues.set(delivery.url, next);
		// Forget an idle queue, so that the map does not grow with every URL ever used.
		void next.then(() => {
			if (this.queues.get(delivery.url) === next) this.queues.delete(delivery.url);
		});
	}

	/** Resolves once every queued delivery has been tried to the end. */
	async idle(): Promise<void> {
		while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
	}

	/**
	 * Drops what was sent before (waiting retries, attempts in flight, queued deliveries) and
	 * the log, so that no event of a previous test arrives after the reset.
	 */
	reset(): void {
		this.generation++;
		this.log.length = 0;
		this.sleeper.wakeAll();
		for (const controller of this.inFlight) controller.abort();
	}

	/** Cancels waiting retries and attempts in flight; nothing is sent afterwards. */
	stop(): void {
		this.stopped = true;
		this.sleeper.close();
		for (const controller of this.inFlight) controller.abort();
	}

	private async deliver(delivery: Delivery, generation: number): Promise<void> {
		const dropped = () => this.stopped || generation !== this.generation;
		for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
			if (attempt > 1) await this.sleeper.sleep(this.options.retryDelayMs, 'webhook retry');
			if (dropped()) return;
			const entry = await this.attempt(delivery, attempt);
			if (generation !== this.generation) return;
			this.log.push(entry);
			if (entry.status !== undefined && entry.status >= 200 && entry.status < 300) return;
		}
	}

	private async attempt(delivery: Delivery, attempt: number): Promise<DeliveryAttempt> {
		const headers = delivery.headers();
		const entry: DeliveryAttempt = {
			deliveryId: delivery.deliveryId,
			event: delivery.event,
			url: delivery.url,
			attempt,
			at: new Date(this.options.clock.now()).toISOString(),
			headers,
			body: delivery.body,
		};
		const controller = new AbortController();
		this.inFlight.add(controller);
		const cancelTimeout = this.options.clock.schedule(
			this.options.timeoutMs,
			() => controller.abort(),
			'webhook timeout',
		);
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
			entry.error = this.stopped
				? 'stopped'
				: controller.signal.aborted
					? 'timeout'
					: describe(error);
		} finally {
			cancelTimeout();
			this.inFlight.delete(controller);
		}
		return entry;
	}
}

/** fetch reports every network failure as "fetch failed"; the cause says which. */
function describe(error: unknown): string {
	const { message, cause } = error as {
		message?: string;
		cause?: { code?: string; message?: string };
	};
	return [message, cause?.code ?? cause?.message].filter(Boolean).join(': ');
}
