/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * P2 in queue mode (`npm run bench:queue`), beside P2 in one process in the same run:
 * `BENCH_DELIVERIES` signed `responseFinished` deliveries to the Survey Trigger (nothing after
 * it), `BENCH_CONCURRENCY` at a time, first to one n8n in regular mode, then through nginx to
 * two webhook processes that put the executions in Redis for two workers at concurrency 5
 * (test/harness/queue.ts). Measures the deliveries accepted per second and the executions
 * finished per second (from the first delivery to the last execution's end, as n8n recorded
 * it), and that none is lost. Then the queue-mode sample itself, with its Postgres claims:
 * `BENCH_APPLICATIONS` approved applications delivered once each through the load balancer,
 * and how many per second end with their envelope sent and their portfolio filed. Needs the
 * queue's packages (scripts/install-queue-deps.sh), so it runs only when selected.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';

import { type Application, deliverApplication, outcomeOf, storedApplication, tallyEffects } from '../../test/harness/applicationEvents';
import { QUEUE_WORKFLOWS_DIR, queueVariant, setUpEventClaims } from '../../test/harness/claims';
import type { N8nInstance } from '../../test/harness/n8n';
import { packPackage } from '../../test/harness/n8n';
import { activateWorkflow, createSandboxCredentials, importWorkflow, type Stack, waitUntil } from '../../test/harness/provision';
import { type QueueN8n, startQueueN8n } from '../../test/harness/queue';
import { startSandbox } from '../../test/sandbox';
import { sandboxControl } from '../../test/unit/helpers/sandbox';
import {
	accepted,
	type Benchmark,
	deliver,
	deployChain,
	listAllExecutions,
	registeredSecret,
	responseFinishedBody,
	type Row,
	say,
	settledExecutions,
	sizesFromEnv,
	withStack,
} from '../shared';
import { surveyTriggerNode } from './p2WebhookIngest';

const WARMUP = 100;
const WORKERS = 2;
const WORKER_CONCURRENCY = 5;

interface IngestFigures {
	deliveries: number;
	rejects: number;
	deliveriesPerSecond: number;
	executions: number;
	lost: number;
	/** From the first delivery sent to the last execution's end. */
	allExecutedMs: number;
	executionsPerSecond: number;
}

/**
 * Sends the deliveries to a bare Survey Trigger and measures intake and executions; `settle`
 * waits until every execution of the workflow has run.
 */
async function ingest(
	n8n: N8nInstance,
	stack: Stack,
	url: string,
	webhookId: string,
	deliveries: number,
	concurrency: number,
	settle: (workflowId: string) => Promise<void>,
): Promise<IngestFigures> {
	const workflow = await deployChain(stack, `Bench P2 – Survey Trigger (${webhookId})`, [surveyTriggerNode(stack, webhookId)]);
	const signer = new Webhook(await registeredSecret(stack, webhookId));
	const batch = (label: string, count: number) =>
		Array.from({ length: count }, (_, n) => ({ id: `msg_${label}_${n}`, body: responseFinishedBody(label, n), signer }));
	await deliver(url, batch(`${webhookId}_warmup`, Math.min(WARMUP, deliveries)), concurrency);
	await settle(workflow.id);
	const before = new Set((await listAllExecutions<{ id: string; status: string }>(n8n, workflow.id)).map((execution) => execution.id));
	const started = Date.now();
	const { wallMs, statuses } = await deliver(url, batch(webhookId, deliveries), concurrency);
	const rejects = statuses.filter((status) => !accepted(status)).length;
	await settle(workflow.id);
	const measured = (
		await listAllExecutions<{ id: string; status: string; stoppedAt?: string | null }>(n8n, workflow.id)
	).filter((execution) => !before.has(execution.id));
	const lastEnd = Math.max(...measured.map((execution) => Date.parse(execution.stoppedAt ?? '') || 0));
	const allExecutedMs = lastEnd - started;
	return {
		deliveries,
		rejects,
		deliveriesPerSecond: +(((deliveries - rejects) * 1000) / wallMs).toFixed(1),
		executions: measured.length,
		lost: deliveries - rejects - measured.filter((execution) => execution.status === 'success').length,
		allExecutedMs,
		executionsPerSecond: +((measured.length * 1000) / allExecutedMs).toFixed(1),
	};
}

