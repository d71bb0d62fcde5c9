/**
 * Formbricks' survey management routes (b66c1dd), registered inside the `/api` plugin:
 * - v1 `POST /api/v1/management/surveys`, `PUT` and `DELETE /api/v1/management/surveys/{surveyId}`
 *   (apps/web/app/api/v1/management/surveys/route.ts and [surveyId]/route.ts), their bodies held to the
 *   v1 OpenAPI file by the plugin and to Formbricks' survey schema here (surveySchema.ts);
 * - v3 `POST /api/v3/surveys/{surveyId}/archive|restore` and `POST /api/v3/surveys/validate`
 *   (apps/web/app/api/v3/surveys/…), which no spec file describes: checked against their own zod
 *   schemas (surveySchema.ts) and answered as `successResponse` / the problem+json helpers of
 *   apps/web/app/api/v3/lib/response.ts answer. A server from before API v3 answers them with
 *   Next.js' 404 page (`settings.v3Surveys` off).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { sendNextNotFound, v1 } from './errors';
import { createId, cuid, CUID2_PATTERN } from './ids';
import { surveyV1, type Block, type Element, type SurveyRow } from './records';
import { checkId } from './routesV1';
import { surveyRow } from './seed';
import type { FormbricksStore } from './store';
import {
	detailsOf,
	invalidParamsOf,
	ZSurveyCreateInput,
	ZSurveyUpdateInput,
	ZV3CreateSurveyDocument,
	ZV3SurveyValidationRequestBody,
} from './surveySchema';
import { nowIso } from './timing';

const param = (request: FastifyRequest, name: string) => (request.params as Record<string, string>)[name];

/** Fields of a row a body may not set: the server's (ids, dates, the workspace) and v1's additions to answers. */
const SERVER_FIELDS = ['id', 'createdAt', 'updatedAt', 'workspaceId', 'environmentId', 'projectOverwrites', 'createdBy', 'archivedAt', 'questions'];

/**
 * `transformQuestionsToBlocks` (apps/web/app/lib/api/survey-transformation.ts): one block per
 * question, named "Block n", the question's button labels and logic moved to its block.
 */
function questionsToBlocks(questions: Array<Record<string, unknown>>): Block[] {
	return questions.map((question, index) => {
		const { logic, logicFallback, buttonLabel, backButtonLabel, ...element } = question;
		const block: Record<string, unknown> = { id: createId(), name: `Block ${index + 1}`, elements: [element as Element] };
		for (const [field, value] of Object.entries({ buttonLabel, backButtonLabel, logic, logicFallback })) {
			if (value !== undefined) block[field] = value;
		}
		return block as unknown as Block;
	});
}

/** `validateSurveyInput` (survey-transformation.ts): questions or blocks, not both; one of them on create. */
function checkQuestionsOrBlocks(body: Record<string, unknown>, updateOnly: boolean): void {
	const hasQuestions = Array.isArray(body.questions) && body.questions.length > 0;
	const hasBlocks = Array.isArray(body.blocks) && body.blocks.length > 0;
	if (hasQuestions && hasBlocks) {
		throw v1.badRequest('Cannot provide both questions and blocks. Please provide only one of these fields.');
	}
	if (!hasQuestions && !hasBlocks && !updateOnly) {
		throw v1.badRequest('Must provide either questions or blocks. Both cannot be empty.');
	}
}

/** The body's fields the schema knows, with questions made into blocks; others dropped, as zod drops them. */
function writableFields(parsed: Record<string, unknown>, body: Record<string, unknown>): Record<string, unknown> {
	const fields: Record<string, unknown> = {};
	for (const [field, value] of Object.entries(body)) {
		if (!SERVER_FIELDS.includes(field) && field in parsed) fields[field] = value;
	}
	if (Array.isArray(body.questions) && body.questions.length > 0) {
		fields.blocks = questionsToBlocks(body.questions as Array<Record<string, unknown>>);
	}
	for (const field of ['closeOn', 'publishOn'] as const) {
		if (parsed[field] instanceof Date) fields[field] = (parsed[field] as Date).toISOString();
	}
	return fields;
}

/** v3's problem+json answers (apps/web/app/api/v3/lib/response.ts). */
function problem(reply: FastifyReply, status: number, title: string, detail: string, extra: Record<string, unknown> = {}) {
	const code = { 400: 'bad_request', 403: 'forbidden', 422: 'unprocessable_content' }[status] ?? 'internal_server_error';
	return reply
		.code(status)
		.type('application/problem+json')
		.send({ title, status, detail, requestId: createId(), code, ...extra });
}

