/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * P2 in queue mode (`npm run bench:queue`): the same 2,000 signed `responseFinished` deliveries,
 * 10 at a time, to the Survey Trigger, but through nginx to two webhook processes that put the
 * executions in Redis for one worker (test/harness/queue.ts). Measures how fast the deliveries
 * are accepted, how fast the worker gets through the executions, and that none is lost.
 * Writes its figures under `queueMode` in bench/results.json, beside the single-process P2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';

import { PACKAGE_NAME, packPackage } from '../test/harness/n8n';
import { N8N_VERSION, PROJECT_ROOT } from '../test/harness/paths';
import { activateWorkflow, createSandboxCredentials, importWorkflow, waitUntil } from '../test/harness/provision';
import { startQueueN8n } from '../test/harness/queue';
import { standardWebhookHeaders, startSandbox } from '../test/sandbox';
import { sandboxControl } from '../test/unit/helpers/sandbox';

const say = (line = '') => process.stdout.write(`${line}\n`);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const WORKER_CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 1);
const WARMUP = 100;

async function main() {
	const sandbox = await startSandbox({ webhookRetryDelayMs: 200 });
	say('Starting Redis, Postgres, n8n main, a worker, two webhook processes and nginx...');
	const queue = await startQueueN8n({ packageTarball: await packPackage(), workerConcurrency: WORKER_CONCURRENCY });
	const deadline = setTimeout(() => {
		process.stderr.write('The queue-mode benchmark gave up after 30 minutes\n');
		void queue.stop().finally(() => process.exit(1));
	}, 30 * 60_000);
	try {
		const credentials = await createSandboxCredentials(queue.main, sandbox);
		const workflow = await importWorkflow(
			queue.main,
			{
				name: 'Bench P2 queue mode – Survey Trigger',
				nodes: [
					{
						name: 'Survey Trigger',
						type: `${PACKAGE_NAME}.surveyTrigger`,
						typeVersion: 1,
						position: [0, 0],
						webhookId: 'bench-p2-queue',
						parameters: { registration: 'automatic', events: ['responseFinished'], allSurveys: true },
						credentials: { surveyApi: credentials.surveyApi },
					},
				],
				connections: {},
			},
			credentials,
		);
		await activateWorkflow(queue.main, workflow.id);
		const hooks = await sandboxControl(sandbox, 'survey').call<{ data: Array<{ url: string; secret: string }> }>(
			'GET',
			'/webhooks',
		);
		const hook = hooks.data.find((candidate) => candidate.url.includes('bench-p2-queue'));
		if (!hook) throw new Error('The Survey Trigger registered no webhook');
		const url = hook.url;
		const signer = new Webhook(hook.secret);

		const countExecutions = async (finishedOnly: boolean) => {
			let count = 0;
			let cursor: string | undefined;
			do {
				const page = await queue.main.api<{ data: Array<{ status: string }>; nextCursor?: string | null }>(
					'GET',
					`/executions?workflowId=${workflow.id}&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
				);
				count += page.data.filter((e) => !finishedOnly || !['new', 'running', 'waiting'].includes(e.status)).length;
				cursor = page.nextCursor ?? undefined;
			} while (cursor);
			return count;
		};
		const drained = async () =>
			await waitUntil('the queue to drain', async () => {
				const jobs = await queue.queuedJobs();
				return jobs.waiting === 0 && jobs.active === 0;
			}, 1_200_000, 500);

		const deliver = async (label: string, count: number) => {
			let next = 0;
			let rejects = 0;
			const started = Date.now();
			const sender = async () => {
				while (next < count) {
					const n = next++;
					const body = JSON.stringify({
						event: 'responseFinished',
						surveyId: 'srv_bench',
						responseId: `resp_${label}_${n}`,
						createdAt: new Date().toISOString(),
						data: { fullName: `Applicant ${n}`, decision: 'approved' },
					});
					const id = `msg_${label}_${n}`;
					const status = await fetch(url, {
						method: 'POST',
						headers: standardWebhookHeaders(signer, id, body),
						body,
						signal: AbortSignal.timeout(30_000),
					})
						.then(async (response) => {
							await response.arrayBuffer();
							return response.status;
						})
						.catch(() => 0);
					if (status < 200 || status >= 300) rejects++;
				}
			};
			await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, sender));
			return { wallMs: Date.now() - started, rejects };
		};

		say(`Warm-up: ${WARMUP} deliveries...`);
		await deliver('warmup', WARMUP);
		await drained();
		const before = await countExecutions(true);
		const proxied = queue.proxyLog().length;

		say(`${DELIVERIES} deliveries through the proxy, ${CONCURRENCY} at a time...`);
		const started = Date.now();
		const { wallMs, rejects } = await deliver('queue', DELIVERIES);
		await drained();
		const executions = (await waitUntil(
			'every execution to finish',
			async () => {
				const finished = await countExecutions(true);
				return finished >= before + DELIVERIES - rejects ? finished : undefined;
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

		const singleProcess = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'bench', 'results.json'), 'utf8')) as {
			p2?: { surveyTrigger?: { deliveriesPerSecond: number } };
		}).p2?.surveyTrigger;
		const queueMode = {
			at: new Date().toISOString(),
			machine: { cpus: os.cpus().length, memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1), n8n: N8N_VERSION },
			setup: `main + 1 worker (--concurrency=${WORKER_CONCURRENCY}) + 2 webhook processes behind nginx, Redis, Postgres`,
			deliveries: DELIVERIES,
			concurrency: CONCURRENCY,
			accepted: DELIVERIES - rejects,
			rejects,
			wallMs,
			acceptedPerSecond: +(((DELIVERIES - rejects) * 1000) / wallMs).toFixed(1),
			executions,
			lost: DELIVERIES - rejects - executions,
			allExecutedMs: drainMs,
			executionsPerSecond: +((executions * 1000) / drainMs).toFixed(1),
			perWebhookProcess: Object.fromEntries(perProcess),
			singleProcessDeliveriesPerSecond: singleProcess?.deliveriesPerSecond ?? null,
		};
		const resultsFile = path.join(PROJECT_ROOT, 'bench', 'results.json');
		const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Record<string, unknown>;
		results.queueMode = queueMode;
		writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);

		say();
		say('| P2 webhook ingest, Survey Trigger | single process (bench/run.ts) | queue mode |');
		say('|---|---|---|');
		say(`| accepted per second | ${queueMode.singleProcessDeliveriesPerSecond ?? '–'} | ${queueMode.acceptedPerSecond} |`);
		say(`| executions | | ${executions} of ${DELIVERIES} (${queueMode.lost} lost, ${rejects} rejected) |`);
		say(`| all executed after | | ${(drainMs / 1000).toFixed(1)} s (${queueMode.executionsPerSecond} executions/s) |`);
		say(`| per webhook process | | ${[...perProcess.values()].join(' / ')} |`);
		say('Written to bench/results.json (queueMode)');
	} finally {
		clearTimeout(deadline);
		await queue.stop();
		await sandbox.stop();
	}
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
