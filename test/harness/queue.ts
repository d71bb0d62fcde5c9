/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error */
/**
 * n8n in queue mode on 127.0.0.1 with throw-away data: Redis (the queue), Postgres (the
 * database all processes share), the main process, one worker, two webhook processes and
 * nginx in front of them as the load balancer (round robin). Every process has its own user
 * folder with the package installed from its tarball; the encryption key is shared and
 * WEBHOOK_URL is the proxy's. Redis, Postgres and nginx come from Debian's packages
 * (scripts/install-queue-deps.sh) and run as child processes of this one.
 */
import { execFile } from 'node:child_process';
import {
	chownSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

import type { N8nInstance } from './n8n';
import { freePort, installPackage, startN8n } from './n8n';
import { PROJECT_ROOT } from './paths';
import { startLoggedChild, waitFor } from './processes';

const execFileAsync = promisify(execFile);

export interface QueueOptions {
	packageTarball: string;
	/** Jobs one worker runs at a time (`n8n worker --concurrency`); see README "Scaling out". */
	workerConcurrency?: number;
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
	/** The webhook processes, addressed directly (bypassing the proxy). */
	webhookProcesses: N8nInstance[];
	workerConcurrency: number;
	/** The running worker, if any. */
	worker(): N8nInstance | undefined;
	stopWorker(): Promise<void>;
	startWorker(): Promise<void>;
	/** Executions waiting in the Redis queue for a worker, and being run by one. */
	queuedJobs(): Promise<{ waiting: number; active: number }>;
	/** One line per request the proxy passed on: `<uri> <status> <upstream address> <delivery id>`. */
	proxyLog(): string[];
	logDir: string;
	stop(): Promise<void>;
}

interface Service {
	stop(): Promise<void>;
}

export async function startRedis(logDir: string): Promise<Service & { port: number }> {
	const port = await freePort();
	const { child, stop } = startLoggedChild(
		'redis-server',
		['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', logDir],
		path.join(logDir, 'redis.log'),
	);
	const ping = async () => (await execFileAsync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'])).stdout.trim();
	await waitFor('redis-server', 30_000, async () => ((await ping()) === 'PONG' ? true : undefined), child, 250);
	return { port, stop };
}

function postgresBinDir(): string {
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root)
		? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
		: [];
	if (!versions.length) throw new Error('Postgres is not installed: run "bash scripts/install-queue-deps.sh"');
	return path.join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** Postgres refuses to run as root: as root, run it as the `postgres` user the package created. */
async function postgresUser(): Promise<{ uid?: number; gid?: number }> {
	if (process.getuid?.() !== 0) return {};
	const [uid, gid] = await Promise.all(
		['-u', '-g'].map(async (flag) => Number((await execFileAsync('id', [flag, 'postgres'])).stdout.trim())),
	);
	return { uid, gid };
}

export const POSTGRES = { user: 'n8n', password: 'n8n', database: 'n8n' };

export async function startPostgres(logDir: string): Promise<Service & { port: number }> {
	const bin = postgresBinDir();
	const user = await postgresUser();
	const dataDir = mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-pg-'));
	if (user.uid !== undefined) chownSync(dataDir, user.uid, user.gid!);
	const logFile = path.join(logDir, 'postgres.log');
	writeFileSync(logFile, '');
	if (user.uid !== undefined) chownSync(logFile, user.uid, user.gid!);
	await execFileAsync(
		path.join(bin, 'initdb'),
		['-D', dataDir, '-U', POSTGRES.user, '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
		{ ...user, cwd: dataDir },
	);
	const port = await freePort();
	const { child, stop } = startLoggedChild(
		path.join(bin, 'postgres'),
		['-D', dataDir, '-h', '127.0.0.1', '-p', String(port), '-k', dataDir, '-F', '-c', 'max_connections=200'],
		logFile,
		{ ...user, cwd: dataDir },
	);
	await waitFor(
		'postgres',
		60_000,
		async () => {
			await execFileAsync(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]);
			return true;
		},
		child,
		250,
	);
	await execFileAsync(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', POSTGRES.user, POSTGRES.database]);
	return {
		port,
		stop: async () => {
			await stop();
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
}

/** nginx with a generated configuration, in the foreground, as the webhook processes' load balancer. */
export async function startProxy(
	logDir: string,
	port: number,
	mainPort: number,
	webhookPorts: number[],
): Promise<Service> {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-nginx-'));
	const config = `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${logDir}/nginx-error.log warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 1024; }
http {
	log_format queue '$request_uri $status $upstream_addr $http_webhook_id$http_x_signing_delivery';
	access_log ${logDir}/nginx-access.log queue;
	client_body_temp_path ${dir}/body;
	proxy_temp_path ${dir}/proxy;
	fastcgi_temp_path ${dir}/fastcgi;
	uwsgi_temp_path ${dir}/uwsgi;
	scgi_temp_path ${dir}/scgi;
	client_max_body_size 16m;
	map $http_upgrade $connection_upgrade { default upgrade; '' close; }
	upstream n8n_webhooks {
${webhookPorts.map((p) => `\t\tserver 127.0.0.1:${p};`).join('\n')}
	}
	upstream n8n_main { server 127.0.0.1:${mainPort}; }
	server {
		listen 127.0.0.1:${port};
		proxy_http_version 1.1;
		proxy_set_header Host $http_host;
		proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
		location /webhook/ {
			proxy_pass http://n8n_webhooks;
			# A delivery is not retried on the other process by the proxy: the sender retries.
			proxy_next_upstream off;
		}
		location / {
			proxy_pass http://n8n_main;
			proxy_set_header Upgrade $http_upgrade;
			proxy_set_header Connection $connection_upgrade;
		}
	}
}
`;
	const configFile = path.join(dir, 'nginx.conf');
	writeFileSync(configFile, config);
	const nginx = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
	const { child, stop } = startLoggedChild(
		nginx,
		['-p', dir, '-c', configFile, '-e', path.join(logDir, 'nginx-error.log')],
		path.join(logDir, 'nginx.log'),
	);
	const answers = async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status < 500;
	await waitFor('nginx', 30_000, async () => ((await answers()) ? true : undefined), child, 250);
	return {
		stop: async () => {
			await stop();
			rmSync(dir, { recursive: true, force: true });
		},
	};
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
	try {
		const [redis, postgres] = await Promise.all([startRedis(logDir), startPostgres(logDir)]);
		started.push(redis, postgres);

		const proxyPort = options.ports?.proxy ?? (await freePort());
		const proxyUrl = `http://127.0.0.1:${proxyPort}`;
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
		// user installs it on every machine; kept across a worker restart, removed at the end.
		const userFolder = (name: string) => {
			const folder = mkdtempSync(path.join(os.tmpdir(), `n8n-queue-${name}-`));
			started.push({ stop: async () => rmSync(folder, { recursive: true, force: true }) });
			return folder;
		};
		const install = async (folder: string) => await installPackage(folder, options.packageTarball);

		const mainFolder = userFolder('main');
		const workerFolder = userFolder('worker');
		const webhookFolders = [userFolder('webhook-1'), userFolder('webhook-2')];
		await Promise.all([mainFolder, workerFolder, ...webhookFolders].map(install));

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

		let worker: N8nInstance | undefined;
		const startWorker = async () => {
			if (worker) return;
			worker = await startOnFreePort(
				async (port) =>
					await startN8n({
						command: 'worker',
						args: [`--concurrency=${workerConcurrency}`],
						port,
						userFolder: workerFolder,
						logFile: path.join(logDir, 'worker.log'),
						env: {
							...shared,
							QUEUE_HEALTH_CHECK_ACTIVE: 'true',
							QUEUE_HEALTH_CHECK_PORT: String(port),
							N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
						},
					}),
			);
		};
		const stopWorker = async () => {
			const running = worker;
			worker = undefined;
			await running?.stop();
		};
		started.push({ stop: stopWorker });

		const [webhookProcesses] = await Promise.all([
			Promise.all(
				webhookFolders.map(async (folder, index) => {
					const instance = await startOnFreePort(
						async (port) =>
							await startN8n({
								command: 'webhook',
								port,
								userFolder: folder,
								logFile: path.join(logDir, `webhook-${index + 1}.log`),
								env: shared,
							}),
					);
					started.push(instance);
					return instance;
				}),
			),
			startWorker(),
		]);
		const webhookPorts = webhookProcesses.map((instance) => Number(new URL(instance.baseUrl).port));

		started.push(await startProxy(logDir, proxyPort, Number(new URL(main.baseUrl).port), webhookPorts));

		return {
			main,
			proxyUrl,
			webhookProcesses,
			workerConcurrency,
			worker: () => worker,
			stopWorker,
			startWorker,
			queuedJobs: async () => {
				const length = async (list: string) =>
					Number((await execFileAsync('redis-cli', ['-h', '127.0.0.1', '-p', String(redis.port), 'LLEN', `bull:jobs:${list}`])).stdout.trim());
				return { waiting: await length('wait'), active: await length('active') };
			},
			proxyLog: () => {
				const file = path.join(logDir, 'nginx-access.log');
				return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
			},
			logDir,
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		throw error;
	}
}
