/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 35 end to end, in a real n8n (2.41.1, and 1.123.81 with N8N_VERSION) with the Survey API
 * credential set to Formbricks, against the Formbricks flavour of the sandbox (Formbricks' routes at
 * b66c1dd, every request checked against its OpenAPI files, webhooks as its response pipeline sends
 * them): the sample "new applicants → Formbricks contacts → personal links" with n8n's own file,
 * spreadsheet and Send Email nodes (the e-mails to an SMTP sink on 127.0.0.1), and a workflow that
 * updates the responses that start it, which "Ignore Responses Written by the Survey Node" keeps from looping.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	createCredential,
	createSandboxCredentials,
	type CredentialRefs,
	E2E_SANDBOX_OPTIONS,
	importWorkflow,
	nodeOutput,
	sampleSurveyIds,
	settledExecutions,
	waitUntil,
	withSurveyIds,
	type WorkflowFile,
} from '../harness/provision';
import { startSmtpSink, type SmtpSink } from '../harness/smtpSink';
import { FORMBRICKS_SEED, type Sandbox, startSandbox } from '../sandbox';
import { readJwt } from '../sandbox/formbricks/links';
import { settledDeliveries } from '../sandbox/testkit';
import { formbricksSpecProblems } from '../unit/helpers/formbricks';
import { sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(300_000);

const SAMPLE = 'applicants-to-formbricks-contacts.json';
const HEADER = 'First name,Last name,Email,Cohort';

describe('Formbricks contacts, personal links and response writes, in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let credentials: CredentialRefs;
	let sink: SmtpSink;
	let filesFolder: string;
	const formbricks = () => sandboxControl(sandbox, 'survey');

	beforeAll(async () => {
		sandbox = await startSandbox({ ...E2E_SANDBOX_OPTIONS, survey: 'formbricks' });
		filesFolder = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'applicants-')));
		// n8n 2.x reads files only inside N8N_RESTRICT_FILE_ACCESS_TO: the folder the spreadsheet is in.
		n8n = await startN8n({ packageTarball: await packPackage(), env: { N8N_RESTRICT_FILE_ACCESS_TO: filesFolder } });
		credentials = await createSandboxCredentials(n8n, sandbox);
		sink = await startSmtpSink();
	});
	afterAll(async () => {
		await sink?.close();
		await n8n?.stop();
		await sandbox?.stop();
		if (filesFolder) rmSync(filesFolder, { recursive: true, force: true });
	});
	afterEach(async () => {
		expect(await formbricksSpecProblems(sandbox.survey.url)).toEqual([]);
	});

	describe(`the sample workflows/${SAMPLE}`, () => {
		let workflowId: string;
		let start: string;
		const spreadsheet = () => path.join(filesFolder, 'applicants.csv');
		const runOnce = async (expected: number) => {
			const response = await fetch(start, { method: 'POST' });
			expect(response.status).toBe(200);
			const [latest] = await settledExecutions(n8n, workflowId, expected, true);
			expect({ status: latest.status, error: latest.data?.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
			return latest;
		};

		beforeAll(async () => {
			const smtp = await createCredential(n8n, 'SMTP (test sink)', 'smtp', {
				host: sink.host,
				port: sink.port,
				secure: false,
				disableStartTls: true,
				user: '',
				password: '',
			});
			const file = JSON.parse(
				withSurveyIds(readFileSync(path.join(PROJECT_ROOT, 'workflows', SAMPLE), 'utf8'), sampleSurveyIds(sandbox)),
			) as WorkflowFile;
			// The changes for the test: a Webhook in place of the manual trigger, so the test can start
			// it, and the spreadsheet's path here. Everything after the trigger runs as shipped.
			const nodes = file.nodes.map((node) => {
				if (node.type === 'n8n-nodes-base.manualTrigger') {
					return {
						...node,
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						webhookId: 'e2e-new-applicants',
						parameters: { httpMethod: 'POST', path: 'e2e-new-applicants', options: {} },
					};
				}
				if (node.type === 'n8n-nodes-base.readWriteFile') {
					return { ...node, parameters: { ...(node.parameters as object), fileSelector: spreadsheet() } };
				}
				return node;
			});
			const imported = await importWorkflow(n8n, { ...file, nodes }, { ...credentials, smtp } as CredentialRefs);
			workflowId = imported.id;
			await activateWorkflow(n8n, workflowId);
			start = `${n8n.baseUrl}/webhook/e2e-new-applicants`;
		});

		it('new applicants become contacts and each gets their personal link by e-mail; known ones get none', async () => {
			writeFileSync(
				spreadsheet(),
				[HEADER, 'Inès,Vidal,ines.vidal@example.org,2027', 'Tomás,Ruiz,tomas.ruiz@example.org,2027', 'Lise,Meitner,lise.meitner@example.org,2024'].join('\n'),
			);
			const execution = await runOnce(1);
			const reports = nodeOutput(execution, 'Applicants as Contacts');
			expect(reports.map((report) => [report.email, report.status])).toEqual([
				['ines.vidal@example.org', 'created'],
				['tomas.ruiz@example.org', 'created'],
				['lise.meitner@example.org', 'unchanged'],
			]);
			const links = nodeOutput(execution, 'Personal Application Link');
			expect(links).toHaveLength(2);
			const mails = await waitUntil('two e-mails', async () => (sink.mails.length >= 2 ? sink.mails : undefined));
			expect(mails.map((mail) => mail.to)).toEqual([['ines.vidal@example.org'], ['tomas.ruiz@example.org']]);
			expect(mails[0].subject).toBe('Your residency application form');
			expect(mails[0].text).toContain('Dear Inès,');
			expect(mails[0].text).toContain(String(links[0].surveyUrl));
			expect(mails[1].text).toContain(String(links[1].surveyUrl));
			// The link Formbricks made for that contact, to the residency form, valid 14 days.
			const token = readJwt(String(links[0].surveyUrl).split('/c/')[1]);
			expect(Number(token.exp) - Number(token.iat)).toBe(14 * 24 * 3600);
			const contacts = (await formbricks().call<{ data: Array<{ id: string; attributes: Record<string, string> }> }>('GET', '/contacts')).data;
			const ines = contacts.find((contact) => contact.attributes.email === 'ines.vidal@example.org');
			expect(ines?.attributes).toEqual({ email: 'ines.vidal@example.org', firstName: 'Inès', lastName: 'Vidal', cohort: '2027' });
			expect(links[0]).toMatchObject({ contactId: ines?.id, surveyId: FORMBRICKS_SEED.surveys.residency });
		});

		it('run again with one more row: only the new applicant is e-mailed', async () => {
			const before = sink.mails.length;
			writeFileSync(spreadsheet(), `${readFileSync(spreadsheet(), 'utf8')}\nEmmy,Noether,emmy.noether@example.org,2025\nAda,Byron,ada.byron@example.org,2027`);
			const execution = await runOnce(2);
			expect(nodeOutput(execution, 'Applicants as Contacts').map((report) => report.status)).toEqual([
				'unchanged',
				'unchanged',
				'unchanged',
				'unchanged',
				'created',
			]);
			const mails = await waitUntil('one more e-mail', async () => (sink.mails.length >= before + 1 ? sink.mails : undefined));
			expect(mails.slice(before).map((mail) => mail.to)).toEqual([['ada.byron@example.org']]);
		});
	});

	describe('Ignore Responses Written by the Survey Node: a workflow that updates the response that started it', () => {
		let triggerWorkflow: string;
		let writerStart: string;

		beforeAll(async () => {
			const workflow: WorkflowFile = {
				name: 'E2E finished application → decision pending',
				nodes: [
					{
						name: 'Application Finished',
						type: 'n8n-nodes-sign-survey-bookmark.surveyTrigger',
						typeVersion: 2,
						position: [0, 0],
						webhookId: 'e2e-ignore-own-writes',
						parameters: {
							events: ['responseFinished'],
							allSurveys: false,
							surveyIds: [FORMBRICKS_SEED.surveys.residency],
							options: { ignoreN8nWrites: true },
						},
						credentials: { surveyApi: credentials.surveyApi },
					},
					{
						name: 'Mark Decision Pending',
						type: 'n8n-nodes-sign-survey-bookmark.survey',
						typeVersion: 2,
						position: [220, 0],
						parameters: {
							resource: 'response',
							operation: 'update',
							surveyId: { __rl: true, mode: 'id', value: '={{ $json.surveyId }}' },
							responseId: '={{ $json.responseId }}',
							answerFields: { answer: [{ question: 'Decision', value: 'pending' }] },
							updateFields: {},
							options: {},
						},
						credentials: { surveyApi: credentials.surveyApi },
					},
				],
				connections: {
					'Application Finished': { main: [[{ node: 'Mark Decision Pending', type: 'main', index: 0 }]] },
				},
			};
			triggerWorkflow = (await importWorkflow(n8n, workflow, credentials)).id;
			await activateWorkflow(n8n, triggerWorkflow);
			const writer: WorkflowFile = {
				name: 'E2E imported application',
				nodes: [
					{
						name: 'Import',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						position: [0, 0],
						webhookId: 'e2e-import-application',
						parameters: { httpMethod: 'POST', path: 'e2e-import-application', options: {} },
					},
					{
						name: 'Write Response',
						type: 'n8n-nodes-sign-survey-bookmark.survey',
						typeVersion: 2,
						position: [220, 0],
						parameters: {
							resource: 'response',
							operation: 'create',
							surveyId: { __rl: true, mode: 'id', value: FORMBRICKS_SEED.surveys.residency },
							answersInput: 'json',
							answersJson: '={{ { "Your full name": "Imported Applicant", "Decision": "approved" } }}',
							additionalFields: {},
							options: {},
						},
						credentials: { surveyApi: credentials.surveyApi },
					},
				],
				connections: { Import: { main: [[{ node: 'Write Response', type: 'main', index: 0 }]] } },
			};
			const imported = await importWorkflow(n8n, writer, credentials);
			await activateWorkflow(n8n, imported.id);
			writerStart = `${n8n.baseUrl}/webhook/e2e-import-application`;
		});

		it('a respondent’s finished application starts it once: its own update does not start it again', async () => {
			const { data: response } = await formbricks().call<{ data: { id: string } }>(
				'POST',
				`/surveys/${FORMBRICKS_SEED.surveys.residency}/responses`,
				{ data: { [FORMBRICKS_SEED.questions.residency.fullName]: 'Respondent' }, finished: true },
			);
			const [execution] = await settledExecutions(n8n, triggerWorkflow, 1, true);
			expect(execution.status).toBe('success');
			expect(nodeOutput(execution, 'Mark Decision Pending')[0]).toMatchObject({ responseId: response.id, finished: true });
			// Formbricks sent responseFinished again for the update; the trigger acknowledged it and started nothing.
			const deliveries = await settledDeliveries<{ url: string; status?: number }>(sandbox.survey.url);
			expect(deliveries.filter((delivery) => delivery.status === 200).length).toBeGreaterThanOrEqual(2);
			expect(await settledExecutions(n8n, triggerWorkflow, 1)).toHaveLength(1);
			const stored = await fetch(`${sandbox.survey.url}/api/v1/management/responses/${response.id}`, {
				headers: { 'x-api-key': sandbox.survey.apiKey },
			}).then(async (answer) => (await answer.json()) as { data: { data: Record<string, unknown> } });
			expect(stored.data.data[FORMBRICKS_SEED.questions.residency.decision]).toBe('pending');
		});

		it('a response written by the Survey node (Response → Create) starts no execution', async () => {
			const before = (await settledExecutions(n8n, triggerWorkflow, 1)).length;
			const answer = await fetch(writerStart, { method: 'POST' });
			expect(answer.status).toBe(200);
			const created = await waitUntil('the imported response', async () => {
				const { data } = await fetch(
					`${sandbox.survey.url}/api/v2/management/responses?surveyId=${FORMBRICKS_SEED.surveys.residency}&limit=250`,
					{ headers: { 'x-api-key': sandbox.survey.apiKey } },
				).then(async (reply) => (await reply.json()) as { data: Array<{ id: string; data: Record<string, unknown>; meta: Record<string, unknown> }> });
				return data.find((response) => response.data[FORMBRICKS_SEED.questions.residency.fullName] === 'Imported Applicant');
			});
			expect(created.meta).toEqual({ source: 'n8n' });
			await settledDeliveries(sandbox.survey.url);
			expect(await settledExecutions(n8n, triggerWorkflow, before)).toHaveLength(before);
		});
	});
});
