import type { IDataObject } from 'n8n-workflow';

import { documentedOption } from '../../shared/adapterRegistry';
import { DOCUMENTED_API } from '../../shared/apiChoice';
import { isObject } from '../../shared/credentialTest';
import type { RatePolicy } from '../../shared/rateBudget';
import { dateQuery, HOOK_LOST_ANSWER_HINT, managementV1 } from './managementV1';
import type { RemoteHook, ResponsePage, ResponsePageQuery, SurveyAdapter, SurveyEvent } from './types';

const SERVICE = 'survey service';

/** The survey list of the documented API: every survey carries its response count (Formbricks' carry none). */
const listsSurveysWithCounts = (body: unknown) =>
	isObject(body) &&
	Array.isArray(body.data) &&
	body.data.every((survey) => isObject(survey) && typeof survey.responseCount === 'number');

const MANUAL_HINT =
	'This survey service has no webhook API. Set "Registration" to Manual and add the webhook URL in the service yourself.';

/** CONTRACTS.md: 100 requests a sliding minute per key, 429 with `Retry-After`; deliveries time out after 5 s. */
const DOCUMENTED_RATE: RatePolicy = { limit: 100, windowMs: 60_000, windows: 'sliding', senderWaitMs: 5_000 };
const v1 = managementV1(SERVICE, undefined, DOCUMENTED_RATE);
const request = v1.request;

/** The survey service as CONTRACTS.md describes it (section 3 and Part 2, section 6). */
export const documentedAdapter: SurveyAdapter = {
	api: DOCUMENTED_API,
	option: documentedOption(SERVICE),
	like: 'the documented survey API',
	apiName: 'the documented API',
	serviceName: SERVICE,
	rate: DOCUMENTED_RATE,
	// Formbricks lists no `responseCount`.
	recognition: {
		probePath: '/api/v1/management/surveys',
		answersLikeIt: ({ statusCode, body }) => statusCode === 200 && listsSurveysWithCounts(body),
	},
	maxPageSize: 250,
	deliveryShape: '{ event, surveyId, responseId, createdAt, data }',
	credentialProbe: {
		service: SERVICE,
		secretName: 'API key',
		secretHint: 'Check the API Key: it is generated in the dashboard under Settings → API Keys.',
		apiPrefix: '/api/v1',
		probePath: '/api/v1/management/surveys',
		headers: (credentials) => ({ 'x-api-key': String(credentials.apiKey ?? '') }),
		isServiceAnswer: listsSurveysWithCounts,
		// The survey service's errors carry a code; a wrong or missing key is `not_authenticated`.
		isServiceRefusal: (body) => isObject(body) && body.code === 'not_authenticated',
		// An empty list could come from Formbricks too; its own route tells.
		isAmbiguous: (body) => isObject(body) && Array.isArray(body.data) && body.data.length === 0,
	},

	listSurveys: v1.listSurveys,

	// Listed with every survey.
	async withResponseCounts(_ctx, surveys) {
		return surveys;
	},

	getSurvey: v1.getSurvey,

	async responsePage(ctx, query: ResponsePageQuery): Promise<ResponsePage> {
		const page = await v1.request<{ data: IDataObject[]; meta: { total: number } }>(ctx, {
			method: 'GET',
			path: `/api/v1/management/surveys/${encodeURIComponent(query.surveyId)}/responses`,
			qs: { limit: query.limit, offset: query.skip, ...dateQuery(query.dateFilter) },
			itemIndex: query.itemIndex,
			pacer: query.pacer,
		});
		return { responses: page.data, total: page.meta.total };
	},

	getResponse: v1.getResponse,
	deleteResponse: v1.deleteResponse,

	async listHooks(ctx) {
		const { data } = await request<{ data: RemoteHook[] }>(ctx, {
			method: 'GET',
			path: '/api/v1/webhooks',
			errorHints: { 404: MANUAL_HINT, 405: MANUAL_HINT },
		});
		return data;
	},

	async registerHook(ctx, { url, triggers, surveyIds }) {
		const { data } = await request<{ data: { id: string; secret: unknown } }>(ctx, {
			method: 'POST',
			path: '/api/v1/webhooks',
			body: { url, triggers, surveyIds, source: 'n8n' },
			errorHints: { 404: MANUAL_HINT, 405: MANUAL_HINT },
			lostAnswerHint: HOOK_LOST_ANSWER_HINT,
		});
		return data;
	},

	deleteHook: v1.deleteHook,

	parseDelivery(body): SurveyEvent | undefined {
		if (!isObject(body) || typeof body.event !== 'string' || typeof body.surveyId !== 'string') return undefined;
		return {
			event: body.event,
			surveyId: body.surveyId,
			responseId: (body.responseId as string | undefined) ?? null,
			createdAt: (body.createdAt as string | undefined) ?? null,
			data: isObject(body.data) ? body.data : {},
			beyond: {},
		};
	},
};
