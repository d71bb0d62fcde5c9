/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * The child processes the harness runs (n8n, Redis, Postgres, nginx): started with their output
 * in a log file, waited for until they answer, and stopped the same way.
 */
import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';
import { createWriteStream } from 'node:fs';

/** How long a process may take to exit after SIGTERM before it is killed. */
const STOP_GRACE_MS = 15_000;

export interface LoggedChild {
	child: ChildProcess;
	/** SIGTERM, then SIGKILL after a grace period; resolves once the process has exited. */
	stop(): Promise<void>;
}

/** Starts a process with its stdout and stderr appended to `logFile`. */
export function startLoggedChild(
	command: string,
	args: string[],
	logFile: string,
	options: Omit<SpawnOptions, 'stdio'> = {},
): LoggedChild {
	const log = createWriteStream(logFile, { flags: 'a' });
	const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
	child.stdout?.pipe(log);
	child.stderr?.pipe(log);
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			const forced = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
			await exited;
			clearTimeout(forced);
		}
		log.end();
	};
	return { child, stop };
}

/**
 * Calls `probe` until it returns something other than undefined or false; a throw fails at once.
 * The default deadline only ends a stuck run: n8n on a busy machine takes what it takes.
 */
export async function waitUntil<T>(
	what: string,
	probe: () => Promise<T | undefined | false>,
	timeoutMs = 120_000,
	intervalMs = 250,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/**
 * Waits for a process it started to answer: as `waitUntil`, but a throw of `probe` (nothing
 * listens yet) counts as not yet, and the wait fails as soon as the process exits.
 */
export async function waitFor<T>(
	what: string,
	timeoutMs: number,
	probe: () => Promise<T | undefined>,
	child: ChildProcess,
	intervalMs = 500,
): Promise<T> {
	let lastError: unknown;
	try {
		return await waitUntil<T>(
			what,
			async () => {
				if (child.exitCode !== null) throw new Error(`${what}: the process exited with code ${child.exitCode}`);
				return await probe().catch((error: unknown) => {
					lastError = error;
					return undefined;
				});
			},
			timeoutMs,
			intervalMs,
		);
	} catch (error) {
		throw lastError && /^Timed out/.test((error as Error).message)
			? new Error(`${(error as Error).message}: ${String(lastError)}`)
			: error;
	}
}
