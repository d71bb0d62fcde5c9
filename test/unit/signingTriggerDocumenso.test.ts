/**
 * Issue 26, acceptance 2: the Signing Trigger with the credential set to Documenso, fed the
 * deliveries the Documenso flavour really sent, built as Documenso builds them
 * (packages/lib/jobs/definitions/internal/execute-webhook.handler.ts and
 * packages/lib/server-only/webhooks/execute-webhook-call.ts at tag v2.17.0, commit
 * 75330166cc00b29c14399bc2e391e4b4d8080c00; reproduced in test/sandbox/documenso/webhooks.ts):
 * `{event, payload, createdAt, webhookEndpoint}`, `X-Documenso-Secret`, no delivery id, and a new
 * `createdAt` on every attempt. A receiver that fails every attempt makes the flavour try each
 * delivery 4 times (Documenso's local job runner); every attempt is then handed to the trigger as
 * n8n would, in the order they arrived.
 */
import type { IDataObject } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { SigningTrigger } from '../../nodes/Signing/SigningTrigger.node';
import { lateFailures } from '../sandbox/documenso/testkit';
import { DOCUMENSO_ATTEMPTS } from '../sandbox/documenso/webhooks';
import { type ReceivedDelivery, type Receiver, startReceiver } from '../sandbox/testkit';
import { callWebhook, executeContext, type WebhookCall } from './helpers/context';
import { DOCUMENSO_SEED, type DocumensoHarness, startDocumensoHarness } from './helpers/documenso';

jest.setTimeout(120_000);

const SECRET = 'team-webhook-secret';
const ALL_EVENTS = [
	'document.created',
	'document.sent',
	'document.opened',
	'document.signed',
	'document.completed',
	'document.rejected',
	'document.cancelled',
	'document.recipient_completed',
	'document.reminder_sent',
	'document.recipient_expired',
];

const trigger = new SigningTrigger();
const webhook = trigger.webhook as Parameters<typeof callWebhook>[0];
let workflows = 0;

