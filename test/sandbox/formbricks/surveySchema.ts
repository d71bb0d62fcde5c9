/**
 * Formbricks' survey schema as its survey routes check a survey (b66c1dd), transcribed in zod for
 * the checks the OpenAPI files do not make (the v1 file gives a survey's body as a loose object):
 * - the question (element) types and their required fields: packages/types/surveys/elements.ts
 *   (`ZSurveyElementBase`, `ZSurveyOpenTextElement` … `ZSurveyContactInfoElement`) and the v1 question
 *   ids `ZSurveyQuestionId` with `FORBIDDEN_IDS` (packages/types/surveys/types.ts, validation.ts);
 * - the survey: `ZSurveyBase` and `surveyRefinement` (types.ts: unique question, block and ending
 *   ids, a welcome card with a headline, `autoComplete` ≥ 1, questions or blocks but not both);
 * - v3's validation request `ZV3SurveyValidationRequestBody` and `ZV3EmptyQuery`
 *   (apps/web/app/api/v3/surveys/schemas.ts) and its document's root keys (`createV3SurveyDocumentShape`).
 * Unknown fields are dropped, as zod's `z.object` drops them.
 */
import { z } from 'zod/v4';

import { CUID2_PATTERN } from './ids';

/** `FORBIDDEN_IDS` (packages/types/surveys/validation.ts). */
export const FORBIDDEN_IDS = ['userId', 'source', 'suid', 'end', 'start', 'welcomeCard', 'hidden', 'verifiedEmail', 'multiLanguage', 'embed', 'verify'];

/** `TSurveyElementTypeEnum` (packages/types/surveys/constants.ts). */
export const ELEMENT_TYPES = [
	'fileUpload', 'openText', 'multipleChoiceSingle', 'multipleChoiceMulti', 'nps', 'cta', 'rating', 'consent',
	'pictureSelection', 'cal', 'date', 'matrix', 'address', 'ranking', 'contactInfo', 'csat', 'ces',
] as const;

/** `ZI18nString` (packages/types/i18n.ts): a text per language, `default` required. */
const ZI18nString = z.record(z.string(), z.string()).refine((value) => typeof value.default === 'string', {
	message: 'Invalid input: expected a text with a "default"',
});

/** `ZSurveyQuestionId` / `ZSurveyElementId`. */
const ZQuestionId = z.string().superRefine((id, ctx) => {
	if (FORBIDDEN_IDS.includes(id)) ctx.addIssue({ code: 'custom', message: 'Question id is not allowed' });
	if (id.includes(' ')) ctx.addIssue({ code: 'custom', message: 'Question id not allowed, avoid using spaces.' });
	if (!/^[a-zA-Z0-9_-]+$/.test(id)) {
		ctx.addIssue({ code: 'custom', message: 'Question id not allowed, use only alphanumeric characters, hyphens, or underscores.' });
	}
});

const ZChoice = z.object({ id: z.string(), label: ZI18nString });
const ZToggleInput = z.object({ show: z.boolean(), required: z.boolean(), placeholder: ZI18nString });

const base = {
	id: ZQuestionId,
	headline: ZI18nString,
	subheader: ZI18nString.optional(),
	required: z.boolean(),
};