/** The queue-mode sample: applications delivered once each through the load balancer, handled end to end. */
async function sampleThroughput(queue: QueueN8n, stack: Stack, applications: number, concurrency: number) {
	const credentials = { ...stack.credentials, postgres: await setUpEventClaims(queue) };
	const workflow = await importWorkflow(
		queue.main,
		queueVariant(path.join(QUEUE_WORKFLOWS_DIR, 'application-approved-to-signing.json')),
		credentials,
	);
	await activateWorkflow(queue.main, workflow.id);
	const hooks = await sandboxControl(stack.sandbox, 'survey').call<{ data: Array<{ url: string; secret: string }> }>('GET', '/webhooks');
	const webhookId = String(workflow.nodes.find((node) => node.name === 'Application Finished')?.webhookId);
	const own = hooks.data.find((candidate) => candidate.url.includes(webhookId));
	if (!own) throw new Error('The sample\'s Survey Trigger registered no hook');
	const signer = new Webhook(own.secret);
	const apps: Application[] = [];
	for (let index = 0; index < applications; index++) apps.push(await storedApplication(stack.sandbox, 'bench', index));
	const url = `${queue.proxyUrl}${new URL(own.url).pathname}`;
	const statuses: number[] = [];
	let next = 0;
	const started = Date.now();
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < apps.length) statuses.push(await deliverApplication(url, signer, apps[next++]));
		}),
	);
	const wallMs = Date.now() - started;
	const outcome = await waitUntil(
		'every application handled',
		async () => {
			const result = outcomeOf(apps, await tallyEffects(stack.sandbox));
			return result.notHandled.length === 0 ? result : undefined;
		},
		1_800_000,
		1_000,
	);
	const handledMs = Date.now() - started;
	return {
		applications,
		accepted: statuses.filter(accepted).length,
		acceptedPerSecond: +((statuses.filter(accepted).length * 1000) / wallMs).toFixed(1),
		handledOnce: outcome.handledOnce.length,
		duplicated: outcome.duplicated.length,
		handledPerSecond: +((outcome.handledOnce.length * 1000) / handledMs).toFixed(1),
	};
}

