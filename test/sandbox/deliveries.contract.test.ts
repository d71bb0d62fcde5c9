/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { type Sandbox, SEED, startSandbox } from './index';
import { call, type Receiver, startReceiver } from './testkit';

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
	const deliveryLog = async (url: string) =>
		(await call(`${url}/_sandbox/deliveries`)).json.deliveries;

	beforeAll(async () => (receiver = await startReceiver()));
	afterAll(async () => await receiver.close());
	beforeEach(() => receiver.clear());

	it('delivers to the signing endpoints given at start, and keeps them across reset', async () => {
		const sandbox = await startSandbox({
			ports: {},
			logger,
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
		const sandbox = await startSandbox({
			ports: {},
			logger,
			webhookTimeoutMs: 150,
			webhookRetryDelayMs: 20,
		});
		try {
			receiver.answers = [{ status: 200, delayMs: 400 }];
			await call(`${sandbox.signing.url}/_sandbox/webhook-endpoints`, {
				method: 'POST',
				body: { url: receiver.url },
			});
			await generateDocument(sandbox);
			const deliveries = await receiver.waitFor(3);
			expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
				'document.created',
				'document.created',
				'document.sent',
			]);
			expect(deliveries[1].headers['x-signing-delivery']).toBe(
				deliveries[0].headers['x-signing-delivery'],
			);
			const log = await deliveryLog(sandbox.signing.url);
			expect(log[0]).toMatchObject({ attempt: 1, error: 'timeout' });
			expect(log[0]).not.toHaveProperty('status');
			expect(log[1]).toMatchObject({ attempt: 2, status: 200 });
		} finally {
			await sandbox.stop();
		}
	});

	it('logs an unreachable receiver as an error on each of the three attempts', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));
		const sandbox = await startSandbox({
			ports: {},
			logger,
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
			let log: Array<{ attempt: number; error?: string; deliveryId: string }> = [];
			for (let i = 0; i < 100 && log.length < 3; i++) {
				await sleep(20);
				log = await deliveryLog(sandbox.survey.url);
			}
			expect(log.map((entry) => entry.attempt)).toEqual([1, 2, 3]);
			expect(log.every((entry) => /ECONNREFUSED/.test(entry.error ?? ''))).toBe(true);
			expect(new Set(log.map((entry) => entry.deliveryId)).size).toBe(1);
		} finally {
			await sandbox.stop();
		}
	});

	it('cancels pending retries on stop(): no attempt afterwards', async () => {
		const sandbox = await startSandbox({ ports: {}, logger, webhookRetryDelayMs: 10_000 });
		receiver.answers = [500, 500, 500];
		await call(`${sandbox.signing.url}/_sandbox/webhook-endpoints`, {
			method: 'POST',
			body: { url: receiver.url },
		});
		await generateDocument(sandbox);
		await receiver.waitFor(1);
		const started = Date.now();
		await sandbox.stop();
		expect(Date.now() - started).toBeLessThan(1_000);
		await sleep(100);
		expect(receiver.received).toHaveLength(1);
	});

	it('stops without waiting for a fault delay in progress', async () => {
		const sandbox = await startSandbox({ ports: {}, logger });
		await call(`${sandbox.bookmark.url}/_sandbox/faults`, {
			method: 'PUT',
			body: { status: 504, count: 1, delayMs: 10_000 },
		});
		const pending = call(`${sandbox.bookmark.url}/api/v1/lists`).catch((error: Error) => error);
		await sleep(50);
		const started = Date.now();
		await sandbox.stop();
		expect(Date.now() - started).toBeLessThan(1_000);
		await pending;
	});
});
