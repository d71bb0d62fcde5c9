/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * Issue 46: what `npm publish` would put in the package, from `npm pack` on the built project: only
 * dist/ (the compiled nodes and credentials, their icons and codex files), the README, the LICENSE
 * and package.json. Each compiled file must come from a node or credential source that is not a
 * test, so a test, a fixture, a benchmark or a file left in dist/ by an older build fails here.
 * Its size is printed against a budget. Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { PROJECT_ROOT } from '../harness/paths';

/** 1.0.0: about 310 kB packed and 1.46 MB unpacked. */
const BUDGET = { packed: 400_000, unpacked: 1_800_000 };

interface PackedFile {
	path: string;
	size: number;
}
interface Pack {
	filename: string;
	size: number;
	unpackedSize: number;
	files: PackedFile[];
}

const TOP_LEVEL = ['LICENSE', 'README.md', 'package.json'];

/**
 * The source a file in dist/ was built from (tsc for .js, .d.ts and .js.map; the gulp copy for
 * icons and codex files), or why it should not be published.
 */
function sourceOf(file: string): { source: string } | { problem: string } {
	const match = /^dist\/((?:nodes|credentials)\/.+?)(\.d\.ts|\.js\.map|\.js|\.svg|\.png|\.node\.json)$/.exec(file);
	if (!match) return { problem: 'not a compiled node or credential, icon or codex file' };
	const [, stem, extension] = match;
	if (/(^|\/)(test|tests|__tests__|fixtures?|bench)(\/|$)|\.(test|spec)$/.test(stem)) {
		return { problem: 'a test, fixture or benchmark' };
	}
	const source = ['.svg', '.png', '.node.json'].includes(extension) ? `${stem}${extension}` : `${stem}.ts`;
	return existsSync(path.join(PROJECT_ROOT, source)) ? { source } : { problem: `no ${source} (left by an older build?)` };
}

describe('the published tarball', () => {
	let pack: Pack;

	beforeAll(() => {
		if (!existsSync(path.join(PROJECT_ROOT, 'dist'))) throw new Error('No dist/: run `npm run build` first');
		const stdout = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: PROJECT_ROOT,
			encoding: 'utf8',
		});
		[pack] = JSON.parse(stdout) as Pack[];
	});

	it('holds only dist/, the README, the LICENSE and package.json', () => {
		const outside = pack.files.map((file) => file.path).filter((file) => !file.startsWith('dist/'));
		expect(outside.sort()).toEqual(TOP_LEVEL);
	});

	it('holds in dist/ only what was built from the nodes’ and credentials’ sources, no test, fixture or benchmark', () => {
		const problems = pack.files
			.filter((file) => file.path.startsWith('dist/'))
			.map((file) => ({ file: file.path, ...sourceOf(file.path) }))
			.filter((entry) => 'problem' in entry);
		expect(problems).toEqual([]);
	});

	it('holds every node and credential package.json declares, each node with its codex file', () => {
		const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[]; credentials: string[] };
		};
		const packed = new Set(pack.files.map((file) => file.path));
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) expect(packed).toContain(file);
		for (const file of manifest.n8n.nodes) expect(packed).toContain(file.replace(/\.js$/, '.json'));
	});

	it('has source maps of the shipped code only', () => {
		const sources = pack.files
			.filter((file) => file.path.endsWith('.js.map'))
			.flatMap((file) => {
				const map = JSON.parse(readFileSync(path.join(PROJECT_ROOT, file.path), 'utf8')) as { sources: string[] };
				return map.sources.map((source) => path.relative(PROJECT_ROOT, path.resolve(PROJECT_ROOT, path.dirname(file.path), source)));
			});
		expect(sources.length).toBeGreaterThan(0);
		expect(sources.filter((source) => !/^(nodes|credentials)\//.test(source) || /\.test\.ts$/.test(source))).toEqual([]);
	});

	it('stays within its size budget', () => {
		const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
		process.stdout.write(
			`${pack.filename}: ${pack.files.length} files, ${kB(pack.size)} packed (budget ${kB(BUDGET.packed)}), ` +
				`${kB(pack.unpackedSize)} unpacked (budget ${kB(BUDGET.unpacked)})\n`,
		);
		expect(pack.size).toBeLessThanOrEqual(BUDGET.packed);
		expect(pack.unpackedSize).toBeLessThanOrEqual(BUDGET.unpacked);
	});
});
