/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * Rate limits (issue 36): reads and writes against the platforms' own limits, in real time, in a
 * real n8n and the sandbox's Formbricks and Documenso flavours, which count as the platforms do:
 * fixed windows that begin on the minute of their clock, 100 requests per key for Formbricks (no
 * Retry-After), 1,000 a minute for Documenso (Retry-After). Nothing is scaled.
 *
 * Each figure is printed beside its floor: the time an ideal client needs for the same requests,
 * sending at the pace n8n sends when nothing holds it back (measured in the run's first window) but
 * never more in a window than the platform lets through. Every run starts just after a minute
 * begins, so that the floor does not depend on where in a window the run happened to start.
 */
import { createCredential } from '../../test/harness/provision';
import { PACKAGE_NAME } from '../../test/harness/n8n';
import type { Stack } from '../../test/harness/provision';
import { DOCUMENSO_SEED } from '../../test/sandbox';
import type { RecordedRequest } from '../../test/sandbox/service';
import { sandboxControl } from '../../test/unit/helpers/sandbox';
import {
	type Benchmark,
	callUntilRegistered,
	deployChain,
	lastExecution,
	type Node,
	post,
	ratio,
	type Row,
	say,
	sizesFromEnv,
	takeRequests,
	webhookNode,
	withStack,
} from '../shared';

const MINUTE = 60_000;
const FORMBRICKS_LIMIT = 100;
/** Documenso lets 1,000 through a minute (refused once `count > max`, rate-limit.ts at v2.17.0). */
const DOCUMENSO_LIMIT = 1_000;

/** Waits until just after the next minute begins (the platforms' windows begin on the minute). */
async function atNextMinute() {
	const wait = MINUTE - (Date.now() % MINUTE) + 300;
	await new Promise((resolve) => setTimeout(resolve, wait));
}

/**
 * The floor of a run: an ideal client that starts when the run started, sends at `paceMs` a
 * request, and never sends more than `limit` in a window of the platform's clock.
 */
export function floorMs(startedAt: number, requests: number, limit: number, paceMs: number): number {
	let at = startedAt;
	let window = Math.floor(at / MINUTE);
	let inWindow = 0;
	for (let sent = 0; sent < requests; sent++) {
		at += paceMs;
		if (Math.floor(at / MINUTE) !== window) {
			window = Math.floor(at / MINUTE);
			inWindow = 0;
		}
		if (inWindow >= limit) {
			window++;
			at = window * MINUTE;
			inWindow = 0;
		}
		inWindow++;
	}
	return at - startedAt;
}

/** n8n's own pace: the time per request in the run's first window, before the platform's limit could hold it. */
function paceMs(requests: RecordedRequest[], startedAt: number, limit: number): number {
	const accepted = requests.filter((request) => request.status !== 429).map((request) => Date.parse(request.at));
	const first = accepted.filter((at) => Math.floor(at / MINUTE) === Math.floor(startedAt / MINUTE)).slice(0, limit);
	if (first.length === 0) return 0;
	return (first[first.length - 1] - startedAt) / first.length;
}

interface Measured {
	label: string;
	wallMs: number;
	floorMs: number;
	requests: number;
	accepted: number;
	rateLimitAnswers: number;
	status: number;
	items: number;
}

function measure(label: string, requests: RecordedRequest[], startedAt: number, wallMs: number, limit: number, status: number, items: number): Measured {
	const accepted = requests.filter((request) => request.status !== 429).length;
	return {
		label,
		wallMs,
		floorMs: Math.round(floorMs(startedAt, accepted, limit, paceMs(requests, startedAt, limit))),
		requests: requests.length,
		accepted,
		rateLimitAnswers: requests.length - accepted,
		status,
		items,
	};
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const share = (part: number, whole: number) => +((100 * part) / Math.max(1, whole)).toFixed(2);

function rowsOf(run: Measured, timeTarget: number, extra: { met: boolean; target: string; ours: string }): Row[] {
	const overFloor = ratio(run.wallMs, run.floorMs);
	return [
		{
			benchmark: `${run.label}: wall time`,
			ours: seconds(run.wallMs),
			theirs: '',
			result: `${overFloor}× the ${seconds(run.floorMs)} floor`,
			target: `≤ ${timeTarget}×`,
			met: overFloor <= timeTarget,
		},
		{
			benchmark: `${run.label}: requests (429s)`,
			ours: `${run.requests} (${run.rateLimitAnswers}, ${share(run.rateLimitAnswers, run.requests)} %)`,
			theirs: '',
			result: `${run.accepted} needed`,
			target: '429s ≤ 2 %',
			met: share(run.rateLimitAnswers, run.requests) <= 2,
		},
		{ benchmark: `${run.label}: completed`, ours: extra.ours, theirs: '', result: '', target: extra.target, met: extra.met },
	];
}

function surveyNode(stack: Stack, name: string, parameters: Record<string, unknown>): Node {
	return {
		name,
		type: `${PACKAGE_NAME}.survey`,
		typeVersion: 1,
		position: [200, 0],
		parameters,
		credentials: { surveyApi: stack.credentials.surveyApi },
	};
}

async function formbricksRuns(surveys: number, responses: number) {
	return await withStack({ survey: 'formbricks', rateLimits: { survey: FORMBRICKS_LIMIT } }, {}, async (stack) => {
		const survey = sandboxControl(stack.sandbox, 'survey');
		const newSurvey = async (n: number) =>
			(await survey.call<{ data: { id: string } }>('POST', '/surveys', { name: `Bench survey ${n}`, questions: [] })).data.id;
		const created = [await newSurvey(0)];
		const surveysWorkflow = await deployChain(stack, 'Bench rate – surveys', [
			webhookNode('bench-rate-surveys'),
			surveyNode(stack, 'Surveys', { resource: 'survey', operation: 'getMany', returnAll: true, filters: {} }),
		]);
		const responsesWorkflow = await deployChain(stack, 'Bench rate – responses', [
			webhookNode('bench-rate-responses'),
			surveyNode(stack, 'Responses', {
				resource: 'response',
				operation: 'getMany',
				surveyId: { __rl: true, mode: 'id', value: created[0] },
				returnAll: true,
				options: {},
			}),
		]);
		const surveysUrl = `${stack.n8n.baseUrl}/webhook/bench-rate-surveys`;
		const responsesUrl = `${stack.n8n.baseUrl}/webhook/bench-rate-responses`;
		// Registered before the clock starts (a first call may meet a 404 while n8n registers it).
		await survey.rateLimit(null);
		await callUntilRegistered(responsesUrl, {});
		await callUntilRegistered(surveysUrl, {});
		// The rest once the webhooks answer: the budget in n8n paces every read, a warm-up's too. The seed has 4 of its own.
		for (let n = created.length + 4; n < surveys; n++) created.push(await newSurvey(n));

		const run = async (label: string, urls: string[], workflows: Array<{ id: string; node: string }>) => {
			await survey.rateLimit(FORMBRICKS_LIMIT);
			await atNextMinute();
			await survey.clearRequests();
			const startedAt = Date.now();
			const statuses = await Promise.all(urls.map(async (url) => await post(url, {}, {}, 30 * MINUTE)));
			const wallMs = Date.now() - startedAt;
			const requests = await takeRequests(survey);
			const items = await Promise.all(workflows.map(async ({ id, node }) => (await lastExecution(stack.n8n, id, node)).items.length));
			const measured = measure(label, requests, startedAt, wallMs, FORMBRICKS_LIMIT, Math.max(...statuses), items.reduce((a, b) => a + b, 0));
			say(`  ${label}: ${JSON.stringify(measured)}`);
			return { measured, statuses, items };
		};

		const surveysRun = await run(`Formbricks: ${surveys} surveys, Get Many, Return All`, [surveysUrl], [
			{ id: surveysWorkflow.id, node: 'Surveys' },
		]);
		await survey.rateLimit(null);
		await survey.call('POST', `/surveys/${created[0]}/generate-responses`, { count: responses });
		const responsesRun = await run(`Formbricks: ${responses} responses, Get Many, Return All`, [responsesUrl], [
			{ id: responsesWorkflow.id, node: 'Responses' },
		]);
		const bothRun = await run(`Formbricks: both at once with the same key (${surveys} surveys + ${responses} responses)`, [surveysUrl, responsesUrl], [
			{ id: surveysWorkflow.id, node: 'Surveys' },
			{ id: responsesWorkflow.id, node: 'Responses' },
		]);
		return { surveysRun, responsesRun, bothRun };
	});
}

export async function documensoRun(documents: number) {
	return await withStack({ signing: 'documenso', rateLimits: { signing: DOCUMENSO_LIMIT } }, {}, async (stack) => {
		const signing = sandboxControl(stack.sandbox, 'signing');
		const credential = await createCredential(stack.n8n, 'Documenso (bench)', 'signingApi', {
			api: 'documenso',
			baseUrl: stack.sandbox.signing.url,
			apiToken: stack.sandbox.signing.apiKey,
		});
		// deployChain attaches the stack's credential of each type: the stack's Signing API one speaks the documented API.
		const documensoStack = { ...stack, credentials: { ...stack.credentials, signingApi: credential } };
		const workflow = await deployChain(documensoStack, 'Bench rate – Documenso', [
			webhookNode('bench-rate-documenso'),
			{ name: 'Split', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [200, 0], parameters: { fieldToSplitOut: 'body.applicants', options: {} } },
			{
				name: 'Generate',
				type: `${PACKAGE_NAME}.signing`,
				typeVersion: 1,
				position: [400, 0],
				onError: 'continueRegularOutput',
				parameters: {
					resource: 'document',
					operation: 'generateFromTemplate',
					templateId: { __rl: true, mode: 'id', value: String(DOCUMENSO_SEED.residencyTemplateId) },
					title: '=Residency agreement – {{ $json.name }}',
					recipientsInput: 'json',
					recipientsJson:
						'={{ [{ "name": $json.name, "email": $json.email, "role": "SIGNER" }, { "name": "Director", "email": "director@example.org", "role": "APPROVER" }] }}',
				},
				credentials: { signingApi: credential },
			} as Node,
		]);
		const url = `${stack.n8n.baseUrl}/webhook/bench-rate-documenso`;
		await signing.rateLimit(null);
		await callUntilRegistered(url, { applicants: [] });
		await signing.rateLimit(DOCUMENSO_LIMIT);
		const applicants = Array.from({ length: documents }, (_, n) => ({ name: `Applicant ${n}`, email: `applicant${n}@example.org` }));
		await atNextMinute();
		await signing.clearRequests();
		const startedAt = Date.now();
		const status = await post(url, { applicants }, {}, 30 * MINUTE);
		const wallMs = Date.now() - startedAt;
		const requests = await takeRequests(signing);
		const { items } = (await lastExecution(stack.n8n, workflow.id, 'Generate')) as { items: Array<{ error?: unknown }> };
		const made = (await signing.call<{ documents: Array<{ title: string }> }>('GET', '/documents')).documents.filter((document) =>
			document.title.startsWith('Residency agreement – Applicant '),
		);
		const measured = measure(`Documenso: ${documents} documents generated and sent`, requests, startedAt, wallMs, DOCUMENSO_LIMIT, status, items.length);
		say(`  ${measured.label}: ${JSON.stringify(measured)}`);
		const firstFailure = items.find((item) => item.error !== undefined);
		if (firstFailure) say(`  first failure: ${JSON.stringify(firstFailure).slice(0, 2000)}`);
		return {
			measured,
			failed: items.filter((item) => item.error !== undefined).length,
			created: made.length,
			duplicated: made.length - new Set(made.map((document) => document.title)).size,
		};
	});
}

export const rateLimits: Benchmark = {
	name: 'rateLimits',
	title: 'Rate limits: one budget per platform and key, against Formbricks\' and Documenso\'s own limits',
	runByDefault: false,
	async run() {
		const { surveys, responses, documents, reducedSize } = sizesFromEnv({
			surveys: ['BENCH_RATE_SURVEYS', 360],
			responses: ['BENCH_RATE_RESPONSES', 25_000],
			documents: ['BENCH_RATE_DOCUMENTS', 1_000],
		});
		const { surveysRun, responsesRun, bothRun } = await formbricksRuns(surveys, responses);
		const documenso = await documensoRun(documents);
		const rows: Row[] = [
			...rowsOf(surveysRun.measured, 1.15, {
				ours: `${surveysRun.items[0]} surveys, HTTP ${surveysRun.measured.status}`,
				target: `${surveys} surveys`,
				met: surveysRun.items[0] === surveys && surveysRun.measured.status === 200,
			}),
			...rowsOf(responsesRun.measured, 1.1, {
				ours: `${responsesRun.items[0]} responses, HTTP ${responsesRun.measured.status}`,
				target: `${responses} responses`,
				met: responsesRun.items[0] === responses && responsesRun.measured.status === 200,
			}),
			...rowsOf(bothRun.measured, 1.15, {
				ours: `${bothRun.items[0]} surveys + ${bothRun.items[1]} responses, HTTP ${bothRun.statuses.join(', ')}`,
				target: `${surveys} + ${responses}`,
				met: bothRun.items[0] === surveys && bothRun.items[1] === responses && bothRun.statuses.every((status) => status === 200),
			}),
			...rowsOf(documenso.measured, 1.05, {
				ours: `${documenso.created} created, ${documenso.duplicated} duplicated, ${documenso.failed} failed`,
				target: `${documents} created, 0 duplicated, 0 failed`,
				met: documenso.created === documents && documenso.duplicated === 0 && documenso.failed === 0,
			}),
		];
		return {
			figures: {
				surveys: surveysRun.measured,
				responses: responsesRun.measured,
				both: bothRun.measured,
				documenso: { ...documenso.measured, failed: documenso.failed, created: documenso.created, duplicated: documenso.duplicated },
			},
			rows,
			reducedSize,
		};
	},
};
