import { SigningTrigger } from '../../nodes/Signing/SigningTrigger.node';
import { callWebhook, hookContext, type WebhookCall } from './helpers/context';

const trigger = new SigningTrigger();
const webhook = trigger.webhook as Parameters<typeof callWebhook>[0];

const document = {
	id: 'doc_1',
	title: 'Residency agreement – Ada Lovelace',
	templateId: 'tpl_residency_agreement',
	status: 'PENDING',
	recipients: [{ recipientId: 'rcp_1', name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER', signingStatus: 'SIGNED' }],
	certifiedPackageUrl: null,
};

let workflowCounter = 0;

function delivery(overrides: Partial<WebhookCall> & { event?: string; deliveryId?: string } = {}): WebhookCall {
	const event = overrides.event ?? 'document.signed';
	const payload =
		event === 'document.signed' ? { ...document, recipient: document.recipients[0] } : { ...document };
	return {
		workflowId: `wf-${++workflowCounter}`,
		parameters: { events: ['document.created', 'document.sent', 'document.signed', 'document.completed'] },
		headers: {
			'content-type': 'application/json',
			...(overrides.deliveryId === '' ? {} : { 'x-signing-delivery': overrides.deliveryId ?? `dlv_${workflowCounter}` }),
		},
		body: { event, createdAt: '2026-11-21T10:00:00.000Z', payload },
		...overrides,
	};
}

describe('Signing Trigger', () => {
	it('turns a delivery into one item with the event, the document and the signer', async () => {
		const outcome = await callWebhook(webhook, delivery());
		const items = outcome.result.workflowData?.[0] ?? [];
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			event: 'document.signed',
			deliveryId: expect.any(String),
			createdAt: '2026-11-21T10:00:00.000Z',
			documentId: 'doc_1',
			document,
			recipient: document.recipients[0],
		});
	});

	it('has no recipient field for events other than document.signed', async () => {
		const outcome = await callWebhook(webhook, delivery({ event: 'document.completed' }));
		const item = outcome.result.workflowData?.[0][0].json;
		expect(item?.event).toBe('document.completed');
		expect(item).not.toHaveProperty('recipient');
	});

	it('acknowledges events that were not selected and starts nothing', async () => {
		const call = delivery({ event: 'document.sent' });
		call.parameters = { events: ['document.completed'] };
		const outcome = await callWebhook(webhook, call);
		expect(outcome.result.workflowData).toBeUndefined();
		expect(outcome.result.webhookResponse).toBe('OK');
	});

	describe('with a webhook secret in the credential', () => {
		const credentials = { signingApi: { baseUrl: 'http://127.0.0.1:1', apiToken: 't', webhookSecret: 's3cret' } };

		it('accepts the matching secret', async () => {
			const call = delivery({ credentials });
			call.headers = { ...call.headers, 'x-signing-secret': 's3cret' };
			const outcome = await callWebhook(webhook, call);
			expect(outcome.result.workflowData?.[0]).toHaveLength(1);
		});

		it.each([
			['a wrong secret', { 'x-signing-secret': 'wrong' }],
			['a secret of another length', { 'x-signing-secret': 's3cret-and-more' }],
			['no secret header', {}],
		])('answers 401 and starts nothing for %s', async (_, extraHeaders) => {
			const call = delivery({ credentials });
			call.headers = { ...call.headers, ...extraHeaders };
			const outcome = await callWebhook(webhook, call);
			expect(outcome.status).toBe(401);
			expect(outcome.result.noWebhookResponse).toBe(true);
			expect(outcome.result.workflowData).toBeUndefined();
		});
	});

	it('ignores the secret header when no secret is configured', async () => {
		const call = delivery();
		call.headers = { ...call.headers, 'x-signing-secret': 'anything' };
		const outcome = await callWebhook(webhook, call);
		expect(outcome.result.workflowData?.[0]).toHaveLength(1);
	});

	it('starts one execution for a delivery that arrives twice', async () => {
		const first = delivery({ deliveryId: 'dlv_repeat' });
		const second = { ...first };
		const outcomes = [await callWebhook(webhook, first), await callWebhook(webhook, second)];
		expect(outcomes[0].result.workflowData?.[0]).toHaveLength(1);
		expect(outcomes[1].result.workflowData).toBeUndefined();
		expect(outcomes[1].result.webhookResponse).toBe('OK');
	});

	it('runs the redelivery of a delivery n8n failed to start (regression)', async () => {
		const first = { ...delivery({ deliveryId: 'dlv_500' }), n8nAnswer: 500 };
		expect((await callWebhook(webhook, first)).result.workflowData?.[0]).toHaveLength(1);
		const retry = { ...first, n8nAnswer: 200 };
		expect((await callWebhook(webhook, retry)).result.workflowData?.[0]).toHaveLength(1);
		expect((await callWebhook(webhook, retry)).result.workflowData).toBeUndefined();
	});

	it('keeps what the production trigger remembers when "Listen for test event" ends (regression)', async () => {
		const production = 'http://127.0.0.1:5678/webhook/signing-hook/webhook';
		const test = 'http://127.0.0.1:5678/webhook-test/signing-hook/webhook';
		const call = {
			...delivery({ deliveryId: 'dlv_prod' }),
			workflowId: 'workflow-under-test',
			nodeId: 'hook-under-test',
			webhookUrl: production,
		};
		expect((await callWebhook(webhook, call)).result.workflowData?.[0]).toHaveLength(1);
		// The test listener is stopped: n8n calls delete() for the test webhook.
		const { delete: remove } = trigger.webhookMethods.default;
		await remove.call(hookContext({ parameters: {}, credentials: {}, webhookUrl: test }).context);
		expect((await callWebhook(webhook, call)).result.workflowData).toBeUndefined();
		// Deactivating (or deleting) the workflow prunes the production scope.
		await remove.call(hookContext({ parameters: {}, credentials: {}, webhookUrl: production }).context);
		expect((await callWebhook(webhook, call)).result.workflowData?.[0]).toHaveLength(1);
	});

	it('keeps deliveries apart per workflow', async () => {
		const one = delivery({ deliveryId: 'dlv_shared' });
		const other = { ...delivery({ deliveryId: 'dlv_shared' }) };
		expect((await callWebhook(webhook, one)).result.workflowData?.[0]).toHaveLength(1);
		expect((await callWebhook(webhook, other)).result.workflowData?.[0]).toHaveLength(1);
	});

	it('recognises a redelivery by its bytes when the service sends no delivery id', async () => {
		const first = delivery({ deliveryId: '' });
		const again = { ...first };
		const different = { ...first, body: { ...(first.body as object), createdAt: '2026-11-21T10:00:01.000Z' } };
		expect((await callWebhook(webhook, first)).result.workflowData?.[0]).toHaveLength(1);
		expect((await callWebhook(webhook, again)).result.workflowData).toBeUndefined();
		expect((await callWebhook(webhook, different)).result.workflowData?.[0]).toHaveLength(1);
	});

	it('answers 400 to a body that is not a signing event', async () => {
		const call = delivery();
		call.body = { hello: 'world' };
		const outcome = await callWebhook(webhook, call);
		expect(outcome.status).toBe(400);
		expect(outcome.result.workflowData).toBeUndefined();
	});
});
