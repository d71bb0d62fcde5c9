/**
 * P2, the do-it-yourself way: what a user without the pack builds to get the Survey Trigger's
 * guarantees from n8n's own nodes — the Webhook node (v2), a Code node that checks the Standard
 * Webhooks signature (HMAC-SHA256 over `id.timestamp.body`, 5-minute window) and refuses a bad
 * one, Remove Duplicates (v2, items processed in previous executions, keyed on `webhook-id`),
 * then NoOp — against Survey Trigger → NoOp. Both get the same stream: signed deliveries, with a
 * forged one (signed with another secret) after every tenth, and then redeliveries of every
 * tenth (same `webhook-id` and body, signed anew, as a service retries).
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

import type { Stack } from '../../test/harness/provision';
import {
	accepted,
	type Benchmark,
	callUntilRegistered,
	deliver,
	deployChain,
	executionsWithData,
	itemsOutOf,
	noOpNode,
	ratio,
	registeredSecret,
	responseFinishedBody,
	type Row,
	settledExecutions,
	type SignedDelivery,
	sizesFromEnv,
	webhookNode,
	withStack,
} from '../shared';
import { surveyTriggerNode } from './p2WebhookIngest';

const WARMUP = 100;
const PROCESSED = 'Processed';

/** The Code node's JavaScript, as a user would write it (the Standard Webhooks verification, by hand). */
const verifySignatureCode = (secret: string) => `const crypto = require('crypto');
const secret = ${JSON.stringify(secret)};
const headers = $json.headers;
const id = headers['webhook-id'];
const timestamp = Number(headers['webhook-timestamp']);
if (!id || !Number.isInteger(timestamp)) throw new Error('Missing webhook-id or webhook-timestamp');
if (Math.abs(Date.now() / 1000 - timestamp) > 300) throw new Error('Timestamp outside the 5-minute window');
const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
const expected = crypto.createHmac('sha256', key).update(id + '.' + timestamp + '.' + JSON.stringify($json.body)).digest('base64');
const valid = String(headers['webhook-signature'] || '').split(' ').some((entry) => {
  const [version, signature] = entry.split(',');
  return version === 'v1' && signature && signature.length === expected.length &&
    crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
});
if (!valid) throw new Error('Invalid signature');
return { json: { ...$json.body, deliveryId: id } };`;

/** The stream of one run: originals with a forged one after every tenth, then the redeliveries. */
function deliveryStream(label: string, originals: number, signer: Webhook, forger: Webhook) {
	const stream: Array<SignedDelivery & { kind: 'original' | 'forged' | 'redelivery' }> = [];
	const original = (n: number) => ({ id: `msg_${label}_${n}`, body: responseFinishedBody(label, n), signer });
	for (let n = 0; n < originals; n++) {
		stream.push({ ...original(n), kind: 'original' });
		if (n % 10 === 9) {
			stream.push({ id: `msg_forged_${label}_${n}`, body: responseFinishedBody(`forged_${label}`, n), signer: forger, kind: 'forged' });
		}
	}
	for (let n = 0; n < originals; n += 10) stream.push({ ...original(n), kind: 'redelivery' });
	return stream;
}

