import { createHash } from 'crypto';
import type { INodeProperties } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * How a platform limits the requests of one key, as its source or contract says. Each adapter
 * declares its platform's where it creates its transport.
 */
export interface RatePolicy {
	/** Requests a window allows one key; undefined where the platform names no number (learnt from 429s alone). */
	limit?: number;
	windowMs: number;
	/**
	 * `fixed`: windows begin at whole multiples of `windowMs` on the platform's clock, which its
	 * `Date` header tells (Formbricks, Documenso); `sliding`: a request leaves the window `windowMs`
	 * after it was counted (the documented API's contract).
	 */
	windows: 'fixed' | 'sliding';
	/**
	 * `client`: the platform counts the requests of the client's address, whatever key they carry
	 * (Documenso), so every key of this n8n to the Base URL shares one budget; `key` (the default):
	 * each key has its own.
	 */
	countedPer?: 'key' | 'client';
	/** How long the platform waits for a webhook's answer: a trigger's request never waits on the budget that long. */
	senderWaitMs: number;
	/** Seconds until the window reopens, where the platform says so in a 429's body instead of `Retry-After`. */
	reopensIn?: (body: unknown) => number | undefined;
}

/** The contract's limit for services that name no number: a 429 pauses the budget for its `Retry-After`. */
export const CONTRACT_RATE_POLICY: RatePolicy = { windowMs: 60_000, windows: 'sliding', senderWaitMs: 5_000 };

/** Reads the seconds a platform says in a 429's message (the first number `pattern` captures). */
export const waitInMessage =
	(pattern: RegExp) =>
	(body: unknown): number | undefined => {
		const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body ?? '');
		const match = pattern.exec(text);
		return match ? Number(match[1]) : undefined;
	};

/** Time as the budget reads and waits for it; tests inject their own. */
export interface BudgetClock {
	now(): number;
	/** Resolves after `ms`, or as soon as the signal aborts. */
	sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** `setTimeout`'s longest delay: a longer one fires after 1 ms (and warns), so no wait is ever asked for longer. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const systemBudgetClock: BudgetClock = {
	now: () => Date.now(),
	async sleep(ms, signal) {
		ms = Math.min(Math.max(0, ms), MAX_TIMER_MS);
		// Older n8n versions' `sleep` ignores a signal, so the abort is also raced here.
		let onAbort = () => {};
		const aborted = new Promise<void>((resolve) => {
			onAbort = resolve;
			signal.addEventListener('abort', onAbort, { once: true });
		});
		try {
			await Promise.race([sleep(ms, signal).catch(() => undefined), aborted]);
		} finally {
			signal.removeEventListener('abort', onAbort);
		}
	},
};

/** What a trigger's request may spend at most, besides its wait: the request itself and the answer to the sender. */
export const WEBHOOK_ANSWER_MARGIN_MS = 2_000;
/**
 * A wait this long on what the budget inferred itself (its counts, the platform's clock, its blind
 * pauses: all far shorter) can only come from a clock that jumped back: what it inferred is then
 * forgotten. A pause the platform asked for (`Retry-After`, or its body's words) is kept however
 * long it is, and dropped only when the clock is seen going back past the moment it was asked.
 */
const STALE_AFTER_MS = 10 * 60_000;
/** The longest pause the budget takes on its own when the platform tells nothing (1, 2, 4 … 64 s). */
const MAX_BLIND_PAUSE_MS = 64_000;
/**
 * The longest pause the platform may ask of the whole budget: a request told to wait longer fails
 * (`RetryPolicy.maxRetryAfterSeconds`, 2 minutes by default), and nobody else waits for it.
 */
export const MAX_HONOURED_RETRY_AFTER_SECONDS = 120;

/**
 * What the credential says of the server's limit. `learn` (the default): none until the server
 * shows one, by a 429 or by rate-limit headers (Documenso's `X-RateLimit-Limit`), then the
 * platform's policy (or the limit the headers name); `platform`: the platform's default limit
 * from the first request; a number: that many requests a window from the first request; `none`:
 * never paced by count (a 429 is still waited for as the server says).
 */
export type ServerLimit = 'learn' | 'platform' | 'none' | number;

