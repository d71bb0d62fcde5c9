/**
 * Formbricks' records as its database holds them, and the shapes each route answers with
 * (b66c1dd). Field order follows the source, so that an answer reads like Formbricks' own.
 */
import { resolveStorageUrls } from './webhook';

export type I18n = Record<string, string> & { default: string };

export interface Workspace {
	id: string;
	name: string;
	/** Set for workspaces migrated from an environment (before Formbricks 5); v1 answers it as `environmentId`. */
	legacyEnvironmentId: string | null;
	organizationId: string;
	createdAt: string;
	updatedAt: string;
	appSetupCompleted: boolean;
}

/** A survey element (question): `ZSurveyElement` in packages/types/surveys/elements.ts. */
export type Element = Record<string, unknown> & {
	id: string;
	type: string;
	headline: I18n;
	required: boolean;
};

export interface Block {
	id: string;
	name: string;
	elements: Element[];
}

/** The columns of `selectSurvey` (apps/web/lib/survey/service.ts), in its order. */
export interface SurveyRow {
	id: string;
	createdAt: string;
	updatedAt: string;
	name: string;
	type: 'link' | 'app';
	workspaceId: string;
	createdBy: string | null;
	status: 'draft' | 'inProgress' | 'paused' | 'completed';
	[column: string]: unknown;
	blocks: Block[];
	endings: Array<Record<string, unknown> & { id: string }>;
}

/** A row of `Response` (packages/database/schema/main.prisma), with its contact and tags joined. */
export interface ResponseRow {
	id: string;
	createdAt: string;
	updatedAt: string;
	finished: boolean;
	surveyId: string;
	contactId: string | null;
	endingId: string | null;
	data: Record<string, unknown>;
	variables: Record<string, string | number>;
	ttc: Record<string, number>;
	meta: Record<string, unknown>;
	contactAttributes: Record<string, string> | null;
	singleUseId: string | null;
	language: string | null;
	displayId: string | null;
	/** The contact's `userId` attribute, when the respondent is a known contact. */
	contactUserId?: string;
	tags: Array<{ id: string; createdAt: string; updatedAt: string; name: string; workspaceId: string }>;
}

/** A row of `Webhook`, in its column order. */
export interface WebhookRow {
	id: string;
	name: string | null;
	createdAt: string;
	updatedAt: string;
	url: string;
	source: 'user' | 'zapier' | 'make' | 'n8n' | 'activepieces';
	workspaceId: string;
	triggers: string[];
	surveyIds: string[];
	secret: string | null;
}

export interface StorageUrls {
	publicUrl: string;
	webappUrl: string;
}

/**
 * `transformBlocksToQuestions` (apps/web/app/lib/api/survey-transformation.ts): every element
 * of every block, in order; the block's button labels go to its last element.
 */
export function questionsOf(survey: SurveyRow): Element[] {
	return survey.blocks.flatMap((block) =>
		block.elements.map((element, index) => {
			const question: Element = { ...element };
			if (question.type === 'cta' && question.ctaButtonLabel) {
				question.buttonLabel = question.ctaButtonLabel;
			}
			const last = index === block.elements.length - 1;
			const labels = block as unknown as { buttonLabel?: I18n; backButtonLabel?: I18n };
			if (last && labels.buttonLabel) question.buttonLabel = labels.buttonLabel;
			if (last && labels.backButtonLabel) question.backButtonLabel = labels.backButtonLabel;
			return question;
		}),
	);
}

/**
 * A survey as v1 answers it (GET /api/v1/management/surveys and /surveys/{id}): the row, with
 * `questions` derived from the blocks (`withDerivedQuestions`), then `projectOverwrites`
 * (`addLegacyProjectOverwrites`) and `environmentId` (`addLegacyEnvironmentId`) appended.
 */
export function surveyV1(survey: SurveyRow, workspace: Workspace, urls: StorageUrls) {
	const derived = survey.blocks.length > 0 ? { ...survey, questions: questionsOf(survey) } : survey;
	return {
		...resolveStorageUrls(derived, urls),
		projectOverwrites: survey.workspaceOverwrites ?? null,
		environmentId: workspace.legacyEnvironmentId ?? workspace.id,
	};
}

/** `responseSelection` of apps/web/lib/response/service.ts, mapped by `mapResponsePrismaToResponse`. */
export function responseV1(response: ResponseRow, urls?: StorageUrls) {
	return {
		id: response.id,
		createdAt: response.createdAt,
		updatedAt: response.updatedAt,
		surveyId: response.surveyId,
		finished: response.finished,
		endingId: response.endingId,
		data: urls ? resolveStorageUrls(response.data, urls) : response.data,
		meta: response.meta,
		ttc: response.ttc,
		variables: response.variables,
		contactAttributes: response.contactAttributes,
		singleUseId: response.singleUseId,
		language: response.language,
		displayId: response.displayId,
		contact: response.contactId
			? {
					id: response.contactId,
					...(response.contactUserId === undefined ? {} : { userId: response.contactUserId }),
				}
			: null,
		tags: response.tags,
	};
}

/** The plain `Response` row, as the v2 routes answer it (`prisma.response.findMany` without select). */
export function responseV2(response: ResponseRow, urls?: StorageUrls) {
	return {
		id: response.id,
		createdAt: response.createdAt,
		updatedAt: response.updatedAt,
		finished: response.finished,
		surveyId: response.surveyId,
		contactId: response.contactId,
		endingId: response.endingId,
		data: urls ? resolveStorageUrls(response.data, urls) : response.data,
		variables: response.variables,
		ttc: response.ttc,
		meta: response.meta,
		contactAttributes: response.contactAttributes,
		singleUseId: response.singleUseId,
		language: response.language,
		displayId: response.displayId,
	};
}

/** A webhook without its secret (`omit: { secret: true }`), which only the creation answer shows. */
export function webhookWithoutSecret(webhook: WebhookRow): Omit<WebhookRow, 'secret'> {
	return Object.fromEntries(
		Object.entries(webhook).filter(([field]) => field !== 'secret'),
	) as Omit<WebhookRow, 'secret'>;
}

/** v1 appends `environmentId` (`addLegacyEnvironmentId`), the id `GET /me` gives. */
export function webhookV1(webhook: Record<string, unknown>, workspace: Workspace) {
	return { ...webhook, environmentId: workspace.legacyEnvironmentId ?? workspace.id };
}

/** A row of `ContactAttributeKey` (packages/database/schema/main.prisma), in its column order. */
export interface AttributeKeyRow {
	id: string;
	createdAt: string;
	updatedAt: string;
	isUnique: boolean;
	key: string;
	name: string | null;
	description: string | null;
	type: 'default' | 'custom';
	dataType: 'string' | 'number' | 'date';
	workspaceId: string;
}

/** A row of `ContactAttribute`: one value of one contact for one key. */
export interface AttributeRow {
	id: string;
	createdAt: string;
	updatedAt: string;
	attributeKeyId: string;
	contactId: string;
	value: string;
	valueNumber: number | null;
	valueDate: string | null;
}

/** A row of `Contact`: the attributes live in their own table. */
export interface ContactRow {
	id: string;
	createdAt: string;
	updatedAt: string;
	workspaceId: string;
}

/**
 * A segment: in Formbricks a tree of filters on attributes, other segments and devices
 * (packages/types/segment.ts); here the attribute equality filters alone, all of which must hold.
 */
export interface SegmentRow {
	id: string;
	title: string;
	workspaceId: string;
	filters: Array<{ key: string; value: string }>;
}
