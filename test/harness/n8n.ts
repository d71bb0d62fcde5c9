/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error */
import { execFile } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { N8N_BIN, N8N_DIR, N8N_VERSION, NODE_BIN, PROJECT_ROOT } from './paths';
import { startLoggedChild, waitFor } from './processes';

const execFileAsync = promisify(execFile);

export const PACKAGE_NAME = 'n8n-nodes-sign-survey-bookmark';

/**
 * How long an n8n process may take to answer after its start before it counts as failed: long,
 * because several n8n processes start at once in queue mode on a machine others share.
 */
const STARTUP_TIMEOUT_MS = 600_000;

export const OWNER = {
	email: 'owner@example.org',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Sandbox-Owner-1',
};

export interface N8nOptions {
	port?: number;
	/** Kept between runs when given (the main job); a throw-away folder otherwise. */
	userFolder?: string;
	/** The `npm pack` tarball to install as a community package. */
	packageTarball?: string;
	env?: Record<string, string>;
	/** Where n8n's own output goes; defaults to `.tmp/n8n-<port>.log`. */
	logFile?: string;
	/**
	 * `start` (default): the main process, with the editor, owner and API key. `worker` and
	 * `webhook` (queue mode) have no editor: ready once `/healthz/readiness` answers 200 on
	 * `port` (a worker needs `QUEUE_HEALTH_CHECK_ACTIVE` and `QUEUE_HEALTH_CHECK_PORT` for it);
	 * their `api`, `rest`, `apiKey` and `ownerCookie` are not available.
	 */
	command?: 'start' | 'worker' | 'webhook';
	/** Arguments after the command, e.g. `--concurrency=1` for a worker. */
	args?: string[];
	/** Flags for Node itself, before those of `N8N_NODE_FLAGS`, e.g. `--inspect=127.0.0.1:9230`. */
	nodeFlags?: string[];
}

export interface N8nInstance {
	baseUrl: string;
	apiKey: string;
	/** Session cookie of the owner, for routes the editor itself uses (e.g. `/types/nodes.json`). */
	ownerCookie: string;
	userFolder: string;
	logFile: string;
	/** Process id of the n8n main process, e.g. to sample its memory. */
	pid: number;
	/** Calls the public API (`/api/v1`) with the instance's API key. */
	api<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
	/** Calls the editor's REST API (`/rest`) as the owner. */
	rest<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
	stop(): Promise<void>;
}

export function assertRuntimeInstalled(): void {
	if (!existsSync(N8N_BIN) || !existsSync(NODE_BIN)) {
		throw new Error(
			`n8n ${N8N_VERSION} is not installed in ${N8N_DIR}: run "N8N_VERSION=${N8N_VERSION} bash scripts/install-n8n.sh" first`,
		);
	}
}

/** Builds nothing: packs what `npm run build` left in dist/, exactly as `npm publish` would. */
export async function packPackage(destination = path.join(PROJECT_ROOT, '.tmp')): Promise<string> {
	mkdirSync(destination, { recursive: true });
	const { stdout } = await execFileAsync(
		'npm',
		['pack', '--json', '--pack-destination', destination],
		{ cwd: PROJECT_ROOT },
	);
	const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
	return path.join(destination, filename);
}

/** Installs the tarball where n8n looks for community packages, as n8n itself does. */
export async function installPackage(userFolder: string, tarball: string): Promise<void> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	await execFileAsync(
		'npm',
		[
			'install',
			'--prefix',
			nodesDir,
			'--omit=dev',
			'--legacy-peer-deps',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--no-save',
			tarball,
		],
		{ cwd: nodesDir },
	);
}

export async function freePort(): Promise<number> {
	const net = await import('node:net');
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}


class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: string,
		route: string,
	) {
		super(`${route} answered ${status}: ${body.slice(0, 500)}`);
	}
}

