/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * What the benchmarks in bench/benchmarks/ share: a stack to run in, workflows made of a chain
 * of nodes, the figures read back from n8n and the sandbox, memory sampling, signed deliveries,
 * and the row of the table each benchmark contributes. The stack itself is test/harness's.
 */
import { readFileSync } from 'node:fs';
import type { Webhook } from 'standardwebhooks';

import type { N8nInstance } from '../test/harness/n8n';
import { activateWorkflow, importWorkflow, type Stack, startStack, waitUntil } from '../test/harness/provision';
import { standardWebhookHeaders, type SandboxOptions } from '../test/sandbox';
import { sandboxControl } from '../test/unit/helpers/sandbox';

export const say = (line = '') => process.stdout.write(`${line}\n`);

/** The survey the benchmarks generate their responses in. */
export const BENCH_SURVEY = 'srv_bench';

/** One line of the table `bench/run.ts` prints. `met` is left out where a line has no target. */
export interface Row {
	benchmark: string;
	ours: string;
	theirs: string;
	result: string;
	target: string;
	met?: boolean;
}

export interface BenchmarkOutcome {
	/** What goes into bench/results.json under the benchmark's name. */
	figures: Record<string, unknown>;
	rows: Row[];
	/** True when a size was lowered from the benchmark's full size (by env): such figures never replace a full run's. */
	reducedSize: boolean;
}

export interface Benchmark {
	/** The name to select it with (`BENCH_ONLY`, argv) and its key in bench/results.json. */
	name: string;
	title: string;
	/** Run when no benchmark is selected by name. */
	runByDefault: boolean;
	run(): Promise<BenchmarkOutcome>;
}

/**
 * The sizes of a benchmark, each from its env variable or its full size, and whether any was
 * lowered or raised from the full size.
 */
export function sizesFromEnv<K extends string>(
	spec: Record<K, [variable: string, fullSize: number]>,
): Record<K, number> & { reducedSize: boolean } {
	let reducedSize = false;
	const sizes = {} as Record<K, number>;
	for (const [name, [variable, fullSize]] of Object.entries(spec) as Array<[K, [string, number]]>) {
		const value = process.env[variable] === undefined ? fullSize : Number(process.env[variable]);
		if (!Number.isFinite(value) || value <= 0) throw new Error(`${variable} must be a positive number`);
		if (value !== fullSize) reducedSize = true;
		sizes[name] = value;
	}
	return { ...sizes, reducedSize };
}

/** A list of sizes from an env variable (`20000,100000`), or the full list. */
export function sizeListFromEnv(variable: string, fullSizes: number[]): { sizes: number[]; reducedSize: boolean } {
	const raw = process.env[variable];
	if (raw === undefined) return { sizes: fullSizes, reducedSize: false };
	const sizes = raw.split(',').map((part) => Number(part.trim()));
	if (sizes.some((size) => !Number.isFinite(size) || size <= 0)) throw new Error(`${variable} must list positive numbers`);
	return { sizes, reducedSize: sizes.join(',') !== fullSizes.join(',') };
}

/** Runs `body` in a fresh sandbox and n8n with the package, and stops both whatever happens. */
export async function withStack<T>(
	sandboxOptions: SandboxOptions,
	n8nEnv: Record<string, string>,
	body: (stack: Stack) => Promise<T>,
	n8nNodeFlags: string[] = [],
): Promise<T> {
	const stack = await startStack(sandboxOptions, n8nEnv, n8nNodeFlags);
	try {
		return await body(stack);
	} finally {
		await stack.stop();
	}
}

export interface Node {
	[key: string]: unknown;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	webhookId?: string;
	credentials?: Record<string, { id: string; name: string }>;
}

/** n8n's Webhook node as the start of a workflow, named `Start`. */
export const webhookNode = (path: string, responseMode = 'lastNode'): Node => ({
	name: 'Start',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	position: [0, 0],
	webhookId: path,
	parameters: { httpMethod: 'POST', path, responseMode, responseData: 'noData', options: {} },
});

export const noOpNode = (name: string, x: number): Node => ({
	name,
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [x, 0],
	parameters: {},
});

const chain = (nodes: Node[]) =>
	Object.fromEntries(
		nodes
			.slice(0, -1)
			.map((node, index) => [node.name, { main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] }]),
	);

