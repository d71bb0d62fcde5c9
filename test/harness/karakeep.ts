/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/no-dangerous-functions */
/**
 * The real Karakeep (its own REST API, from the source snapshot in shared/real-services/karakeep)
 * as a test server: one process per call, on a free port, with a fresh data folder.
 *
 * `start.sh` installs Karakeep once into the per-user install cache (`karakeep/` in paths.ts' CACHE_DIR;
 * scripts/install-karakeep.sh does it before the tests) and prints one ready line `{"url","apiKey"}` on stdout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as path from 'node:path';

import { CACHE_DIR, PROJECT_ROOT } from './paths';
import { realServicesDirs } from './realServices';

/** Where start.sh installs Karakeep (its `KARAKEEP_CACHE`); scripts/install-karakeep.sh uses the same. */
export const KARAKEEP_RUNTIME_DIR = path.join(CACHE_DIR, 'karakeep');

/**
 * Only stops a run that is stuck: the first start on a machine installs Karakeep (about 90 s on an
 * idle machine, several minutes on a busy one); later starts take seconds.
 */
const READY_DEADLINE_MS = 15 * 60_000;
/** How long Karakeep may take to exit after SIGTERM before its process group is killed. */
const STOP_GRACE_MS = 15_000;

/**
 * The folders where Karakeep's start.sh is looked for, in order: `KARAKEEP_REAL_DIR`, then
 * `karakeep` in the shared `real-services` folder (realServices.ts). scripts/install-karakeep.sh looks in the same places.
 */
export function karakeepCandidateDirs(env: NodeJS.ProcessEnv = process.env): string[] {
	const dirs = [env.KARAKEEP_REAL_DIR?.trim(), ...realServicesDirs(env).map((dir) => path.join(dir, 'karakeep'))];
	return dirs.filter((dir): dir is string => Boolean(dir));
}

/** The folder holding Karakeep's `start.sh`; throws a message saying where it was looked for. */
export function karakeepDir(env: NodeJS.ProcessEnv = process.env, candidates = karakeepCandidateDirs(env)): string {
	const found = candidates.find((dir) => existsSync(path.join(dir, 'start.sh')));
	if (found) return found;
	throw new Error(
		`The real Karakeep is not available: no start.sh in ${candidates.join(', ')}. ` +
			'Set KARAKEEP_REAL_DIR to the folder that holds Karakeep\'s start.sh (shared/real-services/karakeep).',
	);
}

export interface KarakeepOptions {
	/** Runs Karakeep's webhook worker, delivering every event to `url` (with `Authorization: Bearer <token>` when given). */
	webhook?: { url: string; token?: string };
	/** 0 (the default): a free port. `BOOKMARKS=karakeep npm start` gives a fixed one. */
	port?: number;
	/** More environment for Karakeep (its own settings, e.g. `WEBHOOK_TIMEOUT_SEC`). */
	env?: Record<string, string>;
}

export interface KarakeepServer {
	/** `http://127.0.0.1:<port>`, without `/api/v1`. */
	url: string;
	/** A full-access API key (`ak2_…`) of the server's only user, its admin. */
	apiKey: string;
	dataDir: string;
	/** Karakeep's own log (stderr: install progress, request log, webhook worker). */
	logFile: string;
	pid: number;
	/** SIGTERM, SIGKILL after a grace period; resolves once it has exited; removes the data folder. */
	stop(): Promise<void>;
}

/** Starts one real Karakeep and resolves once it printed its ready line. */
export async function startKarakeep(options: KarakeepOptions = {}): Promise<KarakeepServer> {
	const startScript = path.join(karakeepDir(), 'start.sh');
	const tmpRoot = path.join(PROJECT_ROOT, '.tmp');
	mkdirSync(tmpRoot, { recursive: true });
	const dataDir = mkdtempSync(path.join(tmpRoot, 'karakeep-data-'));
	const logFile = `${dataDir}.log`;
	const args = [startScript, '--port', String(options.port ?? 0), '--data', dataDir];
	if (options.webhook) {
		const { url, token } = options.webhook;
		if (url.includes(',')) throw new Error(`A webhook URL for start.sh cannot contain a comma: ${url}`);
		args.push('--webhook', token ? `${url},${token}` : url);
	}
	const log = createWriteStream(logFile, { flags: 'a' });
	// Its own process group, so that stopping it also stops what start.sh runs before it execs the server.
	const child = spawn('bash', args, {
		cwd: PROJECT_ROOT,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		// NODE_ENV as in Karakeep's Docker image: jest sets it to "test", and outside production
		// Karakeep answers internal errors with their own message instead of "Internal server error".
		env: { ...process.env, NODE_ENV: 'production', KARAKEEP_CACHE: KARAKEEP_RUNTIME_DIR, ...options.env },
	});
	child.stderr?.pipe(log);

	let exited = false;
	const exitedPromise = new Promise<void>((resolve) =>
		child.once('exit', () => {
			exited = true;
			resolve();
		}),
	);
	const stop = async () => {
		if (!exited) {
			signalGroup(child, 'SIGTERM');
			const forced = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
			await exitedPromise;
			clearTimeout(forced);
		}
		await new Promise<void>((resolve) => log.end(resolve));
		rmSync(dataDir, { recursive: true, force: true });
	};

	try {
		const ready = await readyLine(child, logFile);
		return { ...ready, dataDir, logFile, pid: child.pid ?? -1, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// already gone
	}
}

/** Waits for start.sh's single stdout line `{"url","apiKey"}`, or fails when the process exits first. */
function readyLine(child: ChildProcess, logFile: string): Promise<{ url: string; apiKey: string }> {
	return new Promise((resolve, reject) => {
		let stdout = '';
		const deadline = setTimeout(
			() => finish(new Error(`Karakeep printed no ready line within ${READY_DEADLINE_MS / 60_000} minutes; see ${logFile}`)),
			READY_DEADLINE_MS,
		);
		const onData = (chunk: Buffer) => {
			stdout += chunk.toString('utf8');
			const newline = stdout.indexOf('\n');
			if (newline < 0) return;
			try {
				const parsed = JSON.parse(stdout.slice(0, newline)) as { url?: unknown; apiKey?: unknown };
				if (typeof parsed.url !== 'string' || typeof parsed.apiKey !== 'string') throw new Error('no url or apiKey');
				finish(undefined, { url: parsed.url, apiKey: parsed.apiKey });
			} catch (error) {
				finish(new Error(`Karakeep's ready line is not {"url","apiKey"}: ${stdout.slice(0, newline)} (${String(error)})`));
			}
		};
		const onExit = (code: number | null, signal: string | null) =>
			finish(new Error(`Karakeep's start.sh exited (${signal ?? `code ${code}`}) before it was ready; see ${logFile}`));
		const finish = (error?: Error, value?: { url: string; apiKey: string }) => {
			clearTimeout(deadline);
			child.stdout?.off('data', onData);
			child.off('exit', onExit);
			// Keep draining stdout so that the server never blocks on a full pipe.
			child.stdout?.resume();
			if (error) reject(error);
			else resolve(value!);
		};
		child.stdout?.on('data', onData);
		child.once('exit', onExit);
	});
}
