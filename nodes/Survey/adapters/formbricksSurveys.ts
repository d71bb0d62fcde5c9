import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestContext } from '../../shared/request';
import { answer, request, workspaceField } from './formbricksRequest';
import { documentedSurvey } from './formbricksShapes';
import type { SurveyLifecycleAction, SurveyWritesCapability } from './types';

/*
 * Formbricks' survey management (b66c1dd). Create, update and delete through the management API v1
 * (apps/web/app/api/v1/management/surveys/route.ts and [surveyId]/route.ts: POST takes a survey in
 * `ZSurveyCreateInputWithWorkspaceId` with `questions` or `blocks`; PUT merges the fields given into
 * the survey; DELETE removes it with its responses). Archive, restore and validate only API v3 has
 * (apps/web/app/api/v3/surveys/[surveyId]/archive|restore/route.ts, validate/route.ts), which older
 * servers answer with Next.js' 404 page.
 */

const id = (value: string) => encodeURIComponent(value);

/** The Formbricks release that added each v3 route (its first tag holding the route's commit). */
const V3_RELEASES: Record<SurveyLifecycleAction | 'validate', { version: string; operation: string }> = {
	archive: { version: '5.3', operation: 'Survey → Archive' },
	restore: { version: '5.3', operation: 'Survey → Restore' },
	validate: { version: '5.1', operation: 'Survey → Validate' },
};

/**
 * Fields of a survey that a new survey does not take (`ZSurveyCreateInputWithWorkspaceId` omits
 * them, or the server sets them), or that v1 adds to its answers only.
 */
const NOT_COPIED = [
	'id',
	'createdAt',
	'updatedAt',
	'createdBy',
	'workspaceId',
	'environmentId',
	'projectOverwrites',
	'workspaceOverwrites',
	'questions',
	'archivedAt',
	'followUps',
	'segment',
	'slug',
	'displayPercentage',
	'translations',
];

/** A v3 request: on a server without API v3 (Next.js' 404 page), the error names the release that adds it. */
async function v3Request(
	ctx: RequestContext,
	action: SurveyLifecycleAction | 'validate',
	path: string,
	body: IDataObject | undefined,
	itemIndex: number,
): Promise<IDataObject> {
	const reply = await answer<IDataObject>(ctx, { method: 'POST', path, body, itemIndex, acceptStatuses: [404] });
	if (reply.error) {
		const { version, operation } = V3_RELEASES[action];
		if (typeof reply.body === 'string' && /<html/i.test(reply.body)) {
			throw new NodeOperationError(ctx.getNode(), `${operation} needs Formbricks ${version} or later (its API v3), which this server does not have`, {
				itemIndex,
				description: `The server answered ${path} with a "not found" page: it is a Formbricks older than ${version}. Update Formbricks to use this operation.`,
			});
		}
		throw reply.error;
	}
	return reply.body;
}

/** v1 keeps these on a question; v3 has them on the question's block (`transformQuestionsToBlocks`). */
const BLOCK_FIELDS = ['logic', 'logicFallback', 'buttonLabel', 'backButtonLabel'];

/**
 * A survey definition of v1 as v3's survey document: the fields v3 takes, and one block per question
 * as `transformQuestionsToBlocks` (apps/web/app/lib/api/survey-transformation.ts) makes them; v3
 * gives the blocks their ids (`generateMissingCreateIds`).
 */
function v3Document(definition: IDataObject): IDataObject {
	const document: IDataObject = {};
	for (const field of ['name', 'type', 'status', 'metadata', 'welcomeCard', 'endings', 'hiddenFields', 'variables']) {
		if (definition[field] !== undefined) document[field] = definition[field];
	}
	const questions = Array.isArray(definition.questions) ? (definition.questions as IDataObject[]) : [];
	document.blocks =
		questions.length > 0
			? questions.map((question, index) => ({
					name: `Block ${index + 1}`,
					elements: [Object.fromEntries(Object.entries(question).filter(([field]) => !BLOCK_FIELDS.includes(field)))],
				}))
			: (definition.blocks ?? []);
	return document;
}

export const formbricksSurveyWrites: SurveyWritesCapability = {
	async create(ctx, definition, itemIndex) {
		const workspace = await workspaceField(ctx, itemIndex);
		const { data } = await request<{ data: IDataObject }>(ctx, {
			method: 'POST',
			path: '/api/v1/management/surveys',
			// Formbricks' defaults for what a definition may leave out: a link survey, as a draft.
			body: { type: 'link', status: 'draft', ...definition, ...workspace },
			itemIndex,
			lostAnswerHint: 'The survey may have been created: look for it under Survey → Get Many before running the node again.',
		});
		return documentedSurvey(data);
	},

	async update(ctx, surveyId, changes, itemIndex) {
		const { data } = await request<{ data: IDataObject }>(ctx, {
			method: 'PUT',
			path: `/api/v1/management/surveys/${id(surveyId)}`,
			body: changes,
			itemIndex,
		});
		return documentedSurvey(data);
	},

	async copyOf(ctx, surveyId, itemIndex) {
		const { data } = await request<{ data: IDataObject }>(ctx, {
			method: 'GET',
			path: `/api/v1/management/surveys/${id(surveyId)}`,
			itemIndex,
		});
		const copy: IDataObject = {};
		for (const [field, value] of Object.entries(data)) if (!NOT_COPIED.includes(field)) copy[field] = value;
		// v1 answers `questions` derived from `blocks`: the copy takes the blocks, which keep the logic.
		if (!Array.isArray(copy.blocks) || copy.blocks.length === 0) copy.questions = data.questions;
		return copy;
	},

	async delete(ctx, surveyId, itemIndex) {
		const { data } = await request<{ data: IDataObject }>(ctx, {
			method: 'DELETE',
			path: `/api/v1/management/surveys/${id(surveyId)}`,
			itemIndex,
		});
		return data;
	},

	async lifecycle(ctx, surveyId, action, itemIndex) {
		const { data } = (await v3Request(ctx, action, `/api/v3/surveys/${id(surveyId)}/${action}`, undefined, itemIndex)) as {
			data: IDataObject;
		};
		return data;
	},

	async validate(ctx, document, itemIndex) {
		const workspace = await workspaceField(ctx, itemIndex);
		const { data } = (await v3Request(
			ctx,
			'validate',
			'/api/v3/surveys/validate',
			{ operation: 'create', data: { workspaceId: workspace.workspaceId ?? workspace.environmentId, ...v3Document(document) } },
			itemIndex,
		)) as { data: IDataObject };
		return data;
	},
};
