/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * `npm run chaos:queue`: the queue-mode sample "Application approved → signing envelope" under
 * faults, on 127.0.0.1 only. Each fault gets a run of its own in a fresh stack (Redis, Postgres,
 * main, two workers at concurrency 5, two webhook processes behind nginx, the sandbox):
 * CHAOS_EVENTS approved applications, each stored in the survey service (which delivers
 * nothing itself) and then delivered, signed, to both webhook processes at once,
 * CHAOS_CONCURRENCY applications at a time; when CHAOS_FAULT_AT of them have left, the fault strikes; then CHAOS_REDELIVERIES
 * redeliveries go through the load balancer. Once the queue is empty and the claim lease has run
 * out since the fault, a reconcile run that starts after that is awaited. The run then counts,
 * from the services themselves, each application handled once, never, or twice, and collects
 * n8n's own evidence (executions it accepted and never finished, Bull's failed jobs, log lines).
 *
 * Faults (CHAOS_FAULTS, comma-separated, in this order by default): `worker` (SIGKILL to a worker
 * and its task runner, then a new worker, as an orchestrator would start), `redis` (restart),
 * `postgres` (restart: fast shutdown, start), `webhook` (restart of one webhook process); `none`
 * for a run without a fault. Sizes below their defaults make a reduced run, written to
 * bench/out/chaos.json; a full run goes to bench/chaos.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';

import { type Application, deliverApplication, outcomeOf, storedApplication, tallyEffects } from '../../test/harness/applicationEvents';
import { QUEUE_WORKFLOWS_DIR, queueVariant, readClaims, setUpEventClaims } from '../../test/harness/claims';
import { packPackage } from '../../test/harness/n8n';
import { N8N_VERSION, NODE_BIN, PROJECT_ROOT } from '../../test/harness/paths';
import { activateWorkflow, createSandboxCredentials, importWorkflow, waitUntil } from '../../test/harness/provision';
import { type QueueN8n, startQueueN8n } from '../../test/harness/queue';
import { allExecutions, nextReconcile } from '../../test/harness/queueExecutions';
import { startSandbox } from '../../test/sandbox';
import { sandboxControl } from '../../test/unit/helpers/sandbox';
import { say, sizesFromEnv } from '../shared';

const FAULTS = ['worker', 'redis', 'postgres', 'webhook'] as const;
type Fault = (typeof FAULTS)[number] | 'none';
const WORKERS = 2;
const WORKER_CONCURRENCY = 5;
const SHIPPED_LEASE_SECONDS = 300;
const SHIPPED_RECONCILE_MINUTES = 5;

/**
 * The n8n settings the runs use, as README "Scaling out" recommends them. n8n 2.41.1 never runs
 * a stalled job again (it sets Bull's maxStalledCount to 0 and ignores
 * QUEUE_WORKER_MAX_STALLED_COUNT), so the lock settings only decide how soon Bull declares a
 * dead worker's job failed; the defaults are kept, written out here to be seen.
 */
const N8N_SETTINGS: Record<string, string> = {
	QUEUE_WORKER_LOCK_DURATION: '60000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '10000',
	QUEUE_WORKER_STALLED_INTERVAL: '30000',
};

const sizes = sizesFromEnv({
	events: ['CHAOS_EVENTS', 500],
	redeliveries: ['CHAOS_REDELIVERIES', 100],
	concurrency: ['CHAOS_CONCURRENCY', 10],
	leaseSeconds: ['CHAOS_LEASE_SECONDS', SHIPPED_LEASE_SECONDS],
	reconcileMinutes: ['CHAOS_RECONCILE_MINUTES', SHIPPED_RECONCILE_MINUTES],
});
const faultAt = Number(process.env.CHAOS_FAULT_AT ?? 0.4);
const redisPersistence = process.env.CHAOS_REDIS_PERSISTENCE !== 'off';
const faults = (process.env.CHAOS_FAULTS ?? FAULTS.join(','))
	.split(',')
	.map((fault) => fault.trim())
	.filter(Boolean) as Fault[];
for (const fault of faults) {
	if (![...FAULTS, 'none'].includes(fault)) throw new Error(`Unknown fault "${fault}": ${[...FAULTS, 'none'].join(', ')}`);
}

const loadAverage = () => os.loadavg().map((load) => load.toFixed(1)).join(' ');

