/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * Issue 46: `npm run release` (scripts/release.mjs) in a throw-away repository holding this
 * project's package.json and package-lock.json and a changelog with one unreleased change: the
 * version bumped in both files, the Unreleased section dated under it, one commit, the tag; and what
 * it refuses. And this project's CHANGELOG.md has the shape the script keeps.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { PROJECT_ROOT } from '../harness/paths';

const RELEASE = path.join(PROJECT_ROOT, 'scripts', 'release.mjs');
const REPOSITORY = 'https://github.com/n8n-nodes-sign-survey-bookmark/n8n-nodes-sign-survey-bookmark';

describe('npm run release', () => {
	let repo: string;
	const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
	const release = (...args: string[]) => {
		const result = spawnSync('node', [RELEASE, ...args], { cwd: repo, encoding: 'utf8' });
		return { status: result.status, output: `${result.stdout}${result.stderr}` };
	};
	const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');
	const versionOf = (file: string) => (JSON.parse(read(file)) as { version: string }).version;

	beforeEach(() => {
		repo = mkdtempSync(path.join(os.tmpdir(), 'release-test-'));
		for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(PROJECT_ROOT, file), path.join(repo, file));
		writeFileSync(path.join(repo, 'CHANGELOG.md'), '# Changelog\n\n## [Unreleased]\n\n### Added\n- Everything.\n');
		git('init', '-q');
		git('config', 'user.email', 'test@example.com');
		git('config', 'user.name', 'Release test');
		git('add', '.');
		git('commit', '-q', '-m', 'start');
	});

	afterEach(() => rmSync(repo, { recursive: true, force: true }));

	it('bumps, dates the changelog, commits and tags; a patch after it links the comparison', () => {
		const before = versionOf('package.json');
		const [major] = before.split('.').map(Number);
		const next = `${major + 1}.0.0`;
		const today = new Date().toISOString().slice(0, 10);

		const first = release('major');
		expect(first).toEqual({ status: 0, output: expect.stringContaining(`Released ${next}`) });
		expect([versionOf('package.json'), versionOf('package-lock.json')]).toEqual([next, next]);
		expect(JSON.parse(read('package-lock.json')).packages[''].version).toBe(next);
		const changelog = read('CHANGELOG.md');
		expect(changelog).toMatch(new RegExp(`## \\[Unreleased\\]\\n\\n## \\[${next}\\] - ${today}\\n`));
		expect(changelog).toContain(`[Unreleased]: ${REPOSITORY}/compare/v${next}...HEAD\n`);
		expect(changelog).toContain(`[${next}]: ${REPOSITORY}/releases/tag/v${next}\n`);
		expect(git('log', '-1', '--format=%s')).toBe(`Release ${next}`);
		expect(git('status', '--porcelain')).toBe('');
		expect(git('tag', '--points-at', 'HEAD')).toBe(`v${next}`);

		// Nothing new to say: no release.
		expect(release('patch')).toEqual({ status: 1, output: expect.stringContaining('Unreleased section lists nothing') });

		writeFileSync(
			path.join(repo, 'CHANGELOG.md'),
			read('CHANGELOG.md').replace('## [Unreleased]\n', '## [Unreleased]\n\n### Fixed\n- Something.\n'),
		);
		git('commit', '-q', '-am', 'fix');
		expect(release('patch').status).toBe(0);
		const patched = `${major + 1}.0.1`;
		expect(read('CHANGELOG.md')).toContain(`[${patched}]: ${REPOSITORY}/compare/v${next}...v${patched}\n`);
		expect(read('CHANGELOG.md')).toMatch(new RegExp(`## \\[${patched}\\] - ${today}\\n\\n### Fixed\\n- Something\\.`));
	});

	it('leaves this project’s CHANGELOG.md in the shape it keeps: Unreleased first, then the current version, dated', () => {
		const changelog = readFileSync(path.join(PROJECT_ROOT, 'CHANGELOG.md'), 'utf8');
		const headings = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((match) => [match[1], Boolean(match[2])]);
		const { version } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
		expect(headings.slice(0, 2)).toEqual([
			['Unreleased', false],
			[version, true],
		]);
		expect(changelog).toContain(`[${version}]: ${REPOSITORY}/`);
	});

	it('commits without a tag when asked', () => {
		expect(release('minor', '--no-tag').status).toBe(0);
		expect(git('tag')).toBe('');
	});

	it('refuses a working tree with changes, a version not newer, and nonsense', () => {
		writeFileSync(path.join(repo, 'CHANGELOG.md'), `${read('CHANGELOG.md')}\n`);
		expect(release('patch')).toEqual({ status: 1, output: expect.stringContaining('the working tree has changes') });
		git('checkout', 'CHANGELOG.md');
		expect(release(versionOf('package.json'))).toEqual({ status: 1, output: expect.stringContaining('is not newer than') });
		expect(release('bigger')).toEqual({ status: 1, output: expect.stringContaining('neither major, minor, patch') });
		expect(git('log', '--format=%s')).toBe('start');
	});
});
