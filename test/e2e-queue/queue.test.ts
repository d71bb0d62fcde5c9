/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The pack in n8n queue mode: Redis, Postgres, the main process, two workers at concurrency 5
 * and two webhook processes behind nginx (test/harness/queue.ts), the package installed from its
 * tarball in each, and the sandbox of the three services. The trigger samples run as their
 * queue-mode variants (workflows/queue/), which claim each event in Postgres.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';

import {
	type Application,
	deliveredOnlyApplication,
	deliverUntilAccepted,
	outcomeOf,
	storedApplication,
	tallyEffects,
} from '../harness/applicationEvents';
import { QUEUE_WORKFLOWS_DIR, queueVariant, readClaims, responseClaimKey, setUpEventClaims } from '../harness/claims';
import { PACKAGE_NAME, packPackage } from '../harness/n8n';
import {
	activateWorkflow,
	createSandboxCredentials,
	type CredentialRefs,
	deactivateWorkflow,
	E2E_SANDBOX_OPTIONS,
	type ExecutionSummary,
	type ImportedWorkflow,
	importWorkflow,
	nodeOutput,
	SIGNING_WEBHOOK_SECRET,
	waitUntil,
} from '../harness/provision';
import { startQueueN8n, type QueueN8n } from '../harness/queue';
import { allExecutions, isFinished, nextReconcile } from '../harness/queueExecutions';
import { type Sandbox, startSandbox } from '../sandbox';
import { type RecordedRequest, sandboxControl } from '../unit/helpers/sandbox';

// Generous: on a machine others share, n8n's processes can be several times slower than alone.
jest.setTimeout(3_600_000);

const DELIVERIES = 200;
/** How long a test delivery waits for n8n's answer: long, so that a busy machine only slows the test. */
const ANSWER_TIMEOUT_MS = 120_000;
const REDELIVERIES = 100;
const WORKERS = 2;
/** What the reconcile leaves to the webhooks in these tests: what changed in the last 30 s. */
const GRACE_SECONDS = 30;
const WORKER_CONCURRENCY = 5;

