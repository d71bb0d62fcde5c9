/**
 * The scale curve: Return All and Get Metrics over a growing survey (`BENCH_SCALE_SIZES`, by
 * default 20,000, 100,000 and 200,000 responses, with the sandbox's rate limit lifted), against
 * the HTTP Request node's pagination with a Split Out, each contender at each size in an n8n of
 * its own. First one run of the workflow with a last node that calls a checkpoint, where the live
 * memory (reachable after a full garbage collection, see ../liveHeap.ts) is measured while the
 * execution holds every node's output, above what n8n held before the run; then wall time
 * (median of `BENCH_RUNS` runs) and peak resident memory above n8n after that run; and the
 * slopes per 1,000 responses (least squares over the sizes). The memory targets are judged on
 * live memory: resident memory also grows with the garbage V8 lets build up before collecting it.
 */
import { PACKAGE_NAME } from '../../test/harness/n8n';
import type { Stack } from '../../test/harness/provision';
import { InspectorSession, inspectorFlags, startCheckpoint } from '../liveHeap';
import {
	BENCH_SURVEY,
	type Benchmark,
	createBenchSurvey,
	deployChain,
	median,
	megabytes,
	residentBytes,
	type Node,
	ratio,
	type Row,
	say,
	sizeListFromEnv,
	sizesFromEnv,
	slope,
	webhookNode,
	withStack,
} from '../shared';
import { httpRequestReturnAllNodes, measureRun, PAGE_SIZE, surveyReturnAllNode } from './p1ReturnAll';

function surveyGetMetricsNode(stack: Stack): Node {
	return {
		name: 'Metrics',
		type: `${PACKAGE_NAME}.survey`,
		typeVersion: 1,
		position: [200, 0],
		parameters: {
			resource: 'survey',
			operation: 'getMetrics',
			surveyId: { __rl: true, mode: 'id', value: BENCH_SURVEY },
		},
		credentials: { surveyApi: stack.credentials.surveyApi },
	};
}

/** Last node of the held workflows: calls the checkpoint once, while the execution holds every output. */
function checkpointNode(url: string): Node {
	return {
		name: 'Checkpoint',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [600, 0],
		executeOnce: true,
		parameters: { url, options: {} },
	};
}

/**
 * The responses alone, as parsed from the service's pages and held in one array, in n8n's own
 * process: the least any Return All that puts each response out as an item must hold.
 */
function responsesAloneExpression(stack: Stack): string {
	const url = `${stack.sandbox.survey.url}/api/v1/management/surveys/${BENCH_SURVEY}/responses`;
	return `(async () => {
		const pages = [];
		for (let offset = 0; ; offset += ${PAGE_SIZE}) {
			const response = await fetch(${JSON.stringify(url)} + '?limit=${PAGE_SIZE}&offset=' + offset, {
				headers: { 'x-api-key': ${JSON.stringify(stack.sandbox.survey.apiKey)} },
			});
			const { data } = await response.json();
			pages.push(data);
			if (data.length < ${PAGE_SIZE}) return pages.flat();
		}
	})()`;
}

const WORKFLOWS = {
	surveyReturnAll: { title: 'Survey node, Return All', path: 'bench-scale-return-all' },
	surveyGetMetrics: { title: 'Survey node, Get Metrics', path: 'bench-scale-metrics' },
	httpRequestReturnAll: { title: 'HTTP Request pagination + Split Out', path: 'bench-scale-http' },
} as const;
type Contender = keyof typeof WORKFLOWS;

/** Get Metrics keeps no more than the pages in flight: its live memory slope should be about nothing. */
const METRICS_SLOPE_TARGET_MB = 0.05;

