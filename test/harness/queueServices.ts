/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * What n8n's queue mode runs beside n8n, on 127.0.0.1 with throw-away data: Redis (the queue),
 * Postgres (the database every process shares) and nginx (the load balancer in front of the
 * webhook processes). They come from Debian's packages (scripts/install-queue-deps.sh) and run as
 * child processes of this one. Redis and Postgres can be restarted on the same port and data, as
 * the chaos runs do (bench/chaos/).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { freePort } from './n8n';
import { type LoggedChild, startLoggedChild, waitFor } from './processes';

const execFileAsync = promisify(execFile);

export interface Service {
	stop(): Promise<void>;
}

export interface RestartableService extends Service {
	port: number;
	/** Stops the server cleanly and starts it again on the same port with the same data. */
	restart(): Promise<void>;
}

/**
 * Redis. With `persistence` (what README "Scaling out" recommends for the queue) it keeps an
 * append-only file fsynced every second, so a restart finds the queue as it left it; without,
 * the queue lives in memory only and a restart empties it.
 */
export async function startRedis(logDir: string, persistence = true): Promise<RestartableService> {
	const port = await freePort();
	const dataDir = path.join(logDir, 'redis');
	mkdirSync(dataDir, { recursive: true });
	const args = [
		'--bind', '127.0.0.1', '--port', String(port), '--dir', dataDir, '--save', '',
		...(persistence ? ['--appendonly', 'yes', '--appendfsync', 'everysec'] : ['--appendonly', 'no']),
	];
	const ping = async () => (await execFileAsync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'])).stdout.trim();
	let running: LoggedChild;
	const start = async () => {
		running = startLoggedChild('redis-server', args, path.join(logDir, 'redis.log'));
		await waitFor('redis-server', 30_000, async () => ((await ping()) === 'PONG' ? true : undefined), running.child, 100);
	};
	await start();
	return {
		port,
		// SIGTERM: Redis writes its append-only file out and exits.
		stop: async () => await running.stop(),
		restart: async () => {
			await running.stop();
			await start();
		},
	};
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

export interface PostgresServer extends RestartableService {
	createDatabase(name: string): Promise<void>;
	/** Runs SQL in a database with psql and returns its rows, tab-separated, one line each. */
	query(database: string, sql: string): Promise<string[]>;
}

export async function startPostgres(logDir: string): Promise<PostgresServer> {
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
	const client = ['-h', '127.0.0.1', '-p', String(port), '-U', POSTGRES.user];
	let running: LoggedChild;
	const start = async () => {
		running = startLoggedChild(
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
			running.child,
			100,
		);
	};
	await start();
	await execFileAsync(path.join(bin, 'createdb'), [...client, POSTGRES.database]);
	return {
		port,
		restart: async () => {
			// SIGINT is Postgres's fast shutdown: it ends the clients' sessions and stops cleanly
			// (SIGTERM would wait for every client to disconnect first).
			const exited = new Promise((resolve) => running.child.once('exit', resolve));
			running.child.kill('SIGINT');
			await exited;
			await running.stop();
			await start();
		},
		createDatabase: async (name) => {
			await execFileAsync(path.join(bin, 'createdb'), [...client, name]);
		},
		query: async (database, sql) =>
			(
				await execFileAsync(path.join(bin, 'psql'), [...client, '-d', database, '-X', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
					maxBuffer: 64 * 2 ** 20,
				})
			).stdout
				.split('\n')
				.filter(Boolean),
		stop: async () => {
			await running.stop();
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