/** The credential's *Server's Rate Limit* (absent in credentials saved before it: `learn`). */
export function serverLimitOf(credentials: Record<string, unknown>): ServerLimit {
	const mode = credentials.serverRateLimit;
	if (mode === 'platform' || mode === 'none') return mode;
	if (mode === 'custom') {
		const perMinute = Number(credentials.serverRateLimitPerMinute);
		return Number.isFinite(perMinute) && perMinute >= 1 ? Math.floor(perMinute) : 'platform';
	}
	return 'learn';
}

/** The credential fields that say the server's limit, the same in every credential of the pack. */
export function serverRateLimitProperties(platformDefaults: string): INodeProperties[] {
	return [
		{
			displayName: "Server's Rate Limit",
			name: 'serverRateLimit',
			type: 'options',
			default: 'learn',
			description: `How many requests a minute the server lets one key send. The nodes of one n8n share this budget per Base URL and key. Platform defaults: ${platformDefaults}.`,
			options: [
				{
					name: 'Learn From the Server',
					value: 'learn',
					description: "Send as fast as the server answers until it refuses one (429) or names its limit in its headers, then keep to the platform's limit",
				},
				{
					name: "The Platform's Default",
					value: 'platform',
					description: 'Keep to the platform’s default limit from the first request',
				},
				{
					name: 'A Number per Minute',
					value: 'custom',
					description: 'The server was set to another limit: keep to it from the first request',
				},
				{
					name: 'None',
					value: 'none',
					description: 'The server does not limit: never pace (a 429 is still waited for as the server says)',
				},
			],
		},
		{
			displayName: 'Requests per Minute',
			name: 'serverRateLimitPerMinute',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 100,
			description: 'The limit the server was set to, per key and minute',
			// `hide`, not `show`: n8n's public API makes a field shown for a value required whenever the
			// other field is absent, which would refuse credentials created without these fields.
			displayOptions: { hide: { serverRateLimit: ['learn', 'platform', 'none'] } },
		},
	];
}

/** One permission to send, with what it was counted as. */
export interface BudgetTicket {
	sentAt: number;
	/** The platform's windows (fixed windows) the request may fall into, each counted once. */
	windows: number[];
}

interface Waiter {
	order: number;
	deadline?: number;
	resolve(ticket: BudgetTicket): void;
	reject(error: Error): void;
	tooLate(readyAt: number): Error;
}

export interface TakeOptions {
	/** The request's place: the order in which it first asked, kept when it is sent again after a 429. */
	order: number;
	/** On the budget's clock: a request that could not be sent before it fails with `tooLate` instead of waiting. */
	deadline?: number;
	tooLate(readyAt: number): Error;
	signal?: AbortSignal;
	cancelled(): Error;
}

export interface Refusal {
	/** What the platform said: `Retry-After`, or its body's words; undefined when it said nothing. */
	retryAfterSeconds?: number;
}

type Headers = Record<string, string | string[] | undefined>;

const headerOf = (headers: Headers, name: string) => {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
};

/**
 * The requests one n8n process sends with one key to one platform, shared by every node,
 * operation and execution that uses the key. Requests wait their turn in the order they first
 * asked; none is sent while the budget is paused or while the platform's window is full by its
 * count (the platform's limit, in its windows: fixed ones are read from its `Date` header). A 429,
 * which then comes only from another client with the key, pauses the whole budget until the
 * window reopens: `Retry-After` where the platform sends it, the next window of its clock for
 * fixed windows (the 429 tells that this one is full), the oldest counted request leaving the
 * window for sliding ones, and else 1, 2, 4 … 64 s.
 */
export class RateBudget {
	private readonly queue: Waiter[] = [];
	private pumping = false;
	/** Ends the pump's wait once nobody waits any more. */
	private pumpWait?: AbortController;
	private orders = 0;
	/** The pause the budget took on its own (a full window, a blind pause). */
	private pausedUntil = 0;
	/** The pause the platform asked for, and when it asked. */
	private told?: { at: number; until: number };
	/** Send times, newest last, as many as the limit (the sliding rule). */
	private sends: number[] = [];
	/** Requests counted in each of the platform's fixed windows, by window number. */
	private counts = new Map<number, number>();
	/** The platform's clock minus ours, between these bounds (read from `Date` headers). */
	private offset?: { lo: number; hi: number };
	private longestTripMs = 0;
	private blindPauses = 0;
	/** Answers other than 429: a request's wait that saw this rise made progress. */
	progress = 0;
	/** What the credential says of the server's limit. */
	private setting: ServerLimit = 'learn';
	/** Whether the server has shown that it limits (a 429, or rate-limit headers). */
	private limitShown = false;
	/** The limit the server's `X-RateLimit-Limit` header names, where it sends one. */
	private headerLimit?: number;
	/** When a request last asked, was answered or refused: an idle budget is forgotten (`rateBudget`). */
	lastActiveAt: number;

