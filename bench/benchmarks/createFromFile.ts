/**
 * Create From File of a 20 MB signed PDF into the real Karakeep (`BENCH_PDF_MB`), in a real n8n with
 * its filesystem binary mode: Webhook → Signing → Download (the sandbox's signed PDF, padded to the
 * size) → Bookmarks → Create From File, against the same Download → HTTP Request node uploading the
 * file as multipart form data (what a user builds without the pack; its upload only).
 *
 * The node's own memory growth: while the workflow runs, the live memory of n8n (reachable after a
 * full garbage collection, see ../liveHeap.ts) is sampled back to back, each sample stamped by n8n's
 * own clock; n8n records when each node started and how long it ran. The growth is the highest
 * sample taken while the uploading node ran, above the last sample before it started (the
 * downloaded file already in n8n's store). A node that held the file whole would show it for the
 * whole upload; each run needs at least one sample inside the node's run to count.
 */
import { sleep } from 'n8n-workflow';

import { type KarakeepServer, startKarakeep } from '../../test/harness/karakeep';
import { PACKAGE_NAME } from '../../test/harness/n8n';
import { activateWorkflow, createCredential, type CredentialRefs, importWorkflow, type Stack } from '../../test/harness/provision';
import { sandboxControl } from '../../test/unit/helpers/sandbox';
import { InspectorSession, inspectorFlags } from '../liveHeap';
import { type Benchmark, callUntilRegistered, megabytes, type Node, ratio, type Row, say, sizesFromEnv, webhookNode, withStack } from '../shared';

const SAMPLE_PAUSE_MS = 100;

/** The target: the node's growth below 1.5 times the file. */
const TARGET_RATIO = 1.5;

const CONTENDERS = {
	ours: { title: 'Bookmarks → Create From File', path: 'bench-create-from-file', uploader: 'Create From File' },
	theirs: { title: 'HTTP Request node, multipart form data', path: 'bench-upload-http', uploader: 'Upload (HTTP Request)' },
} as const;
type Contender = keyof typeof CONTENDERS;

const downloadNode = (stack: Stack): Node => ({
	name: 'Download Signed PDF',
	type: `${PACKAGE_NAME}.signing`,
	typeVersion: 2,
	position: [200, 0],
	parameters: { resource: 'document', operation: 'download', documentId: '={{ $json.body.documentId }}', version: 'signed', binaryPropertyName: 'data' },
	credentials: { signingApi: stack.credentials.signingApi },
});