export function registerSurveyRoutes(
	api: FastifyInstance,
	store: FormbricksStore,
	options: { v3Surveys: () => boolean; preWorkspaceRename: () => boolean },
): void {
	const answer = (survey: SurveyRow) => ({ data: surveyV1(survey, store.workspace, store.urls) });

	const findSurvey = (request: FastifyRequest, method: string) => {
		const surveyId = param(request, 'surveyId');
		checkId(surveyId);
		const survey = store.surveys.get(surveyId);
		if (!survey) throw v1.notFound('Survey', surveyId);
		if (!store.can(method, survey.workspaceId)) throw v1.unauthorized();
		return survey;
	};

	api.post('/v1/management/surveys', async (request) => {
		let body = { ...((request.body ?? {}) as Record<string, unknown>) };
		// resolveBodyIds; a server from before the rename reads `environmentId` only (its zod drops `workspaceId`).
		const rawId = options.preWorkspaceRename() ? body.environmentId : (body.workspaceId ?? body.environmentId);
		if (!rawId) throw v1.badRequest(options.preWorkspaceRename() ? 'Fields are missing or incorrectly formatted' : 'workspaceId must be provided', options.preWorkspaceRename() ? { environmentId: 'Required' } : {});
		if (typeof rawId !== 'string') throw v1.badRequest('workspaceId must be a string');
		const workspace = store.findWorkspace(rawId);
		if (!workspace) throw v1.notFound('Workspace', rawId);
		if (!store.can('POST', workspace.id)) throw v1.unauthorized();
		body = { ...body, workspaceId: workspace.id };
		const parsed = ZSurveyCreateInput.safeParse(body);
		if (!parsed.success) throw v1.badRequest('Fields are missing or incorrectly formatted', detailsOf(parsed.error));
		checkQuestionsOrBlocks(body, false);
		const now = nowIso();
		const survey: SurveyRow = {
			...surveyRow({ id: cuid(), name: parsed.data.name, type: 'link', status: 'draft', createdAt: now, elements: [] }),
			// createSurvey: a new survey has no ending unless given, and its hidden fields off.
			endings: [],
			hiddenFields: { enabled: false, fieldIds: [] },
			showLanguageSwitch: null,
			...writableFields(parsed.data as Record<string, unknown>, body),
			workspaceId: workspace.id,
		};
		store.surveys.set(survey.id, survey);
		return answer(survey);
	});

	api.put('/v1/management/surveys/:surveyId', async (request) => {
		const survey = findSurvey(request, 'PUT');
		const body = { ...((request.body ?? {}) as Record<string, unknown>) };
		checkQuestionsOrBlocks(body, true);
		const merged: Record<string, unknown> = { ...survey, ...body };
		if (Array.isArray(body.questions) && body.questions.length > 0) merged.questions = [];
		const parsed = ZSurveyUpdateInput.safeParse(merged);
		if (!parsed.success) throw v1.badRequest('Fields are missing or incorrectly formatted', detailsOf(parsed.error));
		// updateSurvey: an archived survey is read-only (apps/web/lib/survey/service.ts).
		if (survey.archivedAt) throw v1.badRequest('This survey is archived. Restore it before editing.');
		Object.assign(survey, writableFields(parsed.data as Record<string, unknown>, body), { updatedAt: nowIso() });
		return answer(survey);
	});

	api.delete('/v1/management/surveys/:surveyId', async (request) => {
		const survey = findSurvey(request, 'DELETE');
		const deleted = store.deleteSurvey(survey.id);
		return { data: { ...deleted, segment: null, triggers: [], environmentId: store.workspace.legacyEnvironmentId ?? store.workspace.id } };
	});

	// v3: archive and restore answer `{ data: { id, status, archivedAt } }`; a survey that is not
	// there, or not the key's, is a 403 (`mapV3SurveyMutationError`).
	for (const action of ['archive', 'restore'] as const) {
		api.post(`/v3/surveys/:surveyId/${action}`, async (request, reply) => {
			if (!options.v3Surveys()) return sendNextNotFound(reply);
			const surveyId = param(request, 'surveyId');
			if (!CUID2_PATTERN.test(surveyId)) {
				return problem(reply, 400, 'Bad Request', 'Invalid request parameters', {
					invalid_params: [{ name: 'params.surveyId', reason: 'Invalid cuid2' }],
				});
			}
			if (Object.keys((request.query ?? {}) as object).length > 0) {
				return problem(reply, 400, 'Bad Request', 'Invalid query parameters');
			}
			const survey = store.surveys.get(surveyId);
			if (!survey || !store.can('POST', survey.workspaceId)) {
				return problem(reply, 403, 'Forbidden', 'You are not authorized to access this resource');
			}
			if (action === 'archive' && !survey.archivedAt) {
				survey.archivedAt = nowIso();
				if (survey.status === 'inProgress') survey.status = 'paused';
			}
			if (action === 'restore') survey.archivedAt = null;
			return { data: { id: survey.id, status: survey.status, archivedAt: survey.archivedAt ?? null } };
		});
	}

	api.post('/v3/surveys/validate', async (request, reply) => {
		if (!options.v3Surveys()) return sendNextNotFound(reply);
		const body = ZV3SurveyValidationRequestBody.safeParse(request.body);
		if (!body.success) {
			return problem(reply, 400, 'Bad Request', 'Invalid survey validation request', {
				invalid_params: invalidParamsOf(body.error, 'body'),
			});
		}
		if (body.data.operation === 'patch') {
			return problem(reply, 400, 'Bad Request', 'The sandbox validates new surveys only');
		}
		const document = ZV3CreateSurveyDocument.safeParse(body.data.data);
		if (!document.success) {
			return { data: { valid: false, operation: 'create', invalid_params: invalidParamsOf(document.error, 'data') } };
		}
		if (!store.findWorkspace(document.data.workspaceId) || !store.can('GET', document.data.workspaceId)) {
			return problem(reply, 403, 'Forbidden', 'You are not authorized to access this resource');
		}
		return { data: { valid: true, operation: 'create', invalid_params: [], languages: [] } };
	});
}
