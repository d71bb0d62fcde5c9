/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock, type Sandbox, SEED, startSandbox } from './index';
import { call, eventually, type Receiver, settledDeliveries, startReceiver } from './testkit';

// SANDBOX_LOG=1 shows the services' own request logs, to see what a failing test sent.
const logger = process.env.SANDBOX_LOG === '1';

/** What both webhook-sending services share: timeouts, unreachable receivers, stop(). */
describe('webhook delivery', () => {
	let receiver: Receiver;
	const generateDocument = async (sandbox: Sandbox) =>
		await call(
			`${sandbox.signing.url}/api/v2/templates/${SEED.residencyTemplateId}/generate-document`,
			{
				method: 'POST',
				headers: { authorization: `Bearer ${sandbox.signing.apiKey}` },
				body: {
					title: 'Agreement',
					recipients: [{ name: 'Ada', email: 'ada@example.org', role: 'SIGNER' }],
				},
			},
		);

	beforeAll(async () => (receiver = await startReceiver()));
	afterAll(async () => await receiver.close());
	beforeEach(() => receiver.clear());

	it('delivers to the signing endpoints given at start, and keeps them across reset', async () => {
		const sandbox = await startSandbox({
			ports: {},
			logger,
			// No webhook timeout fires on this clock, however slowly the receiver answers.
			clock: new ManualClock(),
			signingWebhookEndpoints: [{ url: receiver.url, secret: 'from-options' }],
		});
		try {
			const endpoints = (await call(`${sandbox.signing.url}/_sandbox/webhook-endpoints`)).json
				.endpoints;
			expect(endpoints).toEqual([
				{ id: expect.any(String), url: receiver.url, secret: 'from-options' },
			]);
			await call(`${sandbox.signing.url}/_sandbox/reset`, { method: 'POST' });
			await generateDocument(sandbox);
			const [first] = await receiver.waitFor(2);
			expect(first.headers['x-signing-secret']).toBe('from-options');
		} finally {
			await sandbox.stop();
		}
	});

	it('counts an answer slower than the timeout as a failure and tries again, with the same id', async () => {
		const clock = new ManualClock();
		const sandbox = await startSandbox({
			ports: {},
			logger,
			clock,
			webhookTimeoutMs: 150,
			webhookRetryDelayMs: 20,
		});
		try {
			let answerLate = () => {};
			const late = new Promise<void>((done) => (answerLate = done));
			receiver.answers = [{ status: 200, after: late }];
			await call(`${sandbox.signing.url}/_sandbox/webhook-endpoints`, {
				method: 'POST',
				body: { url: receiver.url },
			});
			await generateDocument(sandbox);
			await receiver.waitFor(1);
			expect(await clock.nextWait('webhook timeout')).toEqual({ purpose: 'webhook timeout', inMs: 150 });
			clock.advance(149);
			expect(clock.pending()).toEqual([{ purpose: 'webhook timeout', inMs: 1 }]);
			clock.advance(1);
			// The second attempt follows the retry delay after the timeout.
			expect(await clock.advanceToNext('webhook retry')).toBe(20);
			const deliveries = await receiver.waitFor(3);
			answerLate();
			expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
				'document.created',
				'document.created',
				'document.sent',
			]);
			expect(deliveries[1].headers['x-signing-delivery']).toBe(
				deliveries[0].headers['x-signing-delivery'],
			);
			const log = await settledDeliveries(sandbox.signing.url);
			expect(log[0]).toMatchObject({ attempt: 1, error: 'timeout' });
			expect(log[0]).not.toHaveProperty('status');
			expect(log[1]).toMatchObject({ attempt: 2, status: 200 });
			expect(Date.parse(log[1].at) - Date.parse(log[0].at)).toBe(150 + 20);
		} finally {
			await sandbox.stop();
		}
	});

	it('logs an unreachable receiver as an error on each of the three attempts', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));
		const clock = new ManualClock();
		const sandbox = await startSandbox({
			ports: {},
			logger,
			clock,
			webhookRetryDelayMs: 10,
			rateLimits: { survey: null },
		});
		try {
			const headers = { 'x-api-key': sandbox.survey.apiKey };
			const url = `http://127.0.0.1:${port}/gone`;
			await call(`${sandbox.survey.url}/api/v1/webhooks`, {
				method: 'POST',
				headers,
				body: { url, triggers: ['responseCreated'] },
			});
			await call(`${sandbox.survey.url}/_sandbox/surveys/${SEED.residencySurveyId}/responses`, {
				method: 'POST',
				body: { data: { fullName: 'Ada' }, finished: false },
			});
			for (let retry = 0; retry < 2; retry++) await clock.advanceToNext('webhook retry');
			const log: Array<{ attempt: number; error?: string; deliveryId: string }> =
				await settledDeliveries(sandbox.survey.url);
			expect(log.map((entry) => entry.attempt)).toEqual([1, 2, 3]);
			expect(log.every((entry) => /ECONNREFUSED/.test(entry.error ?? ''))).toBe(true);
			expect(new Set(log.map((entry) => entry.deliveryId)).size).toBe(1);
		} finally {
			await sandbox.stop();
		}
	});

	// The clock never moves in these two: stop() returning at all shows that it waited for nothing.
	it('cancels pending retries on stop(): no attempt afterwards', async () => {
		const clock = new ManualClock();
		const sandbox = await startSandbox({ ports: {}, logger, clock });
		receiver.answers = [500, 500, 500];
		await call(`${sandbox.signing.url}/_sandbox/webhook-endpoints`, {
			method: 'POST',
			body: { url: receiver.url },
		});
		await generateDocument(sandbox);
		await receiver.waitFor(1);
		await clock.nextWait('webhook retry');
		await sandbox.stop();
		expect(clock.pending()).toEqual([]);
		await eventually('the deliveries to end', () => sandbox.pendingDeliveries() === 0);
		expect(receiver.received).toHaveLength(1);
	});

	it('stops without waiting for a fault delay in progress', async () => {
		const clock = new ManualClock();
		const sandbox = await startSandbox({ ports: {}, logger, clock });
		await call(`${sandbox.bookmark.url}/_sandbox/faults`, {
			method: 'PUT',
			body: { status: 504, count: 1, delayMs: 10_000 },
		});
		const pending = call(`${sandbox.bookmark.url}/api/v1/lists`).catch((error: Error) => error);
		await clock.nextWait('fault delay');
		await sandbox.stop();
		expect(clock.pending()).toEqual([]);
		await pending;
	});
});