/** Imports and activates a workflow whose nodes run one after the other. */
export async function deployChain(stack: Stack, name: string, nodes: Node[]) {
	const workflow = await importWorkflow(stack.n8n, { name, nodes, connections: chain(nodes) }, stack.credentials);
	await activateWorkflow(stack.n8n, workflow.id);
	return workflow;
}

/** Resident memory of a process now, in bytes. */
export function residentBytes(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * Peak resident memory of a process above `baseline` (by default what it uses now), sampled
 * every 20 ms; call the result to stop.
 */
export function sampleMemory(pid: number, baseline = residentBytes(pid)) {
	let peak = baseline;
	const timer = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20);
	return () => {
		clearInterval(timer);
		return Math.max(0, peak - baseline);
	};
}

export const megabytes = (bytes: number) => +(bytes / 2 ** 20).toFixed(1);

export async function post(url: string, body: unknown, headers: Record<string, string> = {}, timeoutMs = 600_000) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
		signal: AbortSignal.timeout(timeoutMs),
	});
	await response.arrayBuffer();
	return response.status;
}

/** Calls a webhook until n8n has registered it; the time of the call that got through. */
export async function callUntilRegistered(url: string, body: unknown) {
	return await waitUntil(
		'the webhook',
		async () => {
			const started = Date.now();
			const status = await post(url, body);
			return status === 404 ? undefined : { status, ms: Date.now() - started };
		},
		60_000,
		500,
	);
}

export interface ExecutionFigures {
	/** The items the node put out in the last execution of the workflow. */
	items: unknown[];
	/** From the execution's start to its stop, as n8n recorded it. */
	executionMs: number;
	/** The time n8n recorded in the nodes after the trigger. */
	nodesMs: number;
}

type RunData = Record<string, Array<{ executionTime: number; data?: { main: Array<Array<{ json: unknown }> | null> } }>>;

export async function lastExecution(n8n: N8nInstance, workflowId: string, nodeName: string): Promise<ExecutionFigures> {
	const { data } = await n8n.api<{ data: Array<{ id: string }> }>('GET', `/executions?workflowId=${workflowId}&limit=1`);
	const execution = await n8n.api<{ startedAt: string; stoppedAt: string; data: { resultData: { runData: RunData } } }>(
		'GET',
		`/executions/${data[0].id}?includeData=true`,
	);
	const { runData } = execution.data.resultData;
	return {
		items: (runData[nodeName][0].data?.main[0] ?? []).map((item) => item.json),
		executionMs: Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt),
		nodesMs: Object.entries(runData)
			.filter(([name]) => name !== 'Start')
			.reduce((sum, [, runs]) => sum + runs[0].executionTime, 0),
	};
}

interface ExecutionPage<T> {
	data: T[];
	nextCursor?: string | null;
}

