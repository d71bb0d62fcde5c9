/**
 * The scale curve: Return All and Get Metrics over a growing survey (`BENCH_SCALE_SIZES`, by
 * default 20,000, 100,000 and 200,000 responses, with the sandbox's rate limit lifted), against
 * the HTTP Request node's pagination with a Split Out, each in an n8n of its own. Wall time
 * (median of `BENCH_RUNS` runs) and peak n8n memory above the idle n8n at each size, and the
 * slopes per 1,000 responses (least squares over the sizes).
 */
import { PACKAGE_NAME } from '../../test/harness/n8n';
import type { Stack } from '../../test/harness/provision';
import {
	addBenchResponses,
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
import { httpRequestReturnAllNodes, measureRun, surveyReturnAllNode } from './p1ReturnAll';

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

const WORKFLOWS = {
	surveyReturnAll: { title: 'Survey node, Return All', path: 'bench-scale-return-all' },
	surveyGetMetrics: { title: 'Survey node, Get Metrics', path: 'bench-scale-metrics' },
	httpRequestReturnAll: { title: 'HTTP Request pagination + Split Out', path: 'bench-scale-http' },
} as const;
type Contender = keyof typeof WORKFLOWS;

/** Get Metrics keeps no more than the page in flight: its memory slope should be about nothing. */
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
		type Point = { responses: number } & Record<
			Contender,
			{ wallMs: number; peakMemoryMb: number; requests: number; status: number }
		>;
		const points = [...sizes].sort((a, b) => a - b).map((responses) => ({ responses }) as Point);
		// Each contender in an n8n of its own, sizes growing: a process keeps the memory an earlier
		// run made it take, which would hide what a later, smaller need costs.
		for (const [contender, { title, path }] of Object.entries(WORKFLOWS) as Array<
			[Contender, (typeof WORKFLOWS)[Contender]]
		>) {
			await withStack({ rateLimits: { survey: null } }, {}, async (stack) => {
				await deployChain(stack, `Bench scale – ${title}`, [
					webhookNode(path),
					...nodesOf[contender](stack),
				]);
				const idle = residentBytes(stack.n8n.pid);
				let total = 0;
				for (const [index, point] of points.entries()) {
					total =
						index === 0
							? await createBenchSurvey(stack, point.responses)
							: await addBenchResponses(stack, point.responses - total);
					say(`  ${title}: ${total} responses...`);
					const measured = [];
					for (let run = 0; run < runs; run++) measured.push(await measureRun(stack, path, idle));
					point[contender] = {
						wallMs: median(measured.map((run) => run.wallMs)),
						peakMemoryMb: megabytes(Math.max(...measured.map((run) => run.peakBytes))),
						requests: measured[0].requests,
						status: measured[0].status,
					};
				}
			});
		}
		const slopes = Object.fromEntries(
			(Object.keys(WORKFLOWS) as Contender[]).map((contender) => [
				contender,
				{
					msPer1000: +slope(
						points.map((point) => [point.responses / 1000, point[contender].wallMs]),
					).toFixed(2),
					mbPer1000: +slope(
						points.map((point) => [point.responses / 1000, point[contender].peakMemoryMb]),
					).toFixed(3),
				},
			]),
		) as Record<Contender, { msPer1000: number; mbPer1000: number }>;
		const memorySlopeRatio = ratio(
			slopes.surveyReturnAll.mbPer1000,
			slopes.httpRequestReturnAll.mbPer1000,
		);
		const rows: Row[] = points.flatMap((point) => [
			{
				benchmark: `Scale ${point.responses} responses: Return All wall time / peak n8n memory`,
				ours: `${point.surveyReturnAll.wallMs} ms / +${point.surveyReturnAll.peakMemoryMb} MB`,
				theirs: `${point.httpRequestReturnAll.wallMs} ms / +${point.httpRequestReturnAll.peakMemoryMb} MB`,
				result: `${ratio(point.httpRequestReturnAll.wallMs, point.surveyReturnAll.wallMs)}× faster`,
				target: '',
			},
			{
				benchmark: `Scale ${point.responses} responses: Get Metrics wall time / peak n8n memory`,
				ours: `${point.surveyGetMetrics.wallMs} ms / +${point.surveyGetMetrics.peakMemoryMb} MB`,
				theirs: '',
				result: '',
				target: '',
			},
		]);
		rows.push(
			{
				benchmark: 'Scale slope, Return All: ms / MB per 1,000 responses',
				ours: `${slopes.surveyReturnAll.msPer1000} ms / ${slopes.surveyReturnAll.mbPer1000} MB`,
				theirs: `${slopes.httpRequestReturnAll.msPer1000} ms / ${slopes.httpRequestReturnAll.mbPer1000} MB`,
				result: `memory slope ${memorySlopeRatio}×`,
				target: '≤ 0.6×',
				met: memorySlopeRatio <= 0.6,
			},
			{
				benchmark: 'Scale slope, Get Metrics: ms / MB per 1,000 responses',
				ours: `${slopes.surveyGetMetrics.msPer1000} ms / ${slopes.surveyGetMetrics.mbPer1000} MB`,
				theirs: '',
				result: '',
				target: `≤ ${METRICS_SLOPE_TARGET_MB} MB (no growth)`,
				met: slopes.surveyGetMetrics.mbPer1000 <= METRICS_SLOPE_TARGET_MB,
			},
		);
		return { figures: { sizes, runs, points, slopes, memorySlopeRatio }, rows, reducedSize };
	},
};
