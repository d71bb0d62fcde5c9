import type { IExecuteFunctions, IHttpRequestOptions, IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { mapConcurrently } from '../../nodes/shared/concurrency';
import {
	type BudgetClock,
	forgetRateBudgets,
	IDLE_BUDGET_MS,
	MAX_BUDGETS,
	MAX_TIMER_MS,
	RateBudget,
	type RatePolicy,
	rateBudget,
	rateBudgetCount,
	serverLimitOf,
	waitInMessage,
} from '../../nodes/shared/rateBudget';
import { SurveyApi } from '../../credentials/SurveyApi.credentials';
import { type RetryPolicy, serviceAnswer, serviceRequest } from '../../nodes/shared/request';
import { FixedWindowLimit } from '../sandbox/rateLimit';
import { systemClock } from '../sandbox/timers';
import { runWithFakeTime, useFakeTime } from './helpers/clock';

/**
 * Issue 36: each request backed off on its own after a 429 (1, 2, 4 … 64 s, then gave up), and a
 * rate-limited request gave up its place, so a read of 230 Formbricks surveys sent 941 requests for
 * 231 and one of 360 failed, while every other workflow with the key was refused too. Now one budget
 * per platform, Base URL and key paces every request in the process. Time is jest's fake time (an
 * injected clock): the platform below counts on it as Formbricks counts on its own.
 */

/** Formbricks' limit as its adapter declares it (rate-limit.ts at b66c1dd). */
const FORMBRICKS: RatePolicy = { limit: 100, windowMs: 60_000, windows: 'fixed', senderWaitMs: 5_000 };
const MINUTE = 60_000;

interface Sent {
	at: number;
	path: string;
	method: string;
	status: number;
	key: string;
}

/**
 * A platform in the test's process that limits as Formbricks' rate-limit.ts does: 100 requests per
 * key in each minute of its clock, a 429 without Retry-After, its clock in every answer's `Date`.
 */
function fakePlatform(
	options: {
		clockAheadMs?: number;
		answer?: (request: IHttpRequestOptions) => number;
		/** Requests per key and minute; null: no limit. */
		limit?: number | null;
		/** Headers of every answer besides `Date` (a platform that names its limit). */
		headers?: Record<string, string>;
		/** What a 429 says besides: a `Retry-After`. */
		retryAfter?: string;
	} = {},
) {
	const refusal = (windowFull: boolean) =>
		windowFull
			? { error: { code: 429, message: 'Too Many Requests' } }
			: { code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded. Try again in 1 seconds.' };
	const ahead = options.clockAheadMs ?? 0;
	const limit = new FixedWindowLimit(options.limit === undefined ? 100 : options.limit, { ...systemClock, now: () => Date.now() + ahead });
	const sent: Sent[] = [];
	const http = (key: string) => async (_type: string, request: IHttpRequestOptions) => {
		const now = Date.now() + ahead;
		const refused = limit.take(key) !== undefined;
		const status = refused ? 429 : (options.answer?.(request) ?? 200);
		sent.push({ at: now, path: String(request.url), method: String(request.method), status, key });
		return {
			statusCode: status,
			headers: {
				date: new Date(now).toUTCString(),
				...options.headers,
				...(status === 429 && options.retryAfter !== undefined && { 'retry-after': options.retryAfter }),
			},
			body: status === 429 ? refusal(refused) : { data: {} },
		};
	};
	const windowOf = (request: Sent) => Math.floor(request.at / MINUTE);
	/** Another client with the key (another n8n process) takes `count` of this window. */
	const foreign = (key: string, count: number) => {
		for (let taken = 0; taken < count; taken++) limit.take(key);
	};
	return { sent, http, windowOf, foreign };
}

const node = { id: 'n', name: 'Survey', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} };

/** A node's context in one execution (or, with `webhook`, one delivery to a trigger). */
function contextWith(
	http: ReturnType<ReturnType<typeof fakePlatform>['http']>,
	apiKey = 'fbk_key',
	webhook = false,
	/** The credential's *Server's Rate Limit*: absent, as in credentials saved before it. */
	serverLimit: Record<string, unknown> = {},
): IExecuteFunctions {
	return {
		getNode: () => node,
		getCredentials: async () => ({ baseUrl: 'https://forms.example.org', apiKey, ...serverLimit }),
		helpers: { httpRequestWithAuthentication: http },
		...(webhook && { getRequestObject: () => ({}) }),
	} as unknown as IExecuteFunctions;
}

const read = async (ctx: IExecuteFunctions | IWebhookFunctions, path: string, method: 'GET' | 'POST' = 'GET') =>
	await serviceRequest(ctx, 'surveyApi', 'Formbricks server', { method, path, rate: FORMBRICKS });

/** Requests the platform let through in each of its windows. */
const acceptedPerWindow = (platform: ReturnType<typeof fakePlatform>) => {
	const counts = new Map<number, number>();
	for (const request of platform.sent.filter(({ status }) => status !== 429)) {
		counts.set(platform.windowOf(request), (counts.get(platform.windowOf(request)) ?? 0) + 1);
	}
	return counts;
};

/** No request reached a window after the platform had refused one in it: nothing was sent into a closed window. */
const sentIntoClosedWindows = (platform: ReturnType<typeof fakePlatform>) => {
	const closed = new Set<number>();
	let count = 0;
	for (const request of platform.sent) {
		const window = platform.windowOf(request);
		if (closed.has(window)) count++;
		if (request.status === 429) closed.add(window);
	}
	return count;
};

/** A credential that says the server keeps the platform's default limit: paced from the first request. */
const PLATFORM_DEFAULT = { serverRateLimit: 'platform' };

beforeEach(() => forgetRateBudgets());

describe('one rate budget per platform and key', () => {
	it('reads 361 pages at Formbricks\' 100 a minute in its windows, read from its Date, with no 429', async () => {
		const platform = fakePlatform();
		const ctx = contextWith(platform.http('fbk_key'), 'fbk_key', false, PLATFORM_DEFAULT);
		const tasks = Array.from({ length: 361 }, (_, index) => async () => await read(ctx, `/page/${index}`));
		const { elapsedMs } = await runWithFakeTime(async () => await mapConcurrently(tasks, 16));

		const refused = platform.sent.filter(({ status }) => status === 429);
		expect(platform.sent.length - refused.length).toBe(361);
		expect(refused.length).toBe(0);
		expect(sentIntoClosedWindows(platform)).toBe(0);
		expect(Math.max(...acceptedPerWindow(platform).values())).toBeLessThanOrEqual(100);
		// The floor: 100 a window, so the 361st request goes in the fourth window after the first one's.
		const windows = platform.sent.map(platform.windowOf);
		expect(Math.max(...windows) - Math.min(...windows)).toBe(3);
		expect(elapsedMs).toBeLessThan(4 * MINUTE);
	});

	it('shares the budget between executions with the same key, and keeps another key\'s apart', async () => {
		const platform = fakePlatform();
		const first = contextWith(platform.http('fbk_key'), 'fbk_key', false, PLATFORM_DEFAULT);
		const second = contextWith(platform.http('fbk_key'), 'fbk_key', false, PLATFORM_DEFAULT);
		const other = contextWith(platform.http('fbk_other'), 'fbk_other', false, PLATFORM_DEFAULT);
		await runWithFakeTime(async () => {
			const reads = (ctx: IExecuteFunctions, name: string, count: number) =>
				mapConcurrently(
					Array.from({ length: count }, (_, index) => async () => await read(ctx, `/${name}/${index}`)),
					16,
				);
			await Promise.all([reads(first, 'first', 150), reads(second, 'second', 150), reads(other, 'other', 60)]);
		});

		const ofKey = platform.sent.filter(({ key }) => key === 'fbk_key');
		expect(ofKey.filter(({ status }) => status === 429)).toHaveLength(0);
		expect(ofKey.filter(({ status }) => status === 200)).toHaveLength(300);
		expect(sentIntoClosedWindows(platform)).toBe(0);
		// The other key was never paused by this key's 429: all its requests went in its first window.
		const otherWindows = new Set(platform.sent.filter(({ key }) => key === 'fbk_other').map(platform.windowOf));
		expect(platform.sent.filter(({ key }) => key === 'fbk_other')).toHaveLength(60);
		expect(otherWindows.size).toBe(1);
	});

	it('shares one budget among every key where the platform counts per client address, as Documenso does', async () => {
		// Documenso's /api/v2 limit counts by client IP, whatever the key (apps/remix/server/router.ts and
		// packages/lib/server-only/rate-limit/rate-limit.ts at v2.17.0: no identifier, `ip:` rows alone).
		const perClient: RatePolicy = { ...FORMBRICKS, countedPer: 'client' };
		const platform = fakePlatform();
		const teamA = contextWith(platform.http('127.0.0.1'), 'api_team_a', false, PLATFORM_DEFAULT);
		const teamB = contextWith(platform.http('127.0.0.1'), 'api_team_b', false, PLATFORM_DEFAULT);
		const reads = (ctx: IExecuteFunctions, name: string) =>
			mapConcurrently(
				Array.from({ length: 150 }, (_, index) => async () =>
					await serviceRequest(ctx, 'signingApi', 'Documenso server', { method: 'GET', path: `/${name}/${index}`, rate: perClient }),
				),
				16,
			);
		await runWithFakeTime(async () => await Promise.all([reads(teamA, 'a'), reads(teamB, 'b')]));

		expect(platform.sent.filter(({ status }) => status === 429)).toHaveLength(0);
		expect(platform.sent).toHaveLength(300);
		expect(Math.max(...acceptedPerWindow(platform).values())).toBeLessThanOrEqual(100);
	});

	it('sends the requests in the order they asked, across windows', async () => {
		const platform = fakePlatform();
		const ctx = contextWith(platform.http('fbk_key'));
		await runWithFakeTime(async () => {
			// One request asks every half second, for two minutes: many ask while the window is closed.
			const reads: Array<Promise<unknown>> = [];
			for (let index = 0; index < 250; index++) {
				reads.push(read(ctx, `/${index}`));
				await sleep(500);
			}
			await Promise.all(reads);
		});
		const accepted = platform.sent.filter(({ status }) => status === 200).map(({ path }) => Number(path.split('/').pop()));
		expect(accepted).toEqual(Array.from({ length: 250 }, (_, index) => index));
	});

	it('sends a refused write again, once accepted never again; a write that met a 502 is not repeated', async () => {
		const platform = fakePlatform({ answer: (request) => (String(request.url).endsWith('/gateway') ? 502 : 200) });
		const ctx = contextWith(platform.http('fbk_key'));
		await runWithFakeTime(async () => {
			// Another client fills the window: the write meets a 429 and waits for the next one.
			await read(ctx, '/first');
			platform.foreign('fbk_key', 99);
			await read(ctx, '/write', 'POST');
			const failed = await read(ctx, '/gateway', 'POST').catch((error: unknown) => error);
			expect(failed).toBeInstanceOf(NodeApiError);
		});
		const writes = platform.sent.filter(({ path }) => path.endsWith('/write'));
		expect(writes.map(({ status }) => status)).toEqual([429, 200]);
		expect(sentIntoClosedWindows(platform)).toBe(0);
		expect(platform.sent.filter(({ path }) => path.endsWith('/gateway'))).toHaveLength(1);
	});

	it('never gives up while other requests with the key get through; gives up after 10 waits without progress', async () => {
		// A platform that limits per route and says the wait in its message, as Karakeep does.
		const perRoute: RatePolicy = { windowMs: MINUTE, windows: 'sliding', senderWaitMs: 5_000, reopensIn: waitInMessage(/try again in (\d+) seconds/i) };
		let refusals = 0;
		const platform = fakePlatform({ answer: (request) => (String(request.url).endsWith('/busy') && refusals++ < 15 ? 429 : 200) });
		const ctx = contextWith(platform.http('fbk_key'));
		const noWait: RetryPolicy = { maxRateLimitRetries: 10, maxServerErrorRetries: 0, maxRetryAfterSeconds: 120, backoffMs: 0 };
		const busy = async () =>
			await serviceAnswer(ctx, 'bookmarkApi', 'Karakeep server', { method: 'GET', path: '/busy', rate: perRoute }, noWait);
		await runWithFakeTime(async () => {
			// Another route's requests, one after the other, get answers between its 429s: its waits made progress.
			const others = async () => {
				for (let index = 0; index < 30; index++) {
					await serviceAnswer(ctx, 'bookmarkApi', 'Karakeep server', { method: 'GET', path: `/other/${index}`, rate: perRoute });
				}
			};
			await Promise.all([busy(), others()]);
		});
		expect(platform.sent.filter(({ path }) => path.endsWith('/busy')).map(({ status }) => status)).toEqual([
			...Array<number>(15).fill(429),
			200,
		]);

		refusals = 0;
		const alone = await runWithFakeTime(async () => await busy().catch((error: unknown) => error));
		expect(alone.result).toBeInstanceOf(NodeApiError);
		expect((alone.result as NodeApiError).httpCode).toBe('429');
		// The first 429 and ten more after waits in which nothing else got an answer.
		expect(platform.sent.filter(({ path }) => path.endsWith('/busy')).length).toBe(16 + 11);
	});

	it('fails a trigger\'s read at once when the budget reopens later than its sender waits, and sends nothing', async () => {
		const platform = fakePlatform();
		const execution = contextWith(platform.http('fbk_key'), 'fbk_key', false, PLATFORM_DEFAULT);
		const delivery = contextWith(platform.http('fbk_key'), 'fbk_key', true, PLATFORM_DEFAULT);
		// A second into a minute: the window, once full, stays closed for most of it.
		useFakeTime(Math.ceil(Date.now() / MINUTE) * MINUTE + 1_000);
		try {
			const reads = Promise.all(Array.from({ length: 101 }, async (_, index) => await read(execution, `/${index}`)));
			await jest.advanceTimersByTimeAsync(0);
			// The budget counted the window full: the 101st waits for the next, unsent.
			expect(platform.sent.map(({ status }) => status)).toEqual(Array<number>(100).fill(200));
			const started = Date.now();
			const error = await read(delivery, '/survey').catch((caught: unknown) => caught);
			expect(Date.now()).toBe(started);
			expect(error).toBeInstanceOf(NodeApiError);
			expect((error as NodeApiError).httpCode).toBe('429');
			expect((error as Error).message).toMatch(/rate limit for this key is used up for another 59 s/);
			expect(platform.sent.filter(({ path }) => path.endsWith('/survey'))).toHaveLength(0);
			// Within the sender's wait, the trigger's read waits its turn as any other.
			await jest.advanceTimersByTimeAsync(MINUTE - 3_000);
			const late = read(contextWith(platform.http('fbk_key'), 'fbk_key', true, PLATFORM_DEFAULT), '/survey');
			await jest.advanceTimersByTimeAsync(3_000);
			await Promise.all([reads, late]);
			expect(platform.sent.filter(({ path }) => path.endsWith('/survey')).map(({ status }) => status)).toEqual([200]);
		} finally {
			jest.useRealTimers();
		}
	});
});

describe('RateBudget on an injected clock', () => {
	/** A clock that moves only when told; `sleep`s end as it passes them. */
	function manualClock(start: number) {
		let now = start;
		const sleepers: Array<{ until: number; wake: () => void }> = [];
		const clock: BudgetClock = {
			now: () => now,
			sleep: async (ms, signal) =>
				await new Promise<void>((resolve) => {
					sleepers.push({ until: now + ms, wake: resolve });
					signal.addEventListener('abort', () => resolve(), { once: true });
				}),
		};
		const advanceTo = async (time: number) => {
			now = time;
			for (const sleeper of sleepers.filter(({ until }) => until <= now)) sleeper.wake();
			// The pump's turn: it resumes on the promise its sleep resolved.
			for (let turn = 0; turn < 10; turn++) await Promise.resolve();
		};
		return { clock, advanceTo, now: () => now };
	}

	it('waits for the next minute of the platform\'s clock, 30 s ahead of ours, read from its Date', async () => {
		// Ours is 10 s into a minute; the platform's is 40 s into it: its window reopens in 20 s.
		const start = 1_800_000_000_000 - (1_800_000_000_000 % MINUTE) + 10_000;
		const time = manualClock(start);
		const budget = new RateBudget(FORMBRICKS, time.clock);
		const platformDate = (ours: number) => ({ date: new Date(ours + 30_000).toUTCString() });
		const tooLate = () => new Error('too late');
		const cancelled = () => new Error('cancelled');

		const first = await budget.take({ order: budget.nextOrder(), tooLate, cancelled });
		budget.answered(first, platformDate(time.now()));
		const second = await budget.take({ order: budget.nextOrder(), tooLate, cancelled });
		budget.refused(second, platformDate(time.now()));

		let sentAt: number | undefined;
		const again = budget.take({ order: 1, tooLate, cancelled }).then((ticket) => (sentAt = ticket.sentAt));
		await time.advanceTo(start + 19_000);
		expect(sentAt).toBeUndefined();
		await time.advanceTo(start + 21_000);
		await again;
		// Not before the platform's minute began (20 s on), and at most a second of its Date's rounding after.
		expect(sentAt).toBeGreaterThanOrEqual(start + 20_000);
		expect(sentAt).toBeLessThanOrEqual(start + 21_000);
	});

	it('keeps a pause the platform asked for up to 2 minutes; never one longer; forgets it when the clock goes back', async () => {
		const start = 1_800_000_000_000;
		const time = manualClock(start);
		const budget = new RateBudget(FORMBRICKS, time.clock);
		const tooLate = () => new Error('too late');
		const cancelled = () => new Error('cancelled');
		const refusedTicket = await budget.take({ order: budget.nextOrder(), tooLate, cancelled });
		expect(budget.refused(refusedTicket, { 'retry-after': '90' })).toEqual({ retryAfterSeconds: 90 });
		expect(budget.readyAt()).toBe(start + 90_000);

		let sentAt: number | undefined;
		const queued = budget.take({ order: budget.nextOrder(), tooLate, cancelled }).then((ticket) => (sentAt = ticket.sentAt));
		await time.advanceTo(start + 89_000);
		expect(sentAt).toBeUndefined();
		await time.advanceTo(start + 90_000);
		await queued;
		expect(sentAt).toBe(start + 90_000);

		// An hour, or 30 days: the request told fails (its caller reads retryAfterSeconds), nobody else waits.
		for (const seconds of [3600, 30 * 24 * 3600]) {
			const told = await budget.take({ order: budget.nextOrder(), tooLate, cancelled });
			expect(budget.refused(told, { 'retry-after': String(seconds) })).toEqual({ retryAfterSeconds: seconds });
			expect(budget.readyAt()).toBe(start + 90_000);
		}

		const again = await budget.take({ order: budget.nextOrder(), tooLate, cancelled });
		budget.refused(again, { 'retry-after': '60' });
		expect(budget.readyAt()).toBe(start + 150_000);
		// A clock set back before the platform's answer: what was measured on it no longer holds.
		await time.advanceTo(start);
		expect(budget.readyAt()).toBe(start);
	});

	it('paces by the limit the server names in X-RateLimit-Limit, the smallest of several', async () => {
		const time = manualClock(1_800_000_000_000);
		const sliding: RatePolicy = { limit: 100, windowMs: MINUTE, windows: 'sliding', senderWaitMs: 5_000 };
		const budget = new RateBudget(sliding, time.clock);
		const tooLate = () => new Error('too late');
		const cancelled = () => new Error('cancelled');
		expect(budget.limit).toBeUndefined();
		const first = await budget.take({ order: budget.nextOrder(), tooLate, cancelled });
		budget.answered(first, { 'x-ratelimit-limit': '1000, 3' });
		expect(budget.limit).toBe(3);
		for (let sent = 1; sent < 3; sent++) await budget.take({ order: budget.nextOrder(), tooLate, cancelled });
		expect(budget.readyAt()).toBe(1_800_000_000_000 + MINUTE);
	});
});

describe('a budget that paces only where the server limits (issue 42)', () => {
	/** Reads `count` pages, 16 at a time, on fake time. */
	const readPages = async (ctx: IExecuteFunctions, count: number) =>
		await runWithFakeTime(
			async () => await mapConcurrently(Array.from({ length: count }, (_, index) => async () => await read(ctx, `/page/${index}`)), 16),
		);

	it('reads a server without a limit as fast as it answers, where the platform\'s default would have paced it', async () => {
		const unlimited = fakePlatform({ limit: null });
		const learnt = await readPages(contextWith(unlimited.http('fbk_key')), 500);
		expect(unlimited.sent.filter(({ status }) => status === 200)).toHaveLength(500);
		// No wait at all: the 500 requests go as they are asked, in the same instant of fake time.
		expect(learnt.elapsedMs).toBe(0);

		forgetRateBudgets();
		const paced = fakePlatform({ limit: null });
		const withDefault = await readPages(contextWith(paced.http('fbk_key'), 'fbk_key', false, PLATFORM_DEFAULT), 500);
		expect(withDefault.elapsedMs).toBeGreaterThanOrEqual(4 * MINUTE - 60_000);

		forgetRateBudgets();
		const none = fakePlatform({ limit: null });
		const unpaced = await readPages(contextWith(none.http('fbk_key'), 'fbk_key', false, { serverRateLimit: 'none' }), 500);
		expect(unpaced.elapsedMs).toBe(0);
	});

	it('learns a limit from the first 429 and keeps to the platform\'s policy from then on', async () => {
		const platform = fakePlatform();
		await readPages(contextWith(platform.http('fbk_key')), 361);

		expect(platform.sent.filter(({ status }) => status === 200)).toHaveLength(361);
		const refused = platform.sent.filter(({ status }) => status === 429);
		// Only the requests already on their way when the first 429 came: at most the 16 read at once, all in the first window.
		expect(refused.length).toBeGreaterThan(0);
		expect(refused.length).toBeLessThanOrEqual(16);
		const firstWindow = platform.windowOf(platform.sent[0]);
		expect(refused.every((request) => platform.windowOf(request) === firstWindow)).toBe(true);
		// From then on, the platform's 100 a window: four windows, as when paced from the start.
		expect(Math.max(...acceptedPerWindow(platform).values())).toBeLessThanOrEqual(100);
		expect(new Set(platform.sent.map(platform.windowOf)).size).toBe(4);
	});

	it('paces from the first request at the number the credential names', async () => {
		const platform = fakePlatform({ limit: 40 });
		const { elapsedMs } = await readPages(
			contextWith(platform.http('fbk_key'), 'fbk_key', false, { serverRateLimit: 'custom', serverRateLimitPerMinute: 40 }),
			130,
		);
		expect(platform.sent.filter(({ status }) => status === 429)).toHaveLength(0);
		expect(Math.max(...acceptedPerWindow(platform).values())).toBeLessThanOrEqual(40);
		expect(elapsedMs).toBeGreaterThanOrEqual(2 * MINUTE - 60_000);
	});

	it('paces by the limit a platform names in its answers\' headers before any 429, as Documenso does', async () => {
		const platform = fakePlatform({ limit: 30, headers: { 'x-ratelimit-limit': '30' } });
		// Concurrency 1 here: the header is read from the first answer, before a second request is sent.
		await runWithFakeTime(async () => {
			const ctx = contextWith(platform.http('fbk_key'));
			for (let index = 0; index < 70; index++) await read(ctx, `/page/${index}`);
		});
		expect(platform.sent.filter(({ status }) => status === 429)).toHaveLength(0);
		expect(platform.sent).toHaveLength(70);
	});

	it('fails only the request told to wait an hour; the next one with the key is sent at once', async () => {
		let first = true;
		const platform = fakePlatform({ limit: null, answer: () => (first ? ((first = false), 429) : 200), retryAfter: '3600' });
		const ctx = contextWith(platform.http('fbk_key'));
		const { result, elapsedMs } = await runWithFakeTime(async () => {
			const told = await read(ctx, '/told').catch((error: unknown) => error);
			const next = await read(ctx, '/next');
			return { told, next };
		});
		expect(result.told).toBeInstanceOf(NodeApiError);
		expect((result.told as NodeApiError).httpCode).toBe('429');
		expect(result.next).toEqual({ data: {} });
		expect(elapsedMs).toBeLessThan(1_000);
		expect(platform.sent.map(({ path, status }) => [path.split('/').pop(), status])).toEqual([
			['told', 429],
			['next', 200],
		]);
	});

	it('makes no timer storm on a Retry-After of 30 days: no timer is asked for longer than setTimeout can wait', async () => {
		const platform = fakePlatform({ limit: 0, retryAfter: String(30 * 24 * 3600) });
		const ctx = contextWith(platform.http('fbk_key'));
		const delays: number[] = [];
		const { result, elapsedMs } = await runWithFakeTime(async () => {
			// Spied on inside the fake time, whose setTimeout the budget and n8n's sleep call.
			// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- the test watches the timers asked for
			const timers = jest.spyOn(globalThis, 'setTimeout');
			try {
				const errors: unknown[] = [];
				for (let index = 0; index < 3; index++) errors.push(await read(ctx, `/${index}`).catch((error: unknown) => error));
				return errors;
			} finally {
				delays.push(...timers.mock.calls.map((call) => Number(call[1] ?? 0)));
				timers.mockRestore();
			}
		});
		// Each fails at once, saying why; none waits on the one before.
		for (const error of result) expect((error as NodeApiError).httpCode).toBe('429');
		expect(elapsedMs).toBe(0);
		expect(platform.sent).toHaveLength(3);
		expect(delays.every((delay) => delay <= MAX_TIMER_MS)).toBe(true);
		expect(delays.length).toBeLessThan(10);
	});
});

describe("the credential's Server's Rate Limit", () => {
	it('reads a credential saved before it as Learn From the Server; a number only with A Number per Minute', () => {
		expect(serverLimitOf({ baseUrl: 'https://forms.example.org', apiKey: 'k' })).toBe('learn');
		expect(serverLimitOf({ serverRateLimit: 'platform', serverRateLimitPerMinute: 40 })).toBe('platform');
		expect(serverLimitOf({ serverRateLimit: 'custom', serverRateLimitPerMinute: 40 })).toBe(40);
		expect(serverLimitOf({ serverRateLimit: 'custom', serverRateLimitPerMinute: 0 })).toBe('platform');
		expect(serverLimitOf({ serverRateLimit: 'none' })).toBe('none');
	});

	it('shows Requests per Minute only for A Number per Minute, by hiding it for the others (n8n\'s public API makes a field shown for a value required when that value\'s field is absent)', () => {
		const perMinute = new SurveyApi().properties.find((property) => property.name === 'serverRateLimitPerMinute');
		expect(perMinute?.displayOptions).toEqual({ hide: { serverRateLimit: ['learn', 'platform', 'none'] } });
	});
});

describe('the budgets of a process', () => {
	const policy: RatePolicy = { limit: 100, windowMs: MINUTE, windows: 'fixed', senderWaitMs: 5_000 };

	it('forgets a budget idle for 15 minutes, and keeps at most 1,000', () => {
		useFakeTime(1_800_000_000_000);
		try {
			const first = rateBudget('surveyApi', 'https://a.example.org', 'key', policy);
			expect(rateBudget('surveyApi', 'https://a.example.org', 'key', policy)).toBe(first);
			jest.setSystemTime(Date.now() + IDLE_BUDGET_MS);
			rateBudget('surveyApi', 'https://b.example.org', 'key', policy);
			expect(rateBudget('surveyApi', 'https://a.example.org', 'key', policy)).not.toBe(first);

			for (let index = 0; index < 1_500; index++) rateBudget('surveyApi', `https://${index}.example.org`, 'key', policy);
			expect(rateBudgetCount()).toBeLessThanOrEqual(MAX_BUDGETS);
		} finally {
			jest.useRealTimers();
		}
	});
});
