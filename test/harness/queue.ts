/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error */
/**
 * n8n in queue mode on 127.0.0.1 with throw-away data: Redis (the queue), Postgres (the
 * database all processes share), the main process, workers, two webhook processes and nginx
 * in front of them as the load balancer (round robin) (test/harness/queueServices.ts). Every
 * process has its own user folder with the package installed from its tarball; the encryption
 * key is shared and WEBHOOK_URL is the proxy's. Workers can be killed, and Redis, Postgres and a
 * webhook process restarted, for the chaos runs (bench/chaos/).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

import type { N8nInstance } from './n8n';
import { freePort, installPackage, startN8n } from './n8n';
import { PROJECT_ROOT } from './paths';
import { waitUntil } from './processes';
import { POSTGRES, type PostgresServer, type Service, startPostgres, startProxy, startRedis } from './queueServices';

export { POSTGRES } from './queueServices';

const execFileAsync = promisify(execFile);

export interface QueueOptions {
	packageTarball: string;
	/** How many worker processes (default 1). */
	workers?: number;
	/** Jobs one worker runs at a time (`n8n worker --concurrency`); see README "Scaling out". */
	workerConcurrency?: number;
	/**
	 * Redis keeps the queue in an append-only file fsynced every second (default, as README
	 * "Scaling out" recommends); false keeps it in memory only, so that a restart empties it.
	 */
	redisPersistence?: boolean;
	/** Extra environment for every n8n process. */
	env?: Record<string, string>;
	/** Fixed ports for a person's run (`npm run start:queue`); free ports otherwise. */
	ports?: { proxy?: number; main?: number };
}

export interface QueueN8n {
	/** The main process: editor, REST and public API, activation, pollers. */
	main: N8nInstance;
	/** The load balancer: `/webhook/…` goes round robin to the webhook processes, the rest to main. */
	proxyUrl: string;
	/** The webhook processes, addressed directly (bypassing the proxy); a restarted one keeps its place and port. */
	webhookProcesses: N8nInstance[];
	workerConcurrency: number;
	/** The workers, by index; undefined where one is not running. */
	workers(): Array<N8nInstance | undefined>;
	stopWorkers(): Promise<void>;
	startWorkers(): Promise<void>;
	startWorker(index: number): Promise<void>;
	/** SIGKILL to a worker and its task runner, as when its machine dies: no shutdown of any kind. */
	killWorker(index: number): Promise<void>;
	/**
	 * Stops a webhook process as an orchestrator does (SIGTERM), starts it again on its port, and
	 * returns once the proxy passes requests to it again.
	 */
	restartWebhookProcess(index: number): Promise<void>;
	restartRedis(): Promise<void>;
	restartPostgres(): Promise<void>;
	/** The Postgres server n8n's database is on: more databases can be made there (e.g. for claims). */
	postgres: PostgresServer & { host: string; user: string; password: string };
	/** Executions waiting in the Redis queue for a worker, and being run by one. */
	queuedJobs(): Promise<{ waiting: number; active: number }>;
	/** The queue's failed jobs with the reason Bull gave, e.g. "job stalled more than allowable limit". */
	failedJobs(): Promise<Array<{ id: string; executionId: string; reason: string }>>;
	/** One line per request the proxy passed on: `<uri> <status> <upstream address> <delivery id>`. */
	proxyLog(): string[];
	logDir: string;
	stop(): Promise<void>;
}

/** The process ids below `pid` (its children, theirs, …). */
async function descendants(pid: number): Promise<number[]> {
	const { stdout } = await execFileAsync('ps', ['-o', 'pid=', '--ppid', String(pid)]).catch(() => ({ stdout: '' }));
	const children = stdout.split('\n').map((line) => Number(line.trim())).filter((child) => child > 0);
	return [...children, ...(await Promise.all(children.map(descendants))).flat()];
}

/**
 * Starts an n8n process on a free port, again on another one if the port (or its task broker's)
 * was taken between the check and n8n's listen: other test runs pick free ports at the same time.
 */
async function startOnFreePort(start: (port: number) => Promise<N8nInstance>, fixedPort?: number): Promise<N8nInstance> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await start(fixedPort ?? (await freePort()));
		} catch (error) {
			const portTaken = /already in use/i.test((error as Error).message);
			if (fixedPort !== undefined || attempt >= 3 || !portTaken) throw error;
		}
	}
}

