/**
 * Formbricks' management API v2 routes the Survey nodes can use (apps/web/modules/api/v2/…,
 * commit b66c1dd). Registered inside the `/api` plugin. Query and body checks are ports of the
 * routes' zod schemas, so refusals carry Formbricks' own messages (422 with `[{field, issue}]`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod/v4';

import { v2 } from './errors';
import { cuid } from './ids';
import { responseV2, webhookWithoutSecret, type ResponseRow, type WebhookRow, type Workspace } from './records';
import { webhookUrlProblem } from './routesV1';
import type { FormbricksStore } from './store';
import { PIPELINE_EVENTS } from './webhook';

/** `ZGetFilter` (apps/web/modules/api/v2/types/api-filter.ts). */
export const ZGetFilter = z.object({
	limit: z.coerce.number().min(1).max(250).optional().prefault(50),
	skip: z.coerce.number().min(0).optional().prefault(0),
	sortBy: z.enum(['createdAt', 'updatedAt']).optional().prefault('createdAt'),
	order: z.enum(['asc', 'desc']).optional().prefault('desc'),
	startDate: z.coerce.date().optional(),
	endDate: z.coerce.date().optional(),
	filterDateField: z.enum(['createdAt', 'updatedAt']).optional(),
});

export const datesInOrder = (data: { startDate?: Date; endDate?: Date }) =>
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
export function unprocessable(
	issues: Array<{ path: PropertyKey[]; message: string; code?: string; params?: Record<string, unknown> }>,
) {
	return v2(
		422,
		issues.map((issue) => ({
			field: issue.path.map(String).join('.'),
			issue: issue.message,
			// A custom issue's params travel as `meta` (duplicate e-mails of a bulk upload).
			...(issue.code === 'custom' && issue.params ? { meta: issue.params } : {}),
		})),
	);
}

/**
 * `resolveBodyIdsV2` (apps/web/modules/api/v2/management/lib/workspace-resolver.ts): the body's
 * `workspaceId` (or its legacy alias `environmentId`), which the key must reach with the method's
 * permission; refusals as the routes answer them (the thrown error is caught by
 * `authenticatedApiClient` and answered by `handleApiError`).
 */
export function resolveWorkspace(store: FormbricksStore, body: Record<string, unknown>, method: string): Workspace {
	const rawId = (body.workspaceId ?? body.environmentId) as string | undefined;
	if (!rawId) throw v2(400, [{ field: 'workspaceId', issue: 'workspaceId must be provided' }]);
	const workspace = store.findWorkspace(String(rawId));
	if (!workspace) throw v2(404, [{ field: 'workspaceId', issue: 'workspace not found' }]);
	if (!store.can(method, workspace.id)) throw v2(403);
	return workspace;
}

export function parse<T>(schema: z.ZodType<T>, value: unknown): T {
	const result = schema.safeParse(value);
	if (!result.success) throw unprocessable(result.error.issues);
	return result.data;
}

export const ZId = (name: string) => z.object({ [name]: z.cuid2() });

