import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiAdapter } from '../../shared/adapterRegistry';
import type { RequestPacer } from '../../shared/concurrency';
import type { RequestContext } from '../../shared/request';

/**
 * One survey API as the Survey nodes use it: the documented API (CONTRACTS.md, the default) or a
 * platform's own (Formbricks). Operations and the trigger call only this, and get the documented
 * shapes back with whatever else the API gives kept beside them; a new API is one more adapter.
 */
export interface SurveyAdapter extends ApiAdapter {
	/** Most responses one page can hold. */
	readonly maxPageSize: number;
	/** The body a delivery of this API has, for the trigger's refusal of anything else. */
	readonly deliveryShape: string;

	/**
	 * Every survey the key can see, published and draft, in the documented shape (`id`, `name`,
	 * `status`, `type`, `createdAt`, `questions` with plain-text headlines), with `responseCount`
	 * where the API lists it.
	 */
	listSurveys(ctx: RequestContext, itemIndex?: number): Promise<IDataObject[]>;
	/** The surveys with their `responseCount`: an API that lists none has it counted, with more requests. */
	withResponseCounts(ctx: RequestContext, surveys: IDataObject[], itemIndex?: number): Promise<IDataObject[]>;
	/** One survey with its questions (`id`, `type`, `headline` as text, `required`, `choices` with text labels). */
	getSurvey(ctx: RequestContext, surveyId: string, itemIndex?: number): Promise<IDataObject>;
	/** One page of a survey's responses, oldest first; `total` only where the API tells it. */
	responsePage(ctx: RequestContext, query: ResponsePageQuery): Promise<ResponsePage>;
	getResponse(ctx: RequestContext, responseId: string, itemIndex?: number): Promise<IDataObject>;
	/**
	 * Erases a response: the response as it was, or `alreadyGone` when the service no longer has
	 * it and the node's If Already Deleted says that counts as done (`deleteUnlessGone`).
	 */
	deleteResponse(
		ctx: IExecuteFunctions,
		responseId: string,
		itemIndex: number,
	): Promise<{ erased: IDataObject; alreadyGone: boolean }>;

	/** The webhooks registered with the service (`baseUrl`: where they were registered, when not the credential's). */
	listHooks(ctx: RequestContext): Promise<RemoteHook[]>;
	/** Registers a webhook; the answer carries its signing secret, which only this answer shows. */
	registerHook(ctx: RequestContext, hook: HookRegistration): Promise<{ id: string; secret: unknown }>;
	/** Removes a webhook; one that is gone already counts as removed. */
	deleteHook(ctx: RequestContext, hookId: string, baseUrl?: string): Promise<void>;
	/**
	 * A verified delivery's body as the trigger's documented output (`event`, `surveyId`,
	 * `responseId`, `createdAt`, `data`) plus what the API sends beyond it; undefined when the body
	 * is not a survey event of this API.
	 */
	parseDelivery(body: unknown): SurveyEvent | undefined;
}

/** The service's date filters: inclusive ISO 8601 bounds on one date field. */
export interface ResponseDateFilter {
	startDate?: string;
	endDate?: string;
	filterDateField?: 'createdAt' | 'updatedAt';
}

export interface ResponsePageQuery {
	surveyId: string;
	/** Responses to skip, counted from the oldest. */
	skip: number;
	limit: number;
	dateFilter?: ResponseDateFilter;
	itemIndex?: number;
	/** The credential's Base URL, read once for all the pages of a read. */
	baseUrl: string;
	pacer?: RequestPacer;
}

export interface ResponsePage {
	responses: IDataObject[];
	/** How many responses match, where the API says so. */
	total?: number;
}

export interface RemoteHook {
	id: string;
	url: string;
	triggers: string[];
	surveyIds: string[];
	/** How the service names it, where the API keeps a name (Formbricks). */
	name?: string | null;
}

export interface HookRegistration {
	url: string;
	triggers: string[];
	/** Empty for all surveys. */
	surveyIds: string[];
	/** How the hook is named where the service shows it. */
	name: string;
}

/** A delivery in the documented trigger output's terms, and what the API sends beyond it. */
export interface SurveyEvent {
	event: string;
	surveyId: string;
	responseId: string | null;
	createdAt: string | null;
	data: IDataObject;
	/** Where the API tells them (the documented payload does not): the response's state. */
	finished?: boolean;
	updatedAt?: string;
	/** Fields beyond the documented output, kept as the API sent them (Formbricks: response, survey, webhookId). */
	beyond: IDataObject;
}
