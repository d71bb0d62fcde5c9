/**
 * Control endpoints of the Formbricks flavour (no auth, under /_sandbox/): act as respondents and
 * as Formbricks' administrator, inspect deliveries and the spec checks.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { Deliverer } from '../deliveries';
import { generatedFinished, generationRequest, QUESTION_TYPES } from '../survey';
import { badRequest, checkBody, isoTime, nonEmpty, notFound, oneOf } from '../validation';
import { createId, cuid } from './ids';
import { responseV1, surveyV1, type Element, type I18n, type SurveyRow } from './records';
import { FORMBRICKS_SEED, responseRow, surveyRow } from './seed';
import type { FormbricksStore, Permission } from './store';
import { daysAgo, nowIso } from './timing';

export interface FormbricksSettings {
	/** DANGEROUSLY_ALLOW_WEBHOOK_INTERNAL_URLS: webhooks to 127.0.0.1 (n8n beside the sandbox) allowed. */
	allowInternalWebhookUrls: boolean;
	/** Keep the sandbox core's Retry-After on a 429 (Formbricks sends none). */
	retryAfter: boolean;
	/** An Enterprise licence with the Contacts feature: contacts and personal links answer, else 403. */
	enterpriseLicence: boolean;
	/** API v3's survey routes (archive, restore: Formbricks 5.3; validate: 5.1); off, Next.js' 404 page. */
	v3Surveys: boolean;
}

export interface SpecViolation {
	method: string;
	path: string;
	status: number;
	errors: string[];
}

/** The documented API's question types, and two whose answer is a list (name, e-mail, phone…; street, city…). */
const ELEMENT_TYPES = [...QUESTION_TYPES, 'contactInfo', 'address'] as const;

/**
 * The inputs of the list-answer types, in the order of their answer's positions, each shown and
 * required with the placeholder Formbricks' editor gives a new element
 * (`getElementTypes`, apps/web/modules/survey/lib/elements.tsx; `ZSurveyContactInfoElement`,
 * `ZSurveyAddressElement` in packages/types/surveys/elements.ts).
 */
const LIST_INPUTS: Record<string, Record<string, string>> = {
	contactInfo: { firstName: 'First Name', lastName: 'Last Name', email: 'Email', phone: 'Phone', company: 'Company' },
	address: {
		addressLine1: 'Address Line 1',
		addressLine2: 'Address Line 2',
		city: 'City',
		state: 'State',
		zip: 'Zip',
		country: 'Country',
	},
};

const asI18n = (value: unknown): I18n =>
	typeof value === 'string' ? { default: value } : (value as I18n);

/** `FORBIDDEN_IDS` (packages/types/surveys/validation.ts): ids no question may have. */
const FORBIDDEN_IDS = ['userId', 'source', 'suid', 'end', 'start', 'welcomeCard', 'hidden', 'verifiedEmail', 'multiLanguage', 'embed', 'verify'];

/**
 * A question id its author set in Formbricks' editor (question → Advanced settings → Question
 * ID, while the survey is a draft: apps/web/modules/survey/editor/components/update-element-id.tsx),
 * checked as `ZSurveyElementId` (packages/types/surveys/elements.ts) checks it.
 */
function authoredId(value: unknown, at: string): string {
	const id = String(value);
	if (FORBIDDEN_IDS.includes(id)) throw badRequest(`"${at}": Element id is not allowed`);
	if (!/^[a-zA-Z0-9_-]+$/.test(id)) {
		throw badRequest(`"${at}": Element id not allowed, use only alphanumeric characters, hyphens, or underscores.`);
	}
	return id;
}

