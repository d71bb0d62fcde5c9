/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The pack in n8n queue mode: Redis, Postgres, the main process, one worker and two webhook
 * processes behind nginx (test/harness/queue.ts), the package installed from its tarball in
 * each, and the sandbox of the three services.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';

import { PACKAGE_NAME, packPackage } from '../harness/n8n';
import { PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	createSandboxCredentials,
	type CredentialRefs,
	deactivateWorkflow,
	type ImportedWorkflow,
	importWorkflow,
	nodeOutput,
	SIGNING_WEBHOOK_SECRET,
	waitUntil,
	type WorkflowFile,
	type ExecutionSummary,
} from '../harness/provision';
import { startQueueN8n, type QueueN8n } from '../harness/queue';
import { type Sandbox, standardWebhookHeaders, startSandbox } from '../sandbox';
import { type RecordedRequest, sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(900_000);

const DELIVERIES = 200;

describe('the pack in n8n queue mode (main, worker, two webhook processes behind nginx)', () => {
	let sandbox: Sandbox;
	let queue: QueueN8n;
	let credentials: CredentialRefs;
	let application: ImportedWorkflow;
	let archive: ImportedWorkflow;

	const signing = () => sandboxControl(sandbox, 'signing');
	const bookmarks = () => sandboxControl(sandbox, 'bookmark');
	const survey = () => sandboxControl(sandbox, 'survey');
	const posts = (requests: RecordedRequest[], route: RegExp) =>
		requests.filter((request) => request.method === 'POST' && route.test(request.path));
	const webhookIdOf = (workflow: ImportedWorkflow, nodeName: string) =>
		String(workflow.nodes.find((node) => node.name === nodeName)?.webhookId);
	const proxyWebhookUrl = (workflow: ImportedWorkflow, nodeName: string) =>
		`${queue.proxyUrl}/webhook/${webhookIdOf(workflow, nodeName)}/webhook`;

	/** Every execution of a workflow, all pages, as the public API lists them. */
	const allExecutions = async (workflowId: string, includeData = false) => {
		const executions: ExecutionSummary[] = [];
		let cursor: string | undefined;
		do {
			const page = await queue.main.api<{ data: ExecutionSummary[]; nextCursor?: string | null }>(
				'GET',
				`/executions?workflowId=${workflowId}&includeData=${includeData}&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
			);
			executions.push(...page.data);
			cursor = page.nextCursor ?? undefined;
		} while (cursor);
		return executions;
	};
	const finished = (executions: ExecutionSummary[]) =>
		executions.filter((execution) => !['new', 'running', 'waiting'].includes(execution.status));

	const importFile = async (file: string) => {
		const workflow = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'workflows', file), 'utf8')) as WorkflowFile;
		return await importWorkflow(queue.main, workflow, credentials, file);
	};

	beforeAll(async () => {
		sandbox = await startSandbox({ webhookRetryDelayMs: 200 });
		queue = await startQueueN8n({ packageTarball: await packPackage() });
		credentials = await createSandboxCredentials(queue.main, sandbox);
		application = await importFile('application-approved-to-signing.json');
		archive = await importFile('signed-to-archived.json');
		// The signing service's administrator adds the proxy's URL, as for any load balancer.
		await signing().call('POST', '/webhook-endpoints', {
			url: proxyWebhookUrl(archive, 'Document Completed'),
			secret: SIGNING_WEBHOOK_SECRET,
		});
		await activateWorkflow(queue.main, application.id);
		await activateWorkflow(queue.main, archive.id);
	});

	afterAll(async () => {
		await queue?.stop();
		await sandbox?.stop();
	});

	const surveyHooks = async () =>
		(await survey().call<{ data: Array<{ id: string; url: string; secret: string }> }>('GET', '/webhooks')).data;

	it('the Survey Trigger registered the proxy URL (WEBHOOK_URL), not a process of its own', async () => {
		const hooks = await surveyHooks();
		expect(hooks.map((hook) => hook.url)).toEqual([proxyWebhookUrl(application, 'Application Finished')]);
	});

	it('flows 1 and 2 go through the proxy and run on the worker: queued while it is stopped, finished once it runs', async () => {
		await queue.stopWorker();
		await signing().clearRequests();
		await bookmarks().clearRequests();
		const proxied = queue.proxyLog().length;

		await survey().call('POST', '/surveys/srv_residency_2026/responses', {
			data: {
				fullName: 'Quentin Example',
				email: 'quentin@example.org',
				phone: '+44 20 7946 0001',
				portfolio: 'https://portfolio.example.org/quentin',
				statement: 'Queue mode, please.',
				decision: 'approved',
			},
			finished: true,
		});
		const generated = (await fetch(`${sandbox.signing.url}/api/v2/templates/tpl_residency_agreement/generate-document`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.signing.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				title: 'Residency agreement – Uma Example',
				recipients: [{ name: 'Uma Example', email: 'uma@example.org', role: 'SIGNER' }],
			}),
		}).then(async (response) => await response.json())) as { documentId: string };
		await signing().call('POST', `/documents/${generated.documentId}/complete`, {});
		await signing().clearRequests();

		// Both deliveries accepted by a webhook process and waiting in Redis, with no worker.
		await waitUntil('two executions in the queue', async () => (await queue.queuedJobs()).waiting === 2, 60_000);
		expect(posts(await signing().requests(), /generate-document$/)).toHaveLength(0);
		expect(posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/)).toHaveLength(0);
		const delivered = queue.proxyLog().slice(proxied).filter((line) => line.startsWith('/webhook/'));
		const webhookPorts = queue.webhookProcesses.map((process) => `127.0.0.1:${new URL(process.baseUrl).port}`);
		for (const line of delivered) expect(webhookPorts).toContain(line.split(' ')[2]);
		expect(delivered.some((line) => line.includes(webhookIdOf(application, 'Application Finished')) && / 200 /.test(line))).toBe(true);
		expect(delivered.some((line) => line.includes(webhookIdOf(archive, 'Document Completed')) && / 200 /.test(line))).toBe(true);

		await queue.startWorker();
		const [envelope] = await waitUntil('the envelope', async () => {
			const found = posts(await signing().requests(), /generate-document$/);
			return found.length ? found : undefined;
		}, 120_000);
		expect(envelope.body).toMatchObject({ title: 'Residency agreement – Quentin Example' });
		const filed = await waitUntil('both bookmarks', async () => {
			const found = posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/);
			return found.length >= 2 ? found : undefined;
		}, 120_000);
		const filedUrls = filed.map((request) => (request.body as { url: string }).url);
		expect(filedUrls).toHaveLength(2);
		expect(filedUrls).toEqual(
			expect.arrayContaining(['https://portfolio.example.org/quentin', expect.stringContaining(generated.documentId)]),
		);
		await waitUntil('an empty queue', async () => {
			const jobs = await queue.queuedJobs();
			return jobs.waiting === 0 && jobs.active === 0;
		}, 60_000);
		// The worker's log names the executions it ran.
		const workerLog = readFileSync(queue.worker()!.logFile, 'utf8');
		for (const workflow of [application, archive]) {
			const [execution] = finished(await allExecutions(workflow.id));
			expect(execution.status).toBe('success');
			expect(workerLog).toMatch(new RegExp(`Worker started execution ${execution.id}\\b`));
		}
	});

	it(`${DELIVERIES} signed deliveries, each sent twice at once to the two webhook processes: ${DELIVERIES} envelopes, 0 lost, 0 duplicated`, async () => {
		await signing().clearRequests();
		await bookmarks().clearRequests();
		const before = (await allExecutions(application.id)).length;
		const [hook] = await surveyHooks();
		const signer = new Webhook(hook.secret);
		const [first, second] = queue.webhookProcesses.map(
			(process) => `${process.baseUrl}/webhook/${webhookIdOf(application, 'Application Finished')}/webhook`,
		);
		const send = async (url: string, id: string, body: string) => {
			const response = await fetch(url, { method: 'POST', headers: standardWebhookHeaders(signer, id, body), body });
			await response.arrayBuffer();
			return response.status;
		};
		const statuses: number[] = [];
		const pairs = Array.from({ length: DELIVERIES }, (_, index) => index);
		// Ten pairs in flight at a time; both copies of one delivery leave together.
		for (let start = 0; start < pairs.length; start += 10) {
			await Promise.all(
				pairs.slice(start, start + 10).map(async (index) => {
					const id = `msg_queue_${index}`;
					const body = JSON.stringify({
						event: 'responseFinished',
						surveyId: 'srv_residency_2026',
						responseId: `resp_queue_${index}`,
						createdAt: new Date().toISOString(),
						data: {
							fullName: `Applicant ${index}`,
							email: `applicant${index}@example.org`,
							portfolio: `https://portfolio.example.org/queue/${index}`,
							decision: 'approved',
						},
					});
					// Which process gets the first copy alternates.
					const [a, b] = index % 2 ? [first, second] : [second, first];
					statuses.push(...(await Promise.all([send(a, id, body), send(b, id, body)])));
				}),
			);
		}
		expect(statuses.filter((status) => status !== 200)).toEqual([]);

		// Every copy started an execution (neither process had seen the other's copy).
		const executions = await waitUntil(
			`${2 * DELIVERIES} finished executions`,
			async () => {
				const all = await allExecutions(application.id);
				return finished(all).length >= before + 2 * DELIVERIES ? all : undefined;
			},
			600_000,
			2_000,
		);
		expect(executions).toHaveLength(before + 2 * DELIVERIES);
		expect(executions.filter((execution) => execution.status !== 'success')).toEqual([]);

		const titles = posts(await signing().requests(), /generate-document$/).map(
			(request) => (request.body as { title: string }).title,
		);
		const expected = pairs.map((index) => `Residency agreement – Applicant ${index}`);
		expect(titles.filter((title) => !expected.includes(title))).toEqual([]);
		expect(new Set(titles).size).toBe(DELIVERIES);
		expect(titles).toHaveLength(DELIVERIES);
		const urls = posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/).map(
			(request) => (request.body as { url: string }).url,
		);
		expect(new Set(urls).size).toBe(DELIVERIES);
		expect(urls).toHaveLength(DELIVERIES);
	});

	it('the polling trigger runs on the main process only and emits each new record exactly once', async () => {
		const polling = await importWorkflow(
			queue.main,
			{
				name: 'Queue mode: new bookmarks',
				nodes: [
					{
						name: 'Bookmarks Trigger',
						type: `${PACKAGE_NAME}.bookmarksTrigger`,
						typeVersion: 1,
						position: [0, 0],
						parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, filters: {} },
						credentials: { bookmarkApi: credentials.bookmarkApi },
					},
				],
				connections: {},
			},
			credentials,
		);
		await bookmarks().clearRequests();
		await activateWorkflow(queue.main, polling.id);
		// Activation takes the first poll, which only remembers where "now" is.
		await waitUntil('the first poll', async () => (await bookmarks().requests()).some(
			(request) => request.method === 'GET' && request.path === '/api/v1/bookmarks',
		), 60_000);
		const add = async (url: string) =>
			((await fetch(`${sandbox.bookmark.url}/api/v1/bookmarks`, {
				method: 'POST',
				headers: { authorization: `Bearer ${sandbox.bookmark.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ type: 'link', url }),
			}).then(async (response) => await response.json())) as { id: string }).id;
		const firstBatch = [await add('https://example.org/queue-polled/1'), await add('https://example.org/queue-polled/2')];
		await waitUntil('a first execution', async () => finished(await allExecutions(polling.id)).length >= 1, 150_000, 2_000);
		const secondBatch = [await add('https://example.org/queue-polled/3')];
		const executions = await waitUntil(
			'a second execution',
			async () => {
				const done = finished(await allExecutions(polling.id, true));
				return done.length >= 2 ? done : undefined;
			},
			150_000,
			2_000,
		);
		await deactivateWorkflow(queue.main, polling.id);
		const emitted = executions.flatMap((execution) =>
			nodeOutput(execution, 'Bookmarks Trigger').map((item) => String(item.id)),
		);
		// A poller in another process too would emit the records again: they share the static data.
		expect(emitted.sort()).toEqual([...firstBatch, ...secondBatch].sort());
		// The poll runs on the main process, its executions on the worker.
		const workerLog = readFileSync(queue.worker()!.logFile, 'utf8');
		for (const execution of executions) {
			expect(workerLog).toMatch(new RegExp(`Worker started execution ${execution.id}\\b`));
		}
	});

	it('the Survey Trigger removes its registration when the workflow is deactivated', async () => {
		await deactivateWorkflow(queue.main, application.id);
		await waitUntil('the hook to be deleted', async () => (await surveyHooks()).length === 0, 60_000);
		expect(await surveyHooks()).toEqual([]);
	});
});
