/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 41: Recipient → Reject on Behalf in a real n8n, with its parameters as the editor saves
 * them (Recipient ID and Reason, nothing hidden). The sample `send-pdf-for-signature.json` sends a
 * PDF to two recipients on a Signing credential whose API is Documenso; a second workflow records
 * that the first declined by phone. Every request is parsed again with the SDK's schemas.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { listWorkflowFiles, type N8nInstance, packPackage, startN8n } from '../harness/n8n';
import {
	activateWorkflow,
	createDocumensoSandboxCredentials,
	E2E_SANDBOX_OPTIONS,
	importWorkflow,
	type WorkflowFile,
} from '../harness/provision';
import { type Sandbox, startSandbox } from '../sandbox';
import { documensoSchemaProblems } from '../unit/helpers/documenso';
import { sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(300_000);

const REJECT_WORKFLOW: WorkflowFile = {
	name: 'Declined by phone',
	nodes: [
		{
			id: 'a41e0000-0000-4000-8000-000000000001',
			name: 'Declined',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: 'a41e0000-0000-4000-8000-0000000000aa',
			parameters: { httpMethod: 'POST', path: 'declined-by-phone', responseMode: 'lastNode', options: {} },
		},
		{
			id: 'a41e0000-0000-4000-8000-000000000002',
			name: 'Reject on Behalf',
			type: 'n8n-nodes-sign-survey-bookmark.signing',
			typeVersion: 2,
			position: [220, 0],
			parameters: {
				resource: 'recipient',
				operation: 'rejectOnBehalf',
				recipientId: '={{ $json.body.recipientId }}',
				rejectionReason: '={{ $json.body.reason }}',
			},
			credentials: { signingApi: { id: '', name: '' } },
		},
	],
	connections: { Declined: { main: [[{ node: 'Reject on Behalf', type: 'main', index: 0 }]] } },
};

describe('Recipient → Reject on Behalf on Documenso, in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	const signing = () => sandboxControl(sandbox, 'signing');

	beforeAll(async () => {
		sandbox = await startSandbox({ ...E2E_SANDBOX_OPTIONS, signing: 'documenso' });
		n8n = await startN8n({ packageTarball: await packPackage() });
		const credentials = await createDocumensoSandboxCredentials(n8n, sandbox);
		const [sample] = listWorkflowFiles().filter((file) => path.basename(file) === 'send-pdf-for-signature.json');
		for (const workflow of [JSON.parse(readFileSync(sample, 'utf8')) as WorkflowFile, REJECT_WORKFLOW]) {
			await activateWorkflow(n8n, (await importWorkflow(n8n, workflow, credentials)).id);
		}
	});
	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
	});
	afterEach(async () => {
		expect(await documensoSchemaProblems(sandbox.signing.url)).toEqual([]);
	});

	const post = async (path: string, body: Record<string, unknown>) => {
		const response = await fetch(`${n8n.baseUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: response.status, json: (await response.json()) as Record<string, unknown> };
	};

	it('a pending document ends rejected, with the reason, on the recipient’s behalf', async () => {
		const sent = await post('send-pdf-for-signature', { applicationId: 'application-41', name: 'Octavia Example', email: 'octavia@example.org' });
		expect(sent.status).toBe(200);
		const { documents } = await signing().call<{ documents: Array<Record<string, unknown>> }>('GET', '/documents');
		const [resident] = documents[0].recipients as Array<{ id: number }>;

		const rejected = await post('declined-by-phone', { recipientId: String(resident.id), reason: 'Declined by phone' });
		expect(rejected).toMatchObject({
			status: 200,
			json: { recipientId: resident.id, signingStatus: 'REJECTED', rejectionReason: 'Declined by phone' },
		});
		const requests = await signing().requests();
		expect(requests.filter((entry) => entry.path.endsWith('/reject')).map((entry) => [entry.path, entry.body])).toEqual([
			[`/api/v2/envelope/recipient/${resident.id}/reject`, { envelopeId: documents[0].envelopeId, reason: 'Declined by phone' }],
		]);
		const after = await signing().call<{ documents: Array<Record<string, unknown>> }>('GET', '/documents');
		expect(after.documents[0].status).toBe('REJECTED');
	});
});
