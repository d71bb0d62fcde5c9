import { N8nInstance, PACKAGE_NAME } from '../harness/n8n';
import {
	activateWorkflow,
	CredentialRefs,
	importWorkflow,
	ImportedWorkflow,
	listExecutions,
	nodeOutput,
	productionWebhookUrl,
	Stack,
	startStack,
	SIGNING_WEBHOOK_SECRET,
	waitUntil,
} from '../harness/provision';
import { Sandbox } from '../sandbox';

jest.setTimeout(300_000);

const TEMPLATE_ID = 'tpl_residency_agreement';

interface RecordedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: unknown;
}

describe('Signing nodes in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let credentials: CredentialRefs;

	const control = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${sandbox.signing.url}/_sandbox${route}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
		return (await response.json()) as T;
	};
	const receivedRequests = async () =>
		(await control<{ requests: RecordedRequest[] }>('GET', '/requests')).requests;

	let stack: Stack;

	beforeAll(async () => {
		stack = await startStack();
		({ sandbox, n8n, credentials } = stack);
	});
	afterAll(async () => await stack?.stop());

	it('generates a document with exactly the contract request and reads its status back', async () => {
		const workflow = await importWorkflow(
			n8n,
			{
				name: 'E2E signing actions',
				nodes: [
					{
						name: 'Webhook',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						position: [0, 0],
						webhookId: 'e2e-signing-actions',
						parameters: { httpMethod: 'POST', path: 'e2e-signing-actions', responseMode: 'lastNode' },
					},
					{
						name: 'Generate',
						type: `${PACKAGE_NAME}.signing`,
						typeVersion: 1,
						position: [200, 0],
						parameters: {
							resource: 'document',
							operation: 'generateFromTemplate',
							templateId: TEMPLATE_ID,
							title: '=Residency agreement – {{ $json.body.name }}',
							recipientsInput: 'json',
							recipientsJson:
								'={{ [{ "name": $json.body.name, "email": $json.body.email, "role": "SIGNER" }] }}',
						},
						credentials: { signingApi: credentials.signingApi },
					},
					{
						name: 'Get',
						type: `${PACKAGE_NAME}.signing`,
						typeVersion: 1,
						position: [400, 0],
						parameters: { resource: 'document', operation: 'get', documentId: '={{ $json.documentId }}' },
						credentials: { signingApi: credentials.signingApi },
					},
				],
				connections: {
					Webhook: { main: [[{ node: 'Generate', type: 'main', index: 0 }]] },
					Generate: { main: [[{ node: 'Get', type: 'main', index: 0 }]] },
				},
			},
			credentials,
		);
		await activateWorkflow(n8n, workflow.id);
		await control('DELETE', '/requests');

		const response = await waitUntil('the webhook to be registered', async () => {
			const answer = await fetch(`${n8n.baseUrl}/webhook/e2e-signing-actions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.org' }),
			});
			return answer.status === 404 ? undefined : answer;
		});
		expect(response.status).toBe(200);
		const document = (await response.json()) as Record<string, unknown>;

		const requests = await receivedRequests();
		const generate = requests.filter((r) => r.method === 'POST');
		expect(generate).toHaveLength(1);
		expect(generate[0].path).toBe(`/api/v2/templates/${TEMPLATE_ID}/generate-document`);
		expect(generate[0].headers.authorization).toBe(`Bearer ${sandbox.signing.apiKey}`);
		expect(generate[0].headers['content-type']).toMatch(/^application\/json/);
		expect(generate[0].body).toEqual({
			title: 'Residency agreement – Ada Lovelace',
			recipients: [{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' }],
		});
		const reads = requests.filter((r) => r.method === 'GET');
		expect(reads).toHaveLength(1);
		expect(reads[0].path).toBe(`/api/v2/documents/${String(document.id)}`);
		expect(reads[0].headers['content-type']).toBeUndefined();
		expect(document).toMatchObject({
			templateId: TEMPLATE_ID,
			status: 'PENDING',
			recipients: [expect.objectContaining({ email: 'ada@example.org', signingStatus: 'NOT_SIGNED' })],
		});
	});

	describe('Signing Trigger', () => {
		let trigger: ImportedWorkflow;
		let webhookUrl: string;

		const events = async () =>
			(await listExecutions(n8n, trigger.id, true)).map(
				(execution) => nodeOutput(execution, 'Signing Trigger')[0] as Record<string, unknown>,
			);

		beforeAll(async () => {
			trigger = await importWorkflow(
				n8n,
				{
					name: 'E2E signing trigger',
					nodes: [
						{
							name: 'Signing Trigger',
							type: `${PACKAGE_NAME}.signingTrigger`,
							typeVersion: 1,
							position: [0, 0],
							webhookId: 'e2e-signing-trigger',
							parameters: {
								events: ['document.created', 'document.sent', 'document.signed', 'document.completed'],
							},
							credentials: { signingApi: credentials.signingApi },
						},
					],
					connections: {},
				},
				credentials,
			);
			webhookUrl = productionWebhookUrl(n8n, trigger.nodes[0]);
			await activateWorkflow(n8n, trigger.id);
			await control('POST', '/webhook-endpoints', { url: webhookUrl, secret: SIGNING_WEBHOOK_SECRET });
		});

		it('receives all four events driven through the sandbox', async () => {
			const generated = await fetch(
				`${sandbox.signing.url}/api/v2/templates/${TEMPLATE_ID}/generate-document`,
				{
					method: 'POST',
					headers: {
						authorization: `Bearer ${sandbox.signing.apiKey}`,
						'content-type': 'application/json',
					},
					body: JSON.stringify({
						title: 'Residency agreement – Grace Hopper',
						recipients: [
							{ name: 'Grace Hopper', email: 'grace@example.org', role: 'SIGNER' },
							{ name: 'Residency office', email: 'office@example.org', role: 'CC' },
						],
					}),
				},
			);
			expect(generated.status).toBe(200);
			const { documentId } = (await generated.json()) as { documentId: string };
			await control('POST', `/documents/${documentId}/complete`, {});

			const received = await waitUntil('four executions', async () => {
				const all = await events();
				return all.length >= 4 ? all : undefined;
			});
			expect(received.map((item) => item.event).sort()).toEqual(
				['document.completed', 'document.created', 'document.sent', 'document.signed'].sort(),
			);
			const signed = received.find((item) => item.event === 'document.signed');
			expect(signed?.recipient).toMatchObject({ email: 'grace@example.org', signingStatus: 'SIGNED' });
			const completed = received.find((item) => item.event === 'document.completed');
			expect(completed?.document).toMatchObject({ id: documentId, status: 'COMPLETED' });
			expect(completed).not.toHaveProperty('recipient');
			expect(received.every((item) => item.documentId === documentId)).toBe(true);
		});

		async function deliver(secret: string, deliveryId: string): Promise<number> {
			const response = await fetch(webhookUrl, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'x-signing-delivery': deliveryId,
					'x-signing-secret': secret,
				},
				body: JSON.stringify({
					event: 'document.completed',
					createdAt: new Date().toISOString(),
					payload: { id: `doc_${deliveryId}`, title: 'Manual delivery', status: 'COMPLETED', recipients: [] },
				}),
			});
			return response.status;
		}

		it('answers 401 to a wrong secret and starts nothing', async () => {
			const before = (await listExecutions(n8n, trigger.id)).length;
			expect(await deliver('not-the-secret', 'dlv_forged')).toBe(401);
			// A delivery with the right secret, sent afterwards, proves executions are being recorded.
			expect(await deliver(SIGNING_WEBHOOK_SECRET, 'dlv_after_forged')).toBe(200);
			const after = await waitUntil('the genuine delivery', async () => {
				const all = await events();
				return all.length > before ? all : undefined;
			});
			expect(after).toHaveLength(before + 1);
			expect(after.map((item) => item.deliveryId)).not.toContain('dlv_forged');
		});

		it('starts one execution for a delivery that arrives twice', async () => {
			const before = (await listExecutions(n8n, trigger.id)).length;
			expect(await deliver(SIGNING_WEBHOOK_SECRET, 'dlv_twice')).toBe(200);
			expect(await deliver(SIGNING_WEBHOOK_SECRET, 'dlv_twice')).toBe(200);
			expect(await deliver(SIGNING_WEBHOOK_SECRET, 'dlv_marker')).toBe(200);
			const after = await waitUntil('both deliveries', async () => {
				const all = await events();
				const ids = all.map((item) => item.deliveryId);
				return ids.includes('dlv_marker') && ids.includes('dlv_twice') ? all : undefined;
			});
			expect(after).toHaveLength(before + 2);
			expect(after.filter((item) => item.deliveryId === 'dlv_twice')).toHaveLength(1);
		});
	});
});
