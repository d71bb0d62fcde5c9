/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * The sandbox's time. Every time the services use (rate-limit windows, Retry-After, webhook
 * retry delays and timeouts, fault delays and latency, the times written into records and logs)
 * comes from one Clock, so that a test can drive it instead of waiting for it: a test that
 * depends on how fast the machine is fails when the machine is busy.
 */

/** What a wait is for, so that a test can wait for the right one before moving time on. */
export type WaitPurpose = 'latency' | 'fault delay' | 'webhook retry' | 'webhook timeout' | (string & {});

export interface Clock {
	/** Milliseconds since the epoch, as Date.now(). */
	now(): number;
	/** Calls `callback` once `ms` have passed on this clock; the returned function cancels it. */
	schedule(ms: number, callback: () => void, purpose: WaitPurpose): () => void;
}

/**
 * The machine's clock, for `npm run sandbox`, `npm start` and every test that does not drive
 * time. It reads `Date.now` and `setTimeout` when called, not when loaded, so that jest's fake
 * timers drive a sandbox running in the test's own process as they drive the nodes.
 */
export const systemClock: Clock = {
	now: () => Date.now(),
	schedule(ms, callback) {
		const timer = setTimeout(callback, ms);
		return () => clearTimeout(timer);
	},
};

/** The clock's time as the services write it into records and logs. */
export const isoNow = (clock: Clock): string => new Date(clock.now()).toISOString();

export interface PendingWait {
	purpose: WaitPurpose;
	/** How long until it falls due, on the clock. */
	inMs: number;
}

interface ManualTimer {
	due: number;
	order: number;
	purpose: WaitPurpose;
	callback: () => void;
}

/** A generous bound that only ends a test that is stuck; it says nothing about speed. */
export const STUCK_AFTER_MS = 120_000;

/**
 * A clock that stands still until the test moves it. `advance` calls the waits that fall due on
 * the way, soonest first, each with the clock at its due time. The code a wait resumes runs only
 * after `advance` has returned (it continues a promise), so what it schedules next starts from
 * the time the clock was moved to: move time in steps, and in between wait for the sandbox to
 * get to its next wait (`nextWait`).
 */
export class ManualClock implements Clock {
	private time: number;
	private timers: ManualTimer[] = [];
	private scheduled = 0;
	private listeners = new Set<() => void>();

	constructor(start: number | Date = Date.now()) {
		this.time = typeof start === 'number' ? start : start.getTime();
	}

	now(): number {
		return this.time;
	}

	schedule(ms: number, callback: () => void, purpose: WaitPurpose): () => void {
		const timer: ManualTimer = {
			due: this.time + Math.max(0, ms),
			order: this.scheduled++,
			purpose,
			callback,
		};
		this.timers.push(timer);
		this.timers.sort((a, b) => a.due - b.due || a.order - b.order);
		for (const listener of [...this.listeners]) listener();
		return () => {
			this.timers = this.timers.filter((other) => other !== timer);
		};
	}

	/** The waits not yet due, soonest first. */
	pending(): PendingWait[] {
		return this.timers.map(({ purpose, due }) => ({ purpose, inMs: due - this.time }));
	}

	/**
	 * Moves time on by `ms`, calling every wait that falls due on the way, soonest first, with
	 * the clock at its due time. Returns the purposes of the waits it ended.
	 */
	advance(ms: number): WaitPurpose[] {
		if (!Number.isFinite(ms) || ms < 0) throw new Error(`Cannot move the clock by ${ms} ms`);
		const target = this.time + ms;
		const ended: WaitPurpose[] = [];
		while (this.timers.length > 0 && this.timers[0].due <= target) {
			const timer = this.timers.shift() as ManualTimer;
			this.time = timer.due;
			ended.push(timer.purpose);
			timer.callback();
		}
		this.time = target;
		return ended;
	}

	/**
	 * Resolves with the first pending wait of `purpose` (any purpose when not given) once there
	 * is one: the sandbox has got to the point where it waits. Fails only a stuck test.
	 */
	async nextWait(purpose?: WaitPurpose, stuckAfterMs = STUCK_AFTER_MS): Promise<PendingWait> {
		const find = () => this.pending().find((wait) => purpose === undefined || wait.purpose === purpose);
		const found = find();
		if (found) return found;
		return await new Promise<PendingWait>((resolve, reject) => {
			const stuck = setTimeout(() => {
				this.listeners.delete(listener);
				reject(new Error(`No ${purpose ?? 'wait'} was scheduled on the sandbox's clock within ${stuckAfterMs} ms`));
			}, stuckAfterMs);
			// A test that failed before the wait came must not keep jest alive for it.
			stuck.unref();
			const listener = () => {
				const wait = find();
				if (!wait) return;
				clearTimeout(stuck);
				this.listeners.delete(listener);
				resolve(wait);
			};
			this.listeners.add(listener);
		});
	}

	/**
	 * Moves the clock on to the machine's time when it is behind (ending the waits due on the
	 * way): for what a process outside the test checks against its own clock, such as n8n
	 * refusing a Standard Webhooks signature more than 5 minutes old. Never moves it back.
	 */
	catchUp(): WaitPurpose[] {
		return this.advance(Math.max(0, Date.now() - this.time));
	}

	/** Waits for the next wait of `purpose` and moves time on until it ends; returns how far. */
	async advanceToNext(purpose?: WaitPurpose): Promise<number> {
		const { inMs } = await this.nextWait(purpose);
		this.advance(inMs);
		return inMs;
	}
}

/**
 * Waits on a clock that a stopping sandbox can cut short, so that no timer outlives it: jest
 * waits for pending timers before it exits, and a retry scheduled after stop() would reach a
 * closed test.
 */
export class Sleeper {
	private readonly pending = new Map<() => void, () => void>();
	private closed = false;

	constructor(private readonly clock: Clock) {}

	async sleep(ms: number, purpose: WaitPurpose): Promise<void> {
		if (ms <= 0 || this.closed) return;
		await new Promise<void>((resolve) => {
			const cancel = this.clock.schedule(
				ms,
				() => {
					this.pending.delete(cancel);
					resolve();
				},
				purpose,
			);
			this.pending.set(cancel, resolve);
		});
	}

	/** Ends every wait now: the waiting code carries on and sees why (a reset, a stop). */
	wakeAll(): void {
		for (const [cancel, resolve] of this.pending) {
			cancel();
			resolve();
		}
		this.pending.clear();
	}

	/**
	 * Ends every wait now, and every later one at once (code stopped in the middle of an
	 * attempt may still ask to wait): the waiting code carries on and sees that it was stopped.
	 */
	close(): void {
		this.closed = true;
		this.wakeAll();
	}
}
