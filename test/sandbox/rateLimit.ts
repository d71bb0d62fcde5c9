/**
 * The services' rate limit: a sliding window of requests per key, as CONTRACTS.md describes
 * it (100 requests a minute for the survey service), timed by the sandbox's clock.
 */
import type { Clock } from './timers';

export const RATE_WINDOW_MS = 60_000;

export class SlidingWindowLimit {
	private windows = new Map<string, number[]>();

	/** `limit` requests per window per key; null for no limit. */
	constructor(
		private limit: number | null,
		private readonly clock: Clock,
		private readonly windowMs = RATE_WINDOW_MS,
	) {}

	get current(): number | null {
		return this.limit;
	}

	/** Sets the limit and starts a new window for every key. */
	set(limit: number | null): void {
		this.limit = limit;
		this.windows = new Map();
	}

	/**
	 * Counts a request in the key's window; or, when the window is full, returns the whole
	 * seconds until its oldest request leaves it (the Retry-After), and counts nothing.
	 */
	take(key: string): number | undefined {
		if (this.limit === null) return undefined;
		const now = this.clock.now();
		const window = (this.windows.get(key) ?? []).filter((at) => now - at < this.windowMs);
		this.windows.set(key, window);
		if (window.length >= this.limit) {
			return Math.max(1, Math.ceil((window[0] + this.windowMs - now) / 1000));
		}
		window.push(now);
		return undefined;
	}
}