	constructor(
		readonly policy: RatePolicy,
		private readonly clock: BudgetClock = systemBudgetClock,
		setting: ServerLimit = 'learn',
	) {
		this.lastActiveAt = clock.now();
		this.configure(setting);
	}

	/** Takes the credential's word on the server's limit (the last credential used with the key wins). */
	configure(setting: ServerLimit): void {
		this.setting = typeof setting === 'number' && !(setting > 0) ? 'learn' : setting;
	}

	/** The requests a window allows by which the budget paces now; undefined: it does not pace by count. */
	get limit(): number | undefined {
		const { setting } = this;
		if (typeof setting === 'number') return setting;
		if (setting === 'none') return undefined;
		if (setting === 'platform') return this.policy.limit;
		return this.limitShown ? (this.headerLimit ?? this.policy.limit) : undefined;
	}

	/** Whether nobody waits and no pause is pending: the budget can be forgotten without changing anything. */
	idle(now = this.clock.now()): boolean {
		return this.queue.length === 0 && !this.pumping && this.readyAt(now) <= now;
	}

	/** A new request's place in the order. */
	nextOrder(): number {
		return this.orders++;
	}

	/** Resolves when the request may be sent; rejects when it cannot be before its deadline, or is cancelled. */
	async take(options: TakeOptions): Promise<BudgetTicket> {
		const { signal } = options;
		this.lastActiveAt = this.clock.now();
		if (signal?.aborted) throw options.cancelled();
		// The pump may be asleep until the budget reopens: a request that cannot wait that long is told now.
		const readyAt = this.readyAt();
		if (options.deadline !== undefined && options.deadline < readyAt) throw options.tooLate(readyAt);
		return await new Promise<BudgetTicket>((resolve, reject) => {
			const onAbort = () => {
				this.leave(waiter);
				reject(options.cancelled());
			};
			const waiter: Waiter = {
				order: options.order,
				deadline: options.deadline,
				tooLate: options.tooLate,
				resolve: (ticket) => {
					signal?.removeEventListener('abort', onAbort);
					resolve(ticket);
				},
				reject: (error) => {
					signal?.removeEventListener('abort', onAbort);
					reject(error);
				},
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			const at = this.queue.findIndex((other) => other.order > waiter.order);
			this.queue.splice(at === -1 ? this.queue.length : at, 0, waiter);
			void this.pump();
		});
	}

	/** An answer other than 429: progress, and what its `Date` tells of the platform's clock. */
	answered(ticket: BudgetTicket, headers: Headers): void {
		this.lastActiveAt = this.clock.now();
		this.readLimitHeader(headers);
		this.progress++;
		this.blindPauses = 0;
		this.readClock(ticket, headers);
	}

	/**
	 * A 429: the budget is paused until the platform's window reopens, and paces itself from now on.
	 * `body` is read only where the platform says the wait in it. A wait longer than
	 * `maxHonouredSeconds` is not taken: the request that was told fails, and nobody else waits.
	 */
	refused(
		ticket: BudgetTicket,
		headers: Headers,
		body?: unknown,
		maxHonouredSeconds = MAX_HONOURED_RETRY_AFTER_SECONDS,
	): Refusal {
		const now = this.clock.now();
		this.lastActiveAt = now;
		this.limitShown = true;
		this.readLimitHeader(headers);
		const windowNumber = this.readClock(ticket, headers);
		const told = parseRetryAfter(headerOf(headers, 'retry-after'), now) ?? this.policy.reopensIn?.(body);
		if (told !== undefined && told > maxHonouredSeconds) return { retryAfterSeconds: told };
		if (told !== undefined) {
			const until = now + Math.ceil(told * 1000);
			this.told = { at: now, until: Math.max(until, this.told?.until ?? 0) };
			return { retryAfterSeconds: told };
		}
		if (windowNumber !== undefined) this.counts.set(windowNumber, Infinity);
		let reopensAt = this.inferredReadyAt(now);
		// Our own count does not explain the 429 (another client uses the key): wait blind, longer each time.
		if (reopensAt <= now) reopensAt = now + Math.min(MAX_BLIND_PAUSE_MS, 1000 * 2 ** this.blindPauses++);
		this.pausedUntil = Math.max(this.pausedUntil, reopensAt);
		return { retryAfterSeconds: undefined };
	}

	/** `X-RateLimit-Limit` (several limits may be joined: the smallest holds) shows the server's limit. */
	private readLimitHeader(headers: Headers): void {
		const value = headers['x-ratelimit-limit'];
		const numbers = (Array.isArray(value) ? value.join(',') : (value ?? ''))
			.split(',')
			.map((part) => Number.parseInt(part.trim(), 10))
			.filter((number) => number > 0);
		if (numbers.length === 0) return;
		this.limitShown = true;
		this.headerLimit = Math.min(...numbers);
	}

	/** When the next request may be sent, at the earliest (now when it may be sent at once). */
	readyAt(now = this.clock.now()): number {
		if (this.told && now < this.told.at) {
			// The clock went back: nothing measured on it before holds.
			this.told = undefined;
			this.forget();
		}
		return Math.max(this.inferredReadyAt(now), this.told?.until ?? now);
	}

	/** When the budget's own counts and pauses let the next request go. */
	private inferredReadyAt(now: number): number {
		let at = Math.max(now, this.pausedUntil);
		const { limit } = this;
		const { windowMs } = this.policy;
		if (this.policy.windows === 'fixed' && this.offset) {
			const allowed = limit ?? Infinity;
			for (;;) {
				const full = this.windowsAt(at).find((window) => (this.counts.get(window) ?? 0) >= allowed);
				if (full === undefined) break;
				at = Math.max(at, (full + 1) * windowMs - this.offset.lo);
			}
		} else if (limit !== undefined && this.sends.length >= limit) {
			at = Math.max(at, this.sends[this.sends.length - limit] + windowMs);
		}
		if (at - now > STALE_AFTER_MS) {
			this.forget();
			return now;
		}
		return at;
	}

	private forget(): void {
		this.pausedUntil = 0;
		this.sends = [];
		this.counts.clear();
		this.offset = undefined;
	}

	/** The platform's window numbers a request sent at `at` may be counted in (two near a window's end). */
	private windowsAt(at: number): number[] {
		const { lo, hi } = this.offset as { lo: number; hi: number };
		const first = Math.floor((at + lo) / this.policy.windowMs);
		const last = Math.floor((at + hi + this.longestTripMs) / this.policy.windowMs);
		return Array.from({ length: last - first + 1 }, (_, index) => first + index);
	}

	/**
	 * Narrows the platform's clock from an answer's `Date` (whole seconds, stamped while the request
	 * was under way), and settles which window the request was counted in. Returns that window.
	 */
	private readClock(ticket: BudgetTicket, headers: Headers): number | undefined {
		const date = Date.parse(headerOf(headers, 'date') ?? '');
		if (this.policy.windows !== 'fixed' || Number.isNaN(date)) return undefined;
		const receivedAt = this.clock.now();
		const lo = date - receivedAt;
		const hi = date + 1000 - ticket.sentAt;
		this.longestTripMs = Math.max(this.longestTripMs, receivedAt - ticket.sentAt);
		const previous = this.offset;
		this.offset =
			previous && Math.max(previous.lo, lo) <= Math.min(previous.hi, hi)
				? { lo: Math.max(previous.lo, lo), hi: Math.min(previous.hi, hi) }
				: { lo, hi };
		const counted = Math.floor(date / this.policy.windowMs);
		for (const window of ticket.windows) {
			if (window !== counted) this.counts.set(window, Math.max(0, (this.counts.get(window) ?? 1) - 1));
		}
		if (!ticket.windows.includes(counted)) this.counts.set(counted, (this.counts.get(counted) ?? 0) + 1);
		ticket.windows = [counted];
		return counted;
	}

	private leave(waiter: Waiter): void {
		const at = this.queue.indexOf(waiter);
		if (at !== -1) this.queue.splice(at, 1);
		if (this.queue.length === 0) this.pumpWait?.abort();
	}

	private record(now: number): BudgetTicket {
		// Kept as many as any limit the budget may come to pace by, so that it knows the window once it does.
		const keep = Math.max(this.policy.limit ?? 0, this.headerLimit ?? 0, typeof this.setting === 'number' ? this.setting : 0);
		if (keep > 0) {
			this.sends.push(now);
			if (this.sends.length > keep) this.sends.splice(0, this.sends.length - keep);
		}
		const windows = this.policy.windows === 'fixed' && this.offset ? this.windowsAt(now) : [];
		for (const window of windows) this.counts.set(window, (this.counts.get(window) ?? 0) + 1);
		if (windows.length > 0) {
			for (const window of this.counts.keys()) if (window < windows[0] - 1) this.counts.delete(window);
		}
		return { sentAt: now, windows };
	}

	/** Lets the waiters go one by one, in order, each as soon as the budget allows. */
	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			while (this.queue.length > 0) {
				const now = this.clock.now();
				const readyAt = this.readyAt(now);
				for (const waiter of [...this.queue]) {
					if (waiter.deadline !== undefined && waiter.deadline < readyAt) {
						this.leave(waiter);
						waiter.reject(waiter.tooLate(readyAt));
					}
				}
				if (this.queue.length === 0) break;
				if (readyAt > now) {
					this.pumpWait = new AbortController();
					await this.clock.sleep(readyAt - now, this.pumpWait.signal);
					this.pumpWait = undefined;
					continue;
				}
				(this.queue.shift() as Waiter).resolve(this.record(now));
			}
		} finally {
			this.pumping = false;
		}
	}
}

