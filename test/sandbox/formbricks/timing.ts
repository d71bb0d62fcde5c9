/**
 * Every time the Formbricks flavour deals with, in one place (the sandbox core is getting an
 * injectable clock; this is what it will have to reach here).
 *
 * Formbricks at b66c1dd delivers webhooks from a BullMQ job (`response-pipeline.process`):
 * - packages/jobs/src/constants.ts: `attempts: 3`, `backoff: { type: "exponential", delay: 5_000 }`;
 *   BullMQ's exponential backoff waits `delay * 2^(attemptsMade - 1)`: 5 s before the 2nd attempt,
 *   10 s before the 3rd.
 * - apps/web/modules/response-pipeline/lib/process-response-pipeline-job.ts: `WEBHOOK_TIMEOUT_MS = 5_000`
 *   per request; `webhook-timestamp` is `Math.floor(Date.now() / 1000)` at each attempt.
 */
export const FORMBRICKS_DELIVERY = {
	attempts: 3,
	backoffDelayMs: 5_000,
	timeoutMs: 5_000,
} as const;

/** BullMQ's exponential backoff: the wait after `attemptsMade` failed attempts. */
export function backoffMs(baseDelayMs: number, attemptsMade: number): number {
	return Math.round(2 ** (attemptsMade - 1) * baseDelayMs);
}

/** Seconds since the epoch, as Formbricks stamps `webhook-timestamp`. */
export function unixSeconds(now: Date = new Date()): number {
	return Math.floor(now.getTime() / 1000);
}

/** The time records are stamped with (`createdAt`, `updatedAt`). */
export function nowIso(): string {
	return new Date().toISOString();
}

const DAY_MS = 24 * 3600 * 1000;

/** An ISO time some days (and seconds) before now, for seeded records. */
export function daysAgo(days: number, plusSeconds = 0): string {
	return new Date(Date.now() - days * DAY_MS + plusSeconds * 1000).toISOString();
}
