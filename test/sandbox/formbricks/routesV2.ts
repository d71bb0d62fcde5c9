/**
 * Formbricks' management API v2 routes the Survey nodes can use (apps/web/modules/api/v2/…,
 * commit b66c1dd). Registered inside the `/api` plugin. Query and body checks are ports of the
 * routes' zod schemas, so refusals carry Formbricks' own messages (422 with `[{field, issue}]`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod/v4';

import { v2 } from './errors';
import { responseV2, webhookWithoutSecret, type ResponseRow, type WebhookRow } from './records';
import { webhookUrlProblem } from './routesV1';
import type { FormbricksStore } from './store';
import { PIPELINE_EVENTS } from './webhook';

/** `ZGetFilter` (apps/web/modules/api/v2/types/api-filter.ts). */
const ZGetFilter = z.object({
	limit: z.coerce.number().min(1).max(250).optional().prefault(50),
	skip: z.coerce.number().min(0).optional().prefault(0),
	sortBy: z.enum(['createdAt', 'updatedAt']).optional().prefault('createdAt'),
	order: z.enum(['asc', 'desc']).optional().prefault('desc'),
	startDate: z.coerce.date().optional(),
	endDate: z.coerce.date().optional(),
	filterDateField: z.enum(['createdAt', 'updatedAt']).optional(),
});

const datesInOrder = (data: { startDate?: Date; endDate?: Date }) =>
	!(data.startDate && data.endDate && data.startDate > data.endDate);

/** `ZGetResponsesFilter` (apps/web/modules/api/v2/management/responses/types/responses.ts). */
const ZGetResponsesFilter = ZGetFilter.extend({
	surveyId: z.cuid2().optional(),
	contactId: z.string().optional(),
}).refine(datesInOrder, { message: 'startDate must be before endDate' });

/** `ZGetWebhooksFilter`: `surveyIds` is an array, which a query string never gives (always a 422). */
const ZGetWebhooksFilter = ZGetFilter.extend({
	surveyIds: z.array(z.cuid2()).optional(),
}).refine(datesInOrder, { message: 'startDate must be before endDate' });

/** `ZWebhookCreateInput` (apps/web/modules/api/v2/management/webhooks/types/webhooks.ts). */
const ZWebhookCreateInput = z.object({
	name: z.string().nullable(),
	url: z.url(),
	source: z.enum(['user', 'zapier', 'make', 'n8n']),
	triggers: z.array(z.enum(PIPELINE_EVENTS)).min(1, { error: 'At least one trigger is required' }),
	surveyIds: z.array(z.cuid2()),
	workspaceId: z.cuid2(),
});

/** `formatZodError` (apps/web/modules/api/v2/lib/utils.ts). */
function unprocessable(issues: Array<{ path: PropertyKey[]; message: string }>) {
	return v2(
		422,
		issues.map((issue) => ({ field: issue.path.map(String).join('.'), issue: issue.message })),
	);
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
	const result = schema.safeParse(value);
	if (!result.success) throw unprocessable(result.error.issues);
	return result.data;
}

const ZId = (name: string) => z.object({ [name]: z.cuid2() });

/** `Object.fromEntries(url.searchParams.entries())`: a repeated parameter keeps its last value. */
const queryObject = (request: FastifyRequest) =>
	Object.fromEntries(new URL(request.url, 'http://formbricks').searchParams.entries());

/** Prisma's `orderBy: { [sortBy]: order }`; ties (same millisecond) go by id here, in Formbricks by chance. */
function sortRows<T extends { id: string; createdAt: string; updatedAt: string }>(
	rows: T[],
	sortBy: 'createdAt' | 'updatedAt',
	order: 'asc' | 'desc',
): T[] {
	const sign = order === 'asc' ? 1 : -1;
	return rows.sort((a, b) => sign * (a[sortBy].localeCompare(b[sortBy]) || a.id.localeCompare(b.id)));
}

/** `buildCommonFilterQuery` (apps/web/modules/api/v2/management/lib/utils.ts): gte/lte on one field. */
function filterAndPage<T extends { id: string; createdAt: string; updatedAt: string }>(
	rows: T[],
	filter: z.infer<typeof ZGetFilter>,
): { page: T[]; total: number } {
	const field = filter.filterDateField ?? 'createdAt';
	const matching = rows.filter((row) => {
		const time = Date.parse(row[field]);
		return (
			(!filter.startDate || time >= filter.startDate.getTime()) &&
			(!filter.endDate || time <= filter.endDate.getTime())
		);
	});
	const sorted = sortRows(matching, filter.sortBy, filter.order);
	return { page: sorted.slice(filter.skip, filter.skip + filter.limit), total: matching.length };
}

