/**
 * Webhook deliveries of the Documenso flavour, built as Documenso builds them
 * (execute-webhook.handler.ts and execute-webhook-call.ts at tag v2.17.0, commit 75330166cc00b29c14399bc2e391e4b4d8080c00;
 * test/sandbox/documenso/webhooks.ts): upper-case event names, `{event, payload, createdAt,
 * webhookEndpoint}`, `X-Documenso-Secret`, no delivery id, a new `createdAt` on every attempt.
 */
import { DOCUMENSO_SEED, type Sandbox, startSandbox } from './index';
import {
	ada,
	director,
	documensoClient,
	eventsOf,
	lateFailures,
	startDocumenso,
} from './documenso/testkit';
import { type Receiver, startReceiver } from './testkit';

jest.setTimeout(120_000);

/** ZWebhookDocumentSchema's keys, in mapEnvelopeToWebhookDocumentPayload's order. */
const PAYLOAD_KEYS = [
	'id',
	'envelopeId',
	'externalId',
	'userId',
	'authOptions',
	'formValues',
	'visibility',
	'title',
	'status',
	'createdAt',
	'updatedAt',
	'completedAt',
	'deletedAt',
	'teamId',
	'templateId',
	'source',
	'documentMeta',
	'recipients',
	'Recipient',
];

