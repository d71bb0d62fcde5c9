/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
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
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { PACKAGE_NAME, packPackage } from '../../test/harness/n8n';
import { type CredentialRef, createCredential, createSandboxCredentials, type Stack, waitUntil } from '../../test/harness/provision';
import { type QueueN8n, startQueueN8n } from '../../test/harness/queue';
import { DOCUMENSO_SEED, startSandbox } from '../../test/sandbox';
import type { RecordedRequest } from '../../test/sandbox/service';
import { sandboxControl } from '../../test/unit/helpers/sandbox';
import {
	type Benchmark,
	callUntilRegistered,
	deployChain,
	type ExecutionWithData,
	executionsWithData,
	itemsOutOf,
	lastExecution,
	listAllExecutions,
	type Node,
	post,
	ratio,
	type Row,
	say,
	settledExecutions,
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
	/** The floor at any pace: the platform's limit alone (full windows from the run's start). */
	limitFloorMs: number;
	/** Requests the platform accepted and refused in each minute of its clock, from the run's first. */
	perMinute: Array<{ accepted: number; refused: number }>;
	/** When each 429 came, in seconds from the run's start. */
	refusedAtSeconds: number[];
	status: number;
	items: number;
}

function measure(label: string, requests: RecordedRequest[], startedAt: number, wallMs: number, limit: number, status: number, items: number): Measured {
	const accepted = requests.filter((request) => request.status !== 429).length;
	const firstMinute = Math.floor(startedAt / MINUTE);
	const perMinute: Measured['perMinute'] = [];
	for (const request of requests) {
		const minute = Math.floor(Date.parse(request.at) / MINUTE) - firstMinute;
		while (perMinute.length <= minute) perMinute.push({ accepted: 0, refused: 0 });
		perMinute[minute][request.status === 429 ? 'refused' : 'accepted']++;
	}
	return {
		label,
		wallMs,
		floorMs: Math.round(floorMs(startedAt, accepted, limit, paceMs(requests, startedAt, limit))),
		requests: requests.length,
		accepted,
		rateLimitAnswers: requests.length - accepted,
		limitFloorMs: Math.round(floorMs(startedAt, accepted, limit, 0)),
		perMinute,
		refusedAtSeconds: requests
			.filter((request) => request.status === 429)
			.map((request) => +((Date.parse(request.at) - startedAt) / 1000).toFixed(1)),
		status,
		items,
	};
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const share = (part: number, whole: number) => +((100 * part) / Math.max(1, whole)).toFixed(2);

/** Targets of a run; undefined ones are printed, not judged (the queue-mode run: its figures go in the README). */
interface RunTargets {
	timesFloor?: number;
	/** The floor the time is set beside: at n8n's pace (default), or at any pace (the limit alone). */
	floor?: 'pace' | 'limit';
	rateLimitShare?: number;
}

function rowsOf(run: Measured, targets: RunTargets, extra: { met: boolean; target: string; ours: string }): Row[] {
	const floor = targets.floor === 'limit' ? run.limitFloorMs : run.floorMs;
	const overFloor = ratio(run.wallMs, floor);
	const rateLimitShare = share(run.rateLimitAnswers, run.requests);
	return [
		{
			benchmark: `${run.label}: wall time`,
			ours: seconds(run.wallMs),
			theirs: '',
			result: `${overFloor}× the ${seconds(floor)} floor${targets.floor === 'limit' ? ' at any pace' : ''}`,
			target: targets.timesFloor === undefined ? '' : `≤ ${targets.timesFloor}×`,
			met: targets.timesFloor === undefined ? undefined : overFloor <= targets.timesFloor,
		},
		{
			benchmark: `${run.label}: requests (429s)`,
			ours: `${run.requests} (${run.rateLimitAnswers}, ${rateLimitShare} %)`,
			theirs: '',
			result: `${run.accepted} needed`,
			target: targets.rateLimitShare === undefined ? '' : `429s ≤ ${targets.rateLimitShare} %`,
			met: targets.rateLimitShare === undefined ? undefined : rateLimitShare <= targets.rateLimitShare,
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

/** Generate From Template with Send Now for each applicant the webhook receives, with a Documenso credential. */
function documensoWorkflow(webhookPath: string, credential: CredentialRef, responseMode: string): Node[] {
	return [
		webhookNode(webhookPath, responseMode),
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
		},
	];
}

/** The stack with a Documenso credential for the Signing API (deployChain attaches the stack's credential of each type). */
async function withDocumensoCredential(stack: Stack): Promise<Stack & { credentials: { signingApi: CredentialRef } }> {
	const signingApi = await createCredential(stack.n8n, 'Documenso (bench)', 'signingApi', {
		api: 'documenso',
		baseUrl: stack.sandbox.signing.url,
		apiToken: stack.sandbox.signing.apiKey,
	});
	return { ...stack, credentials: { ...stack.credentials, signingApi } };
}

const applicantsFrom = (first: number, count: number) =>
	Array.from({ length: count }, (_, n) => ({ name: `Applicant ${first + n}`, email: `applicant${first + n}@example.org` }));

/** What the Documenso sandbox holds after a run: documents made from the applicants, each once and sent. */
async function documensoOutcome(stack: Stack, items: Array<{ error?: unknown }>) {
	const signing = sandboxControl(stack.sandbox, 'signing');
	const made = (await signing.call<{ documents: Array<{ title: string; status: string }> }>('GET', '/documents')).documents.filter(
		(document) => document.title.startsWith('Residency agreement – Applicant '),
	);
	const firstFailure = items.find((item) => item.error !== undefined);
	if (firstFailure) say(`  first failed item: ${JSON.stringify(firstFailure).slice(0, 2000)}`);
	return {
		failed: items.filter((item) => item.error !== undefined).length,
		created: made.length,
		sent: made.filter((document) => document.status === 'PENDING').length,
		duplicated: made.length - new Set(made.map((document) => document.title)).size,
	};
}

export async function documensoRun(documents: number) {
	return await withStack({ signing: 'documenso', rateLimits: { signing: DOCUMENSO_LIMIT } }, {}, async (plain) => {
		const stack = await withDocumensoCredential(plain);
		const signing = sandboxControl(stack.sandbox, 'signing');
		const workflow = await deployChain(stack, 'Bench rate – Documenso', documensoWorkflow('bench-rate-documenso', stack.credentials.signingApi, 'lastNode'));
		const url = `${stack.n8n.baseUrl}/webhook/bench-rate-documenso`;
		await signing.rateLimit(null);
		await callUntilRegistered(url, { applicants: [] });
		await signing.rateLimit(DOCUMENSO_LIMIT);
		await atNextMinute();
		await signing.clearRequests();
		const startedAt = Date.now();
		const status = await post(url, { applicants: applicantsFrom(0, documents) }, {}, 30 * MINUTE);
		const wallMs = Date.now() - startedAt;
		const requests = await takeRequests(signing);
		const { items } = (await lastExecution(stack.n8n, workflow.id, 'Generate')) as { items: Array<{ error?: unknown }> };
		const measured = measure(`Documenso: ${documents} documents generated and sent`, requests, startedAt, wallMs, DOCUMENSO_LIMIT, status, items.length);
		say(`  ${measured.label}: ${JSON.stringify(measured)}`);
		return { measured, ...(await documensoOutcome(stack, items)) };
	});
}

const QUEUE_WORKERS = 2;

/**
 * The same documents in queue mode: two executions of half of them each, at once, through the
 * load balancer, run by two workers (each runs one execution at a time, so each takes one), each
 * with its own budget for the one Documenso key. Documenso counts both together.
 */
export async function documensoQueueRun(documents: number) {
	const sandbox = await startSandbox({ signing: 'documenso', rateLimits: { signing: DOCUMENSO_LIMIT } });
	let queue: QueueN8n | undefined;
	try {
		queue = await startQueueN8n({ packageTarball: await packPackage(), workers: QUEUE_WORKERS, workerConcurrency: 1 });
		const main = queue.main;
		const stack = await withDocumensoCredential({ sandbox, n8n: main, credentials: await createSandboxCredentials(main, sandbox), stop: async () => {} });
		const signing = sandboxControl(sandbox, 'signing');
		// Answered once queued: the executions outlast the load balancer's read timeout.
		const workflow = await deployChain(stack, 'Bench rate – Documenso, queue mode', documensoWorkflow('bench-rate-documenso-queue', stack.credentials.signingApi, 'onReceived'));
		const url = `${queue.proxyUrl}/webhook/bench-rate-documenso-queue`;
		await signing.rateLimit(null);
		// Both webhook processes know the workflow (the load balancer alternates).
		for (let call = 0; call < 2; call++) await callUntilRegistered(url, { applicants: [] });
		await settledExecutions(main, workflow.id);
		const before = new Set((await listAllExecutions<{ id: string; status: string }>(main, workflow.id)).map(({ id }) => id));
		await signing.rateLimit(DOCUMENSO_LIMIT);
		const half = Math.ceil(documents / 2);
		await atNextMinute();
		await signing.clearRequests();
		const startedAt = Date.now();
		const statuses = await Promise.all([
			post(url, { applicants: applicantsFrom(0, half) }),
			post(url, { applicants: applicantsFrom(half, documents - half) }),
		]);
		type Execution = ExecutionWithData & { id: string };
		const executions = await waitUntil(
			'both executions to finish',
			async () => {
				const ran = (await listAllExecutions<Execution>(main, workflow.id)).filter(({ id }) => !before.has(id));
				return ran.length === 2 && ran.every(({ stoppedAt }) => Boolean(stoppedAt)) ? ran : undefined;
			},
			30 * MINUTE,
			1_000,
		);
		const wallMs = Math.max(...executions.map(({ stoppedAt }) => Date.parse(String(stoppedAt)))) - startedAt;
		const requests = await takeRequests(signing);
		const items = itemsOutOf(
			(await executionsWithData(main, workflow.id)).filter((execution) => executions.some(({ id }) => id === (execution as Execution).id)),
			'Generate',
		) as Array<{ error?: unknown }>;
		const ranBy = workerOfExecutions(queue, executions.map(({ id }) => id));
		const measured = measure(
			`Documenso in queue mode, ${QUEUE_WORKERS} workers: ${documents} documents generated and sent (2 executions at once)`,
			requests,
			startedAt,
			wallMs,
			DOCUMENSO_LIMIT,
			Math.max(...statuses),
			items.length,
		);
		say(`  ${measured.label}: ${JSON.stringify({ ...measured, ranBy })}`);
		return { measured, ranBy, ...(await documensoOutcome(stack, items)) };
	} finally {
		await queue?.stop();
		await sandbox.stop();
	}
}

/** Which worker ran each execution, as its log says ("Worker started execution 12 (job 3)"). */
function workerOfExecutions(queue: QueueN8n, executionIds: string[]): Record<string, string> {
	const ranBy: Record<string, string> = {};
	for (const file of readdirSync(queue.logDir).filter((name) => name.startsWith('worker'))) {
		const log = readFileSync(path.join(queue.logDir, file), 'utf8');
		for (const id of executionIds) if (new RegExp(`started execution ${id}\\b`, 'i').test(log)) ranBy[id] = file.replace(/\.log$/, '');
	}
	return ranBy;
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
		// BENCH_RATE_RUNS=formbricks,documenso,queue (all by default): a part alone is a partial run, kept out of bench/results.json.
		const parts = (process.env.BENCH_RATE_RUNS ?? 'formbricks,documenso,queue').split(',').map((part) => part.trim());
		const rows: Row[] = [];
		const figures: Record<string, unknown> = {};
		if (parts.includes('formbricks')) {
			const { surveysRun, responsesRun, bothRun } = await formbricksRuns(surveys, responses);
			rows.push(
				...rowsOf(surveysRun.measured, { timesFloor: 1.15, rateLimitShare: 2 }, {
					ours: `${surveysRun.items[0]} surveys, HTTP ${surveysRun.measured.status}`,
					target: `${surveys} surveys`,
					met: surveysRun.items[0] === surveys && surveysRun.measured.status === 200,
				}),
				...rowsOf(responsesRun.measured, { timesFloor: 1.1 }, {
					ours: `${responsesRun.items[0]} responses, HTTP ${responsesRun.measured.status}`,
					target: `${responses} responses`,
					met: responsesRun.items[0] === responses && responsesRun.measured.status === 200,
				}),
				...rowsOf(bothRun.measured, { timesFloor: 1.15, rateLimitShare: 2 }, {
					ours: `${bothRun.items[0]} surveys + ${bothRun.items[1]} responses, HTTP ${bothRun.statuses.join(', ')}`,
					target: `${surveys} + ${responses}`,
					met: bothRun.items[0] === surveys && bothRun.items[1] === responses && bothRun.statuses.every((status) => status === 200),
				}),
			);
			Object.assign(figures, { surveys: surveysRun.measured, responses: responsesRun.measured, both: bothRun.measured });
		}
		const documensoRows = (run: Awaited<ReturnType<typeof documensoRun>>, targets: RunTargets): Row[] => {
			const perDocument = run.measured.accepted / Math.max(1, run.created);
			return [
				...rowsOf(run.measured, targets, {
					ours: `${run.created} created (${run.sent} sent), ${run.duplicated} duplicated, ${run.failed} failed`,
					target: `${documents} created and sent, 0 duplicated, 0 failed`,
					met: run.created === documents && run.sent === documents && run.duplicated === 0 && run.failed === 0,
				}),
				// Before the envelope API (issue 41): two requests a document and two a run (the team's
				// URL name), 2,002 for 1,000 documents. Now two a document and one a run (the template).
				{
					benchmark: `${run.measured.label}: requests per document`,
					ours: `${perDocument.toFixed(3)} (${run.measured.accepted} for ${run.created})`,
					theirs: '',
					result: 'envelope routes only (the sandbox answers the routes removed in March 2027 with 404)',
					target: `≤ ${((2 * documents + 2) / documents).toFixed(3)} (2 a document + 2 a run, as before)`,
					met: run.measured.accepted <= 2 * run.created + 2,
				},
			];
		};
		if (parts.includes('documenso')) {
			const documenso = await documensoRun(documents);
			rows.push(...documensoRows(documenso, { timesFloor: 1.05 }));
			figures.documenso = { ...documenso.measured, failed: documenso.failed, created: documenso.created, sent: documenso.sent, duplicated: documenso.duplicated };
		}
		if (parts.includes('queue')) {
			const queued = await documensoQueueRun(documents);
			// Its first minute includes the workers taking the jobs: n8n's pace read there is no floor.
			rows.push(...documensoRows(queued, { floor: 'limit' }));
			figures.documensoQueueMode = {
				...queued.measured,
				failed: queued.failed,
				created: queued.created,
				sent: queued.sent,
				duplicated: queued.duplicated,
				ranBy: queued.ranBy,
			};
		}
		return { figures, rows, reducedSize: reducedSize || parts.length < 3 };
	},
};
