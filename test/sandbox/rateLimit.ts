/**
 * The services' rate limits, timed by the sandbox's clock: the contract's sliding window of
 * requests per key (CONTRACTS.md: 100 requests a minute for the survey service), and the fixed
 * windows of the real platforms (Formbricks, Documenso), which begin on the minute of their clock.
 * A sandbox has one key: counting per key is counting per client (Documenso counts per IP).
 */
import type { Clock } from './timers';

export const RATE_WINDOW_MS = 60_000;

export interface RateLimit {
	/** Requests per window per key; null for no limit. */
	readonly current: number | null;
	/** Sets the limit and starts a new window for every key. */
	set(limit: number | null): void;
	/**
	 * Counts a request of the key; or, when the window is full, returns the whole seconds until it
	 * has room again (the Retry-After).
	 */
	take(key: string): number | undefined;
}

export class SlidingWindowLimit implements RateLimit {
	private windows = new Map<string, number[]>();

	constructor(
		private limit: number | null,
		private readonly clock: Clock,
		private readonly windowMs = RATE_WINDOW_MS,
	) {}

	get current(): number | null {
		return this.limit;
	}

	set(limit: number | null): void {
		this.limit = limit;
		this.windows = new Map();
	}

	/** A refused request is not counted; its Retry-After is when the window's oldest request leaves it. */
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

/**
 * Windows that begin at whole multiples of `windowMs` on the clock, a counter per key and window
 * that every request raises, refused or not. Formbricks (apps/web/modules/core/rate-limit/rate-limit.ts
 * at b66c1dd: `windowStart = Math.floor(now / (interval * 1000))`, Redis INCR, allowed while
 * `current <= limit`) and Documenso (packages/lib/server-only/rate-limit/rate-limit.ts at v2.17.0:
 * `bucket = now - (now % windowMs)`, refused once `count > max`) both let `limit` through.
 */
export class FixedWindowLimit implements RateLimit {
	private counters = new Map<string, { window: number; count: number }>();

	constructor(
		private limit: number | null,
		private readonly clock: Clock,
		private readonly windowMs = RATE_WINDOW_MS,
	) {}

	get current(): number | null {
		return this.limit;
	}

	set(limit: number | null): void {
		this.limit = limit;
		this.counters = new Map();
	}

	take(key: string): number | undefined {
		if (this.limit === null) return undefined;
		const { windowMs } = this;
		const now = this.clock.now();
		const window = Math.floor(now / windowMs);
		const counter = this.counters.get(key);
		const current = counter?.window === window ? counter : { window, count: 0 };
		current.count++;
		this.counters.set(key, current);
		if (current.count <= this.limit) return undefined;
		return Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
	}
}