/** A question given to POST /_sandbox/surveys, made into an element with random ids (or the id its author set). */
function element(value: unknown, at: string): Element {
	const body = checkBody(
		value,
		{
			required: { headline: 'string', type: 'string' },
			optional: { id: 'string', required: 'boolean', choices: 'string[]', inputType: 'string' },
		},
		at,
	);
	const type = oneOf(body.type, ELEMENT_TYPES, `${at}.type`);
	const multipleChoice = type.startsWith('multipleChoice');
	if (multipleChoice !== (body.choices !== undefined)) {
		throw badRequest(`"${at}.choices" is given exactly for the multiple-choice types`);
	}
	return {
		id: body.id === undefined ? createId() : authoredId(body.id, `${at}.id`),
		type,
		headline: asI18n(body.headline),
		required: body.required !== false,
		...(type === 'openText'
			? { inputType: body.inputType ?? 'text', charLimit: { enabled: false } }
			: {}),
		...(multipleChoice
			? {
					choices: (body.choices as string[]).map((label) => ({ id: createId(), label: asI18n(label) })),
				}
			: {}),
		...Object.fromEntries(
			Object.entries(LIST_INPUTS[type] ?? {}).map(([input, placeholder]) => [
				input,
				{ show: true, required: true, placeholder: { default: placeholder } },
			]),
		),
	};
}

/** A plausible answer to an element, for generated responses (the n-th respondent). */
function answer(question: Element, n: number): unknown {
	const choices = (question.choices as Array<{ label: I18n }> | undefined) ?? [];
	switch (question.type) {
		case 'multipleChoiceSingle':
			return choices[n % choices.length].label.default;
		case 'multipleChoiceMulti':
			return choices.filter((_, index) => (n + index) % 2 === 0).map((choice) => choice.label.default);
		case 'rating':
			return 1 + (n % 5);
		case 'nps':
			return n % 11;
		case 'date':
			return `2026-${String(1 + (n % 12)).padStart(2, '0')}-15`;
		case 'consent':
			return 'accepted';
		case 'fileUpload':
			return [`/storage/${FORMBRICKS_SEED.workspaceId}/private/cv-${n}.pdf`];
		case 'contactInfo':
			return ['Applicant', String(n), `applicant${n}@example.org`, `+1 555 01${String(n % 100).padStart(2, '0')}`, ''];
		case 'address':
			return [`${n} Gallery Road`, '', 'Leeds', '', 'LS1 4AP', 'United Kingdom'];
		default:
			return question.inputType === 'email'
				? `applicant${n}@example.org`
				: question.inputType === 'phone'
					? `+1 555 01${String(n % 100).padStart(2, '0')} ${String(n % 10_000).padStart(4, '0')}`
					: question.inputType === 'url'
						? `https://portfolio.example.org/applicant-${n}`
						: `Applicant ${n}`;
	}
}

const elementsOf = (survey: SurveyRow) => survey.blocks.flatMap((block) => block.elements);

