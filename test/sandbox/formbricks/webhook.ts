/**
 * Webhook deliveries built exactly as Formbricks builds them, for the Formbricks flavour of the
 * sandbox and for tests of the Survey Trigger.
 *
 * Source: formbricks/formbricks at commit b66c1dd978af618a0e402bd3343b456bed68594c
 * - apps/web/modules/response-pipeline/lib/process-response-pipeline-job.ts,
 *   `createWebhookDeliveryTask` and `createWebhookMessageId`: the body, the headers, the id;
 * - apps/web/lib/crypto.ts, `generateStandardWebhookSignature` and `getWebhookSecretBytes`;
 * - packages/jobs/src/types.ts, `ZResponsePipelineJobData`: the response is parsed by this zod
 *   schema when the job is enqueued and again when it runs (packages/jobs/src/queue.ts,
 *   src/processors/registry.ts), so the body holds exactly the schema's fields, in its order;
 * - packages/types/responses.ts (`ZResponse`, `ZResponseMeta`, `ZResponseContact`) and
 *   packages/types/tags.ts (`ZTag`), ported below with the same zod 4 API;
 * - apps/web/modules/storage/utils.ts, `resolveStorageUrlsInObject`.
 */
import { createHash, createHmac } from 'node:crypto';

import { z } from 'zod/v4';

import { unixSeconds } from './timing';

export const FORMBRICKS_COMMIT = 'b66c1dd978af618a0e402bd3343b456bed68594c';

/** `PipelineTriggers` (packages/database/schema/main.prisma). */
export const PIPELINE_EVENTS = ['responseFinished', 'responseCreated', 'responseUpdated'] as const;
export type PipelineEvent = (typeof PIPELINE_EVENTS)[number];

const ZResponseDataValue = z
	.union([z.string(), z.number(), z.array(z.string()), z.record(z.string(), z.string())])
	.optional();

const ZTag = z.object({
	id: z.cuid2(),
	createdAt: z.date(),
	updatedAt: z.date(),
	name: z.string(),
	workspaceId: z.cuid2(),
});

const ZResponse = z.object({
	id: z.cuid2(),
	createdAt: z.date(),
	updatedAt: z.date(),
	surveyId: z.cuid2(),
	displayId: z.string().nullish(),
	contact: z.object({ id: z.cuid2(), userId: z.string().optional() }).nullable(),
	contactAttributes: z.record(z.string(), z.string()).nullable(),
	finished: z.boolean(),
	endingId: z.string().nullish(),
	data: z.record(z.string(), ZResponseDataValue),
	variables: z.record(z.string(), z.union([z.string(), z.number()])),
	ttc: z.record(z.string(), z.number()).optional(),
	tags: z.array(ZTag),
	meta: z.object({
		source: z.string().optional(),
		url: z.string().optional(),
		userAgent: z
			.object({
				browser: z.string().optional(),
				os: z.string().optional(),
				device: z.string().optional(),
			})
			.optional(),
		country: z.string().optional(),
		action: z.string().optional(),
		ipAddress: z.string().optional(),
	}),
	singleUseId: z.string().nullable(),
	language: z.string().nullable(),
});

/** `ZResponsePipelineJobResponse`: dates coerced, since the job data travels through Redis as JSON. */
const ZResponsePipelineJobResponse = ZResponse.extend({
	createdAt: z.coerce.date(),
	updatedAt: z.coerce.date(),
	tags: z.array(ZTag.extend({ createdAt: z.coerce.date(), updatedAt: z.coerce.date() })),
});

export type PipelineResponse = z.infer<typeof ZResponsePipelineJobResponse>;

/** The response as the job holds it: the schema's fields in its order, anything else dropped. */
export function pipelineResponse(response: unknown): PipelineResponse {
	// Enqueued (parsed), stored in Redis (JSON), parsed again by the worker.
	const enqueued = ZResponsePipelineJobResponse.parse(response);
	return ZResponsePipelineJobResponse.parse(JSON.parse(JSON.stringify(enqueued)));
}

