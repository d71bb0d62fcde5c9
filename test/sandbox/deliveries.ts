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
	/** The body, or how to build it for each attempt (Documenso stamps every attempt anew). */
	body: string | (() => string);
	/** Headers of one attempt: a signature covers the attempt's own timestamp. */
	headers(): Record<string, string>;
}

export interface DelivererOptions {
	retryDelayMs: number;
	timeoutMs: number;
	/** Attempts in all; MAX_ATTEMPTS unless a service's own job runner tries more often. */
	maxAttempts?: number;
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
	private currentGeneration = 0;

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
		this.enqueue(delivery.url, async (generation) => await this.deliver(delivery, generation));
	}

	/**
	 * Moves on at every reset. A service with its own retry policy (Formbricks' pipeline jobs)
	 * takes it when an event happens and hands it to enqueue(), attemptOnce() and pause(), so
	 * that nothing of a job from before a reset is sent or logged after it.
	 */
	get generation(): number {
		return this.currentGeneration;
	}

	/**
	 * Runs `task` once the tasks queued before it under the same key have ended; idle() waits for
	 * it and `pending` counts it. A task of an earlier `generation` than the current one does not
	 * run. send() queues by URL; a service with its own retry policy queues its attempts here and
	 * makes them with attemptOnce().
	 */
	enqueue(
		key: string,
		task: (generation: number) => Promise<void>,
		generation = this.currentGeneration,
	): void {
		if (this.dropped(generation)) return;
		this.unfinished++;
		const previous = this.queues.get(key) ?? Promise.resolve();
		const next = previous
			.then(async () => {
				if (!this.dropped(generation)) await task(generation);
			})
			.finally(() => this.unfinished--);
		this.queues.set(key, next);
		// Forget an idle queue, so that the map does not grow with every key ever used.
		void next.then(() => {
			if (this.queues.get(key) === next) this.queues.delete(key);
		});
	}

	/** One attempt, logged like the attempts of send() unless a reset came since `generation`. */
	async attemptOnce(
		delivery: Delivery,
		attempt: number,
		generation: number,
	): Promise<DeliveryAttempt> {
		const entry = await this.attempt(delivery, attempt);
		if (!this.dropped(generation)) this.log.push(entry);
		return entry;
	}

	/** Waits `ms` before a retry, cut short by stop() and reset(); false when either came. */
	async pause(ms: number, generation: number): Promise<boolean> {
		await this.sleeper.sleep(ms, 'webhook retry');
		return !this.dropped(generation);
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
		this.currentGeneration++;
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

	private dropped(generation: number): boolean {
		return this.stopped || generation !== this.currentGeneration;
	}

	private async deliver(delivery: Delivery, generation: number): Promise<void> {
		const attempts = this.options.maxAttempts ?? MAX_ATTEMPTS;
		for (let attempt = 1; attempt <= attempts; attempt++) {
			if (attempt > 1) await this.sleeper.sleep(this.options.retryDelayMs, 'webhook retry');
			if (this.dropped(generation)) return;
			const entry = await this.attempt(delivery, attempt);
			if (generation !== this.currentGeneration) return;
			this.log.push(entry);
			if (entry.status !== undefined && entry.status >= 200 && entry.status < 300) return;
		}
	}

	private async attempt(delivery: Delivery, attempt: number): Promise<DeliveryAttempt> {
		const headers = delivery.headers();
		const body = typeof delivery.body === 'string' ? delivery.body : delivery.body();
		const entry: DeliveryAttempt = {
			deliveryId: delivery.deliveryId,
			event: delivery.event,
			url: delivery.url,
			attempt,
			at: new Date(this.options.clock.now()).toISOString(),
			headers,
			body,
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
				body,
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
