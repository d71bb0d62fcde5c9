/* eslint-disable @n8n/community-nodes/no-restricted-imports */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { N8N_VERSION, PROJECT_ROOT } from '../harness/paths';
import { declaredTypes, N8nInstance, PACKAGE_NAME, packPackage, startN8n } from '../harness/n8n';

jest.setTimeout(300_000);

describe('the package installed from its tarball into a real n8n', () => {
	let n8n: N8nInstance;

	beforeAll(async () => {
		n8n = await startN8n({ packageTarball: await packPackage() });
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	async function editorTypes(file: 'nodes' | 'credentials'): Promise<Array<{ name: string }>> {
		const response = await fetch(`${n8n.baseUrl}/types/${file}.json`, {
			headers: { cookie: n8n.ownerCookie },
		});
		expect(response.status).toBe(200);
		return (await response.json()) as Array<{ name: string }>;
	}

	it('publishes only dist/, the README, the LICENSE and package.json, with no runtime dependencies', async () => {
		const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json'], { cwd: PROJECT_ROOT });
		const [{ files }] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
		const outside = files.map((file) => file.path).filter((file) => !file.startsWith('dist/'));
		expect(outside.sort()).toEqual(['LICENSE', 'README.md', 'package.json']);
		const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
		expect(manifest).not.toHaveProperty('dependencies');
		expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});

	it(`is n8n ${N8N_VERSION}`, async () => {
		const settings = await n8n.rest<{ versionCli: string }>('GET', '/settings');
		expect(settings.versionCli).toBe(N8N_VERSION);
	});

	it('loaded every node package.json declares, with a tool variant for action nodes', async () => {
		const declared = declaredTypes();
		expect(declared.nodes.length).toBeGreaterThan(0);
		const loaded = new Set((await editorTypes('nodes')).map((type) => type.name));
		for (const name of declared.nodes) {
			expect(loaded).toContain(`${PACKAGE_NAME}.${name}`);
			if (!name.endsWith('Trigger')) expect(loaded).toContain(`${PACKAGE_NAME}.${name}Tool`);
		}
	});

	it('loaded every credential package.json declares', async () => {
		const declared = declaredTypes();
		expect(declared.credentials.length).toBeGreaterThan(0);
		const loaded = new Set((await editorTypes('credentials')).map((type) => type.name));
		for (const name of declared.credentials) expect(loaded).toContain(name);
	});
});