describe('Signing Trigger on Documenso, fed the deliveries Documenso sends', () => {
	let documenso: DocumensoHarness;
	let receiver: Receiver;
	let workflowId: string;

	beforeAll(async () => {
		documenso = await startDocumensoHarness();
	});
	afterAll(async () => await documenso?.stop());
	beforeEach(async () => {
		await documenso.control('/reset');
		await documenso.control('/webhook-endpoints', 'DELETE');
		// A receiver of its own per test: deliveries a test left queued cannot reach the next one.
		receiver = await startReceiver();
		// Each test is its own workflow: the trigger remembers deliveries per workflow.
		workflowId = `documenso-workflow-${++workflows}`;
	});
	afterEach(async () => await receiver.close());

	const credentials = (extra: IDataObject = {}) => ({
		signingApi: { ...documenso.credentials().signingApi, webhookSecret: SECRET, ...extra },
	});
	/** The team's webhook in Documenso, with its secret (null: none). */
	const subscribe = async (secret: string | null = SECRET) =>
		await documenso.control('/webhook-endpoints', 'POST', secret === null ? { url: receiver.url } : { url: receiver.url, secret });
	/** Documenso tries each delivery until a 2xx: failing them all gives every attempt there is. */
	const failEveryAttempt = () => {
		receiver.answers = lateFailures(Array.from({ length: 400 }, () => 500));
	};
	const generate = async (template: number, people: IDataObject[]) => {
		const { context } = executeContext({
			parameters: {
				resource: 'document',
				operation: 'generateFromTemplate',
				templateId: { mode: 'id', value: String(template) },
				title: 'Agreement',
				recipientsInput: 'json',
				recipientsJson: JSON.stringify(people),
			},
			credentials: credentials(),
		});
		const [[item]] = await new Signing().execute.call(context);
		return item.json;
	};
	/** The two-party NDA, sent to Party One and Party Two. */
	const generateNda = async () =>
		await generate(DOCUMENSO_SEED.ndaTemplateId, [
			{ name: 'Party One', email: 'one@example.org' },
			{ name: 'Party Two', email: 'two@example.org' },
		]);
	const deliver = async (delivery: ReceivedDelivery, overrides: Partial<WebhookCall> = {}) =>
		await callWebhook(webhook, {
			workflowId,
			headers: delivery.headers as Record<string, string>,
			body: delivery.body,
			rawBody: delivery.rawBody,
			parameters: { events: ALL_EVENTS },
			credentials: credentials(),
			...overrides,
		});
	/** Hands every attempt to the trigger in arrival order; the items of the executions it started. */
	const executions = async (deliveries: ReceivedDelivery[], overrides: Partial<WebhookCall> = {}) => {
		const items: IDataObject[] = [];
		for (const delivery of deliveries) {
			const outcome = await deliver(delivery, overrides);
			expect(outcome.status).toBeUndefined();
			const started = outcome.result.workflowData?.[0] ?? [];
			items.push(...started.map((item) => item.json));
		}
		return items;
	};

	it('two signers: one execution per event, none for the retries (each with a new createdAt)', async () => {
		await subscribe();
		failEveryAttempt();
		const document = await generateNda();
		const [one, two] = document.recipients as IDataObject[];
		await documenso.control(`/documents/${String(document.documentId)}/sign`, 'POST', { recipientId: one.id });
		await documenso.control(`/documents/${String(document.documentId)}/sign`, 'POST', { recipientId: two.id });
		// CREATED, TEMPLATE_USED, SENT, then per signer OPENED, RECIPIENT_COMPLETED, SIGNED, then COMPLETED.
		const events = 10;
		const deliveries = await receiver.arrived(events * DOCUMENSO_ATTEMPTS);
		expect(deliveries).toHaveLength(events * DOCUMENSO_ATTEMPTS);

		// Retries are not byte-identical: the same payload, a new createdAt, no delivery id.
		const signedAttempts = deliveries.filter((delivery) => delivery.body.event === 'DOCUMENT_SIGNED');
		expect(new Set(signedAttempts.map((delivery) => JSON.stringify(delivery.body.payload))).size).toBe(2);
		// Each attempt is stamped when it is made; the sandbox retries at once (webhookRetryDelayMs 0),
		// so two attempts may share a millisecond: the stamps never go back.
		const stamps = signedAttempts.map((delivery) => Date.parse(delivery.body.createdAt));
		expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
		// The two signers' events carry the same updatedAt: it cannot tell them apart.
		expect(new Set(signedAttempts.map((delivery) => delivery.body.payload.updatedAt)).size).toBe(1);

		const items = await executions(deliveries);
		expect(items.map((item) => item.event)).toEqual([
			'document.created',
			'document.sent',
			'document.opened',
			'document.recipient_completed',
			'document.signed',
			'document.opened',
			'document.recipient_completed',
			'document.signed',
			'document.completed',
		]);
		const signed = items.filter((item) => item.event === 'document.signed');
		expect(signed.map((item) => (item.recipient as IDataObject).name)).toEqual(['Party One', 'Party Two']);
		expect(new Set(items.map((item) => item.deliveryId)).size).toBe(items.length);
		const completed = items.find((item) => item.event === 'document.completed')!;
		expect(completed).toMatchObject({
			documentId: document.documentId,
			documensoEvent: 'DOCUMENT_COMPLETED',
			webhookEndpoint: receiver.url,
			createdAt: expect.any(String),
			document: expect.objectContaining({ status: 'COMPLETED', certifiedPackageUrl: null }),
		});
		expect(completed).not.toHaveProperty('recipient');
		// Issue 41: the envelope ID Documenso sends beside the number (ZWebhookDocumentSchema at
		// v2.17.0), the same Generate From Template and Get give: expressions written after Get work here.
		expect((completed.document as IDataObject).envelopeId).toBe(document.envelopeId);
		expect((completed.document as IDataObject).id).toBe(document.documentId);
	});

	/**
	 * Issue 32 item 9. completeDocumentWithToken (packages/lib/server-only/document/complete-document-with-token.ts)
	 * commits the recipient's SIGNED in its transaction and only afterwards reads the document for
	 * DOCUMENT_RECIPIENT_COMPLETED and, at its end, DOCUMENT_SIGNED; execute-webhook.handler.ts sends
	 * that payload unchanged on every attempt. Two signers within about half a second: both
	 * deliveries show both signed, byte for byte, and the second was taken for a redelivery.
	 */
	it('two signers close together: each signer’s event once, none for the retries', async () => {
		await subscribe();
		failEveryAttempt();
		const document = await generateNda();
		const [one, two] = document.recipients as IDataObject[];
		await documenso.control(`/documents/${String(document.documentId)}/sign-together`, 'POST', {
			recipientIds: [one.id, two.id],
		});
		// CREATED, TEMPLATE_USED, SENT, OPENED twice, then per signer RECIPIENT_COMPLETED and SIGNED, then COMPLETED.
		const events = 10;
		const deliveries = await receiver.arrived(events * DOCUMENSO_ATTEMPTS);
		const signedAttempts = deliveries.filter((delivery) => delivery.body.event === 'DOCUMENT_SIGNED');
		expect(signedAttempts).toHaveLength(2 * DOCUMENSO_ATTEMPTS);
		expect(new Set(signedAttempts.map((delivery) => JSON.stringify(delivery.body.payload))).size).toBe(1);

		const items = await executions(deliveries);
		for (const event of ['document.signed', 'document.recipient_completed']) {
			const ofEvent = items.filter((item) => item.event === event);
			expect(ofEvent.map((item) => (item.recipient as IDataObject).name).sort()).toEqual(['Party One', 'Party Two']);
		}
		expect(new Set(items.map((item) => item.deliveryId)).size).toBe(items.length);

		// The two signers' deliveries arriving byte for byte alike (the same createdAt too) at another workflow.
		const [first] = signedAttempts;
		const twins = [first, first];
		workflowId = `${workflowId}-twins`;
		const fromTwins = await executions(twins, { parameters: { events: ['document.signed'] } });
		expect(fromTwins.map((item) => (item.recipient as IDataObject).name).sort()).toEqual(['Party One', 'Party Two']);

		// A signing long before the latest came with its own delivery: a trigger that does not remember
		// it (n8n restarted) emits only the latest signer of a later delivery.
		const body = JSON.parse(JSON.stringify(first.body)) as IDataObject;
		const [early] = (body.payload as IDataObject).recipients as IDataObject[];
		early.signedAt = new Date(Date.parse(String(early.signedAt)) - 5 * 60_000).toISOString();
		workflowId = `${workflowId}-restarted`;
		expect(early.name).toBe('Party One');
		const later = await executions([{ ...first, body, rawBody: JSON.stringify(body) }], {
			parameters: { events: ['document.signed'] },
		});
		expect(later.map((item) => (item.recipient as IDataObject).name)).toEqual(['Party Two']);
	});

	it('a delivery n8n failed to start runs on the retry', async () => {
		await subscribe();
		failEveryAttempt();
		await generate(DOCUMENSO_SEED.residencyTemplateId, [
			{ name: 'Ada Lovelace', email: 'ada@example.org' },
			{ name: 'Grace Hopper', email: 'grace@example.org' },
		]);
		const deliveries = await receiver.arrived(3 * DOCUMENSO_ATTEMPTS);
		const sent = deliveries.filter((delivery) => delivery.body.event === 'DOCUMENT_SENT');
		const parameters = { events: ['document.sent'] };
		expect((await deliver(sent[0], { parameters, n8nAnswer: 500 })).result.workflowData?.[0]).toHaveLength(1);
		expect((await deliver(sent[1], { parameters })).result.workflowData?.[0]).toHaveLength(1);
		expect((await deliver(sent[2], { parameters })).result.workflowData).toBeUndefined();
	});

	it('rejected, expired and reminded: the recipient who acted, derived from the payload', async () => {
		await subscribe();
		const document = await generateNda();
		const id = String(document.documentId);
		const [one, two] = document.recipients as IDataObject[];
		await documenso.control(`/documents/${id}/remind`, 'POST', { recipientId: two.id });
		await documenso.control(`/documents/${id}/expire`, 'POST', { recipientId: one.id });
		await documenso.control(`/documents/${id}/open`, 'POST', { recipientId: two.id });
		await documenso.control(`/documents/${id}/reject`, 'POST', { recipientId: two.id, reason: 'Wrong dates' });
		// CREATED, TEMPLATE_USED, SENT, REMINDER_SENT, RECIPIENT_EXPIRED, OPENED, REJECTED.
		const items = await executions(await receiver.arrived(7));
		const byEvent = Object.fromEntries(items.map((item) => [item.event, item]));
		expect(byEvent['document.reminder_sent']).not.toHaveProperty('recipient');
		expect(byEvent['document.recipient_expired'].recipient).toMatchObject({ recipientId: one.id, name: 'Party One' });
		expect(byEvent['document.opened'].recipient).toMatchObject({ recipientId: two.id, readStatus: 'OPENED' });
		expect(byEvent['document.rejected']).toMatchObject({
			recipient: { recipientId: two.id, signingStatus: 'REJECTED' },
			rejectionReason: 'Wrong dates',
			document: expect.objectContaining({ status: 'REJECTED' }),
		});
	});

	it('version 2: the one shape, with Documenso’s events under their documented names', async () => {
		await subscribe();
		const document = await generate(DOCUMENSO_SEED.residencyTemplateId, [
			{ name: 'Ada Lovelace', email: 'ada@example.org' },
			{ name: 'Grace Hopper', email: 'grace@example.org' },
		]);
		await documenso.control(`/documents/${String(document.documentId)}/complete`);
		const deliveries = await receiver.arrived(10);
		const items = await executions(deliveries, { typeVersion: 2, parameters: { events: ['document.signed'] } });
		expect(items).toHaveLength(2);
		expect(items[0]).toMatchObject({
			event: 'document.signed',
			documentId: document.documentId,
			status: 'PENDING',
			templateId: DOCUMENSO_SEED.residencyTemplateId,
			certifiedPackageUrl: null,
			documentUrl: null,
			recipient: { name: 'Ada Lovelace', signingStatus: 'SIGNED', signingUrl: expect.stringContaining('/sign/') },
			rejectionReason: null,
		});
	});

	it('takes Documenso’s own event names in the event list too', async () => {
		await subscribe();
		await generate(DOCUMENSO_SEED.residencyTemplateId, [
			{ name: 'Ada Lovelace', email: 'ada@example.org' },
			{ name: 'Grace Hopper', email: 'grace@example.org' },
		]);
		const items = await executions(await receiver.arrived(3), { parameters: { events: ['DOCUMENT_SENT'] } });
		expect(items.map((item) => item.event)).toEqual(['document.sent']);
	});

	describe('the secret, compared in constant time and required', () => {
		const oneDelivery = async (secret: string | null = SECRET) => {
			await subscribe(secret);
			await generate(DOCUMENSO_SEED.residencyTemplateId, [
				{ name: 'Ada Lovelace', email: 'ada@example.org' },
				{ name: 'Grace Hopper', email: 'grace@example.org' },
			]);
			const [created] = await receiver.arrived(1);
			return created;
		};

		it.each([
			['a wrong secret', 'not-the-secret'],
			['no secret (Documenso sends an empty header)', null],
		])('answers 401 and starts nothing for %s', async (_, secret) => {
			const delivery = await oneDelivery(secret);
			expect(delivery.headers['x-documenso-secret']).toBe(secret ?? '');
			const outcome = await deliver(delivery);
			expect(outcome.status).toBe(401);
			expect(outcome.result.workflowData).toBeUndefined();
		});

		it('answers 401 for a delivery without the header at all', async () => {
			const delivery = await oneDelivery();
			const headers = { ...(delivery.headers as Record<string, string>) };
			delete headers['x-documenso-secret'];
			expect((await deliver(delivery, { headers })).status).toBe(401);
		});

		it('fails closed without a secret in the credential, and logs how to fix it', async () => {
			const delivery = await oneDelivery(null);
			for (const withoutSecret of [credentials({ webhookSecret: '' }), credentials({ webhookSecret: undefined })]) {
				const outcome = await deliver(delivery, { credentials: withoutSecret });
				expect(outcome.status).toBe(401);
				expect(outcome.result.workflowData).toBeUndefined();
				expect(outcome.warnings).toEqual([
					expect.stringMatching(
						/refused a delivery: its credential has no Webhook Secret\. Set the webhook's Secret in Documenso \(team settings → Webhooks\) and the same value as Webhook Secret in the credential, or turn on "Accept Deliveries Without Secret"/,
					),
				]);
				expect(JSON.stringify(outcome.warnings)).not.toContain(SECRET);
			}
		});

		// Issue 32 item 10: the trigger's credential is optional (the documented API's secret is), and
		// without one a Documenso delivery (X-Documenso-Secret is on every one: execute-webhook-call.ts)
		// was read as the documented API's, its DOCUMENT_… event matched none and it was answered 200.
		it.each([
			['with its secret', SECRET],
			['without one', null],
		])('refuses a Documenso delivery %s when the trigger has no credential, and logs what to set', async (_, secret) => {
			const delivery = await oneDelivery(secret);
			for (const parameters of [{ events: ALL_EVENTS }, { events: ALL_EVENTS, acceptWithoutSecret: true }]) {
				const outcome = await deliver(delivery, { credentials: {}, parameters });
				expect(outcome.status).toBe(401);
				expect(outcome.result.workflowData).toBeUndefined();
				expect(outcome.warnings).toEqual([
					expect.stringMatching(
						/Signing Trigger "Trigger Under Test" \(workflow documenso-workflow-\d+\) refused a delivery from Documenso: the trigger has no credential\. Choose a Signing or Documenso API credential with API "Documenso" in the trigger, set the webhook's Secret in Documenso \(team settings → Webhooks\) and the same value as Webhook Secret in the credential/,
					),
				]);
			}
		});

		it('accepts deliveries without a secret only when the user turned that on', async () => {
			const delivery = await oneDelivery(null);
			const outcome = await deliver(delivery, {
				credentials: credentials({ webhookSecret: '' }),
				parameters: { events: ALL_EVENTS, acceptWithoutSecret: true },
			});
			expect(outcome.result.workflowData?.[0]).toHaveLength(1);
		});

		it('refuses a body that is not a Documenso delivery', async () => {
			const delivery = await oneDelivery();
			const outcome = await deliver(delivery, {
				body: { event: 'document.created', createdAt: 'now' },
				rawBody: '{}',
			});
			expect(outcome.status).toBe(400);
			expect(outcome.responseBody).toEqual({
				message: 'Expected a signing event: { event, payload, createdAt, webhookEndpoint }',
			});
		});
	});
});