describe('Documenso flavour: webhooks', () => {
	let sandbox: Sandbox;
	let receiver: Receiver;
	const { get, post, control } = documensoClient(() => sandbox);
	const use = async (distributeDocument = true) =>
		(
			await post('/api/v2/template/use', {
				templateId: DOCUMENSO_SEED.residencyTemplateId,
				recipients: [ada, director],
				distributeDocument,
			})
		).json;
	const subscribe = async (extra: Record<string, unknown> = {}) =>
		(await control('/webhook-endpoints', { url: receiver.url, secret: 'team-secret', ...extra }))
			.json;
	const attempts = async () => (await control('/deliveries', undefined, 'GET')).json.deliveries;

	beforeAll(async () => {
		receiver = await startReceiver();
		// Documents are made through the deprecated /template/use here: Documenso 2.17 as released.
		sandbox = await startDocumenso('all');
	});
	afterAll(async () => {
		await sandbox.stop();
		await receiver.close();
	});
	beforeEach(async () => {
		await control('/reset');
		receiver.clear();
	});

	it('delivers the life of a document with the body and headers execute-webhook builds', async () => {
		await subscribe();
		const created = await use();
		const sent = await get(`/api/v2/document/${created.id}`);
		await control(`/documents/${created.id}/sign`, { recipientId: created.recipients[0].id });
		await control(`/documents/${created.id}/sign`, { recipientId: created.recipients[1].id });
		const deliveries = await eventsOf(receiver, created.id, 10);
		expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
			'DOCUMENT_CREATED',
			'TEMPLATE_USED',
			'DOCUMENT_SENT',
			'DOCUMENT_OPENED',
			'DOCUMENT_RECIPIENT_COMPLETED',
			'DOCUMENT_SIGNED',
			'DOCUMENT_OPENED',
			'DOCUMENT_RECIPIENT_COMPLETED',
			'DOCUMENT_SIGNED',
			'DOCUMENT_COMPLETED',
		]);
		for (const delivery of deliveries) {
			expect(Object.keys(delivery.body)).toEqual([
				'event',
				'payload',
				'createdAt',
				'webhookEndpoint',
			]);
			expect(delivery.body.webhookEndpoint).toBe(receiver.url);
			expect(delivery.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
			expect(Object.keys(delivery.body.payload)).toEqual(PAYLOAD_KEYS);
			expect(delivery.body.payload.Recipient).toEqual(delivery.body.payload.recipients);
			expect(delivery.headers['content-type']).toBe('application/json');
			expect(delivery.headers['x-documenso-secret']).toBe('team-secret');
			expect(Object.keys(delivery.headers).filter((name) => name.startsWith('x-'))).toEqual([
				'x-documenso-secret',
			]);
		}
		const [createdEvent, , sentEvent] = deliveries.map((delivery) => delivery.body.payload);
		expect(createdEvent).toMatchObject({
			id: created.id,
			envelopeId: created.envelopeId,
			status: 'DRAFT',
			templateId: 1,
		});
		expect(sentEvent.status).toBe('PENDING');
		expect(sentEvent.documentMeta).toMatchObject({
			timezone: 'Etc/UTC',
			dateFormat: 'yyyy-MM-dd hh:mm a',
		});
		// The payload is the document when the event happened: invitations go out after DOCUMENT_SENT.
		expect(
			sentEvent.recipients.map((recipient: { sendStatus: string }) => recipient.sendStatus),
		).toEqual(['NOT_SENT', 'NOT_SENT']);
		expect(
			sent.json.recipients.map((recipient: { sendStatus: string }) => recipient.sendStatus),
		).toEqual(['SENT', 'SENT']);
		const completed = deliveries.find((delivery) => delivery.body.event === 'DOCUMENT_COMPLETED')!
			.body.payload;
		expect(completed).toMatchObject({ status: 'COMPLETED', completedAt: expect.any(String) });
	});

	it('names no signer in DOCUMENT_SIGNED, and keeps updatedAt while recipients act', async () => {
		await subscribe({ events: ['DOCUMENT_SIGNED'] });
		const created = await use();
		await control(`/documents/${created.id}/sign`, { recipientId: created.recipients[0].id });
		await control(`/documents/${created.id}/sign`, { recipientId: created.recipients[1].id });
		const [first, second] = (await eventsOf(receiver, created.id, 2)).map(
			(delivery) => delivery.body.payload,
		);
		expect(first.recipient).toBeUndefined();
		expect(
			first.recipients.map((recipient: { signingStatus: string }) => recipient.signingStatus),
		).toEqual(['SIGNED', 'NOT_SIGNED']);
		expect(
			second.recipients.map((recipient: { signingStatus: string }) => recipient.signingStatus),
		).toEqual(['SIGNED', 'SIGNED']);
		// Signing changes recipient rows only: the envelope's updatedAt is the same in both.
		expect(second.updatedAt).toBe(first.updatedAt);
		expect(JSON.stringify(second)).not.toBe(JSON.stringify(first));
	});

	it('retries a failed delivery up to 4 attempts in all, each with a new createdAt and the same payload', async () => {
		await subscribe({ events: ['DOCUMENT_CREATED'] });
		receiver.answers = lateFailures([500, 503, 502, 500]);
		const created = await use(false);
		const deliveries = await receiver.waitFor(4);
		expect(deliveries.map((delivery) => delivery.body.event)).toEqual(
			Array(4).fill('DOCUMENT_CREATED'),
		);
		const stamps = deliveries.map((delivery) => delivery.body.createdAt);
		expect([...stamps].sort()).toEqual(stamps);
		// Stamped anew at each attempt: never before the previous attempt had arrived (two attempts
		// may still share a millisecond, since this sandbox retries at once).
		for (let attempt = 1; attempt < deliveries.length; attempt++) {
			expect(Date.parse(stamps[attempt])).toBeGreaterThanOrEqual(deliveries[attempt - 1].receivedAt);
		}
		const payloads = new Set(deliveries.map((delivery) => JSON.stringify(delivery.body.payload)));
		expect(payloads.size).toBe(1);
		expect(deliveries[0].body.payload.id).toBe(created.id);
		// The next event to the same URL is delivered only once the failed one is given up.
		await subscribe({ events: ['DOCUMENT_SENT'] });
		await post('/api/v2/document/distribute', { documentId: created.id });
		await receiver.waitFor(5);
		const log = await attempts();
		expect(
			log
				.filter((entry: { event: string }) => entry.event === 'DOCUMENT_CREATED')
				.map((entry: { attempt: number; status: number }) => [entry.attempt, entry.status]),
		).toEqual([
			[1, 500],
			[2, 503],
			[3, 502],
			[4, 500],
		]);
		// Each attempt's own body, as the log recorded it: createdAt differs, nothing else.
		const bodies = log
			.filter((entry: { event: string }) => entry.event === 'DOCUMENT_CREATED')
			.map((entry: { body: string }) => JSON.parse(entry.body));
		expect(bodies.map((body: { createdAt: string }) => body.createdAt)).toEqual(stamps);
		const withoutStamp = (body: Record<string, unknown>) =>
			JSON.stringify({ ...body, createdAt: '' });
		expect(new Set(bodies.map(withoutStamp)).size).toBe(1);
	});

	it('stops retrying after a 2xx', async () => {
		await subscribe({ events: ['DOCUMENT_CREATED', 'DOCUMENT_SENT'] });
		receiver.answers = [500, 204];
		const created = await use(false);
		await post('/api/v2/document/distribute', { documentId: created.id });
		const deliveries = await eventsOf(receiver, created.id, 3);
		expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
			'DOCUMENT_CREATED',
			'DOCUMENT_CREATED',
			'DOCUMENT_SENT',
		]);
	});

	it('sends an empty X-Documenso-Secret when the webhook has no secret, and only the events it listens to', async () => {
		await control('/webhook-endpoints', { url: receiver.url, events: ['DOCUMENT_CANCELLED'] });
		const created = await use();
		await post('/api/v2/envelope/cancel', { envelopeId: created.envelopeId, reason: 'Withdrawn' });
		const [delivery] = await eventsOf(receiver, created.id, 1);
		expect(delivery.body.event).toBe('DOCUMENT_CANCELLED');
		expect(delivery.headers['x-documenso-secret']).toBe('');
		expect(delivery.body.payload).toMatchObject({ status: 'CANCELLED' });
		expect(receiver.received).toHaveLength(1);
	});

	it('reports a rejection as DOCUMENT_REJECTED with the reason on the recipient, and no completion', async () => {
		await subscribe({ events: ['DOCUMENT_REJECTED', 'DOCUMENT_COMPLETED', 'DOCUMENT_CANCELLED'] });
		const created = await use();
		await control(`/documents/${created.id}/reject`, {
			recipientId: created.recipients[0].id,
			reason: 'Wrong dates',
		});
		await post('/api/v2/document/delete', { documentId: created.id });
		const deliveries = await eventsOf(receiver, created.id, 2);
		expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
			'DOCUMENT_REJECTED',
			'DOCUMENT_CANCELLED',
		]);
		expect(deliveries[0].body.payload).toMatchObject({ status: 'REJECTED' });
		expect(deliveries[0].body.payload.recipients[0]).toMatchObject({
			signingStatus: 'REJECTED',
			rejectionReason: 'Wrong dates',
		});
		// Deleting fires DOCUMENT_CANCELLED with the status unchanged.
		expect(deliveries[1].body.payload.status).toBe('REJECTED');
	});

	it('fires DOCUMENT_OPENED on the first opening only, from the signing page or the control endpoint', async () => {
		await subscribe({ events: ['DOCUMENT_OPENED'] });
		const created = await use();
		await fetch(`${sandbox.signing.url}/sign/${created.recipients[0].token}`);
		await fetch(`${sandbox.signing.url}/sign/${created.recipients[0].token}`);
		await control(`/documents/${created.id}/open`, { recipientId: created.recipients[1].id });
		const deliveries = await eventsOf(receiver, created.id, 2);
		expect(
			deliveries.map((delivery) =>
				delivery.body.payload.recipients.map((r: { readStatus: string }) => r.readStatus),
			),
		).toEqual([
			['OPENED', 'NOT_OPENED'],
			['OPENED', 'OPENED'],
		]);
		expect(receiver.received).toHaveLength(2);
	});

	it('has the extra events: reminder sent (API and schedule) and recipient expired', async () => {
		await subscribe({ events: ['DOCUMENT_REMINDER_SENT', 'RECIPIENT_EXPIRED'] });
		const created = await use();
		await post('/api/v2/document/redistribute', {
			documentId: created.id,
			recipients: [created.recipients[0].id],
		});
		await control(`/documents/${created.id}/remind`, { recipientId: created.recipients[1].id });
		await control(`/documents/${created.id}/expire`, { email: director.email });
		const deliveries = await eventsOf(receiver, created.id, 3);
		expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
			'DOCUMENT_REMINDER_SENT',
			'DOCUMENT_REMINDER_SENT',
			'RECIPIENT_EXPIRED',
		]);
		expect(deliveries[2].body.payload.recipients[1]).toMatchObject({
			email: director.email,
			expirationNotifiedAt: expect.any(String),
		});
	});

	it("configures webhooks through the control endpoint, with Documenso's event names only", async () => {
		const endpoints = (await control('/webhook-endpoints', undefined, 'GET')).json.endpoints;
		expect(endpoints).toEqual([]);
		const added = await subscribe({ events: ['DOCUMENT_CREATED'] });
		expect(added).toMatchObject({
			webhookUrl: receiver.url,
			secret: 'team-secret',
			enabled: true,
			eventTriggers: ['DOCUMENT_CREATED'],
		});
		expect(
			(await control('/webhook-endpoints', { url: receiver.url, events: ['document.created'] }))
				.status,
		).toBe(400);
		expect((await control(`/webhook-endpoints/${added.id}`, undefined, 'DELETE')).status).toBe(200);
	});
});

describe('Documenso flavour: webhooks configured at the start', () => {
	it('delivers to the endpoints given to startSandbox, for every event', async () => {
		const receiver = await startReceiver();
		const sandbox = await startSandbox({
			signing: 'documenso',
			documensoRoutes: 'all',
			ports: {},
			signingWebhookEndpoints: [{ url: receiver.url, secret: 'start-secret' }],
		});
		try {
			const { post } = documensoClient(() => sandbox);
			const created = (
				await post('/api/v2/template/use', {
					templateId: DOCUMENSO_SEED.ndaTemplateId,
					recipients: [{ id: DOCUMENSO_SEED.slots.partyA, email: 'a@example.org' }],
				})
			).json;
			const [delivery] = await eventsOf(receiver, created.id, 1);
			expect(delivery.body.event).toBe('DOCUMENT_CREATED');
			expect(delivery.headers['x-documenso-secret']).toBe('start-secret');
		} finally {
			await sandbox.stop();
			await receiver.close();
		}
	});
});
