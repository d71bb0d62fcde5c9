/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 33, acceptance 2: in a real n8n, a PDF read from disk by n8n's own Read/Write Files from
 * Disk node → Signing → Document → Create From File with two recipients and their signature fields
 * placed at texts of the PDF → signed in the Documenso flavour of the sandbox → the Signing
 * Trigger's completed event → Download gives the signed PDF, written to disk. The samples
 * `send-pdf-for-signature.json` and `signed-agreement-to-pdf.json` run as shipped (the PDF ships as
 * workflows/residency-agreement.pdf), on a Signing credential whose API is Documenso. The upload
 * goes through n8n's own HTTP client: the sandbox reads it part by part, and every request is
 * parsed again with `@documenso/sdk-typescript`'s schemas.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { listWorkflowFiles, type N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	createDocumensoSandboxCredentials,
	E2E_SANDBOX_OPTIONS,
	type ImportedWorkflow,
	importWorkflow,
	listExecutions,
	nodesOfType,
	productionWebhookUrl,
	settledExecutions,
	SIGNING_WEBHOOK_SECRET,
	waitUntil,
	type WorkflowFile,
} from '../harness/provision';
import { type Sandbox, startSandbox } from '../sandbox';
import type { MultipartRecord } from '../sandbox/documenso/sdk';
import { documensoSchemaProblems } from '../unit/helpers/documenso';
import { sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(300_000);

const SAMPLES = ['send-pdf-for-signature.json', 'signed-agreement-to-pdf.json'];
const AGREEMENT = readFileSync(path.join(PROJECT_ROOT, 'workflows', 'residency-agreement.pdf'));

describe('a PDF from disk sent for signature on Documenso, in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let workflows: ImportedWorkflow[];
	const byFile = (name: string) => workflows.find((workflow) => workflow.file.endsWith(name))!;
	const signing = () => sandboxControl(sandbox, 'signing');

	beforeAll(async () => {
		sandbox = await startSandbox({ ...E2E_SANDBOX_OPTIONS, signing: 'documenso' });
		n8n = await startN8n({ packageTarball: await packPackage() });
		const credentials = await createDocumensoSandboxCredentials(n8n, sandbox);
		workflows = [];
		for (const file of listWorkflowFiles().filter((candidate) => SAMPLES.includes(path.basename(candidate)))) {
			workflows.push(await importWorkflow(n8n, JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile, credentials, file));
		}
		expect(workflows).toHaveLength(SAMPLES.length);
		for (const workflow of workflows) {
			for (const node of nodesOfType(workflow, 'signingTrigger')) {
				await signing().call('POST', '/webhook-endpoints', { url: productionWebhookUrl(n8n, node), secret: SIGNING_WEBHOOK_SECRET });
			}
			await activateWorkflow(n8n, workflow.id);
		}
	});
	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
	});
	afterEach(async () => {
		expect(await documensoSchemaProblems(sandbox.signing.url)).toEqual([]);
	});

	const request = async (body: Record<string, unknown>) => {
		const response = await fetch(`${n8n.baseUrl}/webhook/send-pdf-for-signature`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		expect(response.status).toBe(200);
		return (await response.json()) as Record<string, unknown>;
	};

	let documentId: number;

	it('uploads the PDF as n8n read it, with both signatures at their placeholders, and sends it', async () => {
		const document = await request({ applicationId: 'application-1001', name: 'Octavia Example', email: 'octavia@example.org' });
		// The one shape (Simplify, on by default) with alreadyExisted.
		expect(document).toMatchObject({ documentId: expect.any(Number), status: 'PENDING', alreadyExisted: false });
		documentId = document.documentId as number;

		const requests = await signing().requests();
		const [create] = requests.filter((entry) => entry.path === '/api/v2/envelope/create');
		const parts = (create.body as MultipartRecord).parts;
		expect(parts.map(({ name, fileName, size }) => ({ name, fileName, size }))).toEqual([
			{ name: 'payload', fileName: undefined, size: expect.any(Number) },
			{ name: 'files', fileName: 'residency-agreement.pdf', size: AGREEMENT.length },
		]);
		expect(parts[1].sha256).toBe(createHash('sha256').update(AGREEMENT).digest('hex'));
		expect(parts[0].json).toMatchObject({
			title: 'Residency agreement – Octavia Example',
			type: 'DOCUMENT',
			externalId: 'application-1001',
			recipients: [
				{ name: 'Octavia Example', email: 'octavia@example.org', role: 'SIGNER' },
				{ name: 'Residency Director', email: 'director@residency.example.org', role: 'SIGNER' },
			],
			meta: { subject: 'Your residency agreement', distributionMethod: 'EMAIL' },
		});
		const [fields] = requests.filter((entry) => entry.path === '/api/v2/envelope/field/create-many');
		expect((fields.body as { data: unknown[] }).data).toEqual([
			expect.objectContaining({ type: 'SIGNATURE', placeholder: '[[sign-resident]]' }),
			expect.objectContaining({ type: 'SIGNATURE', placeholder: '[[sign-director]]' }),
		]);
		const { documents } = await signing().call<{ documents: Array<Record<string, unknown>> }>('GET', '/documents');
		expect(documents).toHaveLength(1);
		expect(documents[0]).toMatchObject({ externalId: 'application-1001', status: 'PENDING' });
		const [resident, director] = documents[0].recipients as Array<{ id: number }>;
		expect((documents[0].fields as Array<Record<string, unknown>>).map((field) => [field.type, field.recipientId, field.page])).toEqual([
			['SIGNATURE', resident.id, 1],
			['SIGNATURE', director.id, 1],
		]);
		// The workflow's output for a tool-free run leaves signing links out, as the sample asks.
		expect(JSON.stringify(document)).not.toContain('/sign/');
	});

	it('the same application again returns that document: nothing is uploaded twice', async () => {
		await signing().clearRequests();
		const again = await request({ applicationId: 'application-1001', name: 'Octavia Example', email: 'octavia@example.org' });
		expect(again).toMatchObject({ documentId, alreadyExisted: true });
		expect((await signing().requests()).map((entry) => entry.path)).not.toContain('/api/v2/envelope/create');
	});

	it('the same application sent twice at once (a form submitted twice): one document, one set of invitations', async () => {
		// Every answer takes a while, as over a network: both runs look the External ID up before
		// either upload is stored, the race that made two documents.
		await signing().call('PUT', '/latency', { ms: 1500 });
		try {
			const body = { applicationId: 'application-2002', name: 'Tomás Ruiz', email: 'tomas@example.org' };
			const [first, second] = await Promise.all([request(body), request(body)]);
			expect([first.documentId, first.status]).toEqual([second.documentId, 'PENDING']);
			expect([first.alreadyExisted, second.alreadyExisted].sort()).toEqual([false, true]);
		} finally {
			await signing().call('PUT', '/latency', { ms: 0 });
		}
		const { documents } = await signing().call<{ documents: Array<Record<string, unknown>> }>('GET', '/documents');
		const mine = documents.filter((document) => document.externalId === 'application-2002');
		expect(mine.map((document) => document.status)).toEqual(['PENDING']);
		const paths = (await signing().requests()).map((entry) => `${entry.method} ${entry.path}`);
		expect(paths.filter((path) => path === 'POST /api/v2/envelope/create')).toHaveLength(2);
		expect(paths.filter((path) => path === 'POST /api/v2/envelope/delete')).toHaveLength(1);
		expect(paths.filter((path) => path === 'POST /api/v2/envelope/distribute')).toHaveLength(1);
	});

	it('retries are safe: an upload whose answer was lost is finished and sent by the next request, with both signatures', async () => {
		await signing().clearRequests();
		// Documenso stores the upload; its answer never reaches n8n.
		await signing().call('PUT', '/faults', { status: 504, count: 1, path: '/envelope/create', afterHandling: true });
		const body = { applicationId: 'application-3003', name: 'Lise Meitner', email: 'lise@example.org' };
		const failed = await fetch(`${n8n.baseUrl}/webhook/send-pdf-for-signature`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		expect(failed.status).not.toBe(200);
		const stored = async () =>
			(await signing().call<{ documents: Array<Record<string, unknown>> }>('GET', '/documents')).documents.filter(
				(document) => document.externalId === 'application-3003',
			);
		expect((await stored()).map((document) => [document.status, (document.fields as unknown[]).length])).toEqual([['DRAFT', 0]]);

		const again = await request(body);
		expect(again).toMatchObject({ status: 'PENDING', alreadyExisted: true });
		const [document] = await stored();
		expect(await stored()).toHaveLength(1);
		expect((document.fields as Array<Record<string, unknown>>).map((field) => field.type)).toEqual(['SIGNATURE', 'SIGNATURE']);
		// The 504 was the fault this test set.
		await signing().clearRequests();
	});

	it('signed by both → the completed event → Download writes the signed PDF to disk', async () => {
		await signing().clearRequests();
		await signing().call('POST', `/documents/${documentId}/complete`);
		const written = await waitUntil('the PDF execution', async () => {
			const done = await listExecutions(n8n, byFile('signed-agreement-to-pdf.json').id, true);
			return done.length ? done : undefined;
		});
		await signing().settledDeliveries();
		expect((await settledExecutions(n8n, byFile('signed-agreement-to-pdf.json').id)).map((execution) => execution.status)).toEqual(['success']);
		expect(written).toHaveLength(1);
		const pdf = readFileSync(path.join(n8n.userFolder, 'signed-agreements', `${documentId}.pdf`));
		// Documenso's signed PDF of the upload: the file sent, sealed.
		expect(pdf.subarray(0, AGREEMENT.length).equals(AGREEMENT)).toBe(true);
		expect(pdf.toString('latin1')).toContain('% Signed by octavia@example.org');
		expect(pdf.toString('latin1')).toContain('% Signed by director@residency.example.org');
	});
});