export async function startQueueN8n(options: QueueOptions): Promise<QueueN8n> {
	const logDir = path.join(PROJECT_ROOT, '.tmp', `queue-${Date.now()}`);
	mkdirSync(logDir, { recursive: true });
	const started: Service[] = [];
	const stopAll = async () => {
		for (const service of started.reverse()) await service.stop().catch(() => undefined);
		started.length = 0;
	};
	const workerConcurrency = options.workerConcurrency ?? 1;
	const workerCount = options.workers ?? 1;
	try {
		const [redis, postgres] = await Promise.all([startRedis(logDir, options.redisPersistence ?? true), startPostgres(logDir)]);
		started.push(redis, postgres);

		const proxyPort = options.ports?.proxy ?? (await freePort());
		const proxyUrl = `http://127.0.0.1:${proxyPort}`;
		const proxyLog = () => {
			const file = path.join(logDir, 'nginx-access.log');
			return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
		};
		const shared: Record<string, string> = {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: POSTGRES.database,
			DB_POSTGRESDB_USER: POSTGRES.user,
			DB_POSTGRESDB_PASSWORD: POSTGRES.password,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			WEBHOOK_URL: `${proxyUrl}/`,
			...options.env,
		};

		// Each process its own user folder with the package installed from the tarball, as a
		// user installs it on every machine; kept across a restart, removed at the end.
		const userFolder = (name: string) => {
			const folder = mkdtempSync(path.join(os.tmpdir(), `n8n-queue-${name}-`));
			started.push({ stop: async () => rmSync(folder, { recursive: true, force: true }) });
			return folder;
		};
		const install = async (folder: string) => await installPackage(folder, options.packageTarball);

		const mainFolder = userFolder('main');
		const workerFolders = Array.from({ length: workerCount }, (_, index) => userFolder(`worker-${index + 1}`));
		const webhookFolders = [userFolder('webhook-1'), userFolder('webhook-2')];
		await Promise.all([mainFolder, ...workerFolders, ...webhookFolders].map(install));

		// The main process first: it runs the database migrations the others wait for.
		const main = await startOnFreePort(
			async (port) =>
				await startN8n({
					port,
					userFolder: mainFolder,
					logFile: path.join(logDir, 'main.log'),
					// Production webhooks go to the webhook processes only, as behind a real load balancer.
					env: { ...shared, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
				}),
			options.ports?.main,
		);
		started.push(main);

		const workers: Array<N8nInstance | undefined> = workerFolders.map(() => undefined);
		const workerLog = (index: number) => path.join(logDir, workerCount === 1 ? 'worker.log' : `worker-${index + 1}.log`);
		const startWorker = async (index: number) => {
			if (workers[index]) return;
			workers[index] = await startOnFreePort(
				async (port) =>
					await startN8n({
						command: 'worker',
						args: [`--concurrency=${workerConcurrency}`],
						port,
						userFolder: workerFolders[index],
						logFile: workerLog(index),
						env: {
							...shared,
							QUEUE_HEALTH_CHECK_ACTIVE: 'true',
							QUEUE_HEALTH_CHECK_PORT: String(port),
							N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
						},
					}),
			);
		};
		const stopWorker = async (index: number) => {
			const running = workers[index];
			workers[index] = undefined;
			await running?.stop();
		};
		const stopWorkers = async () => {
			await Promise.all(workers.map(async (_, index) => await stopWorker(index)));
		};
		started.push({ stop: stopWorkers });

		const webhookProcesses: N8nInstance[] = [];
		const startWebhookProcess = async (index: number, port?: number) =>
			await startOnFreePort(
				async (free) =>
					await startN8n({
						command: 'webhook',
						port: free,
						userFolder: webhookFolders[index],
						logFile: path.join(logDir, `webhook-${index + 1}.log`),
						env: shared,
					}),
				port,
			);
		started.push({ stop: async () => { await Promise.all(webhookProcesses.map(async (instance) => await instance.stop())); } });
		await Promise.all([
			...webhookFolders.map(async (_, index) => {
				webhookProcesses[index] = await startWebhookProcess(index);
			}),
			...workers.map(async (_, index) => await startWorker(index)),
		]);
		const portOf = (instance: N8nInstance) => Number(new URL(instance.baseUrl).port);

		started.push(await startProxy(logDir, proxyPort, portOf(main), webhookProcesses.map(portOf)));

		const redisCli = async (...args: string[]) =>
			(await execFileAsync('redis-cli', ['-h', '127.0.0.1', '-p', String(redis.port), ...args])).stdout.trim();
		return {
			main,
			proxyUrl,
			webhookProcesses,
			workerConcurrency,
			workers: () => [...workers],
			stopWorkers,
			startWorkers: async () => {
				await Promise.all(workers.map(async (_, index) => await startWorker(index)));
			},
			startWorker,
			killWorker: async (index) => {
				const running = workers[index];
				if (!running) return;
				const pids = [running.pid, ...(await descendants(running.pid))];
				for (const pid of pids) {
					try {
						process.kill(pid, 'SIGKILL');
					} catch {
						// Already gone.
					}
				}
				await stopWorker(index);
			},
			restartWebhookProcess: async (index) => {
				const port = portOf(webhookProcesses[index]);
				await webhookProcesses[index].stop();
				webhookProcesses[index] = await startWebhookProcess(index, port);
				// A request the proxy sent while the process was down made nginx take it out of the
				// rotation for fail_timeout (10 s): until it is back, every request goes to the other one.
				let probes = 0;
				await waitUntil(`the proxy to pass requests to webhook process ${index + 1} again`, async () => {
					const uri = `/webhook/proxy-probe-${Date.now()}-${probes++}`;
					await fetch(`${proxyUrl}${uri}`).then(async (answer) => await answer.arrayBuffer());
					return proxyLog().some((line) => line.startsWith(`${uri} `) && line.endsWith(` 127.0.0.1:${port} --`));
				}, 60_000);
			},
			restartRedis: async () => await redis.restart(),
			restartPostgres: async () => await postgres.restart(),
			postgres: { ...postgres, host: '127.0.0.1', user: POSTGRES.user, password: POSTGRES.password },
			queuedJobs: async () => {
				const length = async (list: string) => Number(await redisCli('LLEN', `bull:jobs:${list}`));
				return { waiting: await length('wait'), active: await length('active') };
			},
			failedJobs: async () => {
				const ids = (await redisCli('ZRANGE', 'bull:jobs:failed', '0', '-1')).split('\n').filter(Boolean);
				return await Promise.all(
					ids.map(async (id) => {
						const answer = await redisCli('HMGET', `bull:jobs:${id}`, 'data', 'failedReason');
						const [data, ...reason] = answer.split('\n');
						const executionId = String((JSON.parse(data || '{}') as { executionId?: string }).executionId ?? '');
						return { id, executionId, reason: reason.join('\n') };
					}),
				);
			},
			proxyLog,
			logDir,
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		throw error;
	}
}
