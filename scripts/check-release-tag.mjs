// Refuses to publish when the pushed tag is not `v` + package.json's version (publish.yml).
//   node scripts/check-release-tag.mjs <tag>
import { readFileSync } from 'node:fs';

const tag = process.argv[2] ?? '';
const { name, version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
if (tag !== `v${version}`) {
	console.error(
		`Refusing to publish: the tag "${tag}" is not v${version}, the version in package.json. ` +
			'Make releases with `npm run release`, which sets both.',
	);
	process.exit(1);
}
console.log(`The tag ${tag} is ${name}'s version ${version}.`);
