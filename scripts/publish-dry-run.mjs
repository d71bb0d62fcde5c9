// Runs the publish job of .github/workflows/publish.yml here, step by step, as GitHub would on a
// pushed tag, up to `npm publish`, which runs with --dry-run added (its provenance flag stays): in a
// copy of this checkout (tracked and untracked files, not ignored ones), so dist/ here is untouched.
//   node scripts/publish-dry-run.mjs [tag]     (default: v + package.json's version)
// What differs from GitHub: actions/checkout is the copy, actions/setup-node this machine's Node, and
// the dependency install (step id `install`) is this project's node_modules, linked into the copy.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from 'yaml';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const tag = process.argv[2] ?? `v${version}`;
const workflow = parse(readFileSync(path.join(root, '.github', 'workflows', 'publish.yml'), 'utf8'));
const job = workflow.jobs.publish;

const copy = mkdtempSync(path.join(tmpdir(), 'publish-dry-run-'));
let failed = false;
try {
	const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
		cwd: root,
		encoding: 'utf8',
	})
		.split('\0')
		.filter(Boolean);
	for (const file of files) {
		mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
		cpSync(path.join(root, file), path.join(copy, file), { preserveTimestamps: true });
	}
	symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
	console.log(`publish.yml, job "${job.name}", for the tag ${tag}, in ${copy}`);

	let published = false;
	for (const [index, step] of job.steps.entries()) {
		const title = step.name ?? step.uses ?? step.run;
		if (step.uses?.startsWith('actions/checkout@')) {
			console.log(`\n[${index + 1}] ${title}: the copy of this checkout`);
			continue;
		}
		if (step.uses?.startsWith('actions/setup-node@')) {
			console.log(`\n[${index + 1}] ${title}: this machine's Node ${process.version} (the workflow sets up ${step.with?.['node-version']})`);
			continue;
		}
		if (step.uses) throw new Error(`Step ${index + 1} uses ${step.uses}, which this script cannot stand in for`);
		if (step.id === 'install') {
			console.log(`\n[${index + 1}] ${title}: this project's node_modules, linked`);
			continue;
		}
		let command = step.run;
		if (/\bnpm publish\b/.test(command)) {
			if (!/\bnpm publish\b[^\n]*--provenance\b/.test(command)) throw new Error('npm publish runs without --provenance');
			command = command.replace(/\bnpm publish\b/g, 'npm publish --dry-run');
			published = true;
		}
		console.log(`\n[${index + 1}] ${title}\n$ ${command.trim()}`);
		const result = spawnSync('bash', ['-eo', 'pipefail', '-c', command], {
			cwd: copy,
			stdio: 'inherit',
			env: { ...process.env, ...step.env, GITHUB_REF_NAME: tag, GITHUB_REF: `refs/tags/${tag}`, GITHUB_REF_TYPE: 'tag' },
		});
		if (result.status !== 0) {
			console.log(`\nStep ${index + 1} (${title}) failed with exit status ${result.status}: nothing would be published.`);
			failed = true;
			break;
		}
	}
	if (!failed && !published) throw new Error('The publish job has no npm publish step');
	if (!failed) console.log('\nEvery step ran; npm publish ran with --dry-run.');
} finally {
	rmSync(copy, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