describe(`the pack in n8n queue mode (main, ${WORKERS} workers at concurrency ${WORKER_CONCURRENCY}, two webhook processes behind nginx)`, () => {
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
	const webhookPath = (workflow: ImportedWorkflow, nodeName: string) => `/webhook/${webhookIdOf(workflow, nodeName)}/webhook`;
	const workerLogs = () => queue.workers().map((worker) => readFileSync(worker!.logFile, 'utf8')).join('\n');
	const drained = async () =>
		await waitUntil('an empty queue', async () => {
			const jobs = await queue.queuedJobs();
			return jobs.waiting === 0 && jobs.active === 0;
		}, 1_800_000, 1_000);
	/** Waits until every execution the workflow has now has finished, and returns them. */
	const settled = async (workflow: ImportedWorkflow) => {
		const known = (await allExecutions(queue.main, workflow.id)).length;
		return await waitUntil(`the ${known} executions of "${workflow.name}" to finish`, async () => {
			const executions = await allExecutions(queue.main, workflow.id);
			return executions.length >= known && executions.every(isFinished) ? executions : undefined;
		}, 1_800_000, 2_000);
	};
	const surveySigner = async () => {
		const [hook] = (await survey().call<{ data: Array<{ secret: string }> }>('GET', '/webhooks')).data;
		return new Webhook(hook.secret);
	};

	beforeAll(async () => {
		// A delivery the services give up is the reconcile's case, tested below.
		sandbox = await startSandbox(E2E_SANDBOX_OPTIONS);
		queue = await startQueueN8n({ packageTarball: await packPackage(), workers: WORKERS, workerConcurrency: WORKER_CONCURRENCY });
		credentials = { ...(await createSandboxCredentials(queue.main, sandbox)), postgres: await setUpEventClaims(queue) };
		// The reconcile every minute instead of every 5, leaving the webhooks 30 s instead of 5 minutes,
		// so that the tests wait less for it.
		const variant = (file: string) =>
			queueVariant(path.join(QUEUE_WORKFLOWS_DIR, file), { reconcileEveryMinutes: 1, graceSeconds: GRACE_SECONDS });
		application = await importWorkflow(queue.main, variant('application-approved-to-signing.json'), credentials);
		archive = await importWorkflow(queue.main, variant('signed-to-archived.json'), credentials);
		// The signing service's administrator adds the proxy's URL, as for any load balancer.
		await signing().call('POST', '/webhook-endpoints', {
			url: `${queue.proxyUrl}${webhookPath(archive, 'Document Completed')}`,
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
		expect(hooks.map((hook) => hook.url)).toEqual([`${queue.proxyUrl}${webhookPath(application, 'Application Finished')}`]);
	});

	it('flows 1 and 2 go through the proxy and run on the workers: queued while they are stopped, handled once when they run', async () => {
		await queue.stopWorkers();
		try {
			await queuedWithoutWorkers();
		} finally {
			// Whatever happened above, the tests after this one have their workers.
			await queue.startWorkers();
		}
		await handledOnceByWorkers();
	});

	let quentinDocument = '';
	const queuedWithoutWorkers = async () => {
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
		const webhookPorts = queue.webhookProcesses.map((process) => `127.0.0.1:${new URL(process.baseUrl).port}`);
		const delivered = await waitUntil('both deliveries through the proxy', async () => {
			const lines = queue.proxyLog().slice(proxied).filter((line) => line.startsWith('/webhook/'));
			const accepted = (workflow: ImportedWorkflow, node: string) =>
				lines.some((line) => line.startsWith(webhookPath(workflow, node)) && / 200 /.test(line));
			return accepted(application, 'Application Finished') && accepted(archive, 'Document Completed') ? lines : undefined;
		}, 300_000);
		for (const line of delivered) expect(webhookPorts).toContain(line.split(' ')[2]);
		await waitUntil('both executions in the queue', async () => (await queue.queuedJobs()).waiting >= 2, 60_000);
		expect(posts(await signing().requests(), /generate-document$/)).toHaveLength(0);
		expect(posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/)).toHaveLength(0);
		quentinDocument = generated.documentId;
	};

	const handledOnceByWorkers = async () => {
		const filed = await waitUntil('both bookmarks', async () => {
			const found = posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/);
			return found.length >= 2 ? found : undefined;
		}, 180_000);
		await drained();
		await Promise.all([settled(application), settled(archive)]);
		const effects = await tallyEffects(sandbox);
		expect(effects.sent.get('quentin@example.org')).toBe(1);
		expect(posts(await signing().requests(), /generate-document$/).map((request) => request.body)).toEqual([
			expect.objectContaining({ title: 'Residency agreement – Quentin Example', distribute: false }),
		]);
		expect(filed.map((request) => (request.body as { url: string }).url).sort()).toEqual(
			['https://portfolio.example.org/quentin', `https://signing.example.test/certified/${quentinDocument}.pdf`].sort(),
		);
		expect(posts(await bookmarks().requests(), /^\/api\/v1\/bookmarks$/)).toHaveLength(2);
		// The workers' logs name the executions that handled them.
		const logs = workerLogs();
		for (const claim of (await readClaims(queue)).filter((claim) => claim.state === 'done')) {
			expect(logs).toMatch(new RegExp(`Worker started execution ${claim.executionId}\\b`));
		}
	};

	it(
		`${DELIVERIES} signed deliveries, each sent at once to both webhook processes, then ${REDELIVERIES} redeliveries: ` +
			`${DELIVERIES} envelopes and ${DELIVERIES} bookmarks, 0 lost, 0 duplicated`,
		async () => {
			await signing().clearRequests();
			await bookmarks().clearRequests();
			const webhookRunsBefore = (await allExecutions(queue.main, application.id)).filter((execution) => execution.mode === 'webhook').length;
			const signer = await surveySigner();
			const urls = () => queue.webhookProcesses.map((process) => `${process.baseUrl}${webhookPath(application, 'Application Finished')}`);
			// Not stored in the survey service: only these deliveries bring them, never the reconcile.
			const applications = Array.from({ length: DELIVERIES }, (_, index) => deliveredOnlyApplication('queue', index));
			// Ten applications in flight at a time; both copies of one leave together, the first copy
			// alternating between the processes. A copy n8n refuses (a busy machine can make it answer
			// 500) is sent again, as the service would.
			const attempts: number[][] = [];
			for (let start = 0; start < applications.length; start += 10) {
				await Promise.all(
					applications.slice(start, start + 10).map(async (app, offset) => {
						const [a, b] = (start + offset) % 2 ? urls() : urls().reverse();
						attempts.push(...(await Promise.all([a, b].map(async (url) => await deliverUntilAccepted(url, signer, app, { timeoutMs: ANSWER_TIMEOUT_MS })))));
					}),
				);
			}
			expect(attempts.filter((statuses) => statuses[statuses.length - 1] !== 200)).toEqual([]);

			// Each process remembers the ids it saw: a restarted one has forgotten them, so the
			// redeliveries the proxy sends it start executions, which the claims stop.
			await queue.restartWebhookProcess(0);
			const proxiedBefore = queue.proxyLog().length;
			const redelivered: number[][] = [];
			for (let start = 0; start < REDELIVERIES; start += 10) {
				redelivered.push(
					...(await Promise.all(
						applications
							.slice(start, Math.min(start + 10, REDELIVERIES))
							.map(async (app) => await deliverUntilAccepted(`${queue.proxyUrl}${webhookPath(application, 'Application Finished')}`, signer, app, { timeoutMs: ANSWER_TIMEOUT_MS })),
					)),
				);
			}
			expect(redelivered.filter((statuses) => statuses[statuses.length - 1] !== 200)).toEqual([]);
			const restartedAddress = `127.0.0.1:${new URL(queue.webhookProcesses[0].baseUrl).port}`;
			const toRestarted = queue
				.proxyLog()
				.slice(proxiedBefore)
				.filter((line) => line.startsWith(webhookPath(application, 'Application Finished')) && line.split(' ')[2] === restartedAddress);
			expect(toRestarted.length).toBeGreaterThan(0);

			await drained();
			const executions = await settled(application);
			const webhookRuns = executions.filter((execution) => execution.mode === 'webhook');
			// Every copy started an execution, and so did the redeliveries that reached the restarted process.
			expect(webhookRuns.length).toBeGreaterThan(webhookRunsBefore + 2 * DELIVERIES);
			expect(executions.filter((execution) => execution.status !== 'success')).toEqual([]);

			const effects = await tallyEffects(sandbox);
			const outcome = outcomeOf(applications, effects);
			expect({ notHandled: outcome.notHandled.map((app) => app.responseId), duplicated: outcome.duplicated.map((app) => app.responseId) }).toEqual({
				notHandled: [],
				duplicated: [],
			});
			expect(outcome.handledOnce).toHaveLength(DELIVERIES);
			expect(effects.generateRequests).toBe(DELIVERIES);
			expect(effects.sendRequests).toBe(DELIVERIES);
			expect([...effects.bookmarksCreated.values()].reduce((sum, n) => sum + n, 0)).toBe(DELIVERIES);
			expect(effects.bookmarksRepeated.size).toBe(0);
			const claims = (await readClaims(queue)).filter((claim) => claim.claimKey.includes('resp_queue_'));
			expect(claims).toHaveLength(DELIVERIES);
			expect(claims.filter((claim) => claim.state !== 'done' || claim.attempts !== 1)).toEqual([]);
		},
	);

	it('the reconcile handles what no delivery brought, takes over the claims of executions that died (never sending a second envelope), and leaves what a delivery handled', async () => {
		await signing().clearRequests();
		await bookmarks().clearRequests();
		const signer = await surveySigner();
		// Delivered as usual, through the proxy, and handled before the reconcile run this test waits for.
		const delivered = await storedApplication(sandbox, 'reconcile', 1);
		const deliveredStatuses = await deliverUntilAccepted(`${queue.proxyUrl}${webhookPath(application, 'Application Finished')}`, signer, delivered, {
			timeoutMs: ANSWER_TIMEOUT_MS,
		});
		expect(deliveredStatuses[deliveredStatuses.length - 1]).toBe(200);
		// Handled to the end: its envelope and bookmark made, and its claim marked done by the run's last step.
		await waitUntil(
			'the delivered application handled',
			async () =>
				outcomeOf([delivered], await tallyEffects(sandbox)).handledOnce.length === 1 &&
				(await readClaims(queue)).some((claim) => claim.claimKey === responseClaimKey(delivered.responseId) && claim.state === 'done'),
			1_800_000,
			1_000,
		);
		// No execution runs while the scene below is set, so that no reconcile sees half of it.
		await queue.stopWorkers();
		const scene = await (async () => {
			try {
				return await setTheScene(delivered);
			} finally {
				await queue.startWorkers();
			}
		})();
		await reconciled(scene);
	});

	interface Scene {
		delivered: Application;
		lost: Application[];
		diedAfterSending: Application;
		diedAfterDraft: Application;
		stillRunning: Application;
		sentBefore: string;
		draftBefore: string;
		unreached: string;
		reconcileFrom: Date;
	}

	const setTheScene = async (delivered: Application): Promise<Scene> => {
		// Every delivery lost.
		const lost = [await storedApplication(sandbox, 'reconcile', 2), await storedApplication(sandbox, 'reconcile', 3)];
		// Claimed by executions that died 6 minutes ago (past the 5-minute lease): one after it had
		// sent the envelope, one after it had only made the draft.
		const createDocument = async (email: string, distribute: boolean) =>
			(
				(await fetch(`${sandbox.signing.url}/api/v2/templates/tpl_residency_agreement/generate-document`, {
					method: 'POST',
					headers: { authorization: `Bearer ${sandbox.signing.apiKey}`, 'content-type': 'application/json' },
					body: JSON.stringify({ title: 'Residency agreement', recipients: [{ name: 'A', email, role: 'SIGNER' }], distribute }),
				}).then(async (response) => await response.json())) as { documentId: string }
			).documentId;
		const diedAfterSending = await storedApplication(sandbox, 'reconcile', 4);
		const diedAfterDraft = await storedApplication(sandbox, 'reconcile', 5);
		// Claimed by an execution still within the lease (claimed "in the future", so that it stays
		// within the lease however long this test takes): the reconcile leaves it alone.
		const stillRunning = await storedApplication(sandbox, 'reconcile', 6);
		const claim = async (app: Application, progress: string | null, claimedAt: string) =>
			await queue.postgres.query(
				'event_claims',
				`INSERT INTO event_claims (claim_key, state, execution_id, progress, claimed_at) VALUES ('${responseClaimKey(app.responseId)}', 'claimed', 'dead-${app.responseId}', ${progress ? `'${progress}'` : 'NULL'}, ${claimedAt})`,
			);
		const sentBefore = await createDocument(diedAfterSending.email, true);
		const draftBefore = await createDocument(diedAfterDraft.email, false);
		await claim(diedAfterSending, sentBefore, "now() - interval '6 minutes'");
		await claim(diedAfterDraft, draftBefore, "now() - interval '6 minutes'");
		await claim(stillRunning, null, "now() + interval '1 day'");

		// Flow 2: a document completed while the signing service could not reach n8n.
		const [endpoint] = (await signing().call<{ endpoints: Array<{ id: string; url: string }> }>('GET', '/webhook-endpoints')).endpoints;
		await signing().call('DELETE', `/webhook-endpoints/${endpoint.id}`);
		const unreached = await createDocument('signer.unreached@example.org', true);
		await signing().call('POST', `/documents/${unreached}/complete`, {});
		await signing().call('POST', '/webhook-endpoints', { url: endpoint.url, secret: SIGNING_WEBHOOK_SECRET });
		// From here on the request logs hold only what the workflows ask.
		await signing().clearRequests();
		// The first reconcile run that sees all of it starts once the last of it is older than the grace.
		return { delivered, lost, diedAfterSending, diedAfterDraft, stillRunning, sentBefore, draftBefore, unreached, reconcileFrom: new Date(Date.now() + (GRACE_SECONDS + 2) * 1000) };
	};

	const reconciled = async ({ delivered, lost, diedAfterSending, diedAfterDraft, stillRunning, sentBefore, draftBefore, unreached, reconcileFrom }: Scene) => {
		const firstRuns = await Promise.all([nextReconcile(queue.main, application.id, reconcileFrom), nextReconcile(queue.main, archive.id, reconcileFrom)]);
		expect(firstRuns.map((run) => run.status)).toEqual(['success', 'success']);
		await drained();
		await settled(application);
		const check = async () => {
			const effects = await tallyEffects(sandbox);
			const outcome = outcomeOf([delivered, ...lost, diedAfterSending, diedAfterDraft, stillRunning], effects);
			expect({
				handledOnce: outcome.handledOnce.map((app) => app.responseId).sort(),
				notHandled: outcome.notHandled.map((app) => app.responseId),
				duplicated: outcome.duplicated.map((app) => app.responseId),
			}).toEqual({
				handledOnce: [delivered, ...lost, diedAfterSending, diedAfterDraft].map((app) => app.responseId).sort(),
				notHandled: [stillRunning.responseId],
				duplicated: [],
			});
			// The draft left by the dead execution was sent, and no other envelope made for it.
			expect(effects.drafts.get(diedAfterDraft.email)).toBeUndefined();
			const signed = await signing().requests();
			const generatedFor = (app: Application) =>
				posts(signed, /generate-document$/).filter((request) => JSON.stringify(request.body).includes(app.email));
			expect([generatedFor(diedAfterDraft), generatedFor(diedAfterSending)]).toEqual([[], []]);
			expect(posts(signed, new RegExp(`/documents/${sentBefore}/send$`))).toHaveLength(0);
			expect(posts(signed, new RegExp(`/documents/${draftBefore}/send$`))).toHaveLength(1);
			// The lost document.completed archived once.
			expect(effects.bookmarksCreated.get(`https://signing.example.test/certified/${unreached}.pdf`)).toBe(1);
		};
		await check();
		const claims = new Map((await readClaims(queue)).map((row) => [row.claimKey, row]));
		expect(claims.get(responseClaimKey(diedAfterSending.responseId))).toMatchObject({ state: 'done', attempts: 2 });
		expect(claims.get(responseClaimKey(stillRunning.responseId))).toMatchObject({ state: 'claimed', attempts: 1 });
		// What no delivery brought was handled by a reconcile run (a Schedule Trigger execution), and
		// the reconcile run left alone the application a delivery had brought and handled before it.
		const modes = new Map((await allExecutions(queue.main, application.id)).map((execution) => [execution.id, execution.mode]));
		for (const app of lost) expect(modes.get(String(claims.get(responseClaimKey(app.responseId))?.executionId))).toBe('trigger');
		expect(claims.get(responseClaimKey(delivered.responseId))).toMatchObject({ state: 'done', attempts: 1 });
		expect(modes.get(String(claims.get(responseClaimKey(delivered.responseId))?.executionId))).toBe('webhook');
	};

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
		const listed = async (includeData: boolean) =>
			(
				await queue.main.api<{ data: ExecutionSummary[] }>('GET', `/executions?workflowId=${polling.id}&includeData=${includeData}&limit=250`)
			).data.filter((execution) => !['new', 'running', 'waiting'].includes(execution.status));
		await waitUntil('a first execution', async () => (await listed(false)).length >= 1, 150_000, 2_000);
		const secondBatch = [await add('https://example.org/queue-polled/3')];
		const executions = await waitUntil(
			'a second execution',
			async () => {
				const done = await listed(true);
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
		// The poll runs on the main process, its executions on the workers.
		const logs = workerLogs();
		for (const execution of executions) {
			expect(logs).toMatch(new RegExp(`Worker started execution ${execution.id}\\b`));
		}
	});

	it('the Survey Trigger removes its registration when the workflow is deactivated', async () => {
		await deactivateWorkflow(queue.main, application.id);
		await waitUntil('the hook to be deleted', async () => (await surveyHooks()).length === 0, 60_000);
		expect(await surveyHooks()).toEqual([]);
	});
});
