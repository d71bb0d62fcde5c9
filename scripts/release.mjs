// Makes a release: the new version in package.json and package-lock.json, CHANGELOG.md's Unreleased
// section dated under that version, one commit and the tag v<version>. Pushing the tag
// (`git push --follow-tags`) starts .github/workflows/publish.yml, which tests and publishes.
// What counts as major, minor or patch for this pack: docs/releasing.md.
//
//   npm run release -- <major|minor|patch|x.y.z> [--no-tag]
// Run in the project's folder, on a clean working tree, with an Unreleased section that says
// something. --no-tag commits without tagging (tag after the commit is merged).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const noTag = args.includes('--no-tag');
const bump = args.find((arg) => !arg.startsWith('--'));

function fail(message) {
	console.error(`release: ${message}`);
	process.exit(1);
}
const git = (...gitArgs) => execFileSync('git', gitArgs, { encoding: 'utf8' }).trim();

if (!bump) fail('say which release: major, minor, patch or a version (x.y.z)');
if (git('status', '--porcelain') !== '') fail('the working tree has changes: commit or stash them first');

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const current = manifest.version.split('-')[0].split('.').map(Number);
const semver = /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?$/;
let version;
if (bump === 'major') version = `${current[0] + 1}.0.0`;
else if (bump === 'minor') version = `${current[0]}.${current[1] + 1}.0`;
else if (bump === 'patch') version = `${current[0]}.${current[1]}.${current[2] + 1}`;
else if (semver.test(bump)) version = bump;
else fail(`"${bump}" is neither major, minor, patch nor a version x.y.z`);

const newer = (a, b) => {
	const [x, y] = [a, b].map((v) => semver.exec(v).slice(1, 4).map(Number));
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
	return false;
};
if (!newer(version, manifest.version)) fail(`${version} is not newer than ${manifest.version}`);
const tag = `v${version}`;
if (git('tag', '--list', tag) !== '') fail(`the tag ${tag} exists already`);

const changelog = readFileSync('CHANGELOG.md', 'utf8');
const unreleased = /^## \[Unreleased\]\n([\s\S]*?)(?=^## \[|^\[Unreleased\]:|(?![\s\S]))/m.exec(changelog);
if (!unreleased) fail('CHANGELOG.md has no "## [Unreleased]" section');
if (!/^### /m.test(unreleased[1])) fail('CHANGELOG.md\'s Unreleased section lists nothing: say what changed first');

const date = new Date().toISOString().slice(0, 10);
const repository = manifest.homepage.replace(/#.*$/, '');
const previousTag = `v${manifest.version}`;
const hadPrevious = git('tag', '--list', previousTag) !== '' || new RegExp(`^\\[${manifest.version.replace(/\./g, '\\.')}\\]:`, 'm').test(changelog);
let updated = changelog.replace(/^## \[Unreleased\]\n/m, `## [Unreleased]\n\n## [${version}] - ${date}\n`);
updated = updated.replace(/^\[Unreleased\]: .*\n?/m, '');
const links =
	`[Unreleased]: ${repository}/compare/${tag}...HEAD\n` +
	`[${version}]: ${hadPrevious ? `${repository}/compare/${previousTag}...${tag}` : `${repository}/releases/tag/${tag}`}\n`;
updated = /^\[[^\]]+\]: /m.test(updated)
	? updated.replace(/^(\[[^\]]+\]: )/m, `${links}$1`)
	: `${updated.replace(/\n*$/, '\n\n')}${links}`;
writeFileSync('CHANGELOG.md', updated);

execFileSync('npm', ['version', version, '--no-git-tag-version', '--ignore-scripts', '--allow-same-version'], { stdio: 'ignore' });
git('add', 'CHANGELOG.md', 'package.json', 'package-lock.json');
git('commit', '-q', '-m', `Release ${version}`);
if (!noTag) git('tag', '-a', tag, '-m', `Release ${version}`);
console.log(
	`Released ${version}: package.json, package-lock.json and CHANGELOG.md committed` +
		(noTag
			? ', not tagged (tag the merged commit with `git tag -a ' + tag + '`).'
			: `, tagged ${tag}. Push with \`git push --follow-tags\`: the tag starts the publish workflow.`),
);
