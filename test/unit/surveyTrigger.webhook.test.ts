import { Webhook } from 'standardwebhooks';

import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { callWebhook, type WebhookCall } from './helpers/context';

const trigger = new SurveyTrigger();
const webhook = trigger.webhook as Parameters<typeof callWebhook>[0];
const secret = `whsec_${Buffer.from('survey-trigger-unit-secret').toString('base64')}`;
const otherSecret = `whsec_${Buffer.from('some-other-secret-entirely').toString('base64')}`;

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
		staticData: { webhookId: 'wh_1', secret },
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
			call.rawBody = call.rawBody!.replace('approved', 'rejected');
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
