import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { givesOneShape, simplifyParameter } from '../../../shared/simplify';

/**
 * The one shape of a survey response (issue 28), from the records the contract documents: the
 * response of the management API (`id`, `surveyId`, `createdAt`, `updatedAt`, `finished`,
 * `data`, `meta`) and the webhook payload (`event`, `surveyId`, `responseId`, `createdAt`,
 * `data`). Every operation and the trigger name the response `responseId`, as the payload and
 * Applicant Record → Export do, and as a trigger item must beside its `deliveryId`. `data` is
 * the answers, keyed as the Answers option says. Adapters of other survey platforms turn their
 * records into the documented shape first. Pure functions.
 */
export const simplifyResponse = (response: IDataObject): IDataObject => ({
	responseId: response.responseId ?? response.id ?? null,
	surveyId: response.surveyId ?? null,
	createdAt: response.createdAt ?? null,
	updatedAt: response.updatedAt ?? null,
	finished: typeof response.finished === 'boolean' ? response.finished : null,
	data: response.data ?? {},
});

/**
 * A Survey Trigger event: the event and its delivery, then the response in the one shape. The
 * payload has no `updatedAt` and says `finished` only through the event: `responseFinished`
 * means finished; for the other events both are null (unknown), unless the payload has them.
 */
export function simplifyResponseEvent(
	payload: IDataObject,
	data: IDataObject | IDataObject[],
	deliveryId: string,
): IDataObject {
	const finished =
		typeof payload.finished === 'boolean'
			? payload.finished
			: payload.event === 'responseFinished'
				? true
				: null;
	return {
		event: payload.event,
		deliveryId,
		...simplifyResponse({ ...payload, finished, data }),
	};
}

const SHAPE = 'response ID, survey ID, times, whether finished, and the answers';

/** Version 2's Simplify switch, for Response → Get, Get Many, Create and Update. */
export const simplifyResponsesParameter = simplifyParameter(SHAPE, {
	resource: ['response'],
	operation: ['get', 'getMany', 'create', 'update'],
});

/** The Survey Trigger's Simplify switch (version 2). */
export const simplifyTriggerParameter = simplifyParameter(SHAPE);

/** Version 2 with Simplify on (the default); version 1 returns what the service answered. */
export const wantsSimplified = (ctx: IExecuteFunctions, itemIndex: number): boolean =>
	givesOneShape(ctx) && (ctx.getNodeParameter('simplify', itemIndex, true) as boolean);