export function registerControlRoutes(
	app: FastifyInstance,
	context: {
		store: FormbricksStore;
		deliverer: Deliverer;
		settings: FormbricksSettings;
		violations: SpecViolation[];
	},
): void {
	const { store, deliverer, settings, violations } = context;
	const findSurvey = (request: FastifyRequest) => {
		const survey = store.surveys.get((request.params as { surveyId: string }).surveyId);
		if (!survey) throw notFound('Survey not found');
		return survey;
	};

	// With the jobs still to try (retries waiting included), as the other services report them.
	app.get('/_sandbox/deliveries', async () => deliverer.report());
	// With their secrets, so that tests can verify deliveries as the receiver would.
	app.get('/_sandbox/webhooks', async () => ({ data: store.webhooks }));
	// A hook of any workspace, as another organisation's key (or its admin) would have made it.
	app.post('/_sandbox/webhooks', async (request) => {
		const body = checkBody(request.body, {
			required: { url: 'string', workspaceId: 'string', triggers: 'string[]' },
			optional: { name: 'string', source: 'string', surveyIds: 'string[]' },
		});
		const webhook = store.addWebhook({
			url: body.url as string,
			workspaceId: body.workspaceId as string,
			triggers: body.triggers as string[],
			name: (body.name as string | undefined) ?? null,
			source: oneOf(body.source ?? 'user', ['user', 'zapier', 'make', 'n8n', 'activepieces'] as const, 'source'),
			surveyIds: (body.surveyIds as string[] | undefined) ?? [],
		});
		return { data: webhook };
	});
	app.get('/_sandbox/spec-violations', async () => ({ violations }));

	app.get('/_sandbox/formbricks', async () => ({
		...FORMBRICKS_SEED,
		environmentId: store.workspace.legacyEnvironmentId ?? store.workspace.id,
		access: store.access,
		settings,
	}));
	app.put('/_sandbox/formbricks', async (request) => {
		const body = checkBody(request.body, {
			optional: {
				permission: 'string',
				extraWorkspaces: 'integer',
				allowInternalWebhookUrls: 'boolean',
				retryAfter: 'boolean',
				enterpriseLicence: 'boolean',
				v3Surveys: 'boolean',
			},
		});
		if (body.v3Surveys !== undefined) settings.v3Surveys = body.v3Surveys as boolean;
		if (body.permission !== undefined) {
			store.access.permission = oneOf(body.permission, ['read', 'write', 'manage'] as Permission[], 'permission');
		}
		if (body.extraWorkspaces !== undefined) store.access.extraWorkspaces = body.extraWorkspaces as number;
		if (body.allowInternalWebhookUrls !== undefined) {
			settings.allowInternalWebhookUrls = body.allowInternalWebhookUrls as boolean;
		}
		if (body.retryAfter !== undefined) settings.retryAfter = body.retryAfter as boolean;
		if (body.enterpriseLicence !== undefined) settings.enterpriseLicence = body.enterpriseLicence as boolean;
		return { access: store.access, settings };
	});

	app.post('/_sandbox/surveys', async (request) => {
		const body = checkBody(request.body, {
			required: { name: 'string', questions: 'array' },
			optional: { status: 'string', type: 'string', languages: 'string[]', hiddenFields: 'string[]' },
		});
		const elements = (body.questions as unknown[]).map((question, index) => element(question, `questions[${index}]`));
		const ids = elements.map((question) => question.id);
		if (new Set(ids).size !== ids.length) throw badRequest('"questions": question ids must be unique within a survey');
		const survey = surveyRow({
			id: cuid(),
			name: nonEmpty(body.name, 'name'),
			type: oneOf(body.type ?? 'link', ['link', 'app'] as const, 'type'),
			status: oneOf(body.status ?? 'inProgress', ['draft', 'inProgress', 'paused', 'completed'] as const, 'status'),
			createdAt: nowIso(),
			elements,
			languages: body.languages as string[] | undefined,
		});
		if (body.hiddenFields !== undefined) {
			survey.hiddenFields = {
				enabled: true,
				fieldIds: (body.hiddenFields as string[]).map((id, index) => authoredId(id, `hiddenFields[${index}]`)),
			};
		}
		store.surveys.set(survey.id, survey);
		return { data: surveyV1(survey, store.workspace, store.urls) };
	});
	app.patch('/_sandbox/surveys/:surveyId', async (request) => {
		const survey = findSurvey(request);
		const body = checkBody(request.body, {
			optional: { name: 'string', status: 'string', type: 'string', singleUse: 'object' },
		});
		if (body.name !== undefined) survey.name = nonEmpty(body.name, 'name');
		if (body.status !== undefined) {
			survey.status = oneOf(body.status, ['draft', 'inProgress', 'paused', 'completed'] as const, 'status');
		}
		if (body.type !== undefined) survey.type = oneOf(body.type, ['link', 'app'] as const, 'type');
		// The survey's Share settings: single-use links on or off, their ids encrypted or signed.
		if (body.singleUse !== undefined) {
			const singleUse = checkBody(body.singleUse, { required: { enabled: 'boolean' }, optional: { isEncrypted: 'boolean' } }, 'singleUse');
			survey.singleUse = { enabled: singleUse.enabled as boolean, isEncrypted: (singleUse.isEncrypted as boolean | undefined) ?? true };
		}
		survey.updatedAt = nowIso();
		return { data: surveyV1(survey, store.workspace, store.urls) };
	});

	// The contacts with their attributes by key, as Formbricks' Contacts page shows them.
	app.get('/_sandbox/contacts', async () => ({
		data: [...store.contacts.values()].map((contact) => ({ ...contact, attributes: store.attributesOf(contact.id) })),
	}));
	// A segment of contacts whose attributes have the given values (Formbricks' segment editor: attribute "equals").
	app.post('/_sandbox/segments', async (request) => {
		const body = checkBody(request.body, { required: { title: 'string', filters: 'array' } });
		const filters = (body.filters as unknown[]).map((filter, index) =>
			checkBody(filter, { required: { key: 'string', value: 'string' } }, `filters[${index}]`),
		);
		const segment = {
			id: cuid(),
			title: nonEmpty(body.title, 'title'),
			workspaceId: store.workspace.id,
			filters: filters.map((filter) => ({ key: String(filter.key), value: String(filter.value) })),
		};
		store.segments.set(segment.id, segment);
		return { data: segment };
	});

	app.post('/_sandbox/surveys/:surveyId/responses', async (request) => {
		const survey = findSurvey(request);
		const body = checkBody(request.body, {
			required: { data: 'object' },
			optional: { finished: 'boolean', createdAt: 'string', meta: 'object', language: 'string', contact: 'object' },
		});
		// A known contact answering (an app survey, or a link with ?userId=): its attributes are copied onto the response.
		const contact = body.contact as { userId?: unknown; attributes?: unknown } | undefined;
		const now = nowIso();
		const response = store.addResponse(
			responseRow({
				id: cuid(),
				surveyId: survey.id,
				createdAt: body.createdAt === undefined ? now : isoTime(body.createdAt, 'createdAt'),
				updatedAt: now,
				finished: body.finished !== false,
				data: body.data as Record<string, unknown>,
				meta: (body.meta as Record<string, unknown> | undefined) ?? {
					url: `https://forms.residency.example.org/s/${survey.id}`,
					userAgent: { browser: 'Chrome', os: 'macOS', device: 'desktop' },
					country: 'GB',
				},
				language: body.language as string | undefined,
				contact: contact && {
					id: cuid(),
					userId: String(contact.userId ?? ''),
					attributes: (contact.attributes ?? {}) as Record<string, string>,
				},
			}),
		);
		return { data: responseV1(response, store.urls) };
	});
	app.patch('/_sandbox/responses/:responseId', async (request) => {
		const response = store.responses.get((request.params as { responseId: string }).responseId);
		if (!response) throw notFound('Response not found');
		const body = checkBody(request.body, { optional: { data: 'object', finished: 'boolean' } });
		store.updateResponse(response, {
			data: body.data as Record<string, unknown> | undefined,
			finished: body.finished as boolean | undefined,
		});
		return { data: responseV1(response, store.urls) };
	});
	app.post('/_sandbox/surveys/:surveyId/generate-responses', async (request) => {
		const survey = findSurvey(request);
		const { count, finishedRatio } = generationRequest(request.body);
		const first = store.responsesOf(survey.id).length + 1;
		for (let index = 0; index < count; index++) {
			const n = first + index;
			const createdAt = daysAgo(60 - (index / count) * 59);
			const finished = generatedFinished(n, finishedRatio);
			const elements = elementsOf(survey);
			const answered = finished ? elements : elements.slice(0, Math.ceil(elements.length / 2));
			const row = responseRow({
				// Deterministic and a valid cuid2: the n-th response of the survey has the same id.
				id: `cg${String(n).padStart(8, '0')}${survey.id.slice(-15)}`,
				surveyId: survey.id,
				createdAt,
				updatedAt: new Date(Date.parse(createdAt) + (60 + (n % 900)) * 1000).toISOString(),
				finished,
				data: Object.fromEntries(answered.map((question) => [question.id, answer(question, n)])),
				meta: { url: `https://forms.residency.example.org/s/${survey.id}`, country: 'GB' },
			});
			store.responses.set(row.id, row);
		}
		return { count, total: store.responsesOf(survey.id).length };
	});
}
