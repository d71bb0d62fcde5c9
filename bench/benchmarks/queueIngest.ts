/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * P2 in queue mode (`npm run bench:queue`): signed `responseFinished` deliveries to the Survey
 * Trigger, `BENCH_CONCURRENCY` at a time, through nginx to two webhook processes that put the
 * executions in Redis for one worker (test/harness/queue.ts). Measures how fast the deliveries
 * are accepted, how fast the worker gets through the executions, and that none is lost. Needs
 * the queue's packages (scripts/install-queue-deps.sh), so it runs only when selected.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';

import { packPackage } from '../../test/harness/n8n';
import { PROJECT_ROOT } from '../../test/harness/paths';
import { activateWorkflow, createSandboxCredentials, importWorkflow, type Stack, waitUntil } from '../../test/harness/provision';
import { startQueueN8n } from '../../test/harness/queue';
import { startSandbox } from '../../test/sandbox';
import {
	accepted,
	type Benchmark,
	countExecutions,
	deliver,
	registeredSecret,
	responseFinishedBody,
	type Row,
	say,
	sizesFromEnv,
} from '../shared';
import { surveyTriggerNode } from './p2WebhookIngest';

const WARMUP = 100;

export const queueIngest: Benchmark = {
	name: 'queueMode',
	title: 'P2 webhook ingest in queue mode',
	runByDefault: false,
	async run() {
		const sizes = sizesFromEnv({
			deliveries: ['BENCH_DELIVERIES', 2_000],
			concurrency: ['BENCH_CONCURRENCY', 10],
			workerConcurrency: ['BENCH_WORKER_CONCURRENCY', 1],
		});
		const sandbox = await startSandbox({ webhookRetryDelayMs: 200 });
		say('  Starting Redis, Postgres, n8n main, a worker, two webhook processes and nginx...');
		const queue = await startQueueN8n({ packageTarball: await packPackage(), workerConcurrency: sizes.workerConcurrency });
		try {
			const credentials = await createSandboxCredentials(queue.main, sandbox);
			// The main process as a stack, for the helpers that take one (it registers the trigger's hook).
			const stack: Stack = { sandbox, n8n: queue.main, credentials, stop: async () => {} };
			const workflow = await importWorkflow(
				queue.main,
				{ name: 'Bench P2 queue mode – Survey Trigger', nodes: [surveyTriggerNode(stack, 'bench-p2-queue')], connections: {} },
				credentials,
			);
			await activateWorkflow(queue.main, workflow.id);
			const signer = new Webhook(await registeredSecret(stack, 'bench-p2-queue'));
			// The URL the trigger registered: the load balancer's.
			const url = `${queue.proxyUrl}/webhook/bench-p2-queue/webhook`;
			const batch = (label: string, count: number) =>
				Array.from({ length: count }, (_, n) => ({ id: `msg_${label}_${n}`, body: responseFinishedBody(label, n), signer }));
			const drained = async () =>
				await waitUntil(
					'the queue to drain',
					async () => {
						const jobs = await queue.queuedJobs();
						return jobs.waiting === 0 && jobs.active === 0;
					},
					1_200_000,
					500,
				);

			const warmup = Math.min(WARMUP, sizes.deliveries);
			say(`  Warm-up: ${warmup} deliveries...`);
			await deliver(url, batch('warmup', warmup), sizes.concurrency);
			await drained();
			const before = await countExecutions(queue.main, workflow.id, true);
			const proxied = queue.proxyLog().length;

			say(`  ${sizes.deliveries} deliveries through the proxy, ${sizes.concurrency} at a time...`);
			const started = Date.now();
			const { wallMs, statuses } = await deliver(url, batch('queue', sizes.deliveries), sizes.concurrency);
			const rejects = statuses.filter((status) => !accepted(status)).length;
			await drained();
			const executions =
				(await waitUntil(
					'every execution to finish',
					async () => {
						const finished = await countExecutions(queue.main, workflow.id, true);
						return finished >= before + sizes.deliveries - rejects ? finished : undefined;
					},
					300_000,
					1_000,
				)) - before;
			const drainMs = Date.now() - started;
			const perProcess = new Map<string, number>();
			for (const line of queue.proxyLog().slice(proxied)) {
				const upstream = line.split(' ')[2];
				perProcess.set(upstream, (perProcess.get(upstream) ?? 0) + 1);
			}
			const singleProcess = (
				JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'bench', 'results.json'), 'utf8')) as {
					p2?: { surveyTrigger?: { deliveriesPerSecond: number } };
				}
			).p2?.surveyTrigger;
			const figures = {
				setup: `main + 1 worker (--concurrency=${sizes.workerConcurrency}) + 2 webhook processes behind nginx, Redis, Postgres`,
				deliveries: sizes.deliveries,
				concurrency: sizes.concurrency,
				accepted: sizes.deliveries - rejects,
				rejects,
				wallMs,
				acceptedPerSecond: +(((sizes.deliveries - rejects) * 1000) / wallMs).toFixed(1),
				executions,
				lost: sizes.deliveries - rejects - executions,
				allExecutedMs: drainMs,
				executionsPerSecond: +((executions * 1000) / drainMs).toFixed(1),
				perWebhookProcess: Object.fromEntries(perProcess),
				singleProcessDeliveriesPerSecond: singleProcess?.deliveriesPerSecond ?? null,
			};
			const label = `Queue mode, ${sizes.deliveries} deliveries`;
			const rows: Row[] = [
				{
					benchmark: `${label}: accepted/s`,
					ours: String(figures.acceptedPerSecond),
					theirs: `${figures.singleProcessDeliveriesPerSecond ?? '–'} (one process, results.json)`,
					result: '',
					target: '',
				},
				{
					benchmark: `${label}: executions / lost / rejected`,
					ours: `${executions} / ${figures.lost} / ${rejects}`,
					theirs: '',
					result: `all executed after ${(drainMs / 1000).toFixed(1)} s`,
					target: `${sizes.deliveries} / 0 / 0`,
					met: figures.lost === 0 && rejects === 0,
				},
				{
					benchmark: `${label}: per webhook process`,
					ours: [...perProcess.values()].join(' / '),
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
