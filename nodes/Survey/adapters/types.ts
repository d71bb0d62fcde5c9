import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import type { ApiAdapter } from '../../shared/adapterRegistry';
import type { RequestPacer } from '../../shared/concurrency';
import type { RequestContext } from '../../shared/request';
import type { WriteMark } from '../writeMark';

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

	/** People the workspace knows, with their attributes (Formbricks: contacts, an Enterprise feature). */
	contacts?: ContactsCapability;
	/** Links that let one contact answer a survey as themselves. */
	personalLinks?: PersonalLinksCapability;
	/** Links that each take one anonymous response. */
	singleUseLinks?: SingleUseLinksCapability;
	/** Responses written through the API, which the service handles as a respondent's (webhooks included). */
	responseWrites?: ResponseWritesCapability;
	/** Surveys made, changed, published, closed and deleted through the API (Formbricks). */
	surveyWrites?: SurveyWritesCapability;
}

/** What archiving and restoring do: an archived survey is kept, with its responses, out of the lists. */
export type SurveyLifecycleAction = 'archive' | 'restore';

export interface SurveyWritesCapability {
	/** Creates a survey from a definition in the service's own schema (checked by the operation); the survey as Get answers it. */
	create(ctx: IExecuteFunctions, definition: IDataObject, itemIndex: number): Promise<IDataObject>;
	/** Replaces the fields given, keeping the others; the survey as it is afterwards. */
	update(ctx: IExecuteFunctions, surveyId: string, changes: IDataObject, itemIndex: number): Promise<IDataObject>;
	/** A survey's definition as a new survey would take it (ids, dates and the workspace left out). */
	copyOf(ctx: IExecuteFunctions, surveyId: string, itemIndex: number): Promise<IDataObject>;
	/** Deletes a survey (the service deletes its responses with it); the survey as it was. */
	delete(ctx: IExecuteFunctions, surveyId: string, itemIndex: number): Promise<IDataObject>;
	/** Archives or restores a survey: `{ id, status, archivedAt }`. */
	lifecycle(ctx: IExecuteFunctions, surveyId: string, action: SurveyLifecycleAction, itemIndex: number): Promise<IDataObject>;
	/** The service's verdict on a definition, nothing created: `{ valid, invalid_params, … }`. */
	validate(ctx: IExecuteFunctions, definition: IDataObject, itemIndex: number): Promise<IDataObject>;
}

/** A contact: `id`, `createdAt`, `updatedAt` where told, `attributes` by key (`email`, `firstName`, custom keys…). */
export type Contact = IDataObject & { id: string; attributes: Record<string, string> };

/** What became of one contact of Create Many. */
export interface ContactWriteReport {
	status: 'created' | 'updated' | 'unchanged' | 'skipped' | 'refused';
	contactId: string | null;
	/** Why it was skipped or refused. */
	reason?: string;
}

/**
 * What a Create Many that failed part-way had done: the report of every contact whose outcome is
 * known (written in an earlier batch, or refused before sending), undefined for those of the
 * failed batch and after. Kept by the error `upsertMany` throws.
 */
export const contactsWrittenBeforeFailure = new WeakMap<Error, Array<ContactWriteReport | undefined>>();

/** One contact of Create Many: its attributes by key, and the input item they came from. */
export interface ContactToWrite {
	itemIndex: number;
	attributes: Record<string, string>;
}

export interface ContactsCapability {
	/** Every contact of the workspace with its attributes. */
	list(ctx: IExecuteFunctions, itemIndex: number): Promise<Contact[]>;
	get(ctx: IExecuteFunctions, contactId: string, itemIndex: number): Promise<Contact>;
	/**
	 * Creates one contact; attribute keys the workspace lacks are created first when
	 * `createMissingKeys`, else named in the error. A contact with the same e-mail is refused.
	 */
	create(
		ctx: IExecuteFunctions,
		attributes: Record<string, string>,
		options: { createMissingKeys: boolean; itemIndex: number },
	): Promise<Contact>;
	/**
	 * Creates or updates (matched by e-mail) many contacts, each its input item's, in the service's
	 * largest batches; one report per contact, in order. A failure names the items already written
	 * and keeps their reports (`contactsWrittenBeforeFailure`).
	 */
	upsertMany(ctx: IExecuteFunctions, contacts: ContactToWrite[], itemIndex: number): Promise<ContactWriteReport[]>;
	/** Deletes a contact; `alreadyGone` as the node's If Already Deleted settles "not found". */
	delete(ctx: IExecuteFunctions, contactId: string, itemIndex: number): Promise<{ alreadyGone: boolean }>;
	/** The workspace's attribute keys (`key`, `name`, `description`, `type`, `dataType`…). */
	attributeKeys(ctx: IExecuteFunctions | ILoadOptionsFunctions, itemIndex?: number): Promise<IDataObject[]>;
	createAttributeKey(
		ctx: IExecuteFunctions,
		key: { key: string; name?: string; description?: string; dataType?: string },
		itemIndex: number,
	): Promise<IDataObject>;
}

export interface PersonalLink {
	surveyUrl: string;
	/** ISO time, or null for a link that does not expire. */
	expiresAt: string | null;
}

export interface PersonalLinksCapability {
	forContact(
		ctx: IExecuteFunctions,
		query: { surveyId: string; contactId: string; expirationDays?: number },
		itemIndex: number,
	): Promise<PersonalLink>;
	/**
	 * One page of the links of a segment's contacts (newest contact first), with the contacts'
	 * attributes of the given keys; `total` is how many contacts the segment has.
	 */
	forSegment(
		ctx: IExecuteFunctions,
		query: { surveyId: string; segmentId: string; expirationDays?: number; attributeKeys: string[]; skip: number; limit: number },
		itemIndex: number,
	): Promise<{ links: Array<PersonalLink & { contactId: string; attributes?: Record<string, string> }>; total: number }>;
	/** Most links of a segment one page can hold. */
	readonly segmentPageSize: number;
}

export interface SingleUseLinksCapability {
	readonly maxCount: number;
	generate(ctx: IExecuteFunctions, surveyId: string, count: number, itemIndex: number): Promise<string[]>;
}

/** Answers to write: by question id (question-text keys are resolved by the operation), hidden fields by their id. */
export interface ResponseWrite {
	data: IDataObject;
	finished?: boolean;
	language?: string;
}

export interface ResponseWritesCapability {
	create(
		ctx: IExecuteFunctions,
		response: ResponseWrite & { surveyId: string; contactUserId?: string; createdAt?: string; source?: string },
		itemIndex: number,
	): Promise<IDataObject>;
	/**
	 * Adds or replaces the answers given, keeping the others; the response as it is afterwards. A
	 * response of another survey than `surveyId` (which the answers were keyed by) is refused unwritten.
	 */
	update(
		ctx: IExecuteFunctions,
		responseId: string,
		change: ResponseWrite & { surveyId: string },
		itemIndex: number,
	): Promise<IDataObject>;
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
	/**
	 * The mark of the Survey node's Response → Create or Update, when the response is still as it
	 * wrote it; whether it is this credential's is for the trigger to check with its key (`sealedWith`).
	 */
	writeMark?: WriteMark;
}