async function strike(queue: QueueN8n, fault: Fault): Promise<string> {
	switch (fault) {
		case 'worker':
			await queue.killWorker(0);
			await queue.startWorker(0);
			return 'worker 1 killed (SIGKILL, with its task runner), a new worker 1 started';
		case 'redis':
			await queue.restartRedis();
			return `Redis restarted (${redisPersistence ? 'append-only file, fsync every second' : 'no persistence'})`;
		case 'postgres':
			await queue.restartPostgres();
			return 'Postgres restarted (fast shutdown, start)';
		case 'webhook':
			await queue.restartWebhookProcess(1);
			return 'webhook process 2 restarted (SIGTERM, start)';
		case 'none':
			return 'no fault';
	}
}

/** Log lines that show what n8n did about the fault, by process log file. */
function evidenceLines(logDir: string): Record<string, string[]> {
	const patterns =
		/stalled|Worker errored|failed to|Unable to connect|ECONNREFUSED|Connection terminated|terminating connection|Lost connection|Queue errored|could not|dangling|crashed|Error:/i;
	const evidence: Record<string, string[]> = {};
	for (const file of readdirSync(logDir).filter((name) => /^(main|worker.*|webhook-\d)\.log$/.test(name))) {
		const lines = readFileSync(path.join(logDir, file), 'utf8')
			.split('\n')
			.filter((line) => patterns.test(line) && !/api\.n8n\.io|ENOTFOUND|venv|python/i.test(line));
		if (lines.length) evidence[file] = [...new Set(lines.map((line) => line.slice(0, 240)))].slice(0, 12);
	}
	return evidence;
}