async function requestJson<T>(
	url: string,
	init: { method: string; headers: Record<string, string>; body?: unknown },
): Promise<{ data: T; headers: Headers }> {
	const response = await fetch(url, {
		method: init.method,
		headers: {
			...init.headers,
			...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: init.body === undefined ? undefined : JSON.stringify(init.body),
	});
	const text = await response.text();
	if (!response.ok) throw new HttpError(response.status, text, `${init.method} ${url}`);
	return { data: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

export async function startN8n(options: N8nOptions = {}): Promise<N8nInstance> {
	assertRuntimeInstalled();
	const port = options.port ?? (await freePort());
	const throwAway = options.userFolder === undefined;
	const userFolder = options.userFolder ?? mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	mkdirSync(userFolder, { recursive: true });
	// n8n 2.x reads and writes files only inside N8N_RESTRICT_FILE_ACCESS_TO (default ~/.n8n-files),
	// compared after resolving symlinks: the signed-PDF sample writes to signed-agreements/ here,
	// the send-a-PDF sample reads agreements/, the contacts sample applicants/.
	const filesFolder = path.join(userFolder, 'signed-agreements');
	mkdirSync(filesFolder, { recursive: true });
	const readFolder = path.join(userFolder, 'agreements');
	mkdirSync(readFolder, { recursive: true });
	const agreement = path.join(PROJECT_ROOT, 'workflows', 'residency-agreement.pdf');
	if (existsSync(agreement)) copyFileSync(agreement, path.join(readFolder, 'residency-agreement.pdf'));
	// The contacts sample reads applicants/applicants.csv, the spreadsheet that ships beside it.
	const applicantsFolder = path.join(userFolder, 'applicants');
	mkdirSync(applicantsFolder, { recursive: true });
	const applicants = path.join(PROJECT_ROOT, 'workflows', 'applicants.csv');
	if (existsSync(applicants)) copyFileSync(applicants, path.join(applicantsFolder, 'applicants.csv'));
	if (options.packageTarball) await installPackage(userFolder, options.packageTarball);

	mkdirSync(path.join(PROJECT_ROOT, '.tmp'), { recursive: true });
	const logFile = options.logFile ?? path.join(PROJECT_ROOT, '.tmp', `n8n-${port}.log`);
	const baseUrl = `http://127.0.0.1:${port}`;
	const command = options.command ?? 'start';
	// E.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile n8n (Node refuses that flag in NODE_OPTIONS).
	const nodeFlags = [...(options.nodeFlags ?? []), ...(process.env.N8N_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
	const n8nArgs = [...nodeFlags, N8N_BIN, command, ...(options.args ?? [])];
	const { child, stop: stopChild } = startLoggedChild(NODE_BIN, n8nArgs, logFile, {
		cwd: userFolder,
		env: {
			...process.env,
			PATH: `${path.dirname(NODE_BIN)}:${process.env.PATH ?? ''}`,
			NODE_ENV: 'production',
			N8N_USER_FOLDER: userFolder,
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			WEBHOOK_URL: `${baseUrl}/`,
			N8N_EDITOR_BASE_URL: `${baseUrl}/`,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_ENCRYPTION_KEY: 'sandbox-encryption-key-not-for-production',
			N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_LOG_LEVEL: 'info',
			DB_SQLITE_POOL_SIZE: '2',
			N8N_RESTRICT_FILE_ACCESS_TO: `${path.join(os.homedir(), '.n8n-files')};${realpathSync(filesFolder)};${realpathSync(readFolder)};${realpathSync(applicantsFolder)}`,
			...options.env,
		},
	});
	const stop = async () => {
		await stopChild();
		if (throwAway) rmSync(userFolder, { recursive: true, force: true });
	};

	try {
		if (command !== 'start') {
			await waitFor(
				`n8n ${command}`,
				STARTUP_TIMEOUT_MS,
				async () => ((await fetch(`${baseUrl}/healthz/readiness`)).ok ? true : undefined),
				child,
			);
			const noApi = async (): Promise<never> => {
				throw new Error(`n8n ${command} has no API: call the main process`);
			};
			return { baseUrl, apiKey: '', ownerCookie: '', userFolder, logFile, pid: child.pid ?? 0, api: noApi, rest: noApi, stop };
		}
		// Until it is ready, n8n answers every route with 200 "n8n is starting up".
		await waitFor(
			'the n8n REST API',
			STARTUP_TIMEOUT_MS,
			async () => {
				const response = await fetch(`${baseUrl}/rest/settings`);
				if (!response.ok) return undefined;
				const body = (await response.json().catch(() => undefined)) as { data?: unknown } | undefined;
				return body?.data ? true : undefined;
			},
			child,
		);
		const cookie = await signInOwner(baseUrl);
		const rest = async <T>(method: string, route: string, body?: unknown) =>
			(
				await requestJson<{ data: T }>(`${baseUrl}/rest${route}`, {
					method,
					headers: { cookie, 'browser-id': 'e2e' },
					body,
				})
			).data.data;
		const apiKey = await createApiKey(rest);
		const api = async <T>(method: string, route: string, body?: unknown) =>
			(
				await requestJson<T>(`${baseUrl}/api/v1${route}`, {
					method,
					headers: { 'x-n8n-api-key': apiKey },
					body,
				})
			).data;
		return { baseUrl, apiKey, ownerCookie: cookie, userFolder, logFile, pid: child.pid ?? 0, api, rest, stop };
	} catch (error) {
		await stop();
		const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
		throw new Error(`${(error as Error).message}\n--- last lines of ${logFile} ---\n${tail}`);
	}
}

async function signInOwner(baseUrl: string): Promise<string> {
	const cookieOf = (headers: Headers) =>
		(headers.getSetCookie?.() ?? [])
			.map((c) => c.split(';')[0])
			.filter((c) => c.startsWith('n8n-auth='))
			.join('; ');
	try {
		const { headers } = await requestJson(`${baseUrl}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'browser-id': 'e2e' },
			body: OWNER,
		});
		const cookie = cookieOf(headers);
		if (cookie) return cookie;
	} catch (error) {
		// A kept user folder already has its owner: sign in instead.
		if (!(error instanceof HttpError && error.status === 400)) throw error;
	}
	const { headers } = await requestJson(`${baseUrl}/rest/login`, {
		method: 'POST',
		headers: { 'browser-id': 'e2e' },
		body: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
	});
	const cookie = cookieOf(headers);
	if (!cookie) throw new Error('n8n did not return a session cookie after login');
	return cookie;
}

async function createApiKey(
	rest: <T>(method: string, route: string, body?: unknown) => Promise<T>,
): Promise<string> {
	// n8n before 1.8x has no API key scopes (every key may do everything): no scopes route.
	const scopes = await rest<string[]>('GET', '/api-keys/scopes').catch((error: unknown) => {
		if (error instanceof HttpError && error.status === 404) return undefined;
		throw error;
	});
	const created = await rest<{ rawApiKey: string }>('POST', '/api-keys', {
		label: `harness-${Date.now()}`,
		...(scopes ? { scopes } : {}),
		expiresAt: null,
	});
	return created.rawApiKey;
}

/** Declared node and credential type names, read from the built files package.json points to. */
export function declaredTypes(): { nodes: string[]; credentials: string[] } {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const pkg = require(path.join(PROJECT_ROOT, 'package.json')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	// As n8n does: the class named like the file (Signing.node.js exports Signing).
	const instantiate = (file: string): Record<string, unknown> => {
		const className = path.basename(file).replace(/\.(node|credentials)\.js$/, '');
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const exported = require(path.join(PROJECT_ROOT, file)) as Record<string, new () => Record<string, unknown>>;
		return new exported[className]();
	};
	return {
		nodes: pkg.n8n.nodes.map((file) => (instantiate(file).description as { name: string }).name),
		credentials: pkg.n8n.credentials.map((file) => instantiate(file).name as string),
	};
}

export function listWorkflowFiles(): string[] {
	const dir = path.join(PROJECT_ROOT, 'workflows');
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.map((file) => path.join(dir, file));
}