/** Seconds from a `Retry-After` header (seconds or HTTP date); undefined when absent or unreadable. */
function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
	const raw = Array.isArray(value) ? value[0] : value;
	if (raw === undefined || raw.trim() === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.max(0, seconds);
	const date = Date.parse(raw);
	return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

const budgets = new Map<string, RateBudget>();
/** A budget nobody used for this long, with no pause pending, is forgotten: it holds nothing a new one would not learn again. */
export const IDLE_BUDGET_MS = 15 * 60_000;
/** The most budgets kept at once: past it, the longest idle are forgotten first (one per Base URL and key in use). */
export const MAX_BUDGETS = 1_000;
let lastSweepAt = 0;

/** Forgets the budgets idle for `IDLE_BUDGET_MS`, and past `MAX_BUDGETS` the longest idle of the rest. */
function forgetIdleBudgets(now: number): void {
	const sweepDue = now - lastSweepAt >= 60_000 || now < lastSweepAt;
	if (!sweepDue && budgets.size < MAX_BUDGETS) return;
	lastSweepAt = now;
	const idle: Array<[string, RateBudget]> = [];
	for (const entry of budgets) {
		if (!entry[1].idle()) continue;
		if (now - entry[1].lastActiveAt >= IDLE_BUDGET_MS || now < entry[1].lastActiveAt) budgets.delete(entry[0]);
		else idle.push(entry);
	}
	idle.sort((a, b) => a[1].lastActiveAt - b[1].lastActiveAt);
	for (const [id] of idle) {
		if (budgets.size < MAX_BUDGETS) break;
		budgets.delete(id);
	}
}

/**
 * The budget of one platform, Base URL and key in this process (of the Base URL alone where the
 * platform counts per client), paced as the credential says of the server's limit (`setting`).
 * The key is kept only as a hash, never in clear.
 */
export function rateBudget(
	platform: string,
	baseUrl: string,
	secret: string,
	policy: RatePolicy,
	setting: ServerLimit = 'learn',
): RateBudget {
	const keyHash =
		policy.countedPer === 'client' ? 'every key' : createHash('sha256').update(secret).digest('hex').slice(0, 32);
	const id = `${platform}\n${baseUrl}\n${keyHash}`;
	let budget = budgets.get(id);
	if (!budget) {
		forgetIdleBudgets(Date.now());
		budget = new RateBudget(policy, systemBudgetClock, setting);
		budgets.set(id, budget);
	}
	budget.configure(setting);
	return budget;
}

/** How many budgets the process keeps (for tests of their bound). */
export const rateBudgetCount = (): number => budgets.size;

/** Forgets every budget: for tests that start a fresh service on a Base URL used before. */
export function forgetRateBudgets(): void {
	budgets.clear();
	lastSweepAt = 0;
}
