import { createHmac } from 'crypto';

import { Webhook } from 'standardwebhooks';

import { sealingContext, SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { sealSecret } from '../../nodes/shared/webhooks';
import { callWebhook, type WebhookCall } from './helpers/context';

const trigger = new SurveyTrigger();
const webhook = trigger.webhook as Parameters<typeof callWebhook>[0];
const secret = `whsec_${Buffer.from('survey-trigger-unit-secret').toString('base64')}`;
const otherSecret = `whsec_${Buffer.from('some-other-secret-entirely').toString('base64')}`;

const credentials = { surveyApi: { baseUrl: 'http://127.0.0.1:1', apiKey: 'survey-unit-key' } };

/** The static data `create` leaves after registering hook wh_1 with `secret`. */
function registeredHook(withSecret = secret) {
	const { baseUrl, apiKey } = credentials.surveyApi;
	return { webhookId: 'wh_1', baseUrl, sealedSecret: sealSecret(withSecret, apiKey, sealingContext('wh_1', baseUrl)) };
}

let counter = 0;

function delivery(
	options: { event?: string; surveyId?: string; signWith?: string; timestamp?: Date; id?: string } = {},
): WebhookCall {
	const id = options.id ?? `msg_${++counter}`;
	const body = {
		event: options.event ?? 'responseFinished',
		surveyId: options.surveyId ?? 'srv_residency',
		responseId: `resp_${counter}`,
		createdAt: '2026-11-21T10:00:00.000Z',
		data: { fullName: 'Ada Lovelace', decision: 'approved' },
	};
	const rawBody = JSON.stringify(body);
	const timestamp = options.timestamp ?? new Date();
	return {
		workflowId: 'wf-survey',
		rawBody,
		body,
		parameters: { registration: 'automatic', events: ['responseFinished'], allSurveys: true },
		staticData: registeredHook(),
		credentials,
		headers: {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
			'webhook-signature': new Webhook(options.signWith ?? secret).sign(id, timestamp, rawBody),
		},
	};
}

const started = (outcome: Awaited<ReturnType<typeof callWebhook>>) => outcome.result.workflowData?.[0] ?? [];

describe('Survey Trigger deliveries', () => {
	it('starts one item with the event, survey, response, time and answers', async () => {
		const call = delivery();
		const [item] = started(await callWebhook(webhook, call));
		expect(item.json).toEqual({
			event: 'responseFinished',
			surveyId: 'srv_residency',
			responseId: expect.stringMatching(/^resp_/),
			createdAt: '2026-11-21T10:00:00.000Z',
			data: { fullName: 'Ada Lovelace', decision: 'approved' },
			deliveryId: call.headers!['webhook-id'],
		});
	});

	describe('signature checks', () => {
		const rejected = async (call: WebhookCall) => {
			const outcome = await callWebhook(webhook, call);
			expect(outcome.status).toBe(401);
			expect(outcome.result.noWebhookResponse).toBe(true);
			expect(started(outcome)).toHaveLength(0);
		};

		it('rejects a wrong secret', async () => await rejected(delivery({ signWith: otherSecret })));

		it('rejects a tampered body', async () => {
			const call = delivery();
			call.rawBody = String(call.rawBody).replace('approved', 'rejected');
			await rejected(call);
		});

		it('rejects a stale timestamp', async () =>
			await rejected(delivery({ timestamp: new Date(Date.now() - 6 * 60 * 1000) })));

		it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])('rejects a missing %s', async (header) => {
			const call = delivery();
			delete call.headers![header];
			await rejected(call);
		});

		it('accepts when one of several signatures matches', async () => {
			const call = delivery();
			const wrong = new Webhook(otherSecret).sign('x', new Date(), 'y');
			call.headers!['webhook-signature'] = `${wrong} ${call.headers!['webhook-signature']}`;
			expect(started(await callWebhook(webhook, call))).toHaveLength(1);
		});

		it('verifies with the credential’s secret in Manual registration', async () => {
			const call = delivery();
			call.parameters = { ...call.parameters, registration: 'manual' };
			call.staticData = {};
			call.credentials = { surveyApi: { baseUrl: 'http://127.0.0.1:1', apiKey: 'k', webhookSecret: secret } };
			expect(started(await callWebhook(webhook, call))).toHaveLength(1);
			const forged = delivery({ signWith: otherSecret });
			forged.parameters = call.parameters;
			forged.staticData = {};
			forged.credentials = call.credentials;
			await rejected(forged);
		});
	});

	it('starts nothing the second time a webhook-id arrives', async () => {
		const first = delivery({ id: 'msg_redelivered' });
		const again = delivery({ id: 'msg_redelivered' });
		expect(started(await callWebhook(webhook, first))).toHaveLength(1);
		const outcome = await callWebhook(webhook, again);
		expect(started(outcome)).toHaveLength(0);
		expect(outcome.result.webhookResponse).toBe('OK');
	});

	it('reads the credential for the first delivery of a hook only, and again for a hook registered anew', async () => {
		const staticData = registeredHook();
		const calls = [delivery(), delivery(), delivery()].map((call) => ({ ...call, workflowId: 'wf-secret-reads', staticData }));
		const outcomes = [];
		for (const call of calls) outcomes.push(await callWebhook(webhook, call));
		expect(outcomes.map((outcome) => started(outcome).length)).toEqual([1, 1, 1]);
		expect(outcomes.map((outcome) => outcome.credentialReads)).toEqual([1, 0, 0]);

		// Registered anew (activated again): another sealed secret, opened with the credential again.
		const renewed = { ...delivery({ signWith: otherSecret }), workflowId: 'wf-secret-reads', staticData: registeredHook(otherSecret) };
		const outcome = await callWebhook(webhook, renewed);
		expect(started(outcome)).toHaveLength(1);
		expect(outcome.credentialReads).toBe(1);
	});

	describe('without a usable secret (regressions: these deliveries used to start executions)', () => {
		it('refuses an unsigned delivery when no secret is stored for the hook, saying how to recover', async () => {
			const call = delivery();
			for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) delete call.headers![header];
			call.staticData = { webhookId: 'wh_1' };
			const outcome = await callWebhook(webhook, call);
			expect(outcome.status).toBe(401);
			expect(started(outcome)).toHaveLength(0);
			expect(JSON.stringify(outcome.responseBody)).toMatch(/activate the workflow again/);
			expect(outcome.warnings.join()).toMatch(/activate the workflow again/);
		});

		it('refuses deliveries when the stored secret no longer opens (the API key changed)', async () => {
			const call = delivery();
			call.credentials = { surveyApi: { ...credentials.surveyApi, apiKey: 'another-key' } };
			const outcome = await callWebhook(webhook, call);
			expect(outcome.status).toBe(401);
			expect(started(outcome)).toHaveLength(0);
		});

		it.each(['whsec_', 'whsec_!!!!'])('refuses the credential secret %p as a configuration error', async (bad) => {
			const call = delivery();
			const timestamp = call.headers!['webhook-timestamp'];
			// What the sender computes with the empty key a lenient decoder makes of it.
			call.headers!['webhook-signature'] =
				`v1,${createHmac('sha256', Buffer.alloc(0)).update(`${call.headers!['webhook-id']}.${timestamp}.${call.rawBody}`).digest('base64')}`;
			call.parameters = { ...call.parameters, registration: 'manual' };
			call.staticData = {};
			call.credentials = { surveyApi: { ...credentials.surveyApi, webhookSecret: bad } };
			const outcome = await callWebhook(webhook, call);
			expect(outcome.status).toBe(401);
			expect(started(outcome)).toHaveLength(0);
			expect(JSON.stringify(outcome.responseBody)).toMatch(/Webhook Secret in the credential/);
		});
	});

	it('verifies the signature over the exact bytes received, also when they are not UTF-8', async () => {
		const call = delivery();
		const raw = Buffer.concat([Buffer.from(String(call.rawBody).slice(0, -2)), Buffer.from([0xeb]), Buffer.from('"}')]);
		const id = call.headers!['webhook-id'];
		const timestamp = call.headers!['webhook-timestamp'];
		const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
		call.rawBody = raw;
		call.headers!['webhook-signature'] =
			`v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(raw).digest('base64')}`;
		expect(started(await callWebhook(webhook, call))).toHaveLength(1);
	});

	describe('a delivery n8n failed to start (regression: its retry was acknowledged as a duplicate)', () => {
		it.each([
			['n8n answers 500', 500 as const],
			['the sender left before n8n answered', 'disconnect' as const],
		])('runs its redelivery when %s', async (_, answer) => {
			const first = delivery({ id: `msg_not_started_${answer}` });
			first.n8nAnswer = answer;
			expect(started(await callWebhook(webhook, first))).toHaveLength(1);
			const retry = delivery({ id: `msg_not_started_${answer}` });
			expect(started(await callWebhook(webhook, retry))).toHaveLength(1);
			const again = await callWebhook(webhook, delivery({ id: `msg_not_started_${answer}` }));
			expect(started(again)).toHaveLength(0);
			expect(again.result.webhookResponse).toBe('OK');
		});
	});

	it('acknowledges events and surveys that were not selected', async () => {
		const otherEvent = delivery({ event: 'responseUpdated' });
		expect(started(await callWebhook(webhook, otherEvent))).toHaveLength(0);
		const otherSurvey = delivery({ surveyId: 'srv_other' });
		otherSurvey.parameters = { ...otherSurvey.parameters, allSurveys: false, surveyIds: ['srv_residency'] };
		const outcome = await callWebhook(webhook, otherSurvey);
		expect(started(outcome)).toHaveLength(0);
		expect(outcome.result.webhookResponse).toBe('OK');
	});
});
