/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * The three benchmarks of the README's Performance section, each against what an n8n user
 * would use instead, in the same real n8n and the same sandbox: `npm run bench`.
 * Prints a table and writes bench/results.json. Bounded: every wait has a deadline.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';

import { N8N_VERSION, NODE24_BIN, PROJECT_ROOT } from '../test/harness/paths';
import { N8nInstance, PACKAGE_NAME } from '../test/harness/n8n';
import { activateWorkflow, importWorkflow, Stack, startStack, waitUntil } from '../test/harness/provision';
import { standardWebhookHeaders } from '../test/sandbox';
import { sandboxControl } from '../test/unit/helpers/sandbox';

const say = (line = '') => process.stdout.write(`${line}\n`);
const RESPONSES = Number(process.env.BENCH_RESPONSES ?? 20_000);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 2_000);
const DELIVERY_CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const P2_WARMUP = 100;
const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 500);
const SIGNING_LIMIT = 300;
/** A page of a real service costs a round trip and a query; the sandbox answers in about a millisecond. */
const P1_LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const P1_RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BENCH_SURVEY = 'srv_bench';

interface Node {
	[key: string]: unknown;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	webhookId?: string;
	credentials?: Record<string, { id: string; name: string }>;
}

const webhookNode = (path: string, responseMode = 'lastNode'): Node => ({
	name: 'Start',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	position: [0, 0],
	webhookId: path,
	parameters: { httpMethod: 'POST', path, responseMode, responseData: 'noData', options: {} },
});

const chain = (nodes: Node[]) =>
	Object.fromEntries(
		nodes.slice(0, -1).map((node, index) => [node.name, { main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] }]),
	);

async function deployChain(n8n: N8nInstance, stack: Stack, name: string, nodes: Node[]) {
	const workflow = await importWorkflow(n8n, { name, nodes, connections: chain(nodes) }, stack.credentials);
	await activateWorkflow(n8n, workflow.id);
	return workflow;
}

/** Peak resident memory of the n8n process above what it used before, sampled every 20 ms. */
function sampleMemory(pid: number) {
	const rss = () => {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
	};
	const baseline = rss();
	let peak = baseline;
	const timer = setInterval(() => (peak = Math.max(peak, rss())), 20);
	return () => {
		clearInterval(timer);
		return Math.max(0, peak - baseline);
	};
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}, timeoutMs = 600_000) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
		signal: AbortSignal.timeout(timeoutMs),
	});
	await response.arrayBuffer();
	return response.status;
}

async function callUntilRegistered(url: string, body: unknown) {
	return await waitUntil('the webhook', async () => {
		const started = Date.now();
		const status = await post(url, body);
		return status === 404 ? undefined : { status, ms: Date.now() - started };
	}, 60_000, 500);
}

interface ExecutionFigures {
	/** The items the node put out in the last execution of the workflow. */
	items: unknown[];
	/** From the execution's start to its stop, as n8n recorded it. */
	executionMs: number;
	/** The time n8n recorded in the nodes after the trigger. */
	nodesMs: number;
}

