/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 43 item 2: the contacts sample as `SURVEYS=formbricks npm start` sets it up, run as a user
 * runs it: its applicants spreadsheet where `npm start` puts it (workflows/applicants.csv), the SMTP
 * sink and its credential, the Formbricks flavour of the sandbox, and *Execute workflow* clicked in
 * the editor (Chromium). The new applicants become contacts and the sink receives their e-mails;
 * with the spreadsheet gone, the run fails and says so. `E2E_SCREENSHOTS=<folder>` keeps what it saw.
 */
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { type Editor, openEditor } from '../harness/browser';
import { type N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { N8N_MAJOR, PROJECT_ROOT } from '../harness/paths';
import {
	createSmtpSinkCredential,
	deploySamples,
	E2E_SANDBOX_OPTIONS,
	type ExecutionSummary,
	type ImportedWorkflow,
	listExecutions,
	nodeOutput,
	productionWebhookUrl,
	waitUntil,
} from '../harness/provision';
import { type SmtpSink, startSmtpSink } from '../harness/smtpSink';
import { type Sandbox, startSandbox } from '../sandbox';

jest.setTimeout(600_000);

const SAMPLE = path.join(PROJECT_ROOT, 'workflows', 'applicants-to-formbricks-contacts.json');

describe('SURVEYS=formbricks npm start: the contacts sample, executed in the editor', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let sink: SmtpSink;
	let editor: Editor;
	let workflow: ImportedWorkflow;
	let mailFolder: string;

	beforeAll(async () => {
		// As startDemoSandbox does for SURVEYS=formbricks, on free ports.
		sandbox = await startSandbox({ ...E2E_SANDBOX_OPTIONS, survey: 'formbricks', formbricks: { sampleQuestionIds: true } });
		n8n = await startN8n({ packageTarball: await packPackage() });
		mailFolder = mkdtempSync(path.join(os.tmpdir(), 'mails-'));
		sink = await startSmtpSink({ folder: mailFolder });
		const smtp = await createSmtpSinkCredential(n8n, sink);
		[workflow] = await deploySamples(n8n, sandbox, (node) => productionWebhookUrl(n8n, node), { files: [SAMPLE], credentials: { smtp } });
		editor = await openEditor(n8n);
	});
	afterAll(async () => {
		await editor?.close();
		await sink?.close();
		await n8n?.stop();
		await sandbox?.stop();
		if (mailFolder) rmSync(mailFolder, { recursive: true, force: true });
	});

	/** Clicks Execute workflow on the canvas and waits for the execution it starts. */
	const executeInEditor = async (before: number): Promise<ExecutionSummary> => {
		await editor.openWorkflow(workflow.id);
		await editor.page.locator('[data-test-id="execute-workflow-button"]').first().click();
		return await waitUntil(`execution ${before + 1} of the contacts sample`, async () => {
			const executions = await listExecutions(n8n, workflow.id, true);
			return executions.length > before ? executions[0] : undefined;
		});
	};

	it('the shipped spreadsheet: two new applicants become contacts and each gets their link by e-mail', async () => {
		const execution = await executeInEditor(0);
		await editor.page.locator('[data-test-id="canvas-node"][data-node-name="E-mail the Link"]').waitFor();
		await editor.screenshot('contacts-sample-executed');
		expect({ status: execution.status, error: execution.data?.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
		expect(nodeOutput(execution, 'Applicants as Contacts').map((report) => [report.email, report.status])).toEqual([
			['ines.vidal@example.org', 'created'],
			['tomas.ruiz@example.org', 'created'],
			['lise.meitner@example.org', 'unchanged'],
		]);
		const mails = await waitUntil('two e-mails in the sink', async () => (sink.mails.length >= 2 ? sink.mails : undefined));
		expect(mails.map((mail) => mail.to)).toEqual([['ines.vidal@example.org'], ['tomas.ruiz@example.org']]);
		const links = nodeOutput(execution, 'Personal Application Link');
		expect(mails[0].text).toContain(String(links[0].surveyUrl));
		expect(mails[0].subject).toBe('Your residency application form');
	});

	it('without the spreadsheet: the run fails, saying no file was found, and nobody is e-mailed', async () => {
		const csv = path.join(n8n.userFolder, 'applicants', 'applicants.csv');
		renameSync(csv, `${csv}.away`);
		try {
			const before = sink.mails.length;
			const execution = await executeInEditor(1);
			await editor.screenshot('contacts-sample-no-file');
			expect(execution.status).toBe('error');
			// n8n 2.x's Read/Write Files from Disk 1.1 says so; 1.x has only version 1, which reads
			// nothing, and the node's Always Output Data makes the next node stop at the empty item.
			if (N8N_MAJOR >= 2) expect(execution.data?.resultData.error?.message).toBe('No file(s) found');
			else expect(execution.data?.resultData.error?.message).toMatch(/binary/i);
			expect(Object.keys(execution.data?.resultData.runData ?? {})).not.toContain('Applicants as Contacts');
			expect(sink.mails.length).toBe(before);
		} finally {
			renameSync(`${csv}.away`, csv);
		}
	});
});
