/**
 * P1: Return All over the survey's responses with the Survey node, against n8n's HTTP Request
 * node with its pagination and a Split Out, first with the sandbox answering at once, then with
 * each page answered after `BENCH_LATENCY_MS` (a service behind a network and a database).
 * The service's rate limit (100 requests a minute) holds throughout; its window is emptied
 * before each run, as if each were the only read of that minute, and the 429s each side met are
 * counted.
 */
import { PACKAGE_NAME } from '../../test/harness/n8n';
import type { Stack } from '../../test/harness/provision';
import { sandboxControl } from '../../test/unit/helpers/sandbox';
import {
	BENCH_SURVEY,
	type Benchmark,
	callUntilRegistered,
	createBenchSurvey,
	deployChain,
	lastExecution,
	median,
	megabytes,
	type Node,
	ratio,
	type Row,
	sampleMemory,
	sizesFromEnv,
	takeRequests,
	webhookNode,
	withStack,
} from '../shared';

export const PAGE_SIZE = 250;
/** The survey service's limit in the contract: requests a minute per key. */
const SERVICE_RATE_LIMIT = 100;

/** The Survey node's Get Many with Return All, the workflow's output node named `Responses`. */
export function surveyReturnAllNode(stack: Stack): Node {
	return {
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
		credentials: { surveyApi: stack.credentials.surveyApi },
	};
}

/** What a user builds without the pack: HTTP Request with pagination, then Split Out (named `Responses`). */
export function httpRequestReturnAllNodes(stack: Stack): Node[] {
	return [
		{
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [200, 0],
			parameters: {
				url: `${stack.sandbox.survey.url}/api/v1/management/surveys/${BENCH_SURVEY}/responses`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'surveyApi',
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: {
								parameters: [
									{ type: 'qs', name: 'offset', value: `={{ $pageCount * ${PAGE_SIZE} }}` },
									{ type: 'qs', name: 'limit', value: String(PAGE_SIZE) },
								],
							},
							paginationCompleteWhen: 'other',
							completeExpression: `={{ $response.body.data.length < ${PAGE_SIZE} }}`,
						},
					},
				},
			},
			credentials: { surveyApi: stack.credentials.surveyApi },
		},
		{
			name: 'Responses',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [400, 0],
			parameters: { fieldToSplitOut: 'data', options: {} },
		},
	];
}

/**
 * One run of a webhook-started workflow: wall time, peak n8n memory (above `memoryBaseline`,
 * by default what n8n used just before), requests to the survey service.
 */
export async function measureRun(stack: Stack, webhookPath: string, memoryBaseline?: number) {
	const survey = sandboxControl(stack.sandbox, 'survey');
	await survey.clearRequests();
	const memory = sampleMemory(stack.n8n.pid, memoryBaseline);
	const { status, ms } = await callUntilRegistered(`${stack.n8n.baseUrl}/webhook/${webhookPath}`, {});
	const peakBytes = memory();
	const requests = await takeRequests(survey);
	return {
		status,
		wallMs: ms,
		peakBytes,
		requests: requests.length,
		rateLimitAnswers: requests.filter((request) => request.status === 429).length,
	};
}

