import { NodeOperationError } from 'n8n-workflow';

import { serviceRequest } from '../../nodes/shared/request';
import { ManualClock, Sandbox, startSandbox } from '../sandbox';
import { eventually } from '../sandbox/testkit';
import { executeContext } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(30_000);

/**
 * Regression: a cancelled execution kept waiting for Retry-After or a backoff (up to
 * minutes), and a read whose request was aborted was retried.
 */
describe('cancelling an execution stops a request', () => {
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;
	// The sandbox's latency ends only when the test moves this clock: never, here.
	const clock = new ManualClock();

	beforeAll(async () => {
		sandbox = await startSandbox({ clock });
		control = sandboxControl(sandbox, 'survey');
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => await control.reset());

	const request = (signal: AbortSignal, backoffMs = 500) => {
		const { context } = executeContext({
			parameters: {},
			credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
			cancelSignal: signal,
		});
		return serviceRequest(
			context,
			'surveyApi',
			'survey service',
			{ method: 'GET', path: '/api/v1/management/surveys' },
			{ maxRateLimitRetries: 10, maxServerErrorRetries: 4, maxRetryAfterSeconds: 120, backoffMs },
		);
	};

	/** Resolves once the sandbox has answered `count` requests. */
	const answered = async (count: number) =>
		await eventually(`${count} answers`, async () => (await control.requests()).length >= count);

	const expectCancelled = async (pending: Promise<unknown>) => {
		const error = await pending.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe('The execution was cancelled');
	};

	it('while waiting for Retry-After', async () => {
		await control.failNext(1, 429, { retryAfter: 100 });
		const cancel = new AbortController();
		const pending = request(cancel.signal);
		await answered(1);
		cancel.abort();
		await expectCancelled(pending);
		expect(await control.requests()).toHaveLength(1);
	});

	it('while backing off after a server error', async () => {
		await control.failNext(1, 503);
		const cancel = new AbortController();
		const pending = request(cancel.signal, 100_000);
		await answered(1);
		cancel.abort();
		await expectCancelled(pending);
		expect(await control.requests()).toHaveLength(1);
	});

	it('with the request in flight, and does not retry it', async () => {
		await control.call('PUT', '/latency', { ms: 20_000 });
		const cancel = new AbortController();
		const pending = request(cancel.signal, 1);
		// The request has reached the sandbox, which holds its answer.
		await clock.nextWait('latency');
		cancel.abort();
		await expectCancelled(pending);
		await control.call('PUT', '/latency', { ms: 0 });
		// The aborted request never got an answer to record; a retry would have one.
		expect(await control.requests()).toHaveLength(0);
	});

	it('that was cancelled before it started sends nothing', async () => {
		const cancel = new AbortController();
		cancel.abort();
		await expectCancelled(request(cancel.signal));
		expect(await control.requests()).toHaveLength(0);
	});
});