export const scaleCurve: Benchmark = {
	name: 'scaleCurve',
	title: 'Scale curve (Return All and Get Metrics as the survey grows)',
	runByDefault: true,
	async run() {
		const { sizes, reducedSize: reducedSizes } = sizeListFromEnv(
			'BENCH_SCALE_SIZES',
			[20_000, 100_000, 200_000],
		);
		const { runs, reducedSize: fewerRuns } = sizesFromEnv({ runs: ['BENCH_RUNS', 3] });
		const reducedSize = reducedSizes || fewerRuns;
		const nodesOf: Record<Contender, (stack: Stack) => Node[]> = {
			surveyReturnAll: (stack) => [surveyReturnAllNode(stack)],
			surveyGetMetrics: (stack) => [surveyGetMetricsNode(stack)],
			httpRequestReturnAll: (stack) => httpRequestReturnAllNodes(stack),
		};
		type Point = { responses: number; responsesAloneLiveMemoryMb?: number } & Record<
			Contender,
			{
				wallMs: number;
				peakMemoryMb: number;
				heldLiveMemoryMb: number;
				requests: number;
				status: number;
			}
		>;
		const points = [...sizes].sort((a, b) => a - b).map((responses) => ({ responses }) as Point);
		// Each contender at each size in an n8n of its own: n8n can keep what one execution made it
		// take (resident memory) and even the data of the last execution (live memory, seen with the
		// HTTP Request node: the next execution then releases it), which would blur the next run.
		for (const [contender, { title, path }] of Object.entries(WORKFLOWS) as Array<
			[Contender, (typeof WORKFLOWS)[Contender]]
		>) {
			for (const point of points) {
				const inspector = await inspectorFlags();
				const measureContender = async (stack: Stack) => {
					const session = await InspectorSession.open(inspector.port);
					const checkpoint = await startCheckpoint(session);
					try {
						await deployChain(stack, `Bench scale – ${title}`, [webhookNode(path), ...nodesOf[contender](stack)]);
						await deployChain(stack, `Bench scale – ${title}, held`, [
							webhookNode(`${path}-held`),
							...nodesOf[contender](stack),
							checkpointNode(checkpoint.url),
						]);
						await createBenchSurvey(stack, point.responses);
						say(`  ${title}: ${point.responses} responses...`);
						if (contender === 'surveyReturnAll') {
							point.responsesAloneLiveMemoryMb = megabytes(await session.heldBytes(responsesAloneExpression(stack)));
						}
						// First, while n8n holds nothing of an earlier execution of these workflows.
						const before = await session.settledLiveBytes();
						const held = checkpoint.next();
						const withCheckpoint = await measureRun(stack, `${path}-held`);
						const heldBytes = (await held) - before;
						const afterHeldRun = residentBytes(stack.n8n.pid);
						const measured = [];
						for (let run = 0; run < runs; run++) measured.push(await measureRun(stack, path, afterHeldRun));
						if (withCheckpoint.status !== measured[0].status) {
							throw new Error(
								`${title}: the run with the checkpoint answered ${withCheckpoint.status}, the timed ones ${measured[0].status}`,
							);
						}
						point[contender] = {
							wallMs: median(measured.map((run) => run.wallMs)),
							peakMemoryMb: megabytes(Math.max(...measured.map((run) => run.peakBytes))),
							heldLiveMemoryMb: megabytes(heldBytes),
							requests: measured[0].requests,
							status: measured[0].status,
						};
					} finally {
						await checkpoint.stop();
						session.close();
					}
				};
				await withStack({ rateLimits: { survey: null } }, {}, measureContender, inspector.flags);
			}
		}
		const slopes = Object.fromEntries(
			(Object.keys(WORKFLOWS) as Contender[]).map((contender) => [
				contender,
				{
					msPer1000: +slope(
						points.map((point) => [point.responses / 1000, point[contender].wallMs]),
					).toFixed(2),
					mbPer1000: +slope(
						points.map((point) => [point.responses / 1000, point[contender].heldLiveMemoryMb]),
					).toFixed(3),
					residentMbPer1000: +slope(
						points.map((point) => [point.responses / 1000, point[contender].peakMemoryMb]),
					).toFixed(3),
				},
			]),
		) as Record<Contender, { msPer1000: number; mbPer1000: number; residentMbPer1000: number }>;
		// Null when the HTTP Request node's memory did not grow: no ratio says anything then.
		const slopeRatio = (ours: number, theirs: number) => (theirs > 0 ? ratio(ours, theirs) : null);
		const memorySlopeRatio = slopeRatio(
			slopes.surveyReturnAll.mbPer1000,
			slopes.httpRequestReturnAll.mbPer1000,
		);
		const residentMemorySlopeRatio = slopeRatio(
			slopes.surveyReturnAll.residentMbPer1000,
			slopes.httpRequestReturnAll.residentMbPer1000,
		);
		const responsesAloneMbPer1000 = +slope(
			points.map((point) => [point.responses / 1000, point.responsesAloneLiveMemoryMb ?? Number.NaN]),
		).toFixed(3);
		const responsesAloneSlopeRatio = slopeRatio(responsesAloneMbPer1000, slopes.httpRequestReturnAll.mbPer1000);
		const memory = (figures: Point[Contender]) =>
			`+${figures.heldLiveMemoryMb} MB live held (+${figures.peakMemoryMb} MB resident peak)`;
		const slopeFigures = (figures: (typeof slopes)[Contender]) =>
			`${figures.msPer1000} ms / ${figures.mbPer1000} MB live (${figures.residentMbPer1000} MB resident)`;
		const rows: Row[] = points.flatMap((point) => [
			{
				benchmark: `Scale ${point.responses} responses: Return All wall time / peak n8n memory`,
				ours: `${point.surveyReturnAll.wallMs} ms / ${memory(point.surveyReturnAll)}`,
				theirs: `${point.httpRequestReturnAll.wallMs} ms / ${memory(point.httpRequestReturnAll)}`,
				result: `${ratio(point.httpRequestReturnAll.wallMs, point.surveyReturnAll.wallMs)}× faster`,
				target: '',
			},
			{
				benchmark: `Scale ${point.responses} responses: Get Metrics wall time / peak n8n memory`,
				ours: `${point.surveyGetMetrics.wallMs} ms / ${memory(point.surveyGetMetrics)}`,
				theirs: '',
				result: '',
				target: '',
			},
		]);
		rows.push(
			{
				benchmark: 'Scale slope, Return All: ms / MB per 1,000 responses',
				ours: slopeFigures(slopes.surveyReturnAll),
				theirs: slopeFigures(slopes.httpRequestReturnAll),
				result: `live memory slope ${memorySlopeRatio ?? 'n/a'}× (resident ${residentMemorySlopeRatio ?? 'n/a'}×)`,
				target: '≤ 0.6×',
				met: memorySlopeRatio !== null && memorySlopeRatio <= 0.6,
			},
			{
				benchmark: 'Scale control: the responses alone, parsed from the pages and held in n8n: MB per 1,000',
				ours: `${responsesAloneMbPer1000} MB live`,
				theirs: '',
				result: `${responsesAloneSlopeRatio ?? 'n/a'}× the HTTP Request node's slope: the least a Return All can hold`,
				target: '',
			},
			{
				benchmark: 'Scale slope, Get Metrics: ms / MB per 1,000 responses',
				ours: slopeFigures(slopes.surveyGetMetrics),
				theirs: '',
				result: '',
				target: `≤ ${METRICS_SLOPE_TARGET_MB} MB live (no growth)`,
				met: slopes.surveyGetMetrics.mbPer1000 <= METRICS_SLOPE_TARGET_MB,
			},
		);
		return {
			figures: {
				sizes,
				runs,
				points,
				slopes,
				memorySlopeRatio,
				residentMemorySlopeRatio,
				responsesAloneMbPer1000,
				responsesAloneSlopeRatio,
			},
			rows,
			reducedSize,
		};
	},
};