async function measure(stack: Stack, url: string, workflowId: string, label: string, originals: number, concurrency: number, signer: Webhook) {
	const forger = new Webhook(`whsec_${randomBytes(24).toString('base64')}`);
	await deliver(url, deliveryStream(`${label}_warmup`, Math.min(WARMUP, originals), signer, forger), concurrency);
	const before = await settledExecutions(stack.n8n, workflowId);
	const stream = deliveryStream(label, originals, signer, forger);
	const started = Date.now();
	const { wallMs, statuses } = await deliver(url, stream, concurrency);
	const executions = (await settledExecutions(stack.n8n, workflowId)) - before;
	const measured = (await executionsWithData(stack.n8n, workflowId)).filter(
		(execution) => Date.parse(execution.startedAt) >= started,
	);
	const processed = itemsOutOf(measured, PROCESSED)
		.map((item) => String(item.deliveryId))
		.filter((id) => !id.includes('_warmup_'));
	// Both answer once n8n has started the execution, not once it ended: this counts until the last one stopped.
	const allStoppedMs = Math.max(...measured.map((execution) => Date.parse(execution.stoppedAt ?? '') || 0)) - started;
	const times = new Map<string, number>();
	for (const id of processed) times.set(id, (times.get(id) ?? 0) + 1);
	const originalIds = stream.filter((delivery) => delivery.kind === 'original').map((delivery) => delivery.id);
	const forged = stream.filter((delivery) => delivery.kind === 'forged');
	return {
		deliveries: stream.length,
		wallMs,
		deliveriesPerSecond: +((stream.length * 1000) / wallMs).toFixed(1),
		allStoppedMs,
		executedPerSecond: +((stream.length * 1000) / Math.max(wallMs, allStoppedMs)).toFixed(1),
		answeredNot2xx: statuses.filter((status) => !accepted(status)).length,
		forgedAnswered2xx: forged.filter((delivery) => accepted(statuses[stream.indexOf(delivery)])).length,
		executionsStarted: executions,
		processed: processed.length,
		duplicatesRun: [...times.values()].reduce((sum, count) => sum + count - 1, 0),
		forgedAccepted: forged.filter((delivery) => times.has(delivery.id)).length,
		originalsLost: originalIds.filter((id) => !times.has(id)).length,
	};
}

/** Both workflows in one n8n, the same stream to each. */
async function compare(stack: Stack, deliveries: number, concurrency: number) {
	const ours = await deployChain(stack, 'Bench P2 signed – Survey Trigger', [
		surveyTriggerNode(stack, 'bench-p2-signed-ours'),
		noOpNode(PROCESSED, 200),
	]);
	const oursSigner = new Webhook(await registeredSecret(stack, 'bench-p2-signed-ours'));
	const diySecret = `whsec_${randomBytes(24).toString('base64')}`;
	const diy = await deployChain(stack, 'Bench P2 signed – Webhook, Code, Remove Duplicates', [
		webhookNode('bench-p2-signed-diy', 'onReceived'),
		{
			name: 'Verify Signature',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [200, 0],
			parameters: { mode: 'runOnceForEachItem', jsCode: verifySignatureCode(diySecret) },
		},
		{
			name: 'Skip Redeliveries',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			position: [400, 0],
			parameters: {
				operation: 'removeItemsSeenInPreviousExecutions',
				logic: 'removeItemsWithAlreadySeenKeyValues',
				dedupeValue: '={{ $json.deliveryId }}',
				options: { historySize: 100_000 },
			},
		},
		noOpNode(PROCESSED, 600),
	]);
	const diyUrl = `${stack.n8n.baseUrl}/webhook/bench-p2-signed-diy`;
	await callUntilRegistered(diyUrl, { warmup: true });
	const surveyTrigger = await measure(
		stack,
		`${stack.n8n.baseUrl}/webhook/bench-p2-signed-ours/webhook`,
		ours.id,
		'ours',
		deliveries,
		concurrency,
		oursSigner,
	);
	const doItYourself = await measure(stack, diyUrl, diy.id, 'diy', deliveries, concurrency, new Webhook(diySecret));
	return { surveyTrigger, doItYourself, rateRatio: ratio(surveyTrigger.deliveriesPerSecond, doItYourself.deliveriesPerSecond) };
}