/** The element types, each with what it requires (elements.ts); the rarer types with their base only. */
const ZElement = z.discriminatedUnion('type', [
	z.object({ ...base, type: z.literal('openText'), inputType: z.enum(['text', 'email', 'url', 'number', 'phone']).optional(), placeholder: ZI18nString.optional() }).passthrough(),
	z.object({ ...base, type: z.literal('multipleChoiceSingle'), choices: z.array(ZChoice).min(2, { error: 'Multiple Choice Element must have at least two choices' }) }).passthrough(),
	z.object({ ...base, type: z.literal('multipleChoiceMulti'), choices: z.array(ZChoice).min(2, { error: 'Multiple Choice Element must have at least two choices' }) }).passthrough(),
	z.object({ ...base, type: z.literal('ranking'), choices: z.array(ZChoice).min(2, { error: 'Ranking Element must have at least two options' }) }).passthrough(),
	z.object({ ...base, type: z.literal('pictureSelection'), choices: z.array(z.object({ id: z.string(), imageUrl: z.string() })).min(2, { error: 'Picture Selection element must have a minimum of 2 choices' }) }).passthrough(),
	z.object({ ...base, type: z.literal('nps') }).passthrough(),
	z.object({ ...base, type: z.literal('rating'), scale: z.enum(['number', 'smiley', 'star']), range: z.union([z.literal(3), z.literal(4), z.literal(5), z.literal(6), z.literal(7), z.literal(10)]) }).passthrough(),
	z.object({ ...base, type: z.literal('consent'), label: ZI18nString }).passthrough(),
	z.object({ ...base, type: z.literal('date'), format: z.enum(['M-d-y', 'd-M-y', 'y-M-d']) }).passthrough(),
	z.object({ ...base, type: z.literal('contactInfo'), firstName: ZToggleInput, lastName: ZToggleInput, email: ZToggleInput, phone: ZToggleInput, company: ZToggleInput }).passthrough(),
	z.object({ ...base, type: z.literal('address'), addressLine1: ZToggleInput, addressLine2: ZToggleInput, city: ZToggleInput, state: ZToggleInput, zip: ZToggleInput, country: ZToggleInput }).passthrough(),
	...(['fileUpload', 'cta', 'cal', 'matrix', 'csat', 'ces'] as const).map((type) => z.object({ ...base, type: z.literal(type) }).passthrough()),
]);

const ZBlock = z.object({ id: z.string(), name: z.string(), elements: z.array(ZElement).min(1) }).passthrough();

const ZEnding = z.union([
	z.object({ id: z.string(), type: z.literal('endScreen') }).passthrough(),
	z.object({ id: z.string(), type: z.literal('redirectToUrl') }).passthrough(),
]);

/** `ZSurveyWelcomeCard` (types.ts). */
const ZWelcomeCard = z
	.object({ enabled: z.boolean(), headline: ZI18nString.optional(), timeToFinish: z.boolean().default(true), showResponseCount: z.boolean().default(false) })
	.passthrough()
	.refine((card) => !(card.enabled && !card.headline), { error: 'Welcome card must have a headline' });

/** `ZSurveyHiddenFields` (types.ts). */
const ZHiddenFields = z.object({ enabled: z.boolean(), fieldIds: z.array(ZQuestionId).optional() });

const unique = (ids: string[]) => ids.findIndex((id, index) => ids.indexOf(id) !== index);

/** The fields of `ZSurveyBase` the routes here read; all optional, as `makeSchemaOptional` makes them. */
const surveyFields = {
	name: z.string(),
	type: z.enum(['link', 'app']),
	status: z.enum(['draft', 'scheduled', 'inProgress', 'paused', 'completed']),
	questions: z.array(ZElement),
	blocks: z.array(ZBlock),
	endings: z.array(ZEnding),
	welcomeCard: ZWelcomeCard,
	hiddenFields: ZHiddenFields,
	variables: z.array(z.object({ id: z.string(), name: z.string() }).passthrough()),
	closeOn: z.coerce.date().nullable(),
	publishOn: z.coerce.date().nullable(),
	autoComplete: z.number().min(1, { error: 'Response limit must be greater than 0' }).nullable(),
	displayOption: z.enum(['displayOnce', 'displayMultiple', 'respondMultiple', 'displaySome']),
	languages: z.array(z.object({ language: z.object({ code: z.string() }).passthrough(), default: z.boolean(), enabled: z.boolean() }).passthrough()),
	singleUse: z.object({ enabled: z.boolean(), isEncrypted: z.boolean() }).nullable(),
	// The other fields of `ZSurveyBase`, kept as given: the sandbox does not act on them.
	...Object.fromEntries(
		[
			'delay', 'displayLimit', 'recontactDays', 'autoClose', 'redirectUrl', 'styling', 'surveyClosedMessage',
			'isVerifyEmailEnabled', 'isSingleResponsePerEmailEnabled', 'isBackButtonHidden', 'isAutoProgressingEnabled',
			'isCaptureIpEnabled', 'pin', 'recaptcha', 'metadata', 'showLanguageSwitch', 'customHeadScripts',
			'customHeadScriptsMode', 'triggers', 'segment', 'displayPercentage', 'slug',
		].map((field) => [field, z.unknown()]),
	),
};

export type SurveyInput = Partial<{ [Field in keyof typeof surveyFields]: z.infer<(typeof surveyFields)[Field]> }>;