/** Every execution of a workflow, page by page; with their data when asked. */
export async function listAllExecutions<T extends { status: string }>(
	n8n: N8nInstance,
	workflowId: string,
	includeData = false,
): Promise<T[]> {
	const executions: T[] = [];
	let cursor: string | undefined;
	do {
		const page = await n8n.api<ExecutionPage<T>>(
			'GET',
			`/executions?workflowId=${workflowId}&limit=${includeData ? 100 : 250}${includeData ? '&includeData=true' : ''}${cursor ? `&cursor=${cursor}` : ''}`,
		);
		executions.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return executions;
}

const UNFINISHED = ['new', 'running', 'waiting'];

export async function countExecutions(n8n: N8nInstance, workflowId: string, finishedOnly = false): Promise<number> {
	const executions = await listAllExecutions<{ status: string }>(n8n, workflowId);
	return executions.filter((execution) => !finishedOnly || !UNFINISHED.includes(execution.status)).length;
}

/** The number of executions once it stays the same for two seconds and none is unfinished. */
export async function settledExecutions(n8n: N8nInstance, workflowId: string) {
	return await waitUntil(
		'the executions to settle',
		async () => {
			const first = await countExecutions(n8n, workflowId);
			await new Promise((resolve) => setTimeout(resolve, 2_000));
			const second = await countExecutions(n8n, workflowId);
			const finished = await countExecutions(n8n, workflowId, true);
			return first === second && finished === second ? second : undefined;
		},
		600_000,
		0,
	);
}

export interface ExecutionWithData {
	status: string;
	startedAt: string;
	stoppedAt?: string | null;
	data?: { resultData: { runData: RunData } };
}

/** Every execution of a workflow with its data. */
export async function executionsWithData(n8n: N8nInstance, workflowId: string) {
	return await listAllExecutions<ExecutionWithData>(n8n, workflowId, true);
}

/** The `json` of the items one node put out, over the given executions. */
export function itemsOutOf(executions: ExecutionWithData[], nodeName: string) {
	return executions.flatMap((execution) =>
		(execution.data?.resultData.runData[nodeName] ?? []).flatMap((run) =>
			(run.data?.main[0] ?? []).map((item) => item.json as Record<string, unknown>),
		),
	);
}

/** The API requests the service received since the last call, which it then forgets. */
export async function takeRequests(service: ReturnType<typeof sandboxControl>) {
	const requests = await service.requests();
	await service.clearRequests();
	return requests;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export const ratio = (numerator: number, denominator: number) => +(numerator / Math.max(1e-9, denominator)).toFixed(2);

/** Least-squares slope of y over x. */
export function slope(points: Array<[x: number, y: number]>): number {
	const n = points.length;
	if (n < 2) return Number.NaN;
	const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
	const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
	const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
	const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
	return covariance / variance;
}

/** A `responseFinished` event as the survey service would send it. */
export function responseFinishedBody(label: string, n: number): string {
	return JSON.stringify({
		event: 'responseFinished',
		surveyId: BENCH_SURVEY,
		responseId: `resp_${label}_${n}`,
		createdAt: new Date().toISOString(),
		data: { fullName: `Applicant ${n}`, decision: 'approved' },
	});
}

export interface SignedDelivery {
	/** The Standard Webhooks `webhook-id`; a redelivery repeats its original's. */
	id: string;
	body: string;
	/** Signed with the endpoint's secret, or with another one for a forged delivery. */
	signer: Webhook;
}

/**
 * Sends the deliveries in order, `concurrency` at a time, each signed as it leaves (so its
 * timestamp is current), and returns the wall time and each delivery's HTTP status (0: no answer).
 */
export async function deliver(url: string, deliveries: SignedDelivery[], concurrency: number) {
	const statuses = new Array<number>(deliveries.length).fill(0);
	let next = 0;
	const started = Date.now();
	const sender = async () => {
		while (next < deliveries.length) {
			const index = next++;
			const { id, body, signer } = deliveries[index];
			statuses[index] = await post(url, body, standardWebhookHeaders(signer, id, body), 30_000).catch(() => 0);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, deliveries.length) }, sender));
	return { wallMs: Date.now() - started, statuses };
}

export const accepted = (status: number) => status >= 200 && status < 300;

/** The secret a Survey Trigger registered with the sandbox's survey service for its webhook. */
export async function registeredSecret(stack: Stack, webhookPath: string): Promise<string> {
	const hooks = await sandboxControl(stack.sandbox, 'survey').call<{ data: Array<{ url: string; secret: string }> }>(
		'GET',
		'/webhooks',
	);
	const secret = hooks.data.find((hook) => hook.url.includes(webhookPath))?.secret;
	if (!secret) throw new Error(`No webhook registered for ${webhookPath}`);
	return secret;
}

/** Creates the benchmark survey with `count` generated responses. */
export async function createBenchSurvey(stack: Stack, count: number) {
	const survey = sandboxControl(stack.sandbox, 'survey');
	await survey.call('POST', '/surveys', { id: BENCH_SURVEY, name: 'Benchmark survey', status: 'completed' });
	return await addBenchResponses(stack, count);
}

/** Adds generated responses to the benchmark survey; the total it then holds. */
export async function addBenchResponses(stack: Stack, count: number) {
	const survey = sandboxControl(stack.sandbox, 'survey');
	let total = 0;
	// The sandbox generates at most 100,000 at a time.
	for (let left = count; left > 0; left -= 100_000) {
		const body = { count: Math.min(100_000, left) };
		total = (await survey.call<{ total: number }>('POST', `/surveys/${BENCH_SURVEY}/generate-responses`, body)).total;
	}
	return total;
}
