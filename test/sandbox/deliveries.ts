/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * Webhook delivery as the signing and survey services do it: up to three attempts in all, on
 * any non-2xx answer or a timeout, so receivers see the same delivery more than once.
 * Deliveries to one URL go out one after another, in the order the events happened, so that
 * `document.created` is never overtaken by `document.sent` while it is being retried.
 */
import { Sleeper } from './timers';

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
}

export class Deliverer {
	readonly log: DeliveryAttempt[] = [];
	private readonly queues = new Map<string, Promise<void>>();
	private readonly inFlight = new Set<AbortController>();
	private readonly sleeper = new Sleeper();
	private stopped = false;

	constructor(private readonly options: DelivererOptions) {}

	send(delivery: Delivery): void {
		this.enqueue(delivery.url, async () => await this.deliver(delivery));
	}

	/**
	 * Runs `task` once the tasks queued before it under the same key have ended; idle() waits for
	 * it. send() queues by URL; a service with its own retry policy (Formbricks' pipeline jobs)
	 * queues its attempts here and makes them with attemptOnce().
	 */
	enqueue(key: string, task: () => Promise<void>): void {
		if (this.stopped) return;
		const previous = this.queues.get(key) ?? Promise.resolve();
		const next = previous.then(task);
		this.queues.set(key, next);
		// Forget an idle queue, so that the map does not grow with every key ever used.
		void next.then(() => {
			if (this.queues.get(key) === next) this.queues.delete(key);
		});
	}

	/** One attempt, logged like the attempts of send(). */
	async attemptOnce(delivery: Delivery, attempt: number): Promise<DeliveryAttempt> {
		const entry = await this.attempt(delivery, attempt);
		this.log.push(entry);
		return entry;
	}

	/** Waits `ms`, cut short by stop(); false once stopped. */
	async pause(ms: number): Promise<boolean> {
		await this.sleeper.sleep(ms);
		return !this.stopped;
	}

	/** Resolves once every queued delivery has been tried to the end. */
	async idle(): Promise<void> {
		while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
	}

	/** Cancels waiting retries and attempts in flight; nothing is sent afterwards. */
	stop(): void {
		this.stopped = true;
		this.sleeper.close();
		for (const controller of this.inFlight) controller.abort();
	}

	private async deliver(delivery: Delivery): Promise<void> {
		const attempts = this.options.maxAttempts ?? MAX_ATTEMPTS;
		for (let attempt = 1; attempt <= attempts; attempt++) {
			if (attempt > 1) await this.sleeper.sleep(this.options.retryDelayMs);
			if (this.stopped) return;
			const entry = await this.attempt(delivery, attempt);
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
			at: new Date().toISOString(),
			headers,
			body,
		};
		const controller = new AbortController();
		this.inFlight.add(controller);
		const timeout = setTimeout(() => controller.abort(), this.options.timeoutMs);
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
			clearTimeout(timeout);
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