async function lastExecution(n8n: N8nInstance, workflowId: string, nodeName: string): Promise<ExecutionFigures> {
	const { data } = await n8n.api<{ data: Array<{ id: string }> }>('GET', `/executions?workflowId=${workflowId}&limit=1`);
	const execution = await n8n.api<{
		startedAt: string;
		stoppedAt: string;
		data: {
			resultData: {
				runData: Record<string, Array<{ executionTime: number; data: { main: Array<Array<{ json: unknown }>> } }>>;
			};
		};
	}>('GET', `/executions/${data[0].id}?includeData=true`);
	const { runData } = execution.data.resultData;
	return {
		items: runData[nodeName][0].data.main[0].map((item) => item.json),
		executionMs: Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt),
		nodesMs: Object.entries(runData)
			.filter(([name]) => name !== 'Start')
			.reduce((sum, [, runs]) => sum + runs[0].executionTime, 0),
	};
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function countExecutions(n8n: N8nInstance, workflowId: string): Promise<number> {
	let count = 0;
	let cursor: string | undefined;
	do {
		const page = await n8n.api<{ data: unknown[]; nextCursor?: string | null }>(
			'GET',
			`/executions?workflowId=${workflowId}&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
		);
		count += page.data.length;
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return count;
}

/** The API requests the service received since the last call, which it then forgets. */
async function takeRequests(service: ReturnType<typeof sandboxControl>) {
	const requests = await service.requests();
	await service.clearRequests();
	return requests;
}

async function p1ReturnAll(stack: Stack) {
	const { n8n, sandbox, credentials } = stack;
	const survey = sandboxControl(sandbox, 'survey');
	await survey.call('POST', '/surveys', { id: BENCH_SURVEY, name: 'Benchmark survey', status: 'completed' });
	await survey.call('POST', `/surveys/${BENCH_SURVEY}/generate-responses`, { count: RESPONSES });
	await survey.rateLimit(null);
	const surveyCredential = { surveyApi: credentials.surveyApi };
	const ours = await deployChain(n8n, stack, 'Bench P1 – Survey node', [
		webhookNode('bench-p1-ours'),
		{
			name: 'Responses',
			type: `${PACKAGE_NAME}.survey`,
			typeVersion: 1,
			position: [200, 0],
			parameters: {
				resource: 'response',
				operation: 'getMany',
				surveyId: { __rl: true, mode: 'id', value: BENCH_SURVEY },
				returnAll: true,
				options: {},
			},
			credentials: surveyCredential,
		},
	]);
	const theirs = await deployChain(n8n, stack, 'Bench P1 – HTTP Request node', [
		webhookNode('bench-p1-http'),
		{
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [200, 0],
			parameters: {
				url: `${sandbox.survey.url}/api/v1/management/surveys/${BENCH_SURVEY}/responses`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'surveyApi',
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: {
								parameters: [
									{ type: 'qs', name: 'offset', value: '={{ $pageCount * 250 }}' },
									{ type: 'qs', name: 'limit', value: '250' },
								],
							},
							paginationCompleteWhen: 'other',
							completeExpression: '={{ $response.body.data.length < 250 }}',
						},
					},
				},
			},
			credentials: surveyCredential,
		},
		{
			name: 'Responses',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [400, 0],
			parameters: { fieldToSplitOut: 'data', options: {} },
		},
	]);

	const measure = async (workflowId: string, path: string) => {
		await survey.clearRequests();
		const memory = sampleMemory(n8n.pid);
		const { status, ms } = await callUntilRegistered(`${n8n.baseUrl}/webhook/${path}`, {});
		const peakBytes = memory();
		const requests = (await takeRequests(survey)).length;
		const execution = await lastExecution(n8n, workflowId, 'Responses');
		return { status, wallMs: ms, peakBytes, requests, ...execution };
	};
	type Run = Awaited<ReturnType<typeof measure>>;
	/** Medians of the measured runs, so that one noisy run on a shared machine does not decide. */
	const summarise = (runs: Run[]) => ({
		wallMs: median(runs.map((run) => run.wallMs)),
		executionMs: median(runs.map((run) => run.executionMs)),
		nodesMs: median(runs.map((run) => run.nodesMs)),
		requests: runs[0].requests,
		itemsOut: runs[0].items.length,
		peakMemoryMb: +(median(runs.map((run) => run.peakBytes)) / 2 ** 20).toFixed(1),
		statuses: [...new Set(runs.map((run) => run.status))],
	});
	const setLatency = async (ms: number) => await survey.call('PUT', '/latency', { ms });
	const compare = async (latencyMs: number) => {
		await setLatency(latencyMs);
		// One warm-up each, so that neither side pays n8n's first-run costs.
		await measure(ours.id, 'bench-p1-ours');
		await measure(theirs.id, 'bench-p1-http');
		const oursRuns: Run[] = [];
		const theirsRuns: Run[] = [];
		for (let run = 0; run < P1_RUNS; run++) {
			oursRuns.push(await measure(ours.id, 'bench-p1-ours'));
			theirsRuns.push(await measure(theirs.id, 'bench-p1-http'));
		}
		const identical = [...oursRuns, ...theirsRuns].every(
			(run) => JSON.stringify(run.items) === JSON.stringify(oursRuns[0].items),
		);
		const surveyNode = summarise(oursRuns);
		const httpRequestNode = summarise(theirsRuns);
		return {
			serviceLatencyMs: latencyMs,
			runs: P1_RUNS,
			surveyNode,
			httpRequestNode,
			identicalItems: identical,
			speedup: +(httpRequestNode.wallMs / surveyNode.wallMs).toFixed(2),
			speedupInNodes: +(httpRequestNode.nodesMs / surveyNode.nodesMs).toFixed(2),
			memoryRatio: +(surveyNode.peakMemoryMb / Math.max(0.1, httpRequestNode.peakMemoryMb)).toFixed(2),
		};
	};
	const local = await compare(0);
	const withLatency = await compare(P1_LATENCY_MS);
	await setLatency(0);
	return { local, withLatency };
}

/**
 * n8n 2.x evaluates expressions in V8 isolates and takes a fresh one from its pool for every
 * acquisition. A production webhook request acquires one before the trigger runs, unless the
 * trigger is n8n's own Webhook node from version 2 on with static parameters
 * (`webhookPhaseNeedsIsolate` in n8n's live-webhooks); the execution acquires another. The
 * Webhook node at version 1 is therefore measured too: n8n's own node on the same path as ours.
 */
async function p2WebhookIngest(stack: Stack, options: { webhookNodeV1: boolean }) {
	const { n8n, sandbox } = stack;
	const ours = await deployChain(n8n, stack, 'Bench P2 – Survey Trigger', [
		{
			name: 'Survey Trigger',
			type: `${PACKAGE_NAME}.surveyTrigger`,
			typeVersion: 1,
			position: [0, 0],
			webhookId: 'bench-p2-ours',
			parameters: { registration: 'automatic', events: ['responseFinished'], allSurveys: true },
			credentials: { surveyApi: stack.credentials.surveyApi },
		},
	]);
	// The secret the trigger registered, as the service would sign with it.
	const hooks = await sandboxControl(sandbox, 'survey').call<{ data: Array<{ url: string; secret: string }> }>(
		'GET',
		'/webhooks',
	);
	const secret = hooks.data.find((hook) => hook.url.includes('bench-p2-ours'))?.secret;
	if (!secret) throw new Error('The Survey Trigger registered no webhook');
	const webhookNodeAt = async (typeVersion: number) => {
		const path = `bench-p2-webhook-v${typeVersion}`;
		const workflow = await deployChain(n8n, stack, `Bench P2 – Webhook node v${typeVersion}`, [
			{ ...webhookNode(path, 'onReceived'), typeVersion },
		]);
		return { workflow, url: `${n8n.baseUrl}/webhook/${path}` };
	};
	const theirs = await webhookNodeAt(2);
	const theirsV1 = options.webhookNodeV1 ? await webhookNodeAt(1) : undefined;
	const signer = new Webhook(secret);

	const deliver = async (url: string, label: string, count: number) => {
		let next = 0;
		let rejects = 0;
		const started = Date.now();
		const worker = async () => {
			while (next < count) {
				const n = next++;
				const body = JSON.stringify({
					event: 'responseFinished',
					surveyId: BENCH_SURVEY,
					responseId: `resp_${label}_${n}`,
					createdAt: new Date().toISOString(),
					data: { fullName: `Applicant ${n}`, decision: 'approved' },
				});
				const id = `msg_${label}_${n}`;
				const status = await post(url, body, standardWebhookHeaders(signer, id, body), 30_000).catch(() => 0);
				if (status < 200 || status >= 300) rejects++;
			}
		};
		await Promise.all(Array.from({ length: Math.min(DELIVERY_CONCURRENCY, count) }, worker));
		return { wallMs: Date.now() - started, rejects };
	};
	const settledExecutions = async (workflowId: string) =>
		await waitUntil('the executions to settle', async () => {
			const first = await countExecutions(n8n, workflowId);
			await new Promise((resolve) => setTimeout(resolve, 2_000));
			const second = await countExecutions(n8n, workflowId);
			return first === second ? second : undefined;
		}, 300_000, 0);
	const run = async (url: string, workflowId: string, label: string) => {
		await deliver(url, `${label}_warmup`, P2_WARMUP);
		const before = await settledExecutions(workflowId);
		const { wallMs, rejects } = await deliver(url, label, DELIVERIES);
		const executions = (await settledExecutions(workflowId)) - before;
		return { wallMs, deliveriesPerSecond: +((DELIVERIES * 1000) / wallMs).toFixed(1), executions, rejects };
	};
	await callUntilRegistered(theirs.url, { warmup: true });
	const surveyTrigger = await run(`${n8n.baseUrl}/webhook/bench-p2-ours/webhook`, ours.id, 'ours');
	const webhookNodeRun = await run(theirs.url, theirs.workflow.id, 'webhook');
	const webhookNodeV1 = theirsV1 ? await run(theirsV1.url, theirsV1.workflow.id, 'webhook_v1') : undefined;
	return {
		surveyTrigger,
		webhookNode: webhookNodeRun,
		rateRatio: +(surveyTrigger.deliveriesPerSecond / webhookNodeRun.deliveriesPerSecond).toFixed(2),
		...(webhookNodeV1 && {
			webhookNodeV1,
			rateRatioToWebhookNodeV1: +(surveyTrigger.deliveriesPerSecond / webhookNodeV1.deliveriesPerSecond).toFixed(2),
		}),
		concurrency: DELIVERY_CONCURRENCY,
	};
}

async function p3BulkSigning(stack: Stack) {
	const { n8n, sandbox, credentials } = stack;
	const signing = sandboxControl(sandbox, 'signing');
	await signing.rateLimit(SIGNING_LIMIT);
	const workflow = await deployChain(n8n, stack, 'Bench P3 – bulk signing', [
		webhookNode('bench-p3'),
		{
			name: 'Split',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [200, 0],
			parameters: { fieldToSplitOut: 'body.applicants', options: {} },
		},
		{
			name: 'Generate',
			type: `${PACKAGE_NAME}.signing`,
			typeVersion: 1,
			position: [400, 0],
			onError: 'continueRegularOutput',
			parameters: {
				resource: 'document',
				operation: 'generateFromTemplate',
				templateId: 'tpl_residency_agreement',
				title: '=Residency agreement – {{ $json.name }}',
				recipientsInput: 'json',
				recipientsJson: '={{ [{ "name": $json.name, "email": $json.email, "role": "SIGNER" }] }}',
			},
			credentials: { signingApi: credentials.signingApi },
		} as Node,
	]);
	const applicants = Array.from({ length: DOCUMENTS }, (_, n) => ({ name: `Applicant ${n}`, email: `applicant${n}@example.org` }));
	await signing.clearRequests();
	const { ms } = await callUntilRegistered(`${n8n.baseUrl}/webhook/bench-p3`, { applicants });
	const requests = await takeRequests(signing);
	const { items } = (await lastExecution(n8n, workflow.id, 'Generate')) as { items: Array<{ error?: unknown }> };
	const documents = (await signing.call<{ documents: unknown[] }>('GET', '/documents')).documents.length;
	const floorMs = (DOCUMENTS / SIGNING_LIMIT) * 60_000;
	return {
		wallMs: ms,
		floorMs,
		wallOverFloor: +(ms / floorMs).toFixed(2),
		rateLimitAnswers: requests.filter((r) => r.status === 429).length,
		failedItems: items.filter((item) => item.error !== undefined).length,
		documentsCreated: documents,
	};
}

async function main() {
	const deadline = setTimeout(() => {
		process.stderr.write('Benchmarks exceeded 40 minutes: stopping.\n');
		process.exit(1);
	}, 40 * 60_000);
	say('Starting the sandbox and n8n with the package...');
	let stack: Stack | undefined = await startStack({ rateLimits: { survey: null } });
	const machine = {
		date: new Date().toISOString(),
		cores: os.cpus().length,
		memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
		nodeForBenchmarks: process.version,
		nodeForN8n: execFileSync(NODE24_BIN, ['--version'], { encoding: 'utf8' }).trim(),
		n8n: N8N_VERSION,
	};
	try {
		say(`P1 Return All over ${RESPONSES} responses...`);
		const p1 = await p1ReturnAll(stack);
		say(`P2 webhook ingest, ${DELIVERIES} deliveries at concurrency ${DELIVERY_CONCURRENCY}...`);
		const p2 = await p2WebhookIngest(stack, { webhookNodeV1: true });
		say(`P3 bulk signing, ${DOCUMENTS} documents at ${SIGNING_LIMIT} requests a minute...`);
		const p3 = await p3BulkSigning(stack);
		await stack.stop();
		stack = undefined;
		say('P2 again, in an n8n with the legacy expression engine (no isolates)...');
		stack = await startStack({ rateLimits: { survey: null } }, { N8N_EXPRESSION_ENGINE: 'legacy' });
		const p2LegacyEngine = await p2WebhookIngest(stack, { webhookNodeV1: false });
		const results = { machine, p1, p2: { ...p2, legacyExpressionEngine: p2LegacyEngine }, p3 };
		writeFileSync(path.join(PROJECT_ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
		say();
		say(`Machine: ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.nodeForBenchmarks} (bench), ${machine.nodeForN8n} (n8n), n8n ${machine.n8n}`);
		say('| Benchmark | Ours | n8n built-in | Ratio | Target |');
		say('|---|---|---|---|---|');
		for (const run of [p1.local, p1.withLatency]) {
			const label = `P1 (${run.serviceLatencyMs} ms a page)`;
			const { surveyNode: ours, httpRequestNode: theirs } = run;
			say(`| ${label} wall time | ${ours.wallMs} ms | ${theirs.wallMs} ms | ${run.speedup}× faster | ≥ 3× |`);
			say(`| ${label} time in the nodes | ${ours.nodesMs} ms | ${theirs.nodesMs} ms | ${run.speedupInNodes}× faster | |`);
			say(`| ${label} requests | ${ours.requests} | ${theirs.requests} | | |`);
			say(`| ${label} items out | ${ours.itemsOut} | ${theirs.itemsOut} | identical: ${run.identicalItems} | identical |`);
			say(`| ${label} peak n8n memory | ${ours.peakMemoryMb} MB | ${theirs.peakMemoryMb} MB | ${run.memoryRatio}× | ≤ 1.0× |`);
		}
		say(`| P2 deliveries/s | ${p2.surveyTrigger.deliveriesPerSecond} | ${p2.webhookNode.deliveriesPerSecond} | ${p2.rateRatio}× | ≥ 0.95× |`);
		say(`| P2 executions | ${p2.surveyTrigger.executions} | ${p2.webhookNode.executions} | | ${DELIVERIES} |`);
		say(`| P2 rejects | ${p2.surveyTrigger.rejects} | ${p2.webhookNode.rejects} | | 0 |`);
		if (p2.webhookNodeV1) {
			say(`| P2 against n8n's Webhook node v1 | ${p2.surveyTrigger.deliveriesPerSecond} | ${p2.webhookNodeV1.deliveriesPerSecond} | ${p2.rateRatioToWebhookNodeV1}× | |`);
		}
		say(`| P2, legacy expression engine, deliveries/s | ${p2LegacyEngine.surveyTrigger.deliveriesPerSecond} | ${p2LegacyEngine.webhookNode.deliveriesPerSecond} | ${p2LegacyEngine.rateRatio}× | ≥ 0.95× |`);
		say(`| P3 wall time | ${p3.wallMs} ms | | ${p3.wallOverFloor}× the ${p3.floorMs / 1000} s floor | ≤ 1.1× |`);
		say(`| P3 429s seen / failed items / documents | ${p3.rateLimitAnswers} / ${p3.failedItems} / ${p3.documentsCreated} | | | – / 0 / ${DOCUMENTS} |`);
		say();
		say('Written to bench/results.json');
	} finally {
		clearTimeout(deadline);
		await stack?.stop();
	}
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
