/**
 * Formbricks' management API v1 routes the Survey nodes need, as its source answers them
 * (apps/web/app/api/v1/…, commit b66c1dd). Registered inside the `/api` plugin.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod/v4';

import { v1 } from './errors';
import { CUID2_PATTERN } from './ids';
import { singleUseLink, type SingleUse } from './links';
import { responseV1, surveyV1, webhookV1, webhookWithoutSecret } from './records';
import type { FormbricksStore } from './store';
import { PIPELINE_EVENTS } from './webhook';

/** `RESPONSES_PER_PAGE` (apps/web/lib/constants.ts): the v1 page size when `limit` is not given. */
export const V1_RESPONSES_PER_PAGE = 25;

const param = (request: FastifyRequest, name: string) =>
	(request.params as Record<string, string>)[name];
const query = (request: FastifyRequest) => request.query as Record<string, string | undefined>;

/** `validateInputs([id, ZId])` throws `ValidationError("Validation failed: Invalid cuid2")`, a 400. */
export function checkId(id: string) {
	if (!CUID2_PATTERN.test(id)) throw v1.badRequest('Validation failed: Invalid cuid2');
}

/** `Number(searchParams.get(name))` checked by `ZOptionalNumber`: NaN is refused. */
function numberParam(value: string | undefined): number | undefined {
	if (!value) return undefined;
	const number = Number(value);
	if (Number.isNaN(number)) {
		throw v1.badRequest('Validation failed: Invalid input: expected number, received NaN');
	}
	return number;
}

const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
	b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

/** `ZWebhookInput` of apps/web/app/api/v1/webhooks/types/webhooks.ts (name, source, surveyIds optional). */
const ZWebhookInput = z.object({
	name: z.string().nullable().optional(),
	source: z.enum(['user', 'zapier', 'make', 'n8n']).optional(),
	surveyIds: z.array(z.cuid2()).optional(),
	triggers: z.array(z.enum(PIPELINE_EVENTS)).min(1, { error: 'At least one trigger is required' }),
	url: z.url(),
	workspaceId: z.cuid2(),
});

/** Fields Formbricks reads from a webhook body; it drops others, the flavour refuses them. */
const WEBHOOK_FIELDS = ['url', 'triggers', 'surveyIds', 'name', 'source', 'workspaceId', 'environmentId'];

const PRIVATE_HOST =
	/^(localhost|127\.|10\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.|169\.254\.|0\.|\[::1\]|\[f[cd])/i;

/**
 * `validateWebhookUrl` (apps/web/lib/utils/validate-webhook-url.ts): http(s) only, and no private
 * or internal address unless the server sets DANGEROUSLY_ALLOW_WEBHOOK_INTERNAL_URLS.
 */
export function webhookUrlProblem(url: string, allowInternal: boolean): string | undefined {
	const parsed = new URL(url);
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
		return 'Webhook URL must use HTTPS or HTTP protocol';
	}
	if (!allowInternal && PRIVATE_HOST.test(parsed.hostname)) {
		return 'Webhook URL must not point to private or internal IP addresses';
	}
	return undefined;
}

