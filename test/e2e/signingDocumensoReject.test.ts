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

/** File → Get Many, then File → Update renaming the first file, with their parameters as the editor saves them. */
const RENAME_WORKFLOW: WorkflowFile = {
	name: 'Rename the first file',
	nodes: [
		{
			id: 'a41e0000-0000-4000-8000-000000000011',
			name: 'Rename',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: 'a41e0000-0000-4000-8000-0000000000bb',
			parameters: { httpMethod: 'POST', path: 'rename-first-file', responseMode: 'lastNode', options: {} },
		},
		{
			id: 'a41e0000-0000-4000-8000-000000000012',
			name: 'Files',
			type: 'n8n-nodes-sign-survey-bookmark.signing',
			typeVersion: 2,
			position: [220, 0],
			parameters: { resource: 'file', operation: 'getMany', documentId: '={{ $json.body.documentId }}' },
			credentials: { signingApi: { id: '', name: '' } },
		},
		{
			id: 'a41e0000-0000-4000-8000-000000000013',
			name: 'Rename File',
			type: 'n8n-nodes-sign-survey-bookmark.signing',
			typeVersion: 2,
			position: [440, 0],
			parameters: {
				resource: 'file',
				operation: 'update',
				documentId: '={{ $json.documentId }}',
				fileId: '={{ $json.fileId }}',
				fileUpdateFields: { title: 'Residency agreement (signed copy to follow).pdf' },
			},
			credentials: { signingApi: { id: '', name: '' } },
		},
	],
	connections: {
		Rename: { main: [[{ node: 'Files', type: 'main', index: 0 }]] },
		Files: { main: [[{ node: 'Rename File', type: 'main', index: 0 }]] },
	},
};

describe('Recipient → Reject on Behalf and File on Documenso, in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	const signing = () => sandboxControl(sandbox, 'signing');

	beforeAll(async () => {
		sandbox = await startSandbox({ ...E2E_SANDBOX_OPTIONS, signing: 'documenso' });
		n8n = await startN8n({ packageTarball: await packPackage() });
		const credentials = await createDocumensoSandboxCredentials(n8n, sandbox);
		const [sample] = listWorkflowFiles().filter((file) => path.basename(file) === 'send-pdf-for-signature.json');
		for (const workflow of [JSON.parse(readFileSync(sample, 'utf8')) as WorkflowFile, REJECT_WORKFLOW, RENAME_WORKFLOW]) {
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

	it('File → Get Many then Update: the pending document’s file is renamed', async () => {
		const sent = await post('send-pdf-for-signature', { applicationId: 'application-42', name: 'Grace Example', email: 'grace@example.org' });
		expect(sent.status).toBe(200);
		const documentId = sent.json.documentId as number;
		const renamed = await post('rename-first-file', { documentId: String(documentId) });
		expect(renamed).toMatchObject({
			status: 200,
			json: { documentId, title: 'Residency agreement (signed copy to follow).pdf', order: 1, fileId: expect.stringMatching(/^envelope_item_/) },
		});
		const updates = (await signing().requests()).filter((entry) => entry.path === '/api/v2/envelope/item/update-many');
		expect(updates).toHaveLength(1);
	});

	it('a pending document ends rejected, with the reason, on the recipient’s behalf', async () => {
		const sent = await post('send-pdf-for-signature', { applicationId: 'application-41', name: 'Octavia Example', email: 'octavia@example.org' });
		expect(sent.status).toBe(200);
		const { documents } = await signing().call<{ documents: Array<Record<string, unknown>> }>('GET', '/documents');
		const document = documents.find((candidate) => candidate.externalId === 'application-41')!;
		const [resident] = document.recipients as Array<{ id: number }>;

		const rejected = await post('declined-by-phone', { recipientId: String(resident.id), reason: 'Declined by phone' });
		expect(rejected).toMatchObject({
			status: 200,
			json: { recipientId: resident.id, signingStatus: 'REJECTED', rejectionReason: 'Declined by phone' },
		});
		const requests = await signing().requests();
		expect(requests.filter((entry) => entry.path.endsWith('/reject')).map((entry) => [entry.path, entry.body])).toEqual([
			[`/api/v2/envelope/recipient/${resident.id}/reject`, { envelopeId: document.envelopeId, reason: 'Declined by phone' }],
		]);
		const after = await signing().call<{ documents: Array<Record<string, unknown>> }>('GET', '/documents');
		expect(after.documents.find((candidate) => candidate.externalId === 'application-41')!.status).toBe('REJECTED');
	});
});
