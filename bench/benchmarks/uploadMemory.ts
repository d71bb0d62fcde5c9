/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * Issue 33: Document → Create From File of a 20 MB PDF on Documenso, and the memory the node
 * itself takes for it. The node runs here (the test harness's n8n context, its requests through
 * n8n's own HTTP client, @n8n/backend-network) against the Documenso flavour of the sandbox in a
 * child process, so that what the sandbox holds of the upload is not counted. The file is in the
 * binary data store before the run starts (n8n's filesystem mode: a stream per read; and the
 * in-memory mode: base64 in the item), and is part of the baseline. Growth = the peak of V8's heap
 * plus the memory outside it (Buffers) during the run, above the baseline after a full garbage
 * collection, sampled every few milliseconds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

import { freePort } from '../../test/harness/n8n';
import { PROJECT_ROOT } from '../../test/harness/paths';
import { DOCUMENSO_DEFAULT_KEY } from '../../test/sandbox';
import { textPdf } from '../../test/sandbox/signingPdf';
import { executeContext } from '../../test/unit/helpers/context';
import { type Benchmark, megabytes, sizesFromEnv } from '../shared';

/** The built node, as n8n loads it (`npm run bench` builds first; the source's name would resolve to its codex JSON here). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Signing } = require(path.join(PROJECT_ROOT, 'dist', 'nodes', 'Signing', 'Signing.node.js')) as typeof import('../../nodes/Signing/Signing.node');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const used = () => {
	const usage = process.memoryUsage();
	return usage.heapUsed + usage.external;
};

async function startDocumensoSandbox(): Promise<{ url: string; child: ChildProcess }> {
	const port = await freePort();
	const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(PROJECT_ROOT, 'test', 'sandbox', 'cli.ts')], {
		cwd: PROJECT_ROOT,
		env: {
			...process.env,
			SANDBOX_SIGNING_API: 'documenso',
			SANDBOX_SIGNING_PORT: String(port),
			SANDBOX_BOOKMARK_PORT: String(await freePort()),
			SANDBOX_SURVEY_PORT: String(await freePort()),
		},
		stdio: 'ignore',
	});
	const url = `http://127.0.0.1:${port}`;
	for (let attempt = 0; attempt < 600; attempt++) {
		try {
			if ((await fetch(`${url}/_sandbox/health`)).ok) return { url, child };
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	child.kill();
	throw new Error('The Documenso sandbox did not start');
}

/** The node's growth above the baseline while it uploads `pdf` from the given binary data. */
async function measure(url: string, pdf: Buffer, mode: 'filesystem' | 'memory') {
	const id = 'filesystem-v2:workflows/bench/executions/1/binary_data/agreement';
	const binary =
		mode === 'filesystem'
			? { id, data: 'filesystem-v2', mimeType: 'application/pdf', fileName: 'agreement.pdf' }
			: { data: pdf.toString('base64'), mimeType: 'application/pdf', fileName: 'agreement.pdf' };
	const { context } = executeContext({
		parameters: {
			resource: 'document',
			operation: 'createFromFile',
			binaryPropertyName: 'data',
			uploadRecipients: { recipient: [{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' }] },
			uploadFields: { field: [{ recipient: '1', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-ada]]' }] },
			distribute: false,
		},
		binaries: [{ data: binary }],
		binaryStore: new Map([[id, pdf]]),
		credentials: { signingApi: { api: 'documenso', baseUrl: url, apiToken: DOCUMENSO_DEFAULT_KEY } },
	});
	await fetch(`${url}/_sandbox/reset`, { method: 'POST' });
	gc();
	const baseline = used();
	let peak = baseline;
	const sampler = setInterval(() => (peak = Math.max(peak, used())), 2);
	const started = Date.now();
	const [[item]] = await new Signing().execute.call(context);
	const wallMs = Date.now() - started;
	clearInterval(sampler);
	peak = Math.max(peak, used());
	if (item.json.status !== 'DRAFT') throw new Error(`Upload failed: ${JSON.stringify(item.json).slice(0, 300)}`);
	return { growthBytes: peak - baseline, wallMs };
}

export const uploadMemory: Benchmark = {
	name: 'uploadMemory',
	title: 'Create From File of a large PDF on Documenso: the node’s memory',
	runByDefault: true,
	async run() {
		const { fileMb, reducedSize } = sizesFromEnv({ fileMb: ['BENCH_UPLOAD_MB', 20] });
		const pdf = textPdf([['Agreement', 'Resident: [[sign-ada]]']], { padding: fileMb * 1024 * 1024 });
		const { url, child } = await startDocumensoSandbox();
		try {
			// A first run warms up the modules and connections; the figures are the second's.
			await measure(url, pdf, 'filesystem');
			const figures: Record<string, unknown> = { fileBytes: pdf.length };
			const rows = [];
			for (const mode of ['filesystem', 'memory'] as const) {
				const { growthBytes, wallMs } = await measure(url, pdf, mode);
				const ratio = growthBytes / pdf.length;
				figures[mode] = { growthBytes, ratio: Number(ratio.toFixed(3)), wallMs };
				rows.push({
					benchmark: `Create From File, ${megabytes(pdf.length)} MB PDF, n8n binary data in ${mode === 'filesystem' ? 'the filesystem store' : 'memory (base64 in the item)'}`,
					ours: `node’s memory growth ${megabytes(growthBytes)} MB for a ${megabytes(pdf.length)} MB file (${ratio.toFixed(2)}×), ${wallMs} ms`,
					theirs: '—',
					result: `${ratio.toFixed(2)}× the file size`,
					target: 'under 1.5× the file size',
					met: ratio < 1.5,
				});
			}
			return { figures, rows, reducedSize };
		} finally {
			child.kill();
		}
	},
};