export function registerV1Routes(
	api: FastifyInstance,
	store: FormbricksStore,
	options: { allowInternalWebhookUrls: () => boolean; preWorkspaceRename: () => boolean },
): void {
	// apps/web/app/api/v1/management/me/route.ts: an `x-api-key` key scoped to exactly one workspace.
	api.get('/v1/management/me', async (request) => {
		if (!request.headers['x-api-key']) throw v1.notAuthenticated();
		const permissions = store.permissions();
		if (permissions.length !== 1) {
			throw v1.badRequest(
				'This endpoint only supports API keys that are scoped to a single workspace. Use GET /api/v2/me to inspect organization-level API keys or keys with access to multiple workspaces.',
			);
		}
		const { workspace } = store;
		// Before the rename the key belonged to an environment of a project: no `workspace`.
		if (options.preWorkspaceRename()) {
			return {
				id: workspace.legacyEnvironmentId,
				type: 'production',
				createdAt: workspace.createdAt,
				updatedAt: workspace.updatedAt,
				appSetupCompleted: workspace.appSetupCompleted,
				project: { id: workspace.id, name: workspace.name },
			};
		}
		return {
			id: workspace.legacyEnvironmentId ?? workspace.id,
			type: 'production',
			createdAt: workspace.createdAt,
			updatedAt: workspace.updatedAt,
			appSetupCompleted: workspace.appSetupCompleted,
			workspace: { id: workspace.id, name: workspace.name },
			project: { id: workspace.id, name: workspace.name },
		};
	});

	// apps/web/app/api/v1/management/surveys/route.ts: every survey of the key's workspaces,
	// last updated first; `limit` and `offset` are read although the spec lists no parameter.
	api.get('/v1/management/surveys', async (request) => {
		const limit = numberParam(query(request).limit);
		const offset = numberParam(query(request).offset) ?? 0;
		const workspaces = new Set(store.workspaceIds());
		const surveys = [...store.surveys.values()]
			.filter((survey) => workspaces.has(survey.workspaceId))
			.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
		const page = surveys.slice(offset, limit === undefined ? undefined : offset + limit);
		return { data: page.map((survey) => surveyV1(survey, store.workspace, store.urls)) };
	});

	api.get('/v1/management/surveys/:surveyId', async (request) => {
		const surveyId = param(request, 'surveyId');
		checkId(surveyId);
		const survey = store.surveys.get(surveyId);
		if (!survey) throw v1.notFound('Survey', surveyId);
		if (!store.can('GET', survey.workspaceId)) throw v1.unauthorized();
		return { data: surveyV1(survey, store.workspace, store.urls) };
	});

	// apps/web/app/api/v1/management/surveys/[surveyId]/singleUseIds/route.ts: checked at write
	// level although a GET (it mints links that submit responses), then the survey's settings.
	api.get('/v1/management/surveys/:surveyId/singleUseIds', async (request) => {
		const surveyId = param(request, 'surveyId');
		checkId(surveyId);
		const survey = store.surveys.get(surveyId);
		if (!survey) throw v1.notFound('Survey', surveyId);
		if (!store.can('POST', survey.workspaceId)) throw v1.unauthorized();
		if (survey.type !== 'link') throw v1.badRequest('Single use links are only available for link surveys');
		const singleUse = survey.singleUse as SingleUse | null | undefined;
		if (!singleUse?.enabled) throw v1.badRequest('Single use links are not enabled for this survey');
		const raw = query(request).limit;
		const limit = raw ? Number(raw) : 10;
		if (limit < 1) throw v1.badRequest('Limit cannot be less than 1');
		if (limit > 5000) throw v1.badRequest('Limit cannot be more than 5000');
		return {
			data: Array.from({ length: limit }, () => singleUseLink(store.urls.publicUrl, { id: survey.id, singleUse })),
		};
	});

	// apps/web/app/api/v1/management/responses/route.ts and lib/response.ts: newest first (then
	// by id), `limit` (25 when absent, no maximum) and `skip`; no total.
	api.get('/v1/management/responses', async (request) => {
		const { surveyId } = query(request);
		let responses;
		if (surveyId) {
			checkId(surveyId);
			const survey = store.surveys.get(surveyId);
			if (!survey) throw v1.notFound('Survey', surveyId);
			if (!store.can('GET', survey.workspaceId)) throw v1.unauthorized();
			const limit = numberParam(query(request).limit) ?? V1_RESPONSES_PER_PAGE;
			const skip = numberParam(query(request).skip) ?? 0;
			responses = store
				.responsesOf(surveyId)
				.sort(newestFirst)
				.slice(skip, skip + limit);
		} else {
			// getResponsesByWorkspaceIds: every response of the key's workspaces, all of them unless `limit`.
			const limit = numberParam(query(request).limit);
			const skip = numberParam(query(request).skip) ?? 0;
			const workspaces = new Set(store.workspaceIds());
			responses = [...store.responses.values()]
				.filter((response) => workspaces.has(store.surveys.get(response.surveyId)?.workspaceId ?? ''))
				.sort(newestFirst)
				.slice(skip, limit ? skip + limit : undefined);
		}
		return { data: responses.map((response) => responseV1(response, store.urls)) };
	});

	const findResponse = (request: FastifyRequest, method: string) => {
		const responseId = param(request, 'responseId');
		checkId(responseId);
		const response = store.responses.get(responseId);
		if (!response) throw v1.notFound('Response', responseId);
		const survey = store.surveys.get(response.surveyId);
		if (!survey) throw v1.notFound('Survey', response.surveyId);
		if (!store.can(method, survey.workspaceId)) throw v1.unauthorized();
		return response;
	};

	api.get('/v1/management/responses/:responseId', async (request) => ({
		data: responseV1(findResponse(request, 'GET'), store.urls),
	}));

	api.delete('/v1/management/responses/:responseId', async (request) => {
		const response = findResponse(request, 'DELETE');
		store.responses.delete(response.id);
		return { data: responseV1(response) };
	});

	// apps/web/app/api/v1/webhooks/route.ts
	api.get('/v1/webhooks', async () => {
		const workspaces = new Set(store.workspaceIds());
		return {
			data: store.webhooks
				.filter((webhook) => workspaces.has(webhook.workspaceId))
				.map((webhook) => webhookV1(webhookWithoutSecret(webhook), store.workspace)),
		};
	});

	api.post('/v1/webhooks', async (request) => {
		const body = (request.body ?? {}) as Record<string, unknown>;
		const unread = Object.keys(body).filter((field) => !WEBHOOK_FIELDS.includes(field));
		if (unread.length > 0) {
			throw v1.badRequest(
				'Fields are missing or incorrectly formatted',
				Object.fromEntries(unread.map((field) => [field, 'Formbricks does not read this field'])),
			);
		}
		// resolveBodyIds (apps/web/app/api/v1/management/lib/workspace-resolver.ts); before the rename,
		// `ZWebhookInput` required `environmentId` and dropped anything else.
		const rawId = options.preWorkspaceRename() ? body.environmentId : (body.workspaceId ?? body.environmentId);
		if (!rawId && options.preWorkspaceRename()) {
			throw v1.badRequest('Fields are missing or incorrectly formatted', { environmentId: 'Required' });
		}
		if (!rawId) throw v1.badRequest('workspaceId must be provided');
		if (typeof rawId !== 'string') throw v1.badRequest('workspaceId must be a string');
		const workspace = store.findWorkspace(rawId);
		if (!workspace) throw v1.notFound('Workspace', rawId);
		if (!store.can('POST', workspace.id)) throw v1.unauthorized();
		const parsed = ZWebhookInput.safeParse({ ...body, workspaceId: workspace.id });
		if (!parsed.success) {
			throw v1.badRequest(
				'Fields are missing or incorrectly formatted',
				Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message])),
			);
		}
		const input = parsed.data;
		const problem = webhookUrlProblem(input.url, options.allowInternalWebhookUrls());
		if (problem) throw v1.badRequest(problem);
		const webhook = store.addWebhook({
			name: input.name ?? null,
			url: input.url,
			source: input.source ?? 'user',
			workspaceId: workspace.id,
			triggers: input.triggers,
			surveyIds: input.surveyIds ?? [],
		});
		// The creation answer is the only one that shows the secret; status 200.
		return { data: webhookV1({ ...webhook }, workspace) };
	});

	const findWebhook = (request: FastifyRequest, method: string) => {
		const webhookId = param(request, 'webhookId');
		// getWebhook's validateInputs throws outside the handler's try: Formbricks answers 500.
		if (!CUID2_PATTERN.test(webhookId)) throw v1.internal('An unexpected error occurred.');
		const webhook = store.webhooks.find((candidate) => candidate.id === webhookId);
		if (!webhook) throw v1.notFound('Webhook', webhookId);
		if (!store.can(method, webhook.workspaceId)) throw v1.unauthorized();
		return webhook;
	};

	api.get('/v1/webhooks/:webhookId', async (request) => ({
		data: webhookV1(webhookWithoutSecret(findWebhook(request, 'GET')), store.workspace),
	}));

	api.delete('/v1/webhooks/:webhookId', async (request) => {
		const webhook = findWebhook(request, 'DELETE');
		store.deleteWebhook(webhook);
		return { data: webhookV1(webhookWithoutSecret(webhook), store.workspace) };
	});
}