/** The survey fields the pipeline reads (`pipelineSurveySelect`) that go into the body. */
export interface PipelineSurvey {
	name: string;
	type: string;
	status: string;
	createdAt: string | Date;
	updatedAt: string | Date;
}

const STORAGE_URL_PATTERN = /^\/storage\/[^/]+\/(public|private)\/.+/;

/**
 * `resolveStorageUrlsInObject`: relative storage paths become absolute. `publicUrl` is
 * Formbricks' PUBLIC_URL (or WEBAPP_URL when unset), `webappUrl` its WEBAPP_URL.
 */
export function resolveStorageUrls<T>(value: T, urls: { publicUrl: string; webappUrl: string }): T {
	if (value === null || value === undefined) return value;
	if (typeof value === 'string') {
		if (!STORAGE_URL_PATTERN.test(value)) return value;
		const base = value.includes('/private/') ? urls.webappUrl : urls.publicUrl;
		return `${base}${value}` as T;
	}
	if (typeof value !== 'object' || value instanceof Date) return value;
	if (Array.isArray(value)) return value.map((item) => resolveStorageUrls(item, urls)) as T;
	return Object.fromEntries(
		Object.entries(value as Record<string, unknown>).map(([key, item]) => [
			key,
			resolveStorageUrls(item, urls),
		]),
	) as T;
}

/** `createWebhookMessageId`: the `webhook-id`, the same on every attempt of one job to one webhook. */
export function webhookMessageId(jobId: string, webhookId: string, event: PipelineEvent): string {
	return createHash('sha256').update(`${jobId}:${webhookId}:${event}`).digest('hex');
}

/** `generateStandardWebhookSignature`: `v1,` and HMAC-SHA256 (base64) of `id.timestamp.body`. */
export function webhookSignature(
	messageId: string,
	timestamp: number,
	body: string,
	secret: string,
): string {
	const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
	const signature = createHmac('sha256', key)
		.update(`${messageId}.${timestamp}.${body}`)
		.digest('base64');
	return `v1,${signature}`;
}

/** The exact bytes Formbricks posts: `JSON.stringify` of the nested envelope. */
export function webhookBody(input: {
	webhookId: string;
	event: PipelineEvent;
	response: PipelineResponse;
	survey: PipelineSurvey;
	urls: { publicUrl: string; webappUrl: string };
}): string {
	const { response, survey } = input;
	return JSON.stringify({
		webhookId: input.webhookId,
		event: input.event,
		data: {
			...response,
			data: resolveStorageUrls(response.data, input.urls),
			survey: {
				title: survey.name,
				type: survey.type,
				status: survey.status,
				createdAt: survey.createdAt,
				updatedAt: survey.updatedAt,
			},
		},
	});
}

export interface FormbricksDelivery {
	/** The `webhook-id` header. */
	messageId: string;
	body: string;
	headers: Record<string, string>;
}

/**
 * One attempt of one delivery: the body and the headers `createWebhookDeliveryTask` sends.
 * `webhook-signature` only when the webhook has a secret (webhooks made before secrets existed
 * have none). `now` is the attempt's time; a retry is signed anew with its own timestamp.
 */
export function buildDelivery(input: {
	jobId: string;
	event: PipelineEvent;
	webhook: { id: string; secret: string | null };
	response: unknown;
	survey: PipelineSurvey;
	urls: { publicUrl: string; webappUrl: string };
	now?: Date;
}): FormbricksDelivery {
	const body = webhookBody({
		webhookId: input.webhook.id,
		event: input.event,
		response: pipelineResponse(input.response),
		survey: input.survey,
		urls: input.urls,
	});
	const messageId = webhookMessageId(input.jobId, input.webhook.id, input.event);
	const timestamp = unixSeconds(input.now);
	const headers: Record<string, string> = {
		'content-type': 'application/json',
		'webhook-id': messageId,
		'webhook-timestamp': timestamp.toString(),
	};
	if (input.webhook.secret) {
		headers['webhook-signature'] = webhookSignature(messageId, timestamp, body, input.webhook.secret);
	}
	return { messageId, body, headers };
}