async function runOnce(fault: Fault) {
	const startedAt = Date.now();
	const loadBefore = loadAverage();
	const sandbox = await startSandbox({ webhookRetryDelayMs: 200 });
	const queue = await startQueueN8n({
		packageTarball: await packPackage(),
		workers: WORKERS,
		workerConcurrency: WORKER_CONCURRENCY,
		redisPersistence,
		env: N8N_SETTINGS,
	});
	try {
		const credentials = { ...(await createSandboxCredentials(queue.main, sandbox)), postgres: await setUpEventClaims(queue) };
		const workflow = await importWorkflow(
			queue.main,
			queueVariant(path.join(QUEUE_WORKFLOWS_DIR, 'application-approved-to-signing.json'), {
				reconcileEveryMinutes: sizes.reconcileMinutes,
				// A shorter lease leaves the webhooks a shorter time too: the reconcile's grace is the lease.
				...(sizes.leaseSeconds !== SHIPPED_LEASE_SECONDS && { leaseSeconds: sizes.leaseSeconds, graceSeconds: sizes.leaseSeconds }),
			}),
			credentials,
		);
		await activateWorkflow(queue.main, workflow.id);
		const [hook] = (await sandboxControl(sandbox, 'survey').call<{ data: Array<{ secret: string; url: string }> }>('GET', '/webhooks')).data;
		const signer = new Webhook(hook.secret);
		const webhookPath = new URL(hook.url).pathname;
		const applications: Application[] = [];

		// The stream: each application stored as it is finished, then both copies of its delivery at
		// once, one to each webhook process.
		const statuses = new Map<string, number[]>();
		const requestStatuses: number[] = [];
		const send = async (url: string, app: Application) => {
			const status = await deliverApplication(url, signer, app);
			statuses.set(app.responseId, [...(statuses.get(app.responseId) ?? []), status]);
			requestStatuses.push(status);
		};
		const faultIndex = Math.floor(sizes.events * faultAt);
		let struck: Promise<string> | undefined;
		let faultTime = new Date();
		let next = 0;
		const streamStarted = Date.now();
		await Promise.all(
			Array.from({ length: sizes.concurrency }, async () => {
				while (next < sizes.events) {
					const index = next++;
					if (index === faultIndex) {
						faultTime = new Date();
						say(`  [${fault}] striking after ${index} applications (load ${loadAverage()})`);
						struck = strike(queue, fault);
					}
					const app = await storedApplication(sandbox, 'chaos', index);
					applications.push(app);
					await Promise.all(queue.webhookProcesses.map(async (process) => await send(`${process.baseUrl}${webhookPath}`, app)));
				}
			}),
		);
		const streamMs = Date.now() - streamStarted;
		const faultDescription = await (struck ?? strike(queue, 'none'));
		const step = Math.max(1, Math.floor(sizes.events / Math.max(1, sizes.redeliveries)));
		applications.sort((a, b) => a.deliveryId.localeCompare(b.deliveryId, 'en', { numeric: true }));
		for (let index = 0, sent = 0; index < applications.length && sent < sizes.redeliveries; index += step, sent++) {
			await send(`${queue.proxyUrl}${webhookPath}`, applications[index]);
		}

		// The queue empty: whatever is still `new` or `running` in n8n's database now has no job.
		// A wait that runs out is part of the result (n8n stuck), not the end of the run.
		const waits: string[] = [];
		const emptyQueue = async (what: string) =>
			await waitUntil(what, async () => {
				const jobs = await queue.queuedJobs();
				return jobs.waiting === 0 && jobs.active === 0;
			}, 1_200_000, 2_000).catch(async (error: Error) => {
				waits.push(`${error.message} (${JSON.stringify(await queue.queuedJobs())})`);
			});
		await emptyQueue('an empty queue');
		const leaseOver = new Date(faultTime.getTime() + sizes.leaseSeconds * 1000);
		say(`  [${fault}] waiting for a reconcile run after ${leaseOver.toISOString()} (the lease past the fault)`);
		const reconcile = await nextReconcile(queue.main, workflow.id, leaseOver, (sizes.leaseSeconds + sizes.reconcileMinutes * 60 + 900) * 1000).catch(
			(error: Error) => {
				waits.push(error.message);
				return undefined;
			},
		);
		await emptyQueue('an empty queue after the reconcile');

		const effects = await tallyEffects(sandbox);
		const outcome = outcomeOf(applications, effects);
		const acceptedEvents = applications.filter((app) => statuses.get(app.responseId)!.some((status) => status >= 200 && status < 300));
		const acceptedIds = new Set(acceptedEvents.map((app) => app.responseId));
		const executions = await allExecutions(queue.main, workflow.id);
		const modeOf = new Map(executions.map((execution) => [execution.id, execution.mode]));
		const claims = await readClaims(queue);
		const byReconcile = claims.filter((claim) => claim.state === 'done' && modeOf.get(claim.executionId) === 'trigger').length;
		const executionStates: Record<string, number> = {};
		for (const execution of executions) {
			const key = `${execution.mode}/${execution.status}`;
			executionStates[key] = (executionStates[key] ?? 0) + 1;
		}
		const refusedBy: Record<string, number> = {};
		for (const status of requestStatuses.filter((status) => status < 200 || status >= 300)) {
			refusedBy[String(status || 'no answer')] = (refusedBy[String(status || 'no answer')] ?? 0) + 1;
		}
		const failedJobs = await queue.failedJobs();
		const failedReasons: Record<string, number> = {};
		for (const job of failedJobs) failedReasons[job.reason] = (failedReasons[job.reason] ?? 0) + 1;
		return {
			fault,
			faultDescription,
			events: sizes.events,
			requests: requestStatuses.length,
			accepted: requestStatuses.filter((status) => status >= 200 && status < 300).length,
			refused: requestStatuses.filter((status) => status < 200 || status >= 300).length,
			refusedBy,
			acceptedEvents: acceptedEvents.length,
			lost: outcome.notHandled.filter((app) => acceptedIds.has(app.responseId)).length,
			notHandled: outcome.notHandled.length,
			duplicated: outcome.duplicated.length,
			duplicatedIds: outcome.duplicated.map((app) => app.responseId),
			notHandledIds: outcome.notHandled.map((app) => app.responseId),
			handledOnce: outcome.handledOnce.length,
			handledByReconcile: byReconcile,
			strayDrafts: [...effects.drafts.values()].reduce((sum, n) => sum + n, 0),
			repeatedBookmarkRequests: [...effects.bookmarksRepeated.values()].reduce((sum, n) => sum + n, 0),
			claimsTakenOver: claims.filter((claim) => claim.attempts > 1).length,
			executionStates,
			failedJobs: failedReasons,
			finalReconcile: reconcile ? { id: reconcile.id, startedAt: reconcile.startedAt, status: reconcile.status } : null,
			waitsThatRanOut: waits,
			streamMs,
			minutes: +((Date.now() - startedAt) / 60_000).toFixed(1),
			loadBefore,
			loadAfter: loadAverage(),
			evidence: evidenceLines(queue.logDir),
			logDir: path.relative(PROJECT_ROOT, queue.logDir),
		};
	} finally {
		await queue.stop();
		await sandbox.stop();
	}
}

