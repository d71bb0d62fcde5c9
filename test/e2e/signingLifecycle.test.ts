/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * A signing document's whole life in a real n8n 2.41.1 with the package from its tarball:
 * a draft with prefilled fields, sent, reminded, opened, rejected, signed, cancelled; the trigger
 * starts one execution per event, and the signed PDF reaches the next node as binary data.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { N8nInstance, PACKAGE_NAME } from '../harness/n8n';
import { PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	CredentialRefs,
	ImportedWorkflow,
	importWorkflow,
	listExecutions,
	nodeOutput,
	productionWebhookUrl,
	SIGNING_WEBHOOK_SECRET,
	Stack,
	startStack,
	waitUntil,
	type WorkflowFile,
} from '../harness/provision';
import { Sandbox, SEED } from '../sandbox';
import { SEED_TEMPLATE_FIELDS } from '../sandbox/seed';

jest.setTimeout(300_000);

const fields = SEED_TEMPLATE_FIELDS.residency;
const signing = `${PACKAGE_NAME}.signing`;

interface RecordedRequest {
	method: string;
	path: string;
	body: unknown;
}

describe('A signing document’s whole life in a real n8n', () => {
	let stack: Stack;
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let credentials: CredentialRefs;
	let trigger: ImportedWorkflow;
	let sample: ImportedWorkflow;

	const control = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${sandbox.signing.url}/_sandbox${route}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
		return (await response.json()) as T;
	};
	const requests = async () =>
		(await control<{ requests: RecordedRequest[] }>('GET', '/requests')).requests;

	/** A workflow started by a Webhook node that answers with its last node's output. */
	const webhookWorkflow = (
		name: string,
		steps: Array<{ name: string; parameters: Record<string, unknown> }>,
	) => {
		const nodes: WorkflowFile['nodes'] = [
			{
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: `e2e-${name}`,
				parameters: { httpMethod: 'POST', path: `e2e-${name}`, responseMode: 'lastNode' },
			},
			...steps.map((step, index) => ({
				name: step.name,
				type: signing,
				typeVersion: 1,
				position: [200 * (index + 1), 0] as [number, number],
				parameters: step.parameters,
				credentials: { signingApi: credentials.signingApi },
			})),
		];
		const order = nodes.map((node) => node.name);
		const connections = Object.fromEntries(
			order
				.slice(0, -1)
				.map((from, index) => [
					from,
					{ main: [[{ node: order[index + 1], type: 'main', index: 0 }]] },
				]),
		);
		return { name: `E2E ${name}`, nodes, connections } as WorkflowFile;
	};
	const callWebhook = async (name: string, body: unknown) =>
		await waitUntil(`the ${name} webhook`, async () => {
			const answer = await fetch(`${n8n.baseUrl}/webhook/e2e-${name}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			if (answer.status === 404) return undefined;
			return { status: answer.status, json: (await answer.json()) as Record<string, unknown> };
		});
	const generateStep = (distribute: boolean) => ({
		name: 'Generate',
		parameters: {
			resource: 'document',
			operation: 'generateFromTemplate',
			templateId: { __rl: true, mode: 'list', value: SEED.residencyTemplateId },
			title: '=Residency agreement – {{ $json.body.name }}',
			recipientsInput: 'json',
			recipientsJson:
				'={{ [{ "name": $json.body.name, "email": $json.body.email, "role": "SIGNER" }] }}',
			distribute,
			prefillInput: 'fields',
			prefillFields: {
				field: [
					{ id: fields.startDate, value: '={{ $json.body.startDate }}' },
					{ id: fields.studio, value: 'North studio' },
					{ id: fields.housing, value: 'true' },
				],
			},
			emailOptions: { subject: 'Your residency agreement' },
		},
	});

	/** Trigger items of the lifecycle workflow, by document. */
	const triggerEvents = async (documentId: string) =>
		(await listExecutions(n8n, trigger.id, true))
			.map((execution) => nodeOutput(execution, 'Signing Trigger')[0] as Record<string, unknown>)
			.filter((item) => item?.documentId === documentId);
	const waitForEvents = async (documentId: string, expected: string[]) => {
		const received = await waitUntil(`${expected.join(', ')} for ${documentId}`, async () => {
			const all = await triggerEvents(documentId);
			return all.length >= expected.length ? all : undefined;
		});
		expect(received.map((item) => item.event).sort()).toEqual([...expected].sort());
		return received;
	};

	beforeAll(async () => {
		stack = await startStack();
		({ sandbox, n8n, credentials } = stack);
		trigger = await importWorkflow(
			n8n,
			{
				name: 'E2E signing lifecycle trigger',
				nodes: [
					{
						name: 'Signing Trigger',
						type: `${PACKAGE_NAME}.signingTrigger`,
						typeVersion: 1,
						position: [0, 0],
						webhookId: 'e2e-signing-lifecycle-trigger',
						parameters: {
							events: [
								'document.cancelled',
								'document.completed',
								'document.created',
								'document.opened',
								'document.rejected',
								'document.sent',
								'document.signed',
							],
						},
						credentials: { signingApi: credentials.signingApi },
					},
				],
				connections: {},
			},
			credentials,
		);
		const file = path.join(PROJECT_ROOT, 'workflows', 'signed-agreement-to-pdf.json');
		sample = await importWorkflow(
			n8n,
			JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile,
			credentials,
			file,
		);
		const draftAndSend = await importWorkflow(
			n8n,
			webhookWorkflow('draft-send-resend', [
				generateStep(false),
				{
					name: 'Send',
					parameters: {
						resource: 'document',
						operation: 'send',
						documentId: '={{ $json.documentId }}',
					},
				},
				{
					name: 'Resend',
					parameters: { resource: 'document', operation: 'resend', documentId: '={{ $json.id }}' },
				},
			]),
			credentials,
		);
		const generateAndCancel = await importWorkflow(
			n8n,
			webhookWorkflow('generate-cancel', [
				generateStep(true),
				{
					name: 'Cancel',
					parameters: {
						resource: 'document',
						operation: 'cancel',
						documentId: '={{ $json.documentId }}',
					},
				},
			]),
			credentials,
		);
		for (const workflow of [trigger, sample, draftAndSend, generateAndCancel])
			await activateWorkflow(n8n, workflow.id);
		for (const workflow of [trigger, sample]) {
			await control('POST', '/webhook-endpoints', {
				url: productionWebhookUrl(
					n8n,
					workflow.nodes.find((node) => node.type.endsWith('.signingTrigger'))!,
				),
				secret: SIGNING_WEBHOOK_SECRET,
			});
		}
	});
	afterAll(async () => await stack?.stop());

	it('generates a draft with prefilled fields, sends it, reminds; open and reject each start one execution', async () => {
		await control('DELETE', '/requests');
		const answer = await callWebhook('draft-send-resend', {
			name: 'Ada Lovelace',
			email: 'ada@example.org',
			startDate: '2027-01-04',
		});
		expect(answer.status).toBe(200);
		const log = await requests();
		const generate = log.find((request) => request.path.endsWith('/generate-document'));
		expect(generate?.body).toEqual({
			title: 'Residency agreement – Ada Lovelace',
			recipients: [{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' }],
			prefillFields: [
				{ id: fields.startDate, value: '2027-01-04' },
				{ id: fields.studio, value: 'North studio' },
				{ id: fields.housing, value: 'true' },
			],
			meta: { subject: 'Your residency agreement' },
			distribute: false,
		});
		const documentId = String(answer.json.documentId);
		expect(
			log.filter((request) => request.method === 'POST').map((request) => request.path),
		).toEqual([
			`/api/v2/templates/${SEED.residencyTemplateId}/generate-document`,
			`/api/v2/documents/${documentId}/send`,
			`/api/v2/documents/${documentId}/resend`,
		]);
		expect(answer.json.resent).toHaveLength(1);
		const audit = await fetch(`${sandbox.signing.url}/api/v2/documents/${documentId}/audit-log`, {
			headers: { authorization: `Bearer ${sandbox.signing.apiKey}` },
		});
		expect(
			((await audit.json()) as { data: Array<{ type: string }> }).data.map((entry) => entry.type),
		).toEqual(['DOCUMENT_CREATED', 'DOCUMENT_SENT', 'INVITATION_RESENT']);

		await waitForEvents(documentId, ['document.created', 'document.sent']);
		await control('POST', `/documents/${documentId}/open`, { email: 'ada@example.org' });
		await control('POST', `/documents/${documentId}/reject`, {
			email: 'ada@example.org',
			reason: 'Wrong start date',
		});
		const events = await waitForEvents(documentId, [
			'document.created',
			'document.sent',
			'document.opened',
			'document.rejected',
		]);
		const rejected = events.find((item) => item.event === 'document.rejected');
		expect(rejected).toMatchObject({
			rejectionReason: 'Wrong start date',
			recipient: { email: 'ada@example.org', signingStatus: 'REJECTED' },
			document: { status: 'REJECTED' },
		});
		expect(events.find((item) => item.event === 'document.opened')?.recipient).toMatchObject({
			email: 'ada@example.org',
		});
	});

	it('a signed document starts signed and completed; the sample downloads its PDF as binary data and writes it to disk', async () => {
		const answer = await callWebhook('draft-send-resend', {
			name: 'Grace Hopper',
			email: 'grace@example.org',
			startDate: '2027-02-01',
		});
		const documentId = String(answer.json.documentId);
		await control('POST', `/documents/${documentId}/sign`, { email: 'grace@example.org' });
		await waitForEvents(documentId, [
			'document.created',
			'document.sent',
			'document.signed',
			'document.completed',
		]);

		const execution = await waitUntil('the sample workflow to write the PDF', async () => {
			const executions = await listExecutions(n8n, sample.id, true);
			return executions.find(
				(candidate) => nodeOutput(candidate, 'Agreement Completed')[0]?.documentId === documentId,
			);
		});
		expect(execution.status).toBe('success');
		const runData = execution.data!.resultData.runData as unknown as Record<
			string,
			Array<{
				data: {
					main: Array<
						Array<{
							json: Record<string, unknown>;
							binary?: Record<string, Record<string, unknown>>;
						}>
					>;
				};
			}>
		>;
		const downloaded = runData['Download Signed PDF'][0].data.main[0][0];
		expect(downloaded.json).toMatchObject({
			documentId,
			fileName: 'Residency agreement – Grace Hopper.pdf',
			version: 'signed',
		});
		expect(downloaded.binary?.data).toMatchObject({
			mimeType: 'application/pdf',
			fileName: 'Residency agreement – Grace Hopper.pdf',
		});
		const written = runData['Write PDF to Disk'][0].data.main[0][0];
		expect(written.json.fileName).toBe(`signed-agreements/${documentId}.pdf`);

		const served = Buffer.from(
			await (
				await fetch(`${sandbox.signing.url}/api/v2/documents/${documentId}/download`, {
					headers: { authorization: `Bearer ${sandbox.signing.apiKey}` },
				})
			).arrayBuffer(),
		);
		const file = path.join(n8n.userFolder, 'signed-agreements', `${documentId}.pdf`);
		expect(existsSync(file)).toBe(true);
		expect(readFileSync(file).equals(served)).toBe(true);
	});

	it('the sample’s reminder branch resends only documents pending for more than 3 days', async () => {
		// The shipped branch as it is, with its Schedule Trigger swapped for a Webhook to run it now.
		const file = JSON.parse(
			readFileSync(path.join(PROJECT_ROOT, 'workflows', 'signed-agreement-to-pdf.json'), 'utf8'),
		) as WorkflowFile;
		const branch = [
			'Every Morning',
			'Pending Documents',
			'Pending More Than 3 Days',
			'Remind Signers',
		];
		const nodes = file.nodes
			.filter((node) => branch.includes(node.name))
			.map((node) =>
				node.name === 'Every Morning'
					? {
							...node,
							type: 'n8n-nodes-base.webhook',
							typeVersion: 2,
							webhookId: 'e2e-reminders',
							parameters: { httpMethod: 'POST', path: 'e2e-reminders', responseMode: 'lastNode' },
						}
					: node,
			);
		const connections = Object.fromEntries(
			Object.entries(file.connections).filter(([from]) => branch.includes(from)),
		);
		const reminders = await importWorkflow(
			n8n,
			{ name: 'E2E reminders', nodes, connections },
			credentials,
		);
		await activateWorkflow(n8n, reminders.id);

		const pending = async (title: string) => {
			const response = await fetch(
				`${sandbox.signing.url}/api/v2/templates/${SEED.residencyTemplateId}/generate-document`,
				{
					method: 'POST',
					headers: {
						authorization: `Bearer ${sandbox.signing.apiKey}`,
						'content-type': 'application/json',
					},
					body: JSON.stringify({
						title,
						recipients: [{ name: 'Mary', email: 'mary@example.org', role: 'SIGNER' }],
					}),
				},
			);
			return ((await response.json()) as { documentId: string }).documentId;
		};
		const old = await pending('Old agreement');
		const recent = await pending('Recent agreement');
		await control('POST', `/documents/${old}/age`, { days: 4 });
		await control('DELETE', '/requests');
		const answer = await callWebhook('reminders', {});
		expect(answer.status).toBe(200);
		const resent = (await requests()).filter((request) => request.path.endsWith('/resend'));
		const resentIds = resent.map((request) => request.path.split('/')[4]);
		expect(resentIds).toContain(old);
		expect(resentIds).not.toContain(recent);
		// Every other resent document is older than 3 days too (earlier tests' documents are minutes old).
		expect(resentIds).toEqual([old]);
	});

	it('Cancel gives document.cancelled', async () => {
		const answer = await callWebhook('generate-cancel', {
			name: 'Alan Turing',
			email: 'alan@example.org',
			startDate: '2027-03-01',
		});
		expect(answer.json).toMatchObject({ status: 'CANCELLED' });
		const documentId = String(answer.json.id);
		const events = await waitForEvents(documentId, [
			'document.created',
			'document.sent',
			'document.cancelled',
		]);
		const cancelled = events.find((item) => item.event === 'document.cancelled');
		expect(cancelled?.document).toMatchObject({ id: documentId, status: 'CANCELLED' });
		expect(cancelled).not.toHaveProperty('recipient');
	});
});