export function registerV2Routes(
	api: FastifyInstance,
	store: FormbricksStore,
	options: { allowInternalWebhookUrls: () => boolean },
): void {
	api.get('/v2/health', async () => ({ data: { main_database: true, cache_database: true } }));

	// apps/web/modules/api/v2/me/route.ts
	api.get('/v2/me', async () => {
		const permissions = store.permissions();
		const { workspace } = store;
		return {
			data: {
				workspacePermissions: permissions.map((permission) => ({
					permissions: permission.permission,
					workspaceId: permission.workspaceId,
					workspaceName: permission.workspaceName,
				})),
				environmentPermissions: workspace.legacyEnvironmentId
					? [
							{
								environmentId: workspace.legacyEnvironmentId,
								environmentType: 'production',
								permissions: permissions[0].permission,
								projectId: workspace.id,
								projectName: workspace.name,
							},
						]
					: [],
				organizationId: workspace.organizationId,
				organizationAccess: { accessControl: { read: true, write: false } },
			},
		};
	});

	// apps/web/modules/api/v2/management/responses/route.ts: the route computes `meta` (total,
	// limit, offset) and then answers `{ data }` only: no total reaches the client.
	api.get('/v2/management/responses', async (request) => {
		const filter = parse(ZGetResponsesFilter, queryObject(request));
		const workspaces = new Set(store.workspaceIds());
		const rows = [...store.responses.values()].filter(
			(response) =>
				workspaces.has(store.surveys.get(response.surveyId)?.workspaceId ?? '') &&
				(!filter.surveyId || response.surveyId === filter.surveyId) &&
				(!filter.contactId || response.contactId === filter.contactId),
		);
		const { page } = filterAndPage(rows, filter);
		return { data: page.map((response) => responseV2(response, store.urls)) };
	});

	const findResponse = (request: FastifyRequest, method: string): ResponseRow => {
		const { responseId } = parse(ZId('responseId'), request.params) as { responseId: string };
		const response = store.responses.get(responseId);
		const survey = response && store.surveys.get(response.surveyId);
		if (!response || !survey) throw v2(404, [{ field: 'response', issue: 'not found' }]);
		if (!store.can(method, survey.workspaceId)) throw v2(401);
		return response;
	};

	api.get('/v2/management/responses/:responseId', async (request) => ({
		data: responseV2(findResponse(request, 'GET'), store.urls),
	}));

	api.delete('/v2/management/responses/:responseId', async (request) => {
		const response = findResponse(request, 'DELETE');
		store.responses.delete(response.id);
		return { data: responseV2(response) };
	});

	// apps/web/modules/api/v2/management/webhooks/route.ts: `{ data, meta }`, meta with the total.
	api.get('/v2/management/webhooks', async (request) => {
		const filter = parse(ZGetWebhooksFilter, queryObject(request));
		const workspaces = new Set(store.workspaceIds());
		const { page, total } = filterAndPage(
			store.webhooks.filter((webhook) => workspaces.has(webhook.workspaceId)),
			filter,
		);
		return {
			data: page.map(webhookWithoutSecret),
			meta: { total, limit: filter.limit, offset: filter.skip },
		};
	});

	api.post('/v2/management/webhooks', async (request, reply) => {
		const body = (request.body ?? {}) as Record<string, unknown>;
		// resolveBodyIdsV2 (apps/web/modules/api/v2/management/lib/workspace-resolver.ts)
		const rawId = (body.workspaceId ?? body.environmentId) as string | undefined;
		if (!rawId) {
			throw v2(400, [{ field: 'workspaceId', issue: 'workspaceId must be provided' }]);
		}
		const workspace = store.findWorkspace(rawId);
		if (!workspace) throw v2(404, [{ field: 'workspaceId', issue: 'workspace not found' }]);
		if (!store.can('POST', workspace.id)) throw v2(403);
		const input = parse(ZWebhookCreateInput, { ...body, workspaceId: workspace.id });
		// fetchWorkspaceIdFromSurveyIds: the surveys found must be as many as the ids given, so a
		// repeated id is refused like an unknown one.
		const found = new Set(input.surveyIds.filter((surveyId) => store.surveys.has(surveyId)));
		if (found.size !== input.surveyIds.length) {
			throw v2(404, [{ field: 'survey', issue: 'not found' }]);
		}
		const problem = webhookUrlProblem(input.url, options.allowInternalWebhookUrls());
		if (problem) throw v2(400, [{ field: 'url', issue: problem }]);
		const webhook = store.addWebhook(input);
		return await reply.code(201).send({ data: { ...webhook } });
	});

	const findWebhook = (request: FastifyRequest, method: string): WebhookRow => {
		const { webhookId } = parse(ZId('webhookId'), request.params) as { webhookId: string };
		const webhook = store.webhooks.find((candidate) => candidate.id === webhookId);
		if (!webhook) throw v2(404, [{ field: 'webhook', issue: 'not found' }]);
		if (!store.can(method, webhook.workspaceId)) throw v2(401);
		return webhook;
	};

	api.get('/v2/management/webhooks/:webhookId', async (request) => ({
		data: webhookWithoutSecret(findWebhook(request, 'GET')),
	}));

	api.delete('/v2/management/webhooks/:webhookId', async (request) => {
		const webhook = findWebhook(request, 'DELETE');
		store.deleteWebhook(webhook);
		return { data: webhookWithoutSecret(webhook) };
	});
}
