import { type Sandbox, SEED, startSandbox } from './index';
import { call, type Receiver, startReceiver } from './receiver';

describe('signing service contract', () => {
	let sandbox: Sandbox;
	let receiver: Receiver;
	const auth = () => ({ authorization: `Bearer ${sandbox.signing.apiKey}` });
	const generatePath = (templateId: string = SEED.residencyTemplateId) =>
		`${sandbox.signing.url}/api/v2/templates/${templateId}/generate-document`;
	const validBody = {
		title: 'Residency agreement – Ada Lovelace',
		recipients: [
			{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' },
			{ name: 'Director', email: 'director@example.org', role: 'APPROVER' },
			{ name: 'Office', email: 'office@example.org', role: 'CC' },
		],
	};
	const generate = async (body: unknown = validBody, headers: Record<string, string> = auth()) =>
		await call(generatePath(), { method: 'POST', headers, body });
	const control = async (route: string, body?: unknown, method = 'POST') =>
		await call(`${sandbox.signing.url}/_sandbox${route}`, { method, body });

	beforeAll(async () => {
		receiver = await startReceiver();
		sandbox = await startSandbox({ webhookRetryDelayMs: 50 });
	});
	afterAll(async () => {
		await sandbox.stop();
		await receiver.close();
	});
	beforeEach(async () => {
		await control('/reset');
		receiver.received.length = 0;
		receiver.answers = [];
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
					...recipient,
					recipientId: expect.stringMatching(/^rcp_/),
					signingStatus: 'NOT_SIGNED',
					signingUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/sign\/\w+$/),
				})),
			});
		});

		it.each([
			['no recipients', { ...validBody, recipients: [] }],
			['a bad e-mail', { ...validBody, recipients: [{ name: 'A', email: 'nope', role: 'SIGNER' }] }],
			['an unknown role', { ...validBody, recipients: [{ name: 'A', email: 'a@example.org', role: 'OWNER' }] }],
			['a recipient without role', { ...validBody, recipients: [{ name: 'A', email: 'a@example.org' }] }],
			['a missing title', { recipients: validBody.recipients }],
			['an unknown field', { ...validBody, message: 'hello' }],
			['a mistyped field', { ...validBody, title: 42 }],
		])('answers 400 {message} to %s', async (_, body) => {
			const answer = await generate(body);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ message: expect.any(String) });
		});

		it('answers 400 to a body that is not JSON', async () => {
			const answer = await call(generatePath(), {
				method: 'POST',
				headers: { ...auth(), 'content-type': 'application/json' },
				rawBody: '{"title":',
			});
			expect(answer.status).toBe(400);
		});

		it('answers 404 "Template not found" to an unknown template', async () => {
			const answer = await call(generatePath('tpl_missing'), { method: 'POST', headers: auth(), body: validBody });
			expect(answer.status).toBe(404);
			expect(answer.json).toEqual({ message: 'Template not found' });
		});

		it.each([
			['no Authorization header', {}],
			['a wrong token', { authorization: 'Bearer wrong' }],
			['the token without Bearer', { authorization: 'sandbox-signing-token' }],
		])('answers 401 {message} with %s', async (_, headers) => {
			const answer = await generate(validBody, headers);
			expect(answer.status).toBe(401);
			expect(answer.json).toEqual({ message: expect.any(String) });
		});
	});

	describe('GET /api/v2/documents/{documentId}', () => {
		it('returns the document with every contract field', async () => {
			const { json: created } = await generate();
			const answer = await call(`${sandbox.signing.url}/api/v2/documents/${created.documentId}`, { headers: auth() });
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual({
				id: created.documentId,
				title: validBody.title,
				templateId: SEED.residencyTemplateId,
				status: 'PENDING',
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				completedAt: null,
				recipients: validBody.recipients.map((recipient) => ({
					...recipient,
					recipientId: expect.any(String),
					signingStatus: 'NOT_SIGNED',
					signedAt: null,
				})),
				certifiedPackageUrl: null,
			});
		});

		it('answers 404 to an unknown document and 401 without the token', async () => {
			expect((await call(`${sandbox.signing.url}/api/v2/documents/doc_missing`, { headers: auth() })).status).toBe(404);
			expect((await call(`${sandbox.signing.url}/api/v2/documents/doc_missing`)).status).toBe(401);
		});

		it('is COMPLETED with an https certified package once every required party signed', async () => {
			const { json: created } = await generate();
			await control(`/documents/${created.documentId}/sign`, { email: 'ada@example.org' });
			let document = (await call(`${sandbox.signing.url}/api/v2/documents/${created.documentId}`, { headers: auth() })).json;
			expect(document.status).toBe('PENDING');
			expect(document.recipients[0]).toMatchObject({ signingStatus: 'SIGNED', signedAt: expect.any(String) });
			await control(`/documents/${created.documentId}/sign`, { email: 'director@example.org' });
			document = (await call(`${sandbox.signing.url}/api/v2/documents/${created.documentId}`, { headers: auth() })).json;
			expect(document).toMatchObject({
				status: 'COMPLETED',
				completedAt: expect.any(String),
				certifiedPackageUrl: expect.stringMatching(/^https:\/\//),
			});
		});
	});

	describe('webhook events', () => {
		it('delivers created, sent, signed per required party and completed, in order, with the headers', async () => {
			await control('/webhook-endpoints', { url: receiver.url, secret: 'endpoint-secret' });
			const { json: created } = await generate();
			await control(`/documents/${created.documentId}/complete`, {});
			const deliveries = await receiver.waitFor(5);
			expect(deliveries.map((d) => d.body.event)).toEqual([
				'document.created',
				'document.sent',
				'document.signed',
				'document.signed',
				'document.completed',
			]);
			const [createdEvent, sent, signed, , completed] = deliveries;
			expect((createdEvent.body.payload as { status: string }).status).toBe('DRAFT');
			expect((sent.body.payload as { status: string }).status).toBe('PENDING');
			expect(signed.body.payload).toMatchObject({
				id: created.documentId,
				recipient: { email: 'ada@example.org', signingStatus: 'SIGNED' },
			});
			expect(completed.body.payload).toMatchObject({ status: 'COMPLETED', certifiedPackageUrl: expect.any(String) });
			expect(completed.body.payload).not.toHaveProperty('recipient');
			for (const delivery of deliveries) {
				expect(delivery.headers['content-type']).toBe('application/json');
				expect(delivery.headers['x-signing-secret']).toBe('endpoint-secret');
				expect(delivery.headers['x-signing-delivery']).toEqual(expect.any(String));
				expect(delivery.body.createdAt).toEqual(expect.any(String));
			}
			expect(new Set(deliveries.map((d) => d.headers['x-signing-delivery'])).size).toBe(5);
		});

		it('sends no secret header to an endpoint without a secret', async () => {
			await control('/webhook-endpoints', { url: receiver.url });
			await generate();
			const [first] = await receiver.waitFor(1);
			expect(first.headers).not.toHaveProperty('x-signing-secret');
		});

		it('retries a failed delivery with the same delivery id, three attempts in all', async () => {
			receiver.answers = [500, 503];
			await control('/webhook-endpoints', { url: receiver.url });
			await generate();
			const deliveries = await receiver.waitFor(4);
			const [first, second, third] = deliveries;
			expect(first.body.event).toBe('document.created');
			expect([second, third].map((d) => d.headers['x-signing-delivery'])).toEqual([
				first.headers['x-signing-delivery'],
				first.headers['x-signing-delivery'],
			]);
			expect(deliveries[3].body.event).toBe('document.sent');
		});

		it('gives up after three attempts', async () => {
			receiver.answers = [500, 500, 500, 500, 500, 500];
			await control('/webhook-endpoints', { url: receiver.url });
			await generate();
			await receiver.waitFor(6);
			const log = (await control('/deliveries', undefined, 'GET')).json.deliveries as Array<{ event: string; attempt: number }>;
			const created = log.filter((entry) => entry.event === 'document.created');
			expect(created.map((entry) => entry.attempt)).toEqual([1, 2, 3]);
		});
	});
});
