/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import * as os from 'node:os';
import * as path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
/** This clone's own git-ignored folder: the demo's n8n user folder (`npm start`). */
export const RUNTIME_DIR = path.join(PROJECT_ROOT, '.n8n-runtime');

/**
 * The per-user cache every clone shares for n8n, its Node and the real Karakeep, as
 * scripts/cache-dir.sh prints it: `SSB_CACHE_DIR`, else `$XDG_CACHE_HOME/n8n-nodes-sign-survey-bookmark`,
 * else `~/.cache/n8n-nodes-sign-survey-bookmark`.
 */
export function installCacheDir(env: NodeJS.ProcessEnv = process.env): string {
	const explicit = env.SSB_CACHE_DIR?.trim();
	if (explicit) return path.resolve(explicit);
	const base = env.XDG_CACHE_HOME?.trim() || path.join(env.HOME?.trim() || os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-sign-survey-bookmark');
}
export const CACHE_DIR = installCacheDir();

/** The n8n the tests run against; scripts/install-n8n.sh installs the same one for the same env. */
export const DEFAULT_N8N_VERSION = '2.41.1';
export const N8N_VERSION = process.env.N8N_VERSION?.trim() || DEFAULT_N8N_VERSION;
/** Where scripts/install-n8n.sh put that version, with a `node` link to the Node that runs it. */
export const N8N_DIR = path.join(CACHE_DIR, `n8n-${N8N_VERSION}`);
export const N8N_BIN = path.join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
/** The Node that runs that n8n (24 from 1.100 on, 22 before: scripts/install-n8n.sh chooses). */
export const NODE_BIN = path.join(N8N_DIR, 'node', 'bin', 'node');

/** Whether the n8n under test is at least the given version (numeric "major.minor.patch" compare). */
export function n8nAtLeast(version: string, current = N8N_VERSION): boolean {
	const parse = (v: string) => v.split(/[.-]/).slice(0, 3).map((part) => Number.parseInt(part, 10) || 0);
	const [a, b] = [parse(current), parse(version)];
	for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
	return true;
}

/** n8n 1.x and 2.x differ in how workflows are activated and credentials created over the API. */
export const N8N_MAJOR = Number.parseInt(N8N_VERSION, 10);
