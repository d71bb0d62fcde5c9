import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../shared/credentialTest';
import type { ServiceError } from '../../shared/request';
import { serviceErrorOf } from '../../shared/request';
import { writeMarkOf } from '../writeMark';
import type { SurveyEvent } from './types';

/**
 * Formbricks' answers in the documented shapes, and its error bodies in words. Read in Formbricks'
 * source at commit b66c1dd978af618a0e402bd3343b456bed68594c (5.4.0-rc.1); see
 * test/sandbox/formbricks/README.md for the facts and the files they come from.
 */

/** A per-language text (`packages/types/i18n.ts`): `{ default: "Your name", de: "Ihr Name" }`. */
function isI18n(value: unknown): value is Record<string, string> & { default: string } {
	return (
		isObject(value) &&
		typeof value.default === 'string' &&
		Object.values(value).every((text) => typeof text === 'string')
	);
}

/**
 * An object with its per-language texts as plain text (the survey's default language) and the
 * texts in every language kept under `translations`, e.g. `headline: "Your full name"` and
 * `translations: { headline: { default: "Your full name", de: "Ihr vollständiger Name" } }`.
 * Nested objects and lists (choices, matrix rows, contact fields) are treated the same way.
 */
export function withPlainTexts(value: IDataObject): IDataObject {
	const plain: IDataObject = {};
	const translations: IDataObject = {};
	for (const [key, entry] of Object.entries(value)) {
		if (isI18n(entry)) {
			plain[key] = entry.default;
			translations[key] = entry;
		} else if (Array.isArray(entry)) {
			plain[key] = entry.map((item: unknown) => (isObject(item) ? withPlainTexts(item) : item)) as IDataObject[];
		} else if (isObject(entry)) {
			plain[key] = withPlainTexts(entry);
		} else {
			plain[key] = entry;
		}
	}
	if (Object.keys(translations).length > 0) plain.translations = translations;
	return plain;
}

/**
 * A Formbricks survey (v1, the whole record) in the documented shape: `id`, `name`, `status`,
 * `type`, `createdAt` as they are, `questions` (which v1 derives from the survey's blocks) with
 * plain-text headlines and choice labels; everything else kept as Formbricks sends it.
 */
export function documentedSurvey(survey: IDataObject): IDataObject {
	const questions = Array.isArray(survey.questions) ? survey.questions : [];
	return {
		...survey,
		questions: questions.map((question: unknown) => (isObject(question) ? withPlainTexts(question) : question)) as IDataObject[],
	};
}

const withWriteMark = (writeMark: SurveyEvent['writeMark']) => (writeMark ? { writeMark } : {});

/**
 * A delivery's body (`{ webhookId, event, data: { <the response>, survey } }`, built by
 * `createWebhookDeliveryTask` in apps/web/modules/response-pipeline/lib/process-response-pipeline-job.ts)
 * as the trigger's documented output, with the response (without its answers, which are `data`),
 * the survey and the webhook's id beside it.
 */
export function documentedEvent(body: unknown): SurveyEvent | undefined {
	if (!isObject(body) || typeof body.event !== 'string' || !isObject(body.data)) return undefined;
	const { survey, data: answers, ...response } = body.data;
	if (typeof response.surveyId !== 'string') return undefined;
	return {
		...withWriteMark(writeMarkOf(response)),
		event: body.event,
		surveyId: response.surveyId,
		responseId: typeof response.id === 'string' ? response.id : null,
		createdAt: typeof response.createdAt === 'string' ? response.createdAt : null,
		data: isObject(answers) ? answers : {},
		...(typeof response.finished === 'boolean' ? { finished: response.finished } : {}),
		...(typeof response.updatedAt === 'string' ? { updatedAt: response.updatedAt } : {}),
		beyond: {
			response,
			survey: isObject(survey) ? survey : null,
			webhookId: typeof body.webhookId === 'string' ? body.webhookId : null,
		},
	};
}

const MANAGE_KEY =
	'This API key lacks the permission: registering webhooks, writing responses and making single-use links need an API key with "Write" access to the workspace; deleting responses, contacts and webhooks "Manage" access (Formbricks: Organization Settings → API Keys)';

/**
 * Formbricks answers 403 where its Enterprise licence is missing (`getIsContactsEnabled` in the contacts
 * and contact-link routes); v2 drops the reason, and also answers 403 for a key without Write access
 * to the workspace and for a segment's links of a survey that is not a link survey in progress.
 */
