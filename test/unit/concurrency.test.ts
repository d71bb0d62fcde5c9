import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { mapConcurrently, type RequestPacer } from '../../nodes/shared/concurrency';
import { Survey } from '../../nodes/Survey/Survey.node';
import { type Sandbox, startSandbox } from '../sandbox';
import { runWithFakeTime, useFakeTime } from './helpers/clock';
import { executeContext } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

/** Counts the tasks running at once: `enter` returns how many run with the one that enters. */
function gauge() {
	let running = 0;
	return {
		enter: () => ++running,
		leave: () => running--,
	};
}

/** A task that meets the rate limit `times` times (waiting `ms` each, as for Retry-After) before it answers; `starts` gets how many ran at each of its sends. */
const rateLimitedTask =
	(running: ReturnType<typeof gauge>, value: number, times: number, starts: number[] = [], ms = 5) =>
	async (pacer: RequestPacer) => {
		starts.push(running.enter());
		for (let attempt = 0; attempt < times; attempt++) {
			running.leave();
			pacer.rateLimited();
			await sleep(ms);
			await pacer.resume();
			starts.push(running.enter());
		}
		// Long enough that the requests sent again together are in flight together.
		await sleep(20);
		running.leave();
		return value;
	};

/**
 * Runs the tasks on fake time to the end: the waits in them (as for Retry-After) pass in the
 * order they fall due, whatever the machine's speed.
 */
async function settle<T>(work: Promise<T>): Promise<T> {
	await jest.runAllTimersAsync();
	return await work;
}

describe('mapConcurrently', () => {
	beforeEach(() => useFakeTime());
	afterEach(() => jest.useRealTimers());

	it('keeps the tasks’ order and never runs more than the bound at once', async () => {
		const running = gauge();
		const starts: number[] = [];
		const tasks = Array.from({ length: 20 }, (_, index) => async () => {
			starts.push(running.enter());
			await sleep((20 - index) % 7);
			running.leave();
			return index;
		});
		expect(await settle(mapConcurrently(tasks, 4))).toEqual(Array.from({ length: 20 }, (_, index) => index));
		expect(Math.max(...starts)).toBe(4);
	});

	it('fails when a task fails, and starts no task after that', async () => {
		const started: number[] = [];
		const tasks = Array.from({ length: 10 }, (_, index) => async () => {
			started.push(index);
			if (index === 1) throw new Error('boom');
			await sleep(5);
			return index;
		});
		const failed = expect(mapConcurrently(tasks, 2)).rejects.toThrow('boom');
		// Every wait has ended: a task that was to start after the failure would have started.
		await jest.runAllTimersAsync();
		await failed;
		expect(started).toEqual([0, 1]);
	});

	it('halves the requests in flight once for a round of 429s, not once for every 429 in it', async () => {
		const running = gauge();
		const starts: number[] = [];
		// Eight requests meet the limit at once, then each is answered.
		const tasks = Array.from({ length: 8 }, (_, index) => rateLimitedTask(running, index, 1, starts));
		expect(await settle(mapConcurrently(tasks, 8))).toEqual(Array.from({ length: 8 }, (_, index) => index));
		const retries = starts.slice(8);
		expect(retries).toHaveLength(8);
		// Halved once: four again at a time (halved for every 429, it would have been one).
		expect(Math.max(...retries)).toBe(4);
	});

	it('answers every task when every request meets the limit several times', async () => {
		const running = gauge();
		const starts: number[] = [];
		const tasks = Array.from({ length: 12 }, (_, index) => rateLimitedTask(running, index, 3, starts, 2));
		expect(await settle(mapConcurrently(tasks, 8))).toEqual(Array.from({ length: 12 }, (_, index) => index));
		expect(starts).toHaveLength(12 * 4);
	});

	it('grows back by one after as many answers without a 429 as are allowed in flight', async () => {
		const running = gauge();
		const starts: number[] = [];
		const tasks = Array.from({ length: 40 }, (_, index) =>
			index === 0
				? rateLimitedTask(running, index, 1, [], 1)
				: async () => {
						starts.push(running.enter());
						await sleep(3);
						running.leave();
						return index;
					},
		);
		expect(await settle(mapConcurrently(tasks, 4))).toHaveLength(40);
		// Four were sent when one met the limit: down to two, then back up to the bound.
		expect(Math.min(...starts.slice(3))).toBeLessThanOrEqual(2);
		expect(starts[starts.length - 1]).toBe(4);
	});

	it('retries a rate-limited request before it starts a new one', async () => {
		const order: string[] = [];
		const tasks = Array.from({ length: 4 }, (_, index) => async (pacer: RequestPacer) => {
			order.push(`start ${index}`);
			if (index === 0) {
				pacer.rateLimited();
				await sleep(5);
				await pacer.resume();
				order.push('retry 0');
			}
			await sleep(10);
			return index;
		});
		await settle(mapConcurrently(tasks, 2));
		expect(order.indexOf('retry 0')).toBeLessThan(order.indexOf('start 3'));
	});
});

describe('Survey → Response → Get Many, Return All, when the service rate-limits the pages', () => {
	const SURVEY = 'srv_paced';
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
		control = sandboxControl(sandbox, 'survey');
		await control.call('POST', '/surveys', { id: SURVEY, name: 'Paced survey', status: 'completed', type: 'app' });
		await control.call('POST', `/surveys/${SURVEY}/generate-responses`, { count: 2_345 });
	});
	afterAll(async () => await sandbox?.stop());

	it('fetches fewer pages at once after 429s, and returns every response once, in order', async () => {
		const { context } = executeContext({
			parameters: { resource: 'response', operation: 'getMany', surveyId: { mode: 'id', value: SURVEY }, returnAll: true, options: {} },
			credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
		});
		const helpers = context.helpers as unknown as {
			httpRequestWithAuthentication: (type: string, request: IHttpRequestOptions) => Promise<{ statusCode: number }>;
		};
		const send = helpers.httpRequestWithAuthentication;
		const running = gauge();
		const sends: Array<{ inFlight: number; status: number }> = [];
		helpers.httpRequestWithAuthentication = async (type, request) => {
			const inFlight = running.enter();
			const response = await send(type, request);
			running.leave();
			sends.push({ inFlight, status: response.statusCode });
			// After the first page, the nine pages left all meet the limit (Retry-After: 1 s).
			if (sends.length === 1) await control.failNext(9, 429, { retryAfter: 1 });
			return response;
		};

		// Retry-After passes on the test's clock, not the machine's.
		const { result } = await runWithFakeTime(async () => await new Survey().execute.call(context));
		const items = result[0].map((item) => item.json as IDataObject);

		const { data } = (await fetch(`${sandbox.survey.url}/api/v1/management/surveys/${SURVEY}/responses?limit=250&offset=0`, {
			headers: { 'x-api-key': sandbox.survey.apiKey },
		}).then(async (response) => await response.json())) as { data: IDataObject[] };
		expect(items).toHaveLength(2_345);
		expect(new Set(items.map((item) => item.id)).size).toBe(2_345);
		expect(items.slice(0, 250)).toEqual(data);
		const rateLimited = sends.filter(({ status }) => status === 429);
		expect(rateLimited).toHaveLength(9);
		expect(Math.max(...rateLimited.map(({ inFlight }) => inFlight))).toBe(9);
		// Nine pages in flight met the limit, so at most five are sent again at once.
		const retried = sends.slice(1).filter(({ status }) => status === 200);
		expect(retried).toHaveLength(9);
		expect(Math.max(...retried.map(({ inFlight }) => inFlight))).toBeLessThanOrEqual(5);
	});
});
