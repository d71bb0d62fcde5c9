/* eslint-disable @n8n/community-nodes/no-restricted-globals */
import { ManualClock, type Sandbox, SEED, startSandbox } from './index';
import { call, type Receiver, settledDeliveries, startReceiver } from './testkit';

// SANDBOX_LOG=1 shows the services' own request logs, to see what a failing test sent.
const logger = process.env.SANDBOX_LOG === '1';

const RETRY_DELAY_MS = 50;

describe('signing service contract', () => {
	let sandbox: Sandbox;
	// Retries wait for the test to move time; no webhook timeout fires on a busy machine.
	const clock = new ManualClock();
	let receiver: Receiver;
	const auth = () => ({ authorization: `Bearer ${sandbox.signing.apiKey}` });
	const api = (path: string) => `${sandbox.signing.url}${path}`;
	const generatePath = (templateId: string = SEED.residencyTemplateId) =>
		api(`/api/v2/templates/${templateId}/generate-document`);
	const ada = { name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' };
	const director = { name: 'Director', email: 'director@example.org', role: 'APPROVER' };
	const office = { name: 'Office', email: 'office@example.org', role: 'CC' };
	const validBody = {
		title: 'Residency agreement – Ada Lovelace',
		recipients: [ada, director, office],
	};
	const generate = async (body: unknown = validBody, headers: Record<string, string> = auth()) =>
		await call(generatePath(), { method: 'POST', headers, body });
	const getDocument = async (documentId: string, headers: Record<string, string> = auth()) =>
		await call(api(`/api/v2/documents/${documentId}`), { headers });
	const control = async (route: string, body?: unknown, method = 'POST') =>
		await call(api(`/_sandbox${route}`), { method, body });

	beforeAll(async () => {
		receiver = await startReceiver();
		sandbox = await startSandbox({ ports: {}, logger, clock, webhookRetryDelayMs: RETRY_DELAY_MS });
	});
	afterAll(async () => {
		await sandbox.stop();
		await receiver.close();
	});
	beforeEach(async () => {
		await control('/reset');
		receiver.clear();
	});

	describe('POST /api/v2/templates/{templateId}/generate-document', () => {
		it('creates a pending document with a signing URL per recipient', async () => {
			const answer = await generate();
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual({
				documentId: expect.stringMatching(/^doc_/),
				title: validBody.title,
				status: 'PENDING',
				recipients: validBody.recipients.map((recipient) => ({
					recipientId: expect.stringMatching(/^rcp_/),
					...recipient,
					signingStatus: 'NOT_SIGNED',
					signingUrl: expect.stringMatching(
						new RegExp(`^http://127\\.0\\.0\\.1:${sandbox.signing.port}/sign/\\w+$`),
					),
				})),
			});
			expect(Object.keys(answer.json)).toEqual(['documentId', 'title', 'status', 'recipients']);
			const urls = answer.json.recipients.map(
				(recipient: { signingUrl: string }) => recipient.signingUrl,
			);
			expect(new Set(urls).size).toBe(3);
		});

		it('opens the signing URL without a token', async () => {
			const { json } = await generate();
			const page = await call(json.recipients[0].signingUrl);
			expect(page.status).toBe(200);
			expect(page.text).toContain(validBody.title);
			expect((await call(api('/sign/unknown'))).status).toBe(404);
		});

		it.each(['APPROVER', 'VIEWER', 'CC'])('accepts the role %s', async (role) => {
			const answer = await generate({ title: 'T', recipients: [{ ...ada, role }] });
			expect(answer.status).toBe(200);
			expect(answer.json.recipients[0].role).toBe(role);
		});

		it.each([
			['no recipients', { ...validBody, recipients: [] }],
			['recipients that are not an array', { ...validBody, recipients: ada }],
			['a bad e-mail', { ...validBody, recipients: [{ ...ada, email: 'ada.example.org' }] }],
			['an e-mail that is not a string', { ...validBody, recipients: [{ ...ada, email: 42 }] }],
			['an unknown role', { ...validBody, recipients: [{ ...ada, role: 'OWNER' }] }],
			['a lowercase role', { ...validBody, recipients: [{ ...ada, role: 'signer' }] }],
			[
				'a recipient without role',
				{ ...validBody, recipients: [{ name: 'A', email: 'a@example.org' }] },
			],
			[
				'a recipient without name',
				{ ...validBody, recipients: [{ email: 'a@example.org', role: 'SIGNER' }] },
			],
			['an unknown recipient field', { ...validBody, recipients: [{ ...ada, phone: '+44' }] }],
			['a missing title', { recipients: validBody.recipients }],
			['an empty title', { ...validBody, title: ' ' }],
			['a mistyped title', { ...validBody, title: 42 }],
			['an unknown field', { ...validBody, message: 'hello' }],
		])('answers 400 {message} to %s', async (_, body) => {
			const answer = await generate(body);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ message: expect.any(String) });
			expect((await control('/documents', undefined, 'GET')).json.documents).toEqual([]);
		});

		it('answers 400 to an unknown query parameter', async () => {
			const answer = await call(`${generatePath()}?send=true`, {
				method: 'POST',
				headers: auth(),
				body: validBody,
			});
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ message: expect.stringContaining('send') });
		});

		it('answers 404 "Template not found" to an unknown template', async () => {
			const answer = await call(generatePath('tpl_missing'), {
				method: 'POST',
				headers: auth(),
				body: validBody,
			});
			expect(answer.status).toBe(404);
			expect(answer.json).toEqual({ message: 'Template not found' });
		});

		it('generates from a template added through control', async () => {
			const template = await control('/templates', { id: 'tpl_lease', name: 'Studio lease' });
			expect(template.json).toMatchObject({ id: 'tpl_lease', title: 'Studio lease' });
			const answer = await call(generatePath('tpl_lease'), {
				method: 'POST',
				headers: auth(),
				body: validBody,
			});
			expect(answer.status).toBe(200);
			expect((await getDocument(answer.json.documentId)).json.templateId).toBe('tpl_lease');
		});

		it.each([
			['no Authorization header', {}],
			['a wrong token', { authorization: 'Bearer wrong' }],
			['the token without Bearer', { authorization: 'sandbox-signing-token' }],
			['the token as x-api-key', { 'x-api-key': 'sandbox-signing-token' }],
		])('answers 401 {message} with %s', async (_, headers) => {
			const answer = await generate(validBody, headers);
			expect(answer.status).toBe(401);
			expect(answer.json).toEqual({ message: expect.any(String) });
		});
	});

	describe('GET /api/v2/documents/{documentId}', () => {
		it('returns the document with every contract field, and nothing else', async () => {
			const { json: created } = await generate();
			const answer = await getDocument(created.documentId);
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual({
				id: created.documentId,
				title: validBody.title,
				templateId: SEED.residencyTemplateId,
				status: 'PENDING',
				createdAt: expect.stringMatching(/Z$/),
				updatedAt: expect.stringMatching(/Z$/),
				completedAt: null,
				recipients: validBody.recipients.map((recipient, index) => ({
					recipientId: created.recipients[index].recipientId,
					...recipient,
					signingStatus: 'NOT_SIGNED',
					signedAt: null,
				})),
				certifiedPackageUrl: null,
			});
		});

		it('answers 404 {message} to an unknown document, 401 without the token, 400 to a query parameter', async () => {
			const missing = await getDocument('doc_missing');
			expect(missing.status).toBe(404);
			expect(missing.json).toEqual({ message: expect.any(String) });
			expect((await getDocument('doc_missing', {})).status).toBe(401);
			const { json: created } = await generate();
			const answer = await call(api(`/api/v2/documents/${created.documentId}?include=audit`), {
				headers: auth(),
			});
			expect(answer.status).toBe(400);
		});

		it('is COMPLETED with an https certified package once every SIGNER and APPROVER signed', async () => {
			const { json: created } = await generate();
			const signed = await control(`/documents/${created.documentId}/sign`, { email: ada.email });
			expect(signed.status).toBe(200);
			let document = (await getDocument(created.documentId)).json;
			expect(document.status).toBe('PENDING');
			expect(document.recipients[0]).toMatchObject({
				signingStatus: 'SIGNED',
				signedAt: expect.stringMatching(/Z$/),
			});
			expect(document.recipients[1]).toMatchObject({ signingStatus: 'NOT_SIGNED', signedAt: null });
			await control(`/documents/${created.documentId}/sign`, {
				recipientId: created.recipients[1].recipientId,
			});
			document = (await getDocument(created.documentId)).json;
			expect(document).toMatchObject({
				status: 'COMPLETED',
				completedAt: expect.stringMatching(/Z$/),
				certifiedPackageUrl: `https://signing.example.test/certified/${created.documentId}.pdf`,
			});
			// The CC never signs.
			expect(document.recipients[2]).toMatchObject({ signingStatus: 'NOT_SIGNED', signedAt: null });
		});
	});

	describe('control endpoints', () => {
		it('refuses to sign for a CC, twice for one recipient, or for someone unknown', async () => {
			const { json: created } = await generate();
			const sign = async (body: unknown) =>
				await control(`/documents/${created.documentId}/sign`, body);
			expect((await sign({ email: office.email })).status).toBe(400);
			expect((await sign({ email: 'nobody@example.org' })).status).toBe(404);
			expect((await sign({})).status).toBe(400);
			expect((await sign({ email: ada.email, extra: 1 })).status).toBe(400);
			expect((await sign({ email: ada.email })).status).toBe(200);
			expect((await sign({ email: ada.email })).status).toBe(409);
			expect((await control('/documents/doc_missing/sign', { email: ada.email })).status).toBe(404);
		});

		it('completes a document, and lists every document', async () => {
			const { json: first } = await generate();
			await generate({ title: 'Second', recipients: [ada] });
			const completed = await control(`/documents/${first.documentId}/complete`, {});
			expect(completed.json).toMatchObject({ id: first.documentId, status: 'COMPLETED' });
			const { json } = await control('/documents', undefined, 'GET');
			expect(
				json.documents.map((document: { title: string; status: string }) => [
					document.title,
					document.status,
				]),
			).toEqual([
				[validBody.title, 'COMPLETED'],
				['Second', 'PENDING'],
			]);
			expect(json.documents[0]).toEqual((await getDocument(first.documentId)).json);
		});

		it('adds, lists and removes webhook endpoints', async () => {
			const added = await control('/webhook-endpoints', { url: receiver.url, secret: 's3cret' });
			expect(added.json).toEqual({ id: expect.any(String), url: receiver.url, secret: 's3cret' });
			await control('/webhook-endpoints', { url: `${receiver.url}/other` });
			expect((await control('/webhook-endpoints', undefined, 'GET')).json.endpoints).toHaveLength(
				2,
			);
			expect(
				(await control(`/webhook-endpoints/${added.json.id}`, undefined, 'DELETE')).status,
			).toBe(200);
			expect(
				(await control(`/webhook-endpoints/${added.json.id}`, undefined, 'DELETE')).status,
			).toBe(404);
			expect((await control('/webhook-endpoints', undefined, 'GET')).json.endpoints).toEqual([
				{ id: expect.any(String), url: `${receiver.url}/other` },
			]);
			await control('/webhook-endpoints', undefined, 'DELETE');
			expect((await control('/webhook-endpoints', undefined, 'GET')).json.endpoints).toEqual([]);
			expect((await control('/webhook-endpoints', { url: 'not a url' })).status).toBe(400);
		});

		it('forgets documents and added templates on reset', async () => {
			await control('/templates', { id: 'tpl_tmp', name: 'Temporary' });
			await generate();
			await control('/reset');
			expect((await control('/documents', undefined, 'GET')).json.documents).toEqual([]);
			const answer = await call(generatePath('tpl_tmp'), {
				method: 'POST',
				headers: auth(),
				body: validBody,
			});
			expect(answer.status).toBe(404);
		});
	});

	describe('webhook events', () => {
		it('delivers created, sent, one signed per signing party, completed, in order, with the headers', async () => {
			await control('/webhook-endpoints', { url: receiver.url, secret: 'endpoint-secret' });
			const { json: created } = await generate();
			const document = (await getDocument(created.documentId)).json;
			await control(`/documents/${created.documentId}/complete`, {});
			const deliveries = await receiver.waitFor(5);
			expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
				'document.created',
				'document.sent',
				'document.signed',
				'document.signed',
				'document.completed',
			]);
			const [createdEvent, sent, signedByAda, signedByDirector, completed] = deliveries.map(
				(delivery) => delivery.body,
			);
			expect(createdEvent).toEqual({
				event: 'document.created',
				createdAt: expect.stringMatching(/Z$/),
				payload: { ...document, status: 'DRAFT' },
			});
			// document.sent carries the document exactly as GET returned it then.
			expect(sent.payload).toEqual(document);
			expect(signedByAda.payload).toMatchObject({
				id: created.documentId,
				status: 'PENDING',
				recipient: {
					...ada,
					recipientId: created.recipients[0].recipientId,
					signingStatus: 'SIGNED',
					signedAt: expect.any(String),
				},
			});
			expect(signedByDirector.payload.recipient).toMatchObject({
				email: director.email,
				role: 'APPROVER',
			});
			expect(completed.payload).toEqual((await getDocument(created.documentId)).json);
			expect(completed.payload.status).toBe('COMPLETED');
			for (const delivery of deliveries) {
				expect(delivery.headers['content-type']).toBe('application/json');
				expect(delivery.headers['x-signing-secret']).toBe('endpoint-secret');
				expect(delivery.headers['x-signing-delivery']).toEqual(expect.any(String));
			}
			expect(
				new Set(deliveries.map((delivery) => delivery.headers['x-signing-delivery'])).size,
			).toBe(5);
		});

		it('fires document.signed as each party signs, then document.completed', async () => {
			await control('/webhook-endpoints', { url: receiver.url });
			const { json: created } = await generate();
			await receiver.waitFor(2);
			await control(`/documents/${created.documentId}/sign`, { email: director.email });
			const [, , signed] = await receiver.waitFor(3);
			expect(signed.body.payload.recipient.email).toBe(director.email);
			await control(`/documents/${created.documentId}/sign`, { email: ada.email });
			const events = (await receiver.waitFor(5)).map((delivery) => delivery.body.event);
			expect(events.slice(3)).toEqual(['document.signed', 'document.completed']);
		});

		it('sends no secret header to an endpoint without a secret', async () => {
			await control('/webhook-endpoints', { url: receiver.url });
			await generate();
			for (const delivery of await receiver.waitFor(2))
				expect(delivery.headers).not.toHaveProperty('x-signing-secret');
		});

		it('delivers to every endpoint', async () => {
			await control('/webhook-endpoints', { url: `${receiver.url}/a`, secret: 'a' });
			await control('/webhook-endpoints', { url: `${receiver.url}/b`, secret: 'b' });
			await generate();
			const deliveries = await receiver.waitFor(4);
			const secrets = deliveries.map((delivery) => delivery.headers['x-signing-secret']).sort();
			expect(secrets).toEqual(['a', 'a', 'b', 'b']);
		});

		it('retries a failed delivery with the same delivery id, and keeps the order behind it', async () => {
			receiver.answers = [500, 503];
			await control('/webhook-endpoints', { url: receiver.url });
			await generate();
			await receiver.waitFor(1);
			// Each retry waits the configured delay on the sandbox's clock, and only that.
			expect(await clock.advanceToNext('webhook retry')).toBe(RETRY_DELAY_MS);
			await receiver.waitFor(2);
			expect(await clock.advanceToNext('webhook retry')).toBe(RETRY_DELAY_MS);
			const deliveries = await receiver.waitFor(4);
			const ids = deliveries.map((delivery) => delivery.headers['x-signing-delivery']);
			expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
				'document.created',
				'document.created',
				'document.created',
				'document.sent',
			]);
			expect(ids.slice(0, 3)).toEqual([ids[0], ids[0], ids[0]]);
			expect(ids[3]).not.toBe(ids[0]);
			expect(deliveries.map((delivery) => delivery.rawBody).slice(0, 3)).toEqual(
				Array(3).fill(deliveries[0].rawBody),
			);
			const log = await settledDeliveries(sandbox.signing.url);
			expect(log.map((entry: { at: string }) => Date.parse(entry.at) - Date.parse(log[0].at))).toEqual([
				0,
				RETRY_DELAY_MS,
				2 * RETRY_DELAY_MS,
				2 * RETRY_DELAY_MS,
			]);
			expect(
				log.map((entry: { attempt: number; status: number }) => [entry.attempt, entry.status]),
			).toEqual([
				[1, 500],
				[2, 503],
				[3, 200],
				[1, 200],
			]);
		});

		it('gives up after three attempts in all, then delivers the next event', async () => {
			receiver.answers = [500, 500, 500];
			await control('/webhook-endpoints', { url: receiver.url });
			await generate();
			for (let retry = 0; retry < 2; retry++) await clock.advanceToNext('webhook retry');
			const deliveries = await receiver.waitFor(4);
			const log = await settledDeliveries(sandbox.signing.url);
			// Given up: nothing left to send, no retry waiting however far time moves.
			expect(clock.pending()).toEqual([]);
			expect(receiver.received).toHaveLength(4);
			expect(deliveries.map((delivery) => delivery.body.event)).toEqual([
				'document.created',
				'document.created',
				'document.created',
				'document.sent',
			]);
			expect(log[0]).toEqual({
				deliveryId: deliveries[0].headers['x-signing-delivery'],
				event: 'document.created',
				url: receiver.url,
				attempt: 1,
				status: 500,
				at: expect.stringMatching(/Z$/),
				headers: expect.objectContaining({
					'x-signing-delivery': deliveries[0].headers['x-signing-delivery'],
				}),
				body: deliveries[0].rawBody,
			});
			expect(
				log.filter((entry: { event: string }) => entry.event === 'document.created'),
			).toHaveLength(3);
		});
	});
});
