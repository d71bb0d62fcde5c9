/**
 * P2: signed `responseFinished` deliveries to the Survey Trigger, against n8n's Webhook node
 * (no check at all), at `BENCH_CONCURRENCY` at a time.
 *
 * n8n 2.x evaluates expressions in V8 isolates and takes a fresh one from its pool for every
 * acquisition. A production webhook request acquires one before the trigger runs, unless the
 * trigger is n8n's own Webhook node from version 2 on with static parameters
 * (`webhookPhaseNeedsIsolate` in n8n's live-webhooks); the execution acquires another. The
 * Webhook node at version 1 is therefore measured too (n8n's own node on the same path as ours),
 * and the whole comparison again in an n8n with the legacy expression engine.
 */
import { Webhook } from 'standardwebhooks';

import { PACKAGE_NAME } from '../../test/harness/n8n';
import type { Stack } from '../../test/harness/provision';
import {
	accepted,
	type Benchmark,
	callUntilRegistered,
	deliver,
	deployChain,
	type Node,
	ratio,
	registeredSecret,
	responseFinishedBody,
	type Row,
	settledExecutions,
	sizesFromEnv,
	webhookNode,
	withStack,
} from '../shared';

const WARMUP = 100;

/** The Survey Trigger on `responseFinished` of every survey, registering itself with the sandbox. */
export function surveyTriggerNode(stack: Stack, webhookId: string): Node {
	return {
		name: 'Survey Trigger',
		type: `${PACKAGE_NAME}.surveyTrigger`,
		typeVersion: 1,
		position: [0, 0],
		webhookId,
		parameters: { registration: 'automatic', events: ['responseFinished'], allSurveys: true },
		credentials: { surveyApi: stack.credentials.surveyApi },
	};
}

async function ingest(stack: Stack, deliveries: number, concurrency: number, webhookNodeV1: boolean) {
	const { n8n } = stack;
	const ours = await deployChain(stack, 'Bench P2 – Survey Trigger', [surveyTriggerNode(stack, 'bench-p2-ours')]);
	const signer = new Webhook(await registeredSecret(stack, 'bench-p2-ours'));
	const webhookNodeAt = async (typeVersion: number) => {
		const path = `bench-p2-webhook-v${typeVersion}`;
		const workflow = await deployChain(stack, `Bench P2 – Webhook node v${typeVersion}`, [
			{ ...webhookNode(path, 'onReceived'), typeVersion },
		]);
		return { workflow, url: `${n8n.baseUrl}/webhook/${path}` };
	};
	const theirs = await webhookNodeAt(2);
	const theirsV1 = webhookNodeV1 ? await webhookNodeAt(1) : undefined;
	const batch = (label: string, count: number) =>
		Array.from({ length: count }, (_, n) => ({ id: `msg_${label}_${n}`, body: responseFinishedBody(label, n), signer }));
	const run = async (url: string, workflowId: string, label: string) => {
		await deliver(url, batch(`${label}_warmup`, Math.min(WARMUP, deliveries)), concurrency);
		const before = await settledExecutions(n8n, workflowId);
		const { wallMs, statuses } = await deliver(url, batch(label, deliveries), concurrency);
		const executions = (await settledExecutions(n8n, workflowId)) - before;
		return {
			wallMs,
			deliveriesPerSecond: +((deliveries * 1000) / wallMs).toFixed(1),
			executions,
			rejects: statuses.filter((status) => !accepted(status)).length,
		};
	};
	await callUntilRegistered(theirs.url, { warmup: true });
	const surveyTrigger = await run(`${n8n.baseUrl}/webhook/bench-p2-ours/webhook`, ours.id, 'ours');
	const webhookNodeRun = await run(theirs.url, theirs.workflow.id, 'webhook');
	const webhookNodeV1Run = theirsV1 ? await run(theirsV1.url, theirsV1.workflow.id, 'webhook_v1') : undefined;
	return {
		surveyTrigger,
		webhookNode: webhookNodeRun,
		rateRatio: ratio(surveyTrigger.deliveriesPerSecond, webhookNodeRun.deliveriesPerSecond),
		...(webhookNodeV1Run && {
			webhookNodeV1: webhookNodeV1Run,
			rateRatioToWebhookNodeV1: ratio(surveyTrigger.deliveriesPerSecond, webhookNodeV1Run.deliveriesPerSecond),
		}),
		concurrency,
	};
}

export const p2WebhookIngest: Benchmark = {
	name: 'p2',
	title: 'P2 webhook ingest (Survey Trigger against the Webhook node)',
	runByDefault: true,
	async run() {
		const sizes = sizesFromEnv({ deliveries: ['BENCH_DELIVERIES', 2_000], concurrency: ['BENCH_CONCURRENCY', 10] });
		const sandbox = { rateLimits: { survey: null } };
		const p2 = await withStack(sandbox, {}, async (stack) => await ingest(stack, sizes.deliveries, sizes.concurrency, true));
		const legacyExpressionEngine = await withStack(
			sandbox,
			{ N8N_EXPRESSION_ENGINE: 'legacy' },
			async (stack) => await ingest(stack, sizes.deliveries, sizes.concurrency, false),
		);
		const label = `P2 ${sizes.deliveries} signed deliveries, ${sizes.concurrency} at a time`;
		const rows: Row[] = [
			{
				benchmark: `${label}: deliveries/s`,
				ours: String(p2.surveyTrigger.deliveriesPerSecond),
				theirs: `${p2.webhookNode.deliveriesPerSecond} (Webhook v2)`,
				result: `${p2.rateRatio}×`,
				target: '≥ 0.95×',
				met: p2.rateRatio >= 0.95,
			},
			{
				benchmark: `${label}: executions / rejects`,
				ours: `${p2.surveyTrigger.executions} / ${p2.surveyTrigger.rejects}`,
				theirs: `${p2.webhookNode.executions} / ${p2.webhookNode.rejects}`,
				result: '',
				target: `${sizes.deliveries} / 0`,
				met: p2.surveyTrigger.executions === sizes.deliveries && p2.surveyTrigger.rejects === 0,
			},
		];
		if (p2.webhookNodeV1) {
			rows.push({
				benchmark: `${label}: against the Webhook node v1`,
				ours: String(p2.surveyTrigger.deliveriesPerSecond),
				theirs: String(p2.webhookNodeV1.deliveriesPerSecond),
				result: `${p2.rateRatioToWebhookNodeV1}×`,
				target: '',
			});
		}
		rows.push({
			benchmark: `${label}: legacy expression engine, deliveries/s`,
			ours: String(legacyExpressionEngine.surveyTrigger.deliveriesPerSecond),
			theirs: String(legacyExpressionEngine.webhookNode.deliveriesPerSecond),
			result: `${legacyExpressionEngine.rateRatio}×`,
			target: '≥ 0.95×',
			met: legacyExpressionEngine.rateRatio >= 0.95,
		});
		return { figures: { ...p2, legacyExpressionEngine }, rows, reducedSize: sizes.reducedSize };
	},
};
