import type { IDataObject } from 'n8n-workflow';

import { mapConcurrently, type RequestPacer } from '../../shared/concurrency';
import type { RequestContext } from '../../shared/request';
import { FORMBRICKS_CREDENTIAL_PROBE, FORMBRICKS_RECOGNITION } from './formbricksCredential';
import { formbricksContacts } from './formbricksContacts';
import { formbricksPersonalLinks, formbricksSingleUseLinks } from './formbricksLinks';
import { FORMBRICKS_RATE, request, SERVICE, v1, workspaceField } from './formbricksRequest';
import { formbricksResponseWrites } from './formbricksResponseWrites';
import { formbricksSurveyWrites } from './formbricksSurveys';
import { documentedEvent, documentedSurvey } from './formbricksShapes';
import { dateQuery, HOOK_LOST_ANSWER_HINT } from './managementV1';
import type { RemoteHook, ResponsePage, ResponsePageQuery, SurveyAdapter } from './types';

/**
 * Formbricks' own API, as its source answers (commit b66c1dd978af618a0e402bd3343b456bed68594c,
 * 5.4.0-rc.1; facts and source files in test/sandbox/formbricks/README.md). Surveys, single
 * responses and webhooks through the management API v1; lists of responses through v2, the only
 * one with oldest-first order, date filters and pages of 250. Neither tells how many responses a
 * survey has: where the documented shape has a count, it is counted here. Contacts, personal and
 * single-use links, and response writes are capabilities only this API has (formbricksContacts.ts,
 * formbricksLinks.ts, formbricksResponseWrites.ts).
 */

/** v2's largest page (`ZGetFilter`: limit 1 to 250). */
const PAGE_SIZE = 250;

/** Surveys whose responses are counted at the same time for Survey → Get Many. */
const COUNT_CONCURRENCY = 4;

/** `GET /api/v2/management/responses`: a survey's responses, oldest first, with v2's filters. */
async function v2Responses(
	ctx: RequestContext,
	query: { surveyId: string; skip: number; limit: number; itemIndex?: number; pacer?: RequestPacer },
	dates: IDataObject = {},
): Promise<IDataObject[]> {
	const { data } = await request<{ data: IDataObject[] }>(ctx, {
		method: 'GET',
		path: '/api/v2/management/responses',
		qs: {
			surveyId: query.surveyId,
			limit: query.limit,
			skip: query.skip,
			sortBy: 'createdAt',
			order: 'asc',
			...dates,
		},
		itemIndex: query.itemIndex,
		pacer: query.pacer,
	});
	return data;
}

/**
 * How many responses a survey has, which no Formbricks API returns (v2 computes `meta.total` and
 * leaves it out of its answer): one page of 250 tells it for most surveys; beyond, whether a
 * response exists at a position is asked with pages of one, doubling the position until none is
 * there, then halving the gap, so 100,000 responses take about 20 small requests.
 */
async function countResponses(
	ctx: RequestContext,
	surveyId: string,
	itemIndex: number | undefined,
	pacer: RequestPacer,
): Promise<number> {
	const first = await v2Responses(ctx, { surveyId, skip: 0, limit: PAGE_SIZE, itemIndex, pacer });
	if (first.length < PAGE_SIZE) return first.length;
	const exists = async (position: number) =>
		(await v2Responses(ctx, { surveyId, skip: position, limit: 1, itemIndex, pacer })).length > 0;
	// There is a response at `present` and none at `absent`: the count lies in (present, absent].
	let present = PAGE_SIZE - 1;
	let absent = PAGE_SIZE * 2 - 1;
	while (await exists(absent)) {
		present = absent;
		absent = absent * 2 + 1;
	}
	while (absent - present > 1) {
		const middle = Math.floor((present + absent) / 2);
		if (await exists(middle)) present = middle;
		else absent = middle;
	}
	return absent;
}

export const formbricksAdapter: SurveyAdapter = {
	api: 'formbricks',
	option: {
		name: 'Formbricks',
		description:
			'Formbricks’ own management API (v1 and v2), as in Formbricks 5.4; see "Using with Formbricks" in the README',
	},
	like: 'Formbricks',
	apiName: 'the Formbricks API',
	serviceName: SERVICE,
	rate: FORMBRICKS_RATE,
	maxPageSize: PAGE_SIZE,
	deliveryShape: '{ webhookId, event, data: { id, surveyId, createdAt, data, …, survey } } (a Formbricks webhook)',
	credentialProbe: FORMBRICKS_CREDENTIAL_PROBE,
	recognition: FORMBRICKS_RECOGNITION,

	async listSurveys(ctx, itemIndex) {
		return (await v1.listSurveys(ctx, itemIndex)).map(documentedSurvey);
	},

	async withResponseCounts(ctx, surveys, itemIndex) {
		const counts = await mapConcurrently(
			surveys.map((survey) => async (pacer: RequestPacer) => await countResponses(ctx, String(survey.id), itemIndex, pacer)),
			COUNT_CONCURRENCY,
		);
		return surveys.map((survey, index) => ({ ...survey, responseCount: counts[index] }));
	},

	async getSurvey(ctx, surveyId, itemIndex) {
		return documentedSurvey(await v1.getSurvey(ctx, surveyId, itemIndex));
	},

	async responsePage(ctx, query: ResponsePageQuery): Promise<ResponsePage> {
		const responses = await v2Responses(ctx, query, dateQuery(query.dateFilter));
		// v2 answers an unknown survey with no responses: its survey route says whether it exists.
		if (query.skip === 0 && responses.length === 0) await this.getSurvey(ctx, query.surveyId, query.itemIndex);
		return { responses };
	},

	getResponse: v1.getResponse,
	deleteResponse: v1.deleteResponse,

	async listHooks(ctx) {
		const { data } = await request<{ data: RemoteHook[] }>(ctx, { method: 'GET', path: '/api/v1/webhooks' });
		return data;
	},

	async registerHook(ctx, { url, triggers, surveyIds, name }) {
		// `workspaceId`, or `environmentId` on a server from before the rename.
		const workspace = await workspaceField(ctx);
		// Answered 200 (not 201), with the secret only here (apps/web/app/api/v1/webhooks/route.ts).
		const { data } = await request<{ data: { id: string; secret: unknown } }>(ctx, {
			method: 'POST',
			path: '/api/v1/webhooks',
			body: { url, triggers, surveyIds, ...workspace, source: 'n8n', name },
			lostAnswerHint: HOOK_LOST_ANSWER_HINT,
		});
		return data;
	},

	deleteHook: v1.deleteHook,

	parseDelivery: documentedEvent,

	contacts: formbricksContacts,
	personalLinks: formbricksPersonalLinks,
	singleUseLinks: formbricksSingleUseLinks,
	responseWrites: formbricksResponseWrites,
	surveyWrites: formbricksSurveyWrites,
};