export const p1ReturnAll: Benchmark = {
	name: 'p1',
	title: 'P1 Return All (Survey node against HTTP Request pagination)',
	runByDefault: true,
	async run() {
		const { responses, latencyMs, runs, reducedSize } = sizesFromEnv({
			responses: ['BENCH_RESPONSES', 20_000],
			// A page of a real service costs a round trip and a query; the sandbox answers in about a millisecond.
			latencyMs: ['BENCH_LATENCY_MS', 50],
			runs: ['BENCH_RUNS', 3],
		});
		return await withStack({}, {}, async (stack) => {
			const survey = sandboxControl(stack.sandbox, 'survey');
			// Generating the responses is the sandbox's own work, not a read: no limit for it.
			await survey.rateLimit(null);
			await createBenchSurvey(stack, responses);
			const ours = await deployChain(stack, 'Bench P1 – Survey node', [webhookNode('bench-p1-ours'), surveyReturnAllNode(stack)]);
			const theirs = await deployChain(stack, 'Bench P1 – HTTP Request node', [
				webhookNode('bench-p1-http'),
				...httpRequestReturnAllNodes(stack),
			]);
			/** The service's limit in the runs being measured: the contract's, or none (a server whose operator lifted it). */
			let serviceLimit: number | null = SERVICE_RATE_LIMIT;
			const measure = async (workflowId: string, path: string) => {
				await survey.rateLimit(serviceLimit);
				return {
					...(await measureRun(stack, path)),
					...(await lastExecution(stack.n8n, workflowId, 'Responses')),
				};
			};
			type Run = Awaited<ReturnType<typeof measure>>;
			/** Medians of the measured runs, so that one noisy run on a shared machine does not decide. */
			const summarise = (measured: Run[]) => ({
				wallMs: median(measured.map((run) => run.wallMs)),
				executionMs: median(measured.map((run) => run.executionMs)),
				nodesMs: median(measured.map((run) => run.nodesMs)),
				requests: measured[0].requests,
				rateLimitAnswers: Math.max(...measured.map((run) => run.rateLimitAnswers)),
				itemsOut: measured[0].items.length,
				peakMemoryMb: megabytes(median(measured.map((run) => run.peakBytes))),
				statuses: [...new Set(measured.map((run) => run.status))],
			});
			const compare = async (serviceLatencyMs: number, limit: number | null = SERVICE_RATE_LIMIT) => {
				serviceLimit = limit;
				await survey.call('PUT', '/latency', { ms: serviceLatencyMs });
				// One warm-up each, so that neither side pays n8n's first-run costs.
				await measure(ours.id, 'bench-p1-ours');
				await measure(theirs.id, 'bench-p1-http');
				const oursRuns: Run[] = [];
				const theirsRuns: Run[] = [];
				for (let run = 0; run < runs; run++) {
					oursRuns.push(await measure(ours.id, 'bench-p1-ours'));
					theirsRuns.push(await measure(theirs.id, 'bench-p1-http'));
				}
				const expected = JSON.stringify(oursRuns[0].items);
				const surveyNode = summarise(oursRuns);
				const httpRequestNode = summarise(theirsRuns);
				return {
					serviceLatencyMs,
					serviceLimit: limit,
					runs,
					surveyNode,
					httpRequestNode,
					identicalItems:
						oursRuns[0].items.length === responses &&
						[...oursRuns, ...theirsRuns].every((run) => JSON.stringify(run.items) === expected),
					speedup: ratio(httpRequestNode.wallMs, surveyNode.wallMs),
					speedupInNodes: ratio(httpRequestNode.nodesMs, surveyNode.nodesMs),
					memoryRatio: ratio(surveyNode.peakMemoryMb, Math.max(0.1, httpRequestNode.peakMemoryMb)),
				};
			};
			const local = await compare(0);
			const withLatency = await compare(latencyMs);
			// Issue 42: a server without a limit is read as fast as it answers (the budget paced it at the platform's default).
			const unlimited = await compare(latencyMs, null);
			const rows: Row[] = [];
			for (const [run, speedTarget] of [
				[local, 3],
				[withLatency, 5],
				[unlimited, 4],
			] as const) {
				const limitText = run.serviceLimit === null ? ', no rate limit' : '';
				const label = `P1 ${responses} responses, ${run.serviceLatencyMs} ms a page${limitText}`;
				const { surveyNode: o, httpRequestNode: t } = run;
				rows.push(
					{
						benchmark: `${label}: wall time (median of ${runs})`,
						ours: `${o.wallMs} ms`,
						theirs: `${t.wallMs} ms`,
						result: `${run.speedup}× faster`,
						target: `≥ ${speedTarget}×`,
						met: run.speedup >= speedTarget,
					},
					{ benchmark: `${label}: time in the nodes`, ours: `${o.nodesMs} ms`, theirs: `${t.nodesMs} ms`, result: `${run.speedupInNodes}× faster`, target: '' },
					{
						benchmark: `${label}: requests (429s)`,
						ours: `${o.requests} (${o.rateLimitAnswers})`,
						theirs: `${t.requests} (${t.rateLimitAnswers})`,
						result: '',
						target: '',
					},
					{
						benchmark: `${label}: items out`,
						ours: String(o.itemsOut),
						theirs: String(t.itemsOut),
						result: `identical: ${run.identicalItems}`,
						target: 'identical, none missing',
						met: run.identicalItems,
					},
					{
						benchmark: `${label}: peak n8n memory`,
						ours: `+${o.peakMemoryMb} MB`,
						theirs: `+${t.peakMemoryMb} MB`,
						result: `${run.memoryRatio}×`,
						target: '≤ 1.0×',
						met: run.memoryRatio <= 1,
					},
				);
			}
			return { figures: { responses, local, withLatency, unlimited }, rows, reducedSize };
		});
	},
};
