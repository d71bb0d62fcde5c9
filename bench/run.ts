/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * Runs the benchmarks of bench/benchmarks/ (`npm run bench`), each against what an n8n user would
 * build instead, in a real n8n and the sandbox, and prints one table with each target and whether
 * it is met.
 *
 * Selection: benchmark names as arguments or in `BENCH_ONLY` (`p1,p2SignedIngestDiy`); without
 * one, every benchmark that runs by default. Figures of a benchmark run at its full size replace
 * its entry in bench/results.json; figures of a run with a size lowered by env go to
 * bench/out/results.json only (marked `reducedSize`), so a quick look never overwrites a full run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { N8N_VERSION, NODE_BIN, PROJECT_ROOT } from '../test/harness/paths';
import { createFromFile } from './benchmarks/createFromFile';
import { p1ReturnAll } from './benchmarks/p1ReturnAll';
import { p2SignedIngestDiy } from './benchmarks/p2SignedIngestDiy';
import { p2WebhookIngest } from './benchmarks/p2WebhookIngest';
import { p3BulkSigning } from './benchmarks/p3BulkSigning';
import { queueIngest } from './benchmarks/queueIngest';
import { rateLimits } from './benchmarks/rateLimits';
import { scaleCurve } from './benchmarks/scaleCurve';
import { uploadMemory } from './benchmarks/uploadMemory';
import { type Benchmark, type Row, say } from './shared';

const BENCHMARKS: Benchmark[] = [
	p1ReturnAll,
	p2WebhookIngest,
	p2SignedIngestDiy,
	p3BulkSigning,
	scaleCurve,
	createFromFile,
	queueIngest,
	rateLimits,
	uploadMemory,
];
const RESULTS_FILE = path.join(PROJECT_ROOT, 'bench', 'results.json');
const REDUCED_RESULTS_FILE = path.join(PROJECT_ROOT, 'bench', 'out', 'results.json');
const DEADLINE_MINUTES = Number(process.env.BENCH_DEADLINE_MINUTES ?? 90);

function selected(): Benchmark[] {
	const names = [...process.argv.slice(2), ...(process.env.BENCH_ONLY ?? '').split(',')]
		.map((name) => name.trim())
		.filter(Boolean);
	if (names.length === 0) return BENCHMARKS.filter((benchmark) => benchmark.runByDefault);
	const unknown = names.filter((name) => !BENCHMARKS.some((benchmark) => benchmark.name === name));
	if (unknown.length) {
		throw new Error(`Unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
	}
	return BENCHMARKS.filter((benchmark) => names.includes(benchmark.name));
}

const readJson = (file: string): Record<string, unknown> =>
	existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};

function writeJson(file: string, value: unknown) {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

function printTable(rows: Row[]) {
	say('| Benchmark | This pack | n8n built-in / do-it-yourself | Result | Target | Met |');
	say('|---|---|---|---|---|---|');
	for (const row of rows) {
		const met = row.met === undefined ? '' : row.met ? 'yes' : '**no**';
		say(`| ${[row.benchmark, row.ours, row.theirs, row.result, row.target, met].map(cell).join(' | ')} |`);
	}
}

async function main() {
	const benchmarks = selected();
	const deadline = setTimeout(() => {
		process.stderr.write(`Benchmarks exceeded ${DEADLINE_MINUTES} minutes: stopping.\n`);
		process.exit(1);
	}, DEADLINE_MINUTES * 60_000);
	const machine = {
		date: new Date().toISOString(),
		cores: os.cpus().length,
		memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
		nodeForBenchmarks: process.version,
		nodeForN8n: execFileSync(NODE_BIN, ['--version'], { encoding: 'utf8' }).trim(),
		n8n: N8N_VERSION,
	};
	const rows: Row[] = [];
	const failures: string[] = [];
	try {
		for (const benchmark of benchmarks) {
			say(`${benchmark.title}...`);
			const started = Date.now();
			try {
				const { figures, rows: benchmarkRows, reducedSize } = await benchmark.run();
				const entry = { machine, ...figures, ...(reducedSize && { reducedSize: true }) };
				const file = reducedSize ? REDUCED_RESULTS_FILE : RESULTS_FILE;
				writeJson(file, { ...readJson(file), [benchmark.name]: entry });
				rows.push(...benchmarkRows.map((row) => (reducedSize ? { ...row, benchmark: `${row.benchmark} (reduced size)` } : row)));
				say(`  done in ${((Date.now() - started) / 1000).toFixed(0)} s, written to ${path.relative(PROJECT_ROOT, file)} (${benchmark.name})`);
			} catch (error) {
				// One benchmark that fails does not take the others' figures with it.
				failures.push(benchmark.name);
				process.stderr.write(`${benchmark.name} failed: ${(error as Error).stack ?? String(error)}\n`);
			}
		}
	} finally {
		clearTimeout(deadline);
	}
	say();
	say(`Machine: ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.nodeForBenchmarks} (bench), ${machine.nodeForN8n} (n8n), n8n ${machine.n8n}`);
	printTable(rows);
	if (failures.length) {
		say();
		say(`Failed: ${failures.join(', ')}`);
		process.exitCode = 1;
	}
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