const FORBIDDEN_UNLICENSED =
	'Contacts and personal links need Formbricks\' Enterprise licence (the Contacts feature: Organization Settings → Enterprise License). If this server has one: creating contacts needs an API key with "Write" access to the workspace, and a segment\'s personal links need a link survey that is in progress';

/** A 403 of a route the licence does not gate: the key's access to the workspace. */
const FORBIDDEN_KEY =
	'Formbricks refused this API key here: writing (registering webhooks, writing responses, creating attribute keys) needs "Write" access to the workspace, deleting "Manage" access (Formbricks: Organization Settings → API Keys)';

const INTERNAL_URL =
	'Formbricks refuses webhook URLs on localhost or a private network unless its server sets DANGEROUSLY_ALLOW_WEBHOOK_INTERNAL_URLS=1. Give n8n a public URL (n8n\'s WEBHOOK_URL setting), or set that variable on the Formbricks server';

const SEVERAL_WORKSPACES =
	'This API key reaches more than one workspace: give the workspace\'s ID in the credential\'s Workspace ID field (Formbricks shows it under the workspace\'s settings → General)';

/** Formbricks' errors on the routes its Enterprise licence gates (contacts, personal links): a 403 there names the licence. */
export function formbricksLicensedError(body: unknown, status: number): ServiceError {
	const error = formbricksError(body, status);
	if (status === 403) error.hint = FORBIDDEN_UNLICENSED;
	return error;
}

/** v1 details other than the ids of a 404 (`{ resource_id, resource_type }`), as words. */
function v1Details(details: unknown): string {
	if (!isObject(details)) return '';
	const words = Object.entries(details)
		.filter(([field]) => field !== 'resource_id' && field !== 'resource_type')
		.map(([field, issue]) => `${field}: ${typeof issue === 'string' ? issue : JSON.stringify(issue)}`);
	return words.length > 0 ? ` (${words.join('; ')})` : '';
}

/**
 * Formbricks' error shapes in words: v3's problem details (below), v1 `{ code, message, details: {…} }`
 * (apps/web/app/lib/api/response.ts) and v2 `{ error: { code, message, details: [{ field, issue }] } }`
 * (apps/web/modules/api/v2/lib/response.ts); and the HTML page Next.js answers for a path no route serves.
 */
export function formbricksError(body: unknown, status: number): ServiceError {
	let parsed = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body) as unknown;
		} catch {
			if (status === 404 && /<html/i.test(body)) {
				return {
					message: 'No such route on this server (it answered with a web page)',
					hint: 'This is not a Formbricks server, or a Formbricks too old for this route: check the Base URL and the API in the credential',
				};
			}
		}
	}
	let error: ServiceError;
	if (isObject(parsed) && isObject(parsed.error)) {
		const { message, details } = parsed.error;
		const issues = Array.isArray(details)
			? details
					.filter(isObject)
					.map((detail) => (detail.field ? `${String(detail.field)}: ${String(detail.issue)}` : String(detail.issue)))
			: [];
		error = { message: [String(message ?? `HTTP ${status}`), ...issues].join(': ') };
	} else if (isObject(parsed) && typeof parsed.detail === 'string') {
		// v3: RFC 9457 problem details, `{ title, status, detail, code, invalid_params: [{ name, reason }] }`
		// (apps/web/app/api/v3/lib/response.ts).
		const params = Array.isArray(parsed.invalid_params) ? parsed.invalid_params.filter(isObject) : [];
		error = {
			message: [parsed.detail, ...params.map((entry) => `${String(entry.name)}: ${String(entry.reason)}`)].join(': '),
			code: typeof parsed.code === 'string' ? parsed.code : undefined,
		};
	} else if (isObject(parsed) && typeof parsed.message === 'string') {
		error = {
			message: `${parsed.message}${v1Details(parsed.details)}`,
			code: typeof parsed.code === 'string' ? parsed.code : undefined,
		};
	} else {
		error = serviceErrorOf(parsed);
	}
	// v1 says which 401 it is (`not_authenticated`: the key; `unauthorized`: its access); v2 does not.
	// Which credential field to check is added to every 401 of a node's run (adapterRegistry.ts).
	const v2Shape = isObject(parsed) && isObject(parsed.error);
	if (status === 401) {
		if (error.code === 'unauthorized' || v2Shape) error.hint = MANAGE_KEY;
	} else if (status === 403) error.hint = FORBIDDEN_KEY;
	else if (/private or internal/i.test(error.message)) error.hint = INTERNAL_URL;
	else if (/single workspace/i.test(error.message)) error.hint = SEVERAL_WORKSPACES;
	return error;
}