/** `surveyRefinement`'s id checks (types.ts). */
function refineSurvey(survey: SurveyInput, ctx: z.RefinementCtx): void {
	const elements = [...(survey.questions ?? []), ...(survey.blocks ?? []).flatMap((block) => block.elements)];
	const duplicate = unique(elements.map((element) => element.id));
	if (duplicate >= 0) ctx.addIssue({ code: 'custom', message: 'Element IDs must be unique', path: ['questions', duplicate, 'id'] });
	const blockDuplicate = unique((survey.blocks ?? []).map((block) => block.id));
	if (blockDuplicate >= 0) ctx.addIssue({ code: 'custom', message: 'Block IDs must be unique', path: ['blocks', blockDuplicate, 'id'] });
	const endingDuplicate = unique((survey.endings ?? []).map((ending) => ending.id));
	if (endingDuplicate >= 0) ctx.addIssue({ code: 'custom', message: 'Ending IDs must be unique', path: ['endings', endingDuplicate, 'id'] });
}

/** `ZSurveyCreateInputWithWorkspaceId`: a name and the workspace required, the rest optional. */
export const ZSurveyCreateInput = z
	.object({ ...z.object(surveyFields).partial().shape, name: z.string(), workspaceId: z.string() })
	.superRefine(refineSurvey);

/** `ZSurveyUpdateInput`, applied to the survey with the changes merged in. */
export const ZSurveyUpdateInput = z.object(surveyFields).partial().superRefine(refineSurvey);

/** `ZV3SurveyValidationRequestBody` (apps/web/app/api/v3/surveys/schemas.ts). */
export const ZV3SurveyValidationRequestBody = z.discriminatedUnion('operation', [
	z.object({ operation: z.literal('create'), data: z.unknown() }).strict(),
	z.object({ operation: z.literal('patch'), surveyId: z.string().regex(CUID2_PATTERN), data: z.unknown() }).strict(),
]);

/**
 * v3's survey document to create (`ZV3CreateSurveyBody`: `workspaceId`, `type` and the root keys of
 * `createV3SurveyDocumentShape`, strict), with blocks of elements as above.
 */
export const ZV3CreateSurveyDocument = z
	.object({
		workspaceId: z.string().regex(CUID2_PATTERN),
		type: z.enum(['link', 'app']).optional(),
		name: z.string().min(1),
		status: surveyFields.status.optional(),
		metadata: z.record(z.string(), z.unknown()).optional(),
		defaultLanguage: z.string().optional(),
		languages: z.array(z.object({ code: z.string(), default: z.boolean().optional(), enabled: z.boolean().optional() }).strict()).optional(),
		welcomeCard: ZWelcomeCard.optional(),
		blocks: z.array(z.object({ id: z.string().optional(), name: z.string(), elements: z.array(ZElement).min(1) }).passthrough()).min(1),
		endings: z.array(ZEnding).optional(),
		hiddenFields: ZHiddenFields.optional(),
		variables: surveyFields.variables.optional(),
		distribution: z.unknown().optional(),
		targeting: z.unknown().optional(),
	})
	.strict()
	.superRefine((document, ctx) => {
		const ids = document.blocks.flatMap((block) => block.elements.map((element) => element.id));
		const duplicate = unique(ids);
		if (duplicate >= 0) ctx.addIssue({ code: 'custom', message: `Element ID "${ids[duplicate]}" is used more than once`, params: { code: 'duplicate_identifier' }, path: ['blocks'] });
	});

/** A zod error as Formbricks' v1 details: `{ "questions.0.choices": "…" }` (`transformErrorToDetails`). */
export function detailsOf(error: z.ZodError): Record<string, string> {
	return Object.fromEntries(error.issues.map((issue) => [issue.path.join('.') || 'body', issue.message]));
}

/** A zod error as v3's `invalid_params` (`formatV3ZodInvalidParams`: `name` the dotted path under its root). */
export function invalidParamsOf(error: z.ZodError, root: string): Array<{ name: string; reason: string; code?: string }> {
	return error.issues.map((issue) => {
		const code = (issue as { params?: { code?: string } }).params?.code;
		return { name: [root, ...issue.path].join('.'), reason: issue.message, ...(code ? { code } : {}) };
	});
}