async function main() {
	const runs: Array<Awaited<ReturnType<typeof runOnce>>> = [];
	say(
		`Queue chaos: ${sizes.events} applications × 2 copies + ${sizes.redeliveries} redeliveries, ${sizes.concurrency} at a time; ` +
			`${WORKERS} workers at concurrency ${WORKER_CONCURRENCY}; lease ${sizes.leaseSeconds} s, reconcile every ${sizes.reconcileMinutes} min; ` +
			`faults ${faults.join(', ')}${sizes.reducedSize ? ' (reduced size)' : ''}`,
	);
	for (const fault of faults) {
		say(`Run "${fault}" (load average ${loadAverage()})...`);
		const run = await runOnce(fault);
		runs.push(run);
		say(`  done in ${run.minutes} min: ${run.handledOnce} handled once, ${run.notHandled} not handled, ${run.duplicated} duplicated`);
	}
	const machine = {
		date: new Date().toISOString(),
		cores: os.cpus().length,
		memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
		nodeForN8n: execFileSync(NODE_BIN, ['--version'], { encoding: 'utf8' }).trim(),
		n8n: N8N_VERSION,
	};
	const file = path.join(PROJECT_ROOT, 'bench', ...(sizes.reducedSize ? ['out', 'chaos.json'] : ['chaos.json']));
	mkdirSync(path.dirname(file), { recursive: true });
	// One entry a fault (and Redis setting), each with the settings it ran with; a later run of
	// the same fault replaces its entry only.
	const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { runs?: Record<string, unknown> }) : {};
	const entries = runs.map((run) => [
		run.fault === 'redis' && !redisPersistence ? 'redis-without-persistence' : run.fault,
		{ machine, sizes, faultAt, redisPersistence, n8nSettings: N8N_SETTINGS, ...run },
	]);
	writeFileSync(file, `${JSON.stringify({ runs: { ...previous.runs, ...Object.fromEntries(entries) } }, null, 2)}\n`);

	say();
	say(`Machine: ${machine.cores} cores, ${machine.memoryGiB} GiB, n8n ${machine.n8n} on Node ${machine.nodeForN8n}; load average (1, 5, 15 min) per run below`);
	say(`${sizes.events} applications, each delivered to both webhook processes, + ${sizes.redeliveries} redeliveries through the load balancer; reconcile on${sizes.reducedSize ? '; REDUCED SIZE' : ''}`);
	say();
	say('| Fault | Deliveries accepted | Refused | Lost (accepted, never handled) | Duplicated | Handled by the reconcile | n8n: executions left unfinished / Bull jobs failed | Load average before → after |');
	say('|---|---|---|---|---|---|---|---|');
	for (const run of runs) {
		const unfinished = Object.entries(run.executionStates)
			.filter(([state]) => /\/(new|running)$/.test(state))
			.reduce((sum, [, n]) => sum + n, 0);
		const failed = Object.values(run.failedJobs).reduce((sum, n) => sum + n, 0);
		const refused = Object.entries(run.refusedBy).map(([status, n]) => `${n}× ${status}`).join(', ');
		say(
			`| ${run.faultDescription} | ${run.accepted} of ${run.requests} | ${run.refused}${refused ? ` (${refused})` : ''} | ${run.lost} | ${run.duplicated} | ${run.handledByReconcile} | ${unfinished} / ${failed} | ${run.loadBefore} → ${run.loadAfter} |`,
		);
	}
	say();
	for (const run of runs) {
		say(`${run.fault}: executions ${JSON.stringify(run.executionStates)}; Bull failed jobs ${JSON.stringify(run.failedJobs)}; claims taken over ${run.claimsTakenOver}; stray drafts ${run.strayDrafts}; logs ${run.logDir}`);
		for (const wait of run.waitsThatRanOut) say(`  wait that ran out: ${wait}`);
		if (run.duplicated || run.lost) say(`  duplicated: ${run.duplicatedIds.join(', ') || '–'}; not handled: ${run.notHandledIds.join(', ') || '–'}`);
		for (const [log, lines] of Object.entries(run.evidence)) for (const line of lines) say(`  ${log}: ${line}`);
	}
	say();
	say(`Written to ${path.relative(PROJECT_ROOT, file)}`);
	if (runs.some((run) => run.lost > 0 || run.duplicated > 0)) process.exitCode = 1;
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
