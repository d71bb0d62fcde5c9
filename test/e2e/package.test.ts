/* eslint-disable @n8n/community-nodes/no-restricted-imports */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

import {
	docsHeadingOf,
	type EditorNodeType,
	n8nCredentialDocsUrl,
	n8nNodeDocsUrl,
	n8nPanelEntries,
	n8nPanelSearch,
} from '../harness/n8nEditor';
import { N8N_VERSION, PROJECT_ROOT } from '../harness/paths';
import { waitUntil } from '../harness/processes';
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

	async function editorTypes<T = { name: string }>(file: 'nodes' | 'credentials'): Promise<T[]> {
		// A request after a pause can meet a kept-alive socket that n8n has closed meanwhile
		// ("other side closed"): such a network error is tried again; any answer is final.
		const response = await waitUntil(`/types/${file}.json`, async () =>
			await fetch(`${n8n.baseUrl}/types/${file}.json`, { headers: { cookie: n8n.ownerCookie } }).catch(() => undefined),
		);
		expect(response.status).toBe(200);
		return (await response.json()) as T[];
	}

	/** Our node types as the editor gets them, in their newest version (what the nodes panel lists). */
	async function ourNodeTypes(): Promise<Array<EditorNodeType & { version: number | number[] }>> {
		const all = await editorTypes<EditorNodeType & { version: number | number[] }>('nodes');
		return all.filter((type) => type.name.startsWith(`${PACKAGE_NAME}.`) && !type.name.endsWith('Tool'));
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

	it('opens each node’s and credential’s documentation at its section of docs/, as the editor builds the link', async () => {
		const nodes = await ourNodeTypes();
		expect(nodes.length).toBeGreaterThanOrEqual(declaredTypes().nodes.length);
		for (const node of nodes) expect([node.name, docsHeadingOf(n8nNodeDocsUrl(node))]).toEqual([node.name, node.displayName]);
		const credentials = await editorTypes<{ name: string; displayName: string; documentationUrl?: string }>('credentials');
		for (const name of declaredTypes().credentials) {
			const credential = credentials.find((type) => type.name === name)!;
			expect(docsHeadingOf(n8nCredentialDocsUrl(credential.documentationUrl))).toBe(credential.displayName);
		}
	});

	it('finds the Signing node and its trigger when "Documenso" is searched in the nodes panel (issue 26)', async () => {
		const found = n8nPanelSearch(await ourNodeTypes(), 'Documenso');
		expect(found.sort()).toEqual([`${PACKAGE_NAME}.signing`, `${PACKAGE_NAME}.signingTrigger`]);
	});

	it('finds the Bookmarks node and both its triggers when "Karakeep" is searched in the nodes panel (issue 25)', async () => {
		const found = n8nPanelSearch(await ourNodeTypes(), 'Karakeep');
		expect(found.sort()).toEqual([
			`${PACKAGE_NAME}.bookmarks`,
			`${PACKAGE_NAME}.bookmarksTrigger`,
			`${PACKAGE_NAME}.bookmarksWebhookTrigger`,
		]);
	});

	it('shows each service in the nodes panel with what its action node does', async () => {
		const nodes = await ourNodeTypes();
		const entries = n8nPanelEntries(nodes);
		for (const service of ['signing', 'bookmarks', 'survey']) {
			const action = nodes.find((type) => type.name === `${PACKAGE_NAME}.${service}`)!;
			const shown = entries.get(action.name) ?? '';
			expect(shown.slice(0, action.description.length)).toBe(action.description);
			expect(shown.slice(action.description.length)).toMatch(/^; start workflows when /);
		}
	});
});
