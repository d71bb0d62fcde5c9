import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { deleteUnlessGone } from '../../shared/alreadyGone';
import type { RatePolicy } from '../../shared/rateBudget';
import type { RequestContext, ServiceErrorReader, ServiceRequest } from '../../shared/request';
import { serviceAnswer, serviceRequest } from '../../shared/request';
import type { ResponseDateFilter } from './types';

/**
 * After the answer to a webhook registration was lost (it is not sent again): a webhook for
 * the URL may exist; the trigger's next activation replaces any webhook for its URL it does not know.
 */
export const HOOK_LOST_ANSWER_HINT =
	'A webhook for this URL may now be registered without the trigger knowing its secret. Activate the workflow again: activation deletes any webhook for this URL it does not know, then registers its own.';

/**
 * The routes the documented API shares with Formbricks' management API v1, which the survey
 * seed was modelled on: the same paths, the same `{ data }` answers. Each adapter gives its own
 * words for the service, its own reading of error bodies and its platform's rate limit.
 */
export function managementV1(serviceName: string, readError: ServiceErrorReader | undefined, rate: RatePolicy) {
	const withErrors = (options: ServiceRequest): ServiceRequest => ({ rate, ...(readError && { readError }), ...options });
	const request = async <T = IDataObject>(ctx: RequestContext, options: ServiceRequest): Promise<T> =>
		await serviceRequest<T>(ctx, 'surveyApi', serviceName, withErrors(options));
	const answer = async <T = IDataObject>(ctx: RequestContext, options: ServiceRequest) =>
		await serviceAnswer<T>(ctx, 'surveyApi', serviceName, withErrors(options));
	const data = async (ctx: RequestContext, path: string, itemIndex?: number) =>
		(await request<{ data: IDataObject }>(ctx, { method: 'GET', path, itemIndex })).data;

	return {
		request,
		/** The whole answer (see `serviceAnswer`), with this API's errors and rate limit. */
		answer,

		async listSurveys(ctx: RequestContext, itemIndex?: number): Promise<IDataObject[]> {
			return (await request<{ data: IDataObject[] }>(ctx, { method: 'GET', path: '/api/v1/management/surveys', itemIndex }))
				.data;
		},

		async getSurvey(ctx: RequestContext, surveyId: string, itemIndex?: number): Promise<IDataObject> {
			return await data(ctx, `/api/v1/management/surveys/${encodeURIComponent(surveyId)}`, itemIndex);
		},

		async getResponse(ctx: RequestContext, responseId: string, itemIndex?: number): Promise<IDataObject> {
			return await data(ctx, `/api/v1/management/responses/${encodeURIComponent(responseId)}`, itemIndex);
		},

		/** Erases a response; "not found" settled as the node's If Already Deleted says (`deleteUnlessGone`). */
		async deleteResponse(
			ctx: IExecuteFunctions,
			responseId: string,
			itemIndex: number,
		): Promise<{ erased: IDataObject; alreadyGone: boolean }> {
			const send = async (options: ServiceRequest) => await answer<{ data?: IDataObject }>(ctx, options);
			const { body, alreadyGone } = await deleteUnlessGone(ctx, itemIndex, send, {
				method: 'DELETE',
				path: `/api/v1/management/responses/${encodeURIComponent(responseId)}`,
			});
			return { erased: body?.data ?? {}, alreadyGone };
		},

		/** Removes a webhook; one already gone counts as removed. */
		async deleteHook(ctx: RequestContext, hookId: string, baseUrl?: string): Promise<void> {
			await request(ctx, {
				method: 'DELETE',
				baseUrl,
				path: `/api/v1/webhooks/${encodeURIComponent(hookId)}`,
				acceptStatuses: [404],
			});
		},
	};
}

/** The date filters as query parameters: the documented API and Formbricks' v2 read the same names. */
export function dateQuery(filter: ResponseDateFilter = {}): IDataObject {
	const { startDate, endDate, filterDateField } = filter;
	const dates: IDataObject = {};
	if (startDate !== undefined) dates.startDate = startDate;
	if (endDate !== undefined) dates.endDate = endDate;
	if (filterDateField !== undefined && (startDate !== undefined || endDate !== undefined)) {
		dates.filterDateField = filterDateField;
	}
	return dates;
}