/** `Object.fromEntries(url.searchParams.entries())`: a repeated parameter keeps its last value. */
export const queryObject = (request: FastifyRequest) =>
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
export function filterAndPage<T extends { id: string; createdAt: string; updatedAt: string }>(
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

/** `ZResponse` (packages/database/zod/responses.ts): `meta` keeps the keys it names and drops others. */
const ZAnswer = z.union([z.string(), z.number(), z.array(z.string()), z.record(z.string(), z.string())]);
const ZResponseFields = {
	createdAt: z.coerce.date(),
	updatedAt: z.coerce.date(),
	finished: z.boolean(),
	contactId: z.cuid2().nullable(),
	endingId: z.cuid2().nullable(),
	data: z.record(z.string(), ZAnswer),
	variables: z.record(z.string(), z.union([z.string(), z.number()])),
	ttc: z.record(z.string(), z.number()),
	meta: z.object({
		source: z.string().optional(),
		url: z.string().optional(),
		userAgent: z.object({ browser: z.string().optional(), os: z.string().optional(), device: z.string().optional() }).optional(),
		country: z.string().optional(),
		action: z.string().optional(),
	}),
	contactAttributes: z.record(z.string(), z.string()).nullable(),
	singleUseId: z.string().nullable(),
	language: z.string().nullable(),
	displayId: z.string().nullable(),
};

/** `ZResponseInput` (apps/web/modules/api/v2/management/responses/types/responses.ts). */
const ZResponseInput = z.object({
	createdAt: ZResponseFields.createdAt.optional(),
	updatedAt: ZResponseFields.updatedAt.optional(),
	surveyId: z.cuid2(),
	displayId: ZResponseFields.displayId.optional(),
	singleUseId: ZResponseFields.singleUseId.optional(),
	finished: ZResponseFields.finished,
	endingId: ZResponseFields.endingId.optional(),
	language: ZResponseFields.language.optional(),
	data: ZResponseFields.data,
	variables: ZResponseFields.variables.optional(),
	ttc: ZResponseFields.ttc.optional(),
	meta: ZResponseFields.meta.optional(),
	userId: z.string().optional(),
});

/** `ZResponseUpdateSchema` (…/responses/[responseId]/types/responses.ts): every field of the response. */
const ZResponseUpdate = z.object(ZResponseFields);

/** `normalizeResponseLanguage` (apps/web/lib/response/utils.ts): trimmed, a blank one dropped. */
const normalisedLanguage = (language: string | null | undefined) =>
	language == null ? (language ?? null) : language.trim() || null;

/** Fields a route's schema reads; Formbricks drops others (zod strips them), the flavour refuses them. */
export function refuseUnread(body: Record<string, unknown>, read: string[]): void {
	const unread = Object.keys(body).filter((field) => !read.includes(field));
	if (unread.length > 0) {
		throw unprocessable(unread.map((field) => ({ path: [field], message: 'Formbricks does not read this field' })));
	}
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

	// apps/web/modules/api/v2/management/responses/route.ts (POST) and lib/response.ts
	// (`createResponse`): the response pipeline runs for it (webhooks and all).
	api.post('/v2/management/responses', async (request, reply) => {
		const body = (request.body ?? {}) as Record<string, unknown>;
		refuseUnread(body, Object.keys(ZResponseInput.shape));
		const input = parse(ZResponseInput, body);
		const survey = store.surveys.get(input.surveyId);
		if (!survey) throw v2(404, [{ field: 'survey', issue: 'not found' }]);
		if (!store.can('POST', survey.workspaceId)) throw v2(401);
		const now = new Date().toISOString();
		const createdAt = input.createdAt?.toISOString() ?? now;
		const updatedAt = input.updatedAt?.toISOString() ?? (input.createdAt ? createdAt : now);
		// `getContactByUserId`: no contact with that userId leaves the response without one.
		const contact = input.userId ? store.contactWith(survey.workspaceId, 'userId', input.userId) : undefined;
		const ttc = input.ttc ?? {};
		const row: ResponseRow = {
			id: cuid(),
			createdAt,
			updatedAt,
			finished: input.finished,
			surveyId: survey.id,
			contactId: contact?.id ?? null,
			endingId: input.endingId ?? null,
			data: input.data,
			variables: input.variables ?? {},
			ttc: input.finished ? { ...ttc, _total: Object.values(ttc).reduce((sum, value) => sum + value, 0) } : ttc,
			meta: input.meta ?? {},
			contactAttributes: contact ? store.attributesOf(contact.id) : null,
			singleUseId: input.singleUseId ?? null,
			language: normalisedLanguage(input.language),
			displayId: input.displayId ?? null,
			...(contact ? { contactUserId: input.userId } : {}),
			tags: [],
		};
		store.addResponse(row);
		return await reply.code(201).send({ data: responseV2(row) });
	});

	api.get('/v2/management/responses/:responseId', async (request) => ({
		data: responseV2(findResponse(request, 'GET'), store.urls),
	}));

	// …/responses/[responseId]/route.ts (PUT): the whole response is required (`ZResponse.omit({ id,
	// surveyId })`), and what is given replaces what was stored: `data` is not merged.
	api.put('/v2/management/responses/:responseId', async (request) => {
		const { responseId } = parse(ZId('responseId'), request.params) as { responseId: string };
		const body = (request.body ?? {}) as Record<string, unknown>;
		refuseUnread(body, Object.keys(ZResponseUpdate.shape));
		const input = parse(ZResponseUpdate, body);
		const response = store.responses.get(responseId);
		const survey = response && store.surveys.get(response.surveyId);
		if (!response || !survey) throw v2(404, [{ field: 'response', issue: 'not found' }]);
		if (!store.can('PUT', survey.workspaceId)) throw v2(401);
		if (input.contactId && store.contacts.get(input.contactId)?.workspaceId !== survey.workspaceId) {
			throw v2(404, [{ field: 'contact', issue: 'not found' }]);
		}
		store.replaceResponse(response, {
			createdAt: input.createdAt.toISOString(),
			updatedAt: input.updatedAt.toISOString(),
			finished: input.finished,
			contactId: input.contactId,
			endingId: input.endingId,
			data: input.data,
			variables: input.variables,
			ttc: input.ttc,
			meta: input.meta,
			contactAttributes: input.contactAttributes,
			singleUseId: input.singleUseId,
			language: normalisedLanguage(input.language) ?? null,
			displayId: input.displayId,
		});
		return { data: responseV2(response, store.urls) };
	});

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
		const workspace = resolveWorkspace(store, body, 'POST');
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