function uploaderNode(contender: Contender, karakeep: KarakeepServer, credentials: Record<string, { id: string; name: string }>): Node {
	if (contender === 'ours') {
		return {
			name: CONTENDERS.ours.uploader,
			type: `${PACKAGE_NAME}.bookmarks`,
			typeVersion: 2,
			position: [400, 0],
			parameters: { resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data', title: 'Bench', tags: 'bench' },
			credentials: { bookmarkApi: credentials.bookmarkApi },
		};
	}
	return {
		name: CONTENDERS.theirs.uploader,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [400, 0],
		parameters: {
			method: 'POST',
			url: `${karakeep.url}/api/v1/assets`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			contentType: 'multipart-form-data',
			bodyParameters: { parameters: [{ parameterType: 'formBinaryData', name: 'file', inputDataFieldName: 'data' }] },
			options: {},
		},
		credentials: { httpHeaderAuth: credentials.httpHeaderAuth },
	};
}

interface NodeRun {
	startTime: number;
	executionTime: number;
	error?: unknown;
}

/** When each node of the workflow's last execution started and how long it ran (n8n's own record). */
async function lastRun(stack: Stack, workflowId: string): Promise<Record<string, NodeRun>> {
	const { data } = await stack.n8n.api<{ data: Array<{ id: string }> }>('GET', `/executions?workflowId=${workflowId}&limit=1`);
	const execution = await stack.n8n.api<{ data: { resultData: { runData: Record<string, NodeRun[]> } } }>(
		'GET',
		`/executions/${data[0].id}?includeData=true`,
	);
	return Object.fromEntries(Object.entries(execution.data.resultData.runData).map(([name, runs]) => [name, runs[0]]));
}

/** One sampled run: the uploader's growth of live memory, or undefined when no sample fell inside its run. */
async function measureRun(stack: Stack, session: InspectorSession, workflowId: string, path: string, uploader: string, documentId: string) {
	const before = await session.settledLiveBytes();
	let running = true;
	const samples: Array<{ bytes: number; at: number }> = [];
	// A pause between samples: each collects all garbage on n8n's main thread, which must get on with the upload.
	const sampling = (async () => {
		while (running) {
			samples.push(await session.liveSample());
			await sleep(SAMPLE_PAUSE_MS);
		}
	})();
	const { status } = await callUntilRegistered(`${stack.n8n.baseUrl}/webhook/${path}`, { documentId });
	running = false;
	await sampling;
	const runs = await lastRun(stack, workflowId);
	const run = runs[uploader];
	if (status !== 200 || !run || run.error) throw new Error(`${uploader} failed (HTTP ${status}): ${JSON.stringify(run?.error ?? null)}`);
	const end = run.startTime + run.executionTime;
	const baseline = samples.filter((sample) => sample.at < run.startTime).at(-1)?.bytes ?? before;
	const inside = samples.filter((sample) => sample.at >= run.startTime && sample.at <= end);
	if (inside.length === 0) return undefined;
	return { growthBytes: Math.max(0, Math.max(...inside.map((sample) => sample.bytes)) - baseline), samples: inside.length, nodeMs: run.executionTime };
}

export const createFromFile: Benchmark = {
	name: 'createFromFile',
	title: 'Create From File (a 20 MB signed PDF into the real Karakeep)',
	runByDefault: true,
	async run() {
		const { pdfMegabytes, runs, reducedSize } = sizesFromEnv({ pdfMegabytes: ['BENCH_PDF_MB', 20], runs: ['BENCH_RUNS', 3] });
		const inspector = await inspectorFlags();
		const karakeep = await startKarakeep();
		try {
			return await withStack(
				{},
				{ N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' },
				async (stack) => {
					const credentials = {
						...stack.credentials,
						bookmarkApi: await createCredential(stack.n8n, 'Karakeep (bench)', 'bookmarkApi', {
							api: 'karakeep',
							baseUrl: karakeep.url,
							apiKey: karakeep.apiKey,
						}),
						httpHeaderAuth: await createCredential(stack.n8n, 'Karakeep key (bench)', 'httpHeaderAuth', {
							name: 'Authorization',
							value: `Bearer ${karakeep.apiKey}`,
						}),
					};
					// The signed PDF of a completed document, padded to the size.
					const signing = sandboxControl(stack.sandbox, 'signing');
					const generated = (await fetch(`${stack.sandbox.signing.url}/api/v2/templates/tpl_residency_agreement/generate-document`, {
						method: 'POST',
						headers: { authorization: `Bearer ${stack.sandbox.signing.apiKey}`, 'content-type': 'application/json' },
						body: JSON.stringify({ title: 'Bench agreement', recipients: [{ name: 'Bench Signer', email: 'bench@example.org', role: 'SIGNER' }] }),
					}).then(async (response) => await response.json())) as { documentId: string };
					await signing.call('PUT', `/documents/${generated.documentId}/pdf-padding`, { bytes: Math.round(pdfMegabytes * 2 ** 20) });
					await signing.call('POST', `/documents/${generated.documentId}/complete`, {});
					const pdf = await fetch(`${stack.sandbox.signing.url}/api/v2/documents/${generated.documentId}/download?version=signed`, {
						headers: { authorization: `Bearer ${stack.sandbox.signing.apiKey}` },
					});
					const fileBytes = (await pdf.arrayBuffer()).byteLength;

					const session = await InspectorSession.open(inspector.port);
					const figures: Record<Contender, { growthMb: number; ratio: number; nodeMs: number; samples: number; runs: number }> = {} as never;
					try {
						for (const [contender, { title, path, uploader }] of Object.entries(CONTENDERS) as Array<[Contender, (typeof CONTENDERS)[Contender]]>) {
							const nodes = [webhookNode(path), downloadNode(stack), uploaderNode(contender, karakeep, credentials)];
							const workflow = await importWorkflow(
								stack.n8n,
								{ name: `Bench – ${title}`, nodes, connections: Object.fromEntries(nodes.slice(0, -1).map((node, index) => [node.name, { main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] }])) },
								credentials as Partial<CredentialRefs>,
							);
							await activateWorkflow(stack.n8n, workflow.id);
							say(`  ${title}: ${megabytes(fileBytes)} MB, ${runs} runs...`);
							const measured = [];
							for (let attempt = 0; measured.length < runs && attempt < runs * 3; attempt++) {
								const run = await measureRun(stack, session, workflow.id, path, uploader, generated.documentId);
								if (run) measured.push(run);
							}
							if (measured.length === 0) throw new Error(`${title}: no live-memory sample fell inside the upload; run again`);
							const growth = Math.max(...measured.map((run) => run.growthBytes));
							// The time the node takes, from a run without the samples (each stops n8n for a full collection).
							await callUntilRegistered(`${stack.n8n.baseUrl}/webhook/${path}`, { documentId: generated.documentId });
							figures[contender] = {
								growthMb: megabytes(growth),
								ratio: ratio(growth, fileBytes),
								nodeMs: (await lastRun(stack, workflow.id))[uploader].executionTime,
								samples: Math.min(...measured.map((run) => run.samples)),
								runs: measured.length,
							};
						}
					} finally {
						session.close();
					}
					const ours = figures.ours;
					const rows: Row[] = [
						{
							benchmark: `Create From File, ${megabytes(fileBytes)} MB PDF into Karakeep`,
							ours: `+${ours.growthMb} MB live while the node ran (${ours.ratio}× the file); ${ours.nodeMs} ms`,
							theirs: `+${figures.theirs.growthMb} MB (${figures.theirs.ratio}× the file), HTTP Request node's upload alone; ${figures.theirs.nodeMs} ms`,
							result: `${megabytes(fileBytes)} MB file, growth ${ours.growthMb} MB`,
							target: `< ${TARGET_RATIO}× the file (${+(megabytes(fileBytes) * TARGET_RATIO).toFixed(1)} MB)`,
							met: ours.ratio < TARGET_RATIO,
						},
					];
					return { figures: { fileBytes, binaryDataMode: 'filesystem', ...figures }, rows, reducedSize };
				},
				inspector.flags,
			);
		} finally {
			await karakeep.stop();
		}
	},
};
