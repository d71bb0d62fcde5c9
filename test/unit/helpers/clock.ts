/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the test's own real waits, which fake timers leave alone */
/**
 * Time for unit tests that is the test's, not the machine's. The nodes wait with n8n's `sleep`
 * (Retry-After, backoff) and a sandbox on its default clock reads `Date.now` and `setTimeout`
 * when called: under jest's fake timers both run on fake time, which moves only when the test
 * moves it. So a retry test takes no real time, and cannot fail because the machine is busy.
 */
import { setTimeout as realSleep } from 'node:timers/promises';

import { requestsInFlight } from './context';

/**
 * Fake timers that leave the event loop's own machinery alone (next tick, microtasks,
 * setImmediate, hrtime): HTTP between the node and an in-process sandbox keeps working.
 */
export function useFakeTime(now?: number): void {
	jest.useFakeTimers({
		doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'hrtime', 'performance'],
		...(now === undefined ? {} : { now }),
	});
}

/** Fake time that passes without the work finishing points at a retry loop that never ends. */
const RUNAWAY_AFTER_MS = 24 * 3600 * 1000;

/**
 * Runs `work` on fake time, to the end. While a request is in flight (through the stand-in
 * HTTP client of context.ts), time stands still and the test waits for real, for the answer;
 * once none is and a timer is pending, time jumps to it, and every timer due then fires. So
 * requests sent together stay together however slow the machine, and a retry never overtakes
 * an answer still on its way. Resolves with the work's result and the fake time it took.
 * Real timers are back afterwards, whatever happened.
 *
 * A sandbox in the same process runs on this fake time too: its latency and fault delays
 * would wait for a request in flight to end, i.e. forever. Give such a test a sandbox on a
 * ManualClock instead (test/sandbox/README.md, Time).
 */
export async function runWithFakeTime<T>(work: () => Promise<T>): Promise<{ result: T; elapsedMs: number }> {
	useFakeTime();
	const started = Date.now();
	let settled = false;
	const outcome = work().then(
		(result) => ({ result }),
		(error: unknown) => ({ error }),
	);
	void outcome.then(() => (settled = true));
	try {
		while (!settled) {
			if (requestsInFlight() === 0 && jest.getTimerCount() > 0) {
				await jest.advanceTimersToNextTimerAsync();
				await jest.advanceTimersByTimeAsync(0);
			} else {
				await realSleep(1);
			}
			if (Date.now() - started > RUNAWAY_AFTER_MS) {
				throw new Error(`Still not finished after ${RUNAWAY_AFTER_MS} ms of fake time`);
			}
		}
		const elapsedMs = Date.now() - started;
		const done = await outcome;
		if ('error' in done) throw done.error;
		return { result: done.result, elapsedMs };
	} finally {
		jest.useRealTimers();
	}
}
