const path = require('path');
const { src, dest, task } = require('gulp');

// tsc emits only JavaScript; n8n also needs each node's icons and codex file beside it.
function copyAssets() {
	return src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest(path.resolve('dist')));
}

task('build:assets', copyAssets);