export const queueIngest: Benchmark = {
	name: 'queueMode',
	title: `P2 webhook ingest in queue mode (${WORKERS} workers at concurrency ${WORKER_CONCURRENCY}) beside one process`,
	runByDefault: false,
	async run() {
		const sizes = sizesFromEnv({
			deliveries: ['BENCH_DELIVERIES', 2_000],
			concurrency: ['BENCH_CONCURRENCY', 10],
			applications: ['BENCH_APPLICATIONS', 500],
		});
		const loadBefore = os.loadavg().map((load) => +load.toFixed(1));
		say('  One process (regular mode): the Survey Trigger...');
		const singleProcess = await withStack({ rateLimits: { survey: null } }, {}, async (stack) => {
			const settle = async (workflowId: string) => {
				await settledExecutions(stack.n8n, workflowId);
			};
			return await ingest(stack.n8n, stack, `${stack.n8n.baseUrl}/webhook/bench-p2-single/webhook`, 'bench-p2-single', sizes.deliveries, sizes.concurrency, settle);
		});

		say(`  Queue mode: Redis, Postgres, n8n main, ${WORKERS} workers at concurrency ${WORKER_CONCURRENCY}, two webhook processes and nginx...`);
		const sandbox = await startSandbox({ webhookRetryDelayMs: 200, rateLimits: { survey: null } });
		const queue = await startQueueN8n({ packageTarball: await packPackage(), workers: WORKERS, workerConcurrency: WORKER_CONCURRENCY });
		try {
			const credentials = await createSandboxCredentials(queue.main, sandbox);
			// The main process as a stack, for the helpers that take one (it registers the trigger's hook).
			const stack: Stack = { sandbox, n8n: queue.main, credentials, stop: async () => {} };
			const drained = async (workflowId: string) => {
				await waitUntil('the queue to drain', async () => {
					const jobs = await queue.queuedJobs();
					return jobs.waiting === 0 && jobs.active === 0;
				}, 1_800_000, 500);
				await settledExecutions(queue.main, workflowId);
			};
			const proxied = queue.proxyLog().length;
			const queueMode = await ingest(queue.main, stack, `${queue.proxyUrl}/webhook/bench-p2-queue/webhook`, 'bench-p2-queue', sizes.deliveries, sizes.concurrency, drained);
			const perProcess = new Map<string, number>();
			for (const line of queue.proxyLog().slice(proxied)) {
				const upstream = line.split(' ')[2];
				perProcess.set(upstream, (perProcess.get(upstream) ?? 0) + 1);
			}
			say(`  Queue mode: the queue-mode sample with its claims, ${sizes.applications} applications...`);
			const sample = await sampleThroughput(queue, stack, sizes.applications, sizes.concurrency);
			const loadAfter = os.loadavg().map((load) => +load.toFixed(1));
			const figures = {
				setup: `main + ${WORKERS} workers (--concurrency=${WORKER_CONCURRENCY}) + 2 webhook processes behind nginx, Redis, Postgres; one process: n8n in regular mode with SQLite`,
				deliveries: sizes.deliveries,
				concurrency: sizes.concurrency,
				singleProcess,
				queueMode: { ...queueMode, perWebhookProcess: Object.fromEntries(perProcess) },
				queueModeSample: sample,
				loadAverage: { before: loadBefore, after: loadAfter },
			};
			const label = `${sizes.deliveries} deliveries, ${sizes.concurrency} at a time`;
			const rows: Row[] = [
				{
					benchmark: `Queue mode, ${label}: deliveries/s through the load balancer`,
					ours: String(queueMode.deliveriesPerSecond),
					theirs: `${singleProcess.deliveriesPerSecond} (one process, this run)`,
					result: '',
					target: '',
				},
				{
					benchmark: `Queue mode, ${label}: executions/s`,
					ours: String(queueMode.executionsPerSecond),
					theirs: `${singleProcess.executionsPerSecond} (one process, this run)`,
					result: `all executed after ${(queueMode.allExecutedMs / 1000).toFixed(1)} s`,
					target: '',
				},
				{
					benchmark: `Queue mode, ${label}: executions / lost / rejected`,
					ours: `${queueMode.executions} / ${queueMode.lost} / ${queueMode.rejects}`,
					theirs: `${singleProcess.executions} / ${singleProcess.lost} / ${singleProcess.rejects}`,
					result: '',
					target: `${sizes.deliveries} / 0 / 0`,
					met: queueMode.lost === 0 && queueMode.rejects === 0 && queueMode.executions === sizes.deliveries,
				},
				{
					benchmark: `Queue-mode sample, ${sizes.applications} applications: handled/s (envelope sent, portfolio filed)`,
					ours: String(sample.handledPerSecond),
					theirs: '',
					result: `${sample.handledOnce} once, ${sample.duplicated} twice; ${sample.acceptedPerSecond} accepted/s`,
					target: `${sizes.applications} once`,
					met: sample.handledOnce === sizes.applications && sample.duplicated === 0,
				},
				{
					benchmark: 'Load average (1, 5, 15 min) before → after',
					ours: `${loadBefore.join(' ')} → ${loadAfter.join(' ')}`,
					theirs: '',
					result: '',
					target: '',
				},
			];
			return { figures, rows, reducedSize: sizes.reducedSize };
		} finally {
			await queue.stop();
			await sandbox.stop();
		}
	},
};