export const p2SignedIngestDiy: Benchmark = {
	name: 'p2SignedIngestDiy',
	title: 'P2 signed ingest (Survey Trigger against Webhook + Code + Remove Duplicates)',
	runByDefault: true,
	async run() {
		const sizes = sizesFromEnv({ deliveries: ['BENCH_DELIVERIES', 2_000], concurrency: ['BENCH_CONCURRENCY', 10] });
		// A user's Code node needs the built-in module allowed (n8n's documented setting).
		const n8nSettings = { NODE_FUNCTION_ALLOW_BUILTIN: 'crypto' };
		const sandbox = { rateLimits: { survey: null } };
		const { surveyTrigger, doItYourself, rateRatio } = await withStack(
			sandbox,
			n8nSettings,
			async (stack) => await compare(stack, sizes.deliveries, sizes.concurrency),
		);
		// The control (see p2WebhookIngest): without isolates, what the nodes themselves cost.
		const legacyExpressionEngine = await withStack(
			sandbox,
			{ ...n8nSettings, N8N_EXPRESSION_ENGINE: 'legacy' },
			async (stack) => await compare(stack, sizes.deliveries, sizes.concurrency),
		);
		const label = `P2 signed, ${sizes.deliveries} + ${sizes.deliveries / 10} redelivered + ${sizes.deliveries / 10} forged, ${sizes.concurrency} at a time`;
		const rows: Row[] = [
			{
				benchmark: `${label}: deliveries/s`,
				ours: String(surveyTrigger.deliveriesPerSecond),
				theirs: `${doItYourself.deliveriesPerSecond} (Webhook → Code → Remove Duplicates)`,
				result: `${rateRatio}×`,
				target: '≥ 1.5×',
				met: rateRatio >= 1.5,
			},
			{
				benchmark: `${label}: deliveries/s until the last execution stopped`,
				ours: String(surveyTrigger.executedPerSecond),
				theirs: String(doItYourself.executedPerSecond),
				result: `${ratio(surveyTrigger.executedPerSecond, doItYourself.executedPerSecond)}×`,
				target: '',
			},
			{
				benchmark: `${label}: executions started`,
				ours: String(surveyTrigger.executionsStarted),
				theirs: String(doItYourself.executionsStarted),
				result: '',
				target: '',
			},
			{
				benchmark: `${label}: duplicates run / forged accepted / lost`,
				ours: `${surveyTrigger.duplicatesRun} / ${surveyTrigger.forgedAccepted} / ${surveyTrigger.originalsLost}`,
				theirs: `${doItYourself.duplicatesRun} / ${doItYourself.forgedAccepted} / ${doItYourself.originalsLost}`,
				result: `forged answered 2xx: ${surveyTrigger.forgedAnswered2xx} / ${doItYourself.forgedAnswered2xx}`,
				target: 'ours 0 / 0 / 0',
				met:
					surveyTrigger.duplicatesRun === 0 &&
					surveyTrigger.forgedAccepted === 0 &&
					surveyTrigger.originalsLost === 0 &&
					surveyTrigger.forgedAnswered2xx === 0,
			},
			{
				benchmark: `${label}: legacy expression engine, deliveries/s`,
				ours: String(legacyExpressionEngine.surveyTrigger.deliveriesPerSecond),
				theirs: String(legacyExpressionEngine.doItYourself.deliveriesPerSecond),
				result: `${legacyExpressionEngine.rateRatio}×`,
				target: '≥ 1.5×',
				met: legacyExpressionEngine.rateRatio >= 1.5,
			},
			{
				benchmark: `${label}: legacy expression engine, duplicates run / forged accepted / lost`,
				ours: `${legacyExpressionEngine.surveyTrigger.duplicatesRun} / ${legacyExpressionEngine.surveyTrigger.forgedAccepted} / ${legacyExpressionEngine.surveyTrigger.originalsLost}`,
				theirs: `${legacyExpressionEngine.doItYourself.duplicatesRun} / ${legacyExpressionEngine.doItYourself.forgedAccepted} / ${legacyExpressionEngine.doItYourself.originalsLost}`,
				result: '',
				target: '',
			},
		];
		return {
			figures: { concurrency: sizes.concurrency, surveyTrigger, doItYourself, rateRatio, legacyExpressionEngine },
			rows,
			reducedSize: sizes.reducedSize,
		};
	},
};
