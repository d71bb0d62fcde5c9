/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 26, acceptance 3: the flagship flow in a real n8n with the Signing credential's API set to
 * Documenso, against the Documenso flavour of the signing sandbox (test/sandbox/documenso), which
 * refuses any request that does not parse under `@documenso/sdk-typescript`'s schemas and sends
 * webhooks as Documenso builds them. The sample workflows are imported as shipped, with the one
 * change their sticky note asks of a Documenso user: Send Agreement's Template is the Documenso
 * template, and each of its slots gets a person (the applicant, and the residency's director).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { listWorkflowFiles, type N8nInstance, packPackage, startN8n } from '../harness/n8n';
import {
	activateWorkflow,
	createDocumensoSandboxCredentials,
	E2E_SANDBOX_OPTIONS,
	hasTrigger,
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
import { DOCUMENSO_SEED, type Sandbox, startSandbox } from '../sandbox';
import { documensoSchemaProblems, payloadOf } from '../unit/helpers/documenso';
import { type RecordedRequest, sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(300_000);

const SAMPLES = ['application-approved-to-signing.json', 'signed-to-archived.json', 'signed-agreement-to-pdf.json'];
const DIRECTOR = { name: 'Residency Director', email: 'director@residency.example.org' };

/** A sample as a Documenso user sets it up: the Documenso template, and a person for each slot. */
function forDocumenso(file: string): WorkflowFile {
	const workflow = JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile;
	for (const node of workflow.nodes) {
		if (node.name !== 'Send Agreement') continue;
		const parameters = node.parameters as Record<string, unknown>;
		parameters.templateId = { __rl: true, mode: 'id', value: String(DOCUMENSO_SEED.residencyTemplateId) };
		parameters.recipientsJson = `={{ [{ "name": $json.data.fullName, "email": $json.data.email, "role": "SIGNER" }, { "name": "${DIRECTOR.name}", "email": "${DIRECTOR.email}", "role": "APPROVER" }] }}`;
	}
	return workflow;
}

describe('the flagship flow on Documenso, in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let workflows: ImportedWorkflow[];
	const byFile = (name: string) => workflows.find((workflow) => workflow.file.endsWith(name))!;
	const signing = () => sandboxControl(sandbox, 'signing');
	const bookmarks = () => sandboxControl(sandbox, 'bookmark');
	const survey = () => sandboxControl(sandbox, 'survey');
	const posts = (requests: RecordedRequest[], route: RegExp) =>
		requests.filter((request) => request.method === 'POST' && route.test(request.path));
	const executionsOf = async (file: string) => await listExecutions(n8n, byFile(file).id, true);

	beforeAll(async () => {
		sandbox = await startSandbox({ ...E2E_SANDBOX_OPTIONS, signing: 'documenso' });
		n8n = await startN8n({ packageTarball: await packPackage() });
		const credentials = await createDocumensoSandboxCredentials(n8n, sandbox);
		const files = listWorkflowFiles().filter((file) => SAMPLES.includes(path.basename(file)));
		expect(files).toHaveLength(SAMPLES.length);
		workflows = [];
		for (const file of files) workflows.push(await importWorkflow(n8n, forDocumenso(file), credentials, file));
		for (const workflow of workflows) {
			// As a team admin adds them in Documenso's settings, with a secret.
			for (const node of nodesOfType(workflow, 'signingTrigger')) {
				await signing().call('POST', '/webhook-endpoints', {
					url: productionWebhookUrl(n8n, node),
					secret: SIGNING_WEBHOOK_SECRET,
				});
			}
			if (hasTrigger(workflow)) await activateWorkflow(n8n, workflow.id);
		}
	});
	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
	});
	afterEach(async () => {
		// Every request the nodes sent parses under Documenso's SDK schemas; no answer broke them.
		expect(await documensoSchemaProblems(sandbox.signing.url)).toEqual([]);
	});

	const residencySurvey = () =>
		String(
			(byFile('application-approved-to-signing.json').nodes.find((n) => n.name === 'Application Finished')
				?.parameters as { surveyIds: string[] }).surveyIds[0],
		);
	const apply = async (decision: string, who: string) =>
		await survey().call('POST', `/surveys/${residencySurvey()}/responses`, {
			data: {
				fullName: `${who} Example`,
				email: `${who.toLowerCase()}@example.org`,
				phone: '+44 20 7946 0000',
				portfolio: `https://portfolio.example.org/${who.toLowerCase()}`,
				statement: 'I would like to join the residency.',
				decision,
			},
			finished: true,
		});

	let documentId: number;

	it('application approved → one Documenso document, the slots filled, sent at once', async () => {
		await signing().clearRequests();
		await bookmarks().clearRequests();
		await apply('approved', 'Octavia');
		const [use] = await waitUntil('the /envelope/use request', async () => {
			const found = posts(await signing().requests(), /^\/api\/v2\/envelope\/use$/);
			return found.length ? found : undefined;
		});
		const [portfolio] = await waitUntil('the portfolio bookmark', async () => {
			const found = posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/);
			return found.length ? found : undefined;
		});
		expect(use.headers.authorization).toBe(`Bearer ${sandbox.signing.apiKey}`);
		expect(payloadOf(use)).toEqual({
			envelopeId: expect.stringMatching(/^envelope_/),
			recipients: [
				{ id: DOCUMENSO_SEED.slots.applicant, name: 'Octavia Example', email: 'octavia@example.org' },
				{ id: DOCUMENSO_SEED.slots.director, ...DIRECTOR },
			],
			distributeDocument: true,
			override: { title: 'Residency agreement – Octavia Example' },
		});
		const { documents } = await signing().call<{ documents: Array<Record<string, unknown>> }>('GET', '/documents');
		expect(documents).toHaveLength(1);
		expect(documents[0]).toMatchObject({ status: 'PENDING', title: 'Residency agreement – Octavia Example' });
		documentId = documents[0].id as number;
		expect(portfolio.body).toMatchObject({
			type: 'link',
			url: 'https://portfolio.example.org/octavia',
			note: `Residency agreement sent for signature: document ${documentId}`,
		});
		// The bookmark request is the run's last step, not its end: wait until n8n has stored the run.
		await survey().settledDeliveries();
		const executions = await settledExecutions(n8n, byFile('application-approved-to-signing.json').id);
		expect(executions.map((execution) => execution.status)).toEqual(['success']);
	});

	it('application rejected → no document', async () => {
		await signing().clearRequests();
		const before = (await executionsOf('application-approved-to-signing.json')).length;
		await apply('rejected', 'Rufus');
		await waitUntil(
			'the execution to end',
			async () => (await executionsOf('application-approved-to-signing.json')).length > before,
		);
		expect(posts(await signing().requests(), /^\/api\/v2\/envelope\/use$/)).toEqual([]);
	});

	it('completed → filed: the link to the document in Documenso as a bookmark, the signed PDF on disk', async () => {
		await bookmarks().clearRequests();
		await signing().call('POST', `/documents/${documentId}/complete`);
		const archived = await waitUntil('the archive execution', async () => {
			const done = await executionsOf('signed-to-archived.json');
			return done.length ? done : undefined;
		});
		const written = await waitUntil('the PDF execution', async () => {
			const done = await executionsOf('signed-agreement-to-pdf.json');
			return done.length ? done : undefined;
		});
		// Documenso tried every delivery once: n8n answered each at the first attempt.
		const deliveries = await signing().settledDeliveries();
		expect(deliveries.filter((delivery) => delivery.status !== 200)).toEqual([]);
		expect(deliveries.filter((delivery) => delivery.event === 'DOCUMENT_COMPLETED')).toHaveLength(2);
		expect(archived.map((execution) => execution.status)).toEqual(['success']);
		expect(written.map((execution) => execution.status)).toEqual(['success']);

		const filed = posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/);
		expect(filed).toHaveLength(1);
		const { documents } = await signing().call<{ documents: Array<Record<string, unknown>> }>('GET', '/documents');
		expect(filed[0].body).toMatchObject({
			type: 'link',
			url: `${sandbox.signing.url}/t/sandbox/documents/${String(documents[0].envelopeId)}`,
			title: `Signed document ${documentId}`,
			tags: expect.arrayContaining(['signed', String(DOCUMENSO_SEED.residencyTemplateId)]),
			note: expect.stringMatching(/^Signed by 2 of 2 recipients; completed \d{4}-/),
		});
		expect(JSON.stringify(filed[0].body)).not.toMatch(/Octavia|Residency Director/);

		const pdf = readFileSync(path.join(n8n.userFolder, 'signed-agreements', `${documentId}.pdf`));
		expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
		const downloads = (await signing().requests()).filter((request) => request.path.endsWith('/download'));
		expect(downloads.map((request) => `${request.method} ${request.path} ${String(request.query.version)}`)).toEqual([
			expect.stringMatching(/^GET \/api\/v2\/envelope\/item\/envelope_item_\w+\/download signed$/),
		]);
	});
});
