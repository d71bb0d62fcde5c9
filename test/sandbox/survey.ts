/** The survey service (CONTRACTS.md, section 3). */
import { randomBytes } from 'node:crypto';

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Webhook } from 'standardwebhooks';

import type { Deliverer } from './deliveries';
import { daysAgo, newId, oldestFirst } from './ids';
import { seedResponses, seedSurveys } from './seed';
import { bearerToken, createService, type Service } from './service';
import { type Clock, isoNow } from './timers';
import {
	badRequest,
	checkBody,
	checkQuery,
	httpUrl,
	integerParam,
	isoTime,
	nonEmpty,
	notFound,
	oneOf,
} from './validation';

/**
 * The headers of one signed delivery, as the service sends them (Standard Webhooks): signed now,
 * over the exact body, so the same id can be signed again for a retry.
 */
export function standardWebhookHeaders(
	signer: Webhook,
	webhookId: string,
	body: string,
	now = new Date(),
): Record<string, string> {
	return {
		'content-type': 'application/json',
		'webhook-id': webhookId,
		'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
		'webhook-signature': signer.sign(webhookId, now, body),
	};
}

export const RESPONSES_LIMIT = { fallback: 50, min: 1, max: 250 };
export const SURVEY_EVENTS = ['responseCreated', 'responseUpdated', 'responseFinished'] as const;
const SURVEY_STATUSES = ['draft', 'scheduled', 'inProgress', 'paused', 'completed'] as const;
const SURVEY_TYPES = ['link', 'app'] as const;
const DATE_FIELDS = ['createdAt', 'updatedAt'] as const;

export const QUESTION_TYPES = [
	'openText',
	'multipleChoiceSingle',
	'multipleChoiceMulti',
	'rating',
	'nps',
	'date',
	'consent',
	'fileUpload',
] as const;

/** A survey question (CONTRACTS.md Part 2, section 6); `choices` only for the multiple-choice types. */
export interface Question {
	id: string;
	type: (typeof QUESTION_TYPES)[number];
	headline: string;
	required: boolean;
	choices?: Array<{ id: string; label: string }>;
}

export interface SurveyRecord {
	id: string;
	name: string;
	status: string;
	type: string;
	createdAt: string;
	/** Shown only by GET /surveys/{surveyId}, not in the list. */
	questions?: Question[];
}

export interface ResponseRecord {
	id: string;
	surveyId: string;
	createdAt: string;
	updatedAt: string;
	finished: boolean;
	data: Record<string, unknown>;
	/** How the response came in: `source`, and on the real platform the respondent's user agent, page URL, country… */
	meta: { source: string } & Record<string, unknown>;
}

interface Hook {
	id: string;
	url: string;
	triggers: string[];
	surveyIds: string[];
	source?: string;
	secret: string;
}

export interface SurveyOptions {
	apiKey: string;
	rateLimit: number | null;
	deliverer: Deliverer;
	clock: Clock;
	seed: boolean;
	logger?: boolean;
}

const CODES: Record<number, string> = {
	400: 'bad_request',
	401: 'not_authenticated',
	403: 'forbidden',
	404: 'not_found',
	429: 'too_many_requests',
};

const surveyErrors = {
	send: (
		reply: FastifyReply,
		status: number,
		message: string,
		details: Record<string, unknown> = {},
	) =>
		reply
			.code(status)
			.type('application/json')
			.send({ code: CODES[status] ?? 'internal_server_error', message, details }),
};

function presentedKey(request: FastifyRequest): string | undefined {
	const header = request.headers['x-api-key'];
	return typeof header === 'string' ? header : bearerToken(request);
}

/** A webhook as listed: the secret is shown only once, at creation. */
const hookView = (hook: Hook) => ({
	id: hook.id,
	url: hook.url,
	triggers: hook.triggers,
	surveyIds: hook.surveyIds,
	...(hook.source === undefined ? {} : { source: hook.source }),
});

export function createSurveyService(options: SurveyOptions): Service {
	let surveys = new Map<string, SurveyRecord>();
	/** Per survey, oldest first. */
	let responses = new Map<string, ResponseRecord[]>();
	let responsesById = new Map<string, ResponseRecord>();
	let hooks: Hook[] = [];

	const addSurvey = (survey: SurveyRecord) => {
		surveys.set(survey.id, survey);
		if (!responses.has(survey.id)) responses.set(survey.id, []);
	};
	const addResponses = (surveyId: string, added: ResponseRecord[]) => {
		const list = responses.get(surveyId)!;
		list.push(...added);
		list.sort(oldestFirst);
		for (const response of added) responsesById.set(response.id, response);
	};

	const reset = () => {
		options.deliverer.reset();
		surveys = new Map();
		responses = new Map();
		responsesById = new Map();
		hooks = [];
		if (!options.seed) return;
		for (const survey of seedSurveys()) addSurvey(survey);
		for (const response of seedResponses()) addResponses(response.surveyId, [response]);
	};
	reset();

	const service = createService({
		name: 'survey',
		apiKey: options.apiKey,
		presentedKey,
		errors: surveyErrors,
		rateLimit: options.rateLimit,
		clock: options.clock,
		logger: options.logger,
		reset,
	});
	const { app } = service;

	/** Queues the event for every hook that asked for it and covers the response's survey. */
	const fire = (event: (typeof SURVEY_EVENTS)[number], response: ResponseRecord) => {
		const body = JSON.stringify({
			event,
			surveyId: response.surveyId,
			responseId: response.id,
			createdAt: response.createdAt,
			data: response.data,
		});
		const subscribed = hooks.filter(
			(hook) =>
				hook.triggers.includes(event) &&
				(hook.surveyIds.length === 0 || hook.surveyIds.includes(response.surveyId)),
		);
		for (const hook of subscribed) {
			const webhookId = newId('msg');
			const signer = new Webhook(hook.secret);
			options.deliverer.send({
				deliveryId: webhookId,
				event,
				url: hook.url,
				body,
				headers: () =>
					standardWebhookHeaders(signer, webhookId, body, new Date(options.clock.now())),
			});
		}
	};

	/** As listed: without questions, which only GET /surveys/{surveyId} shows. */
	const surveyView = (survey: SurveyRecord) => ({
		id: survey.id,
		name: survey.name,
		status: survey.status,
		type: survey.type,
		createdAt: survey.createdAt,
		responseCount: responses.get(survey.id)!.length,
	});

	const findSurveyId = (request: FastifyRequest) => {
		const { surveyId } = request.params as { surveyId: string };
		if (!surveys.has(surveyId)) throw notFound('Survey not found');
		return surveyId;
	};
	const findResponse = (request: FastifyRequest) => {
		const response = responsesById.get((request.params as { responseId: string }).responseId);
		if (!response) throw notFound('Response not found');
		return response;
	};

	app.get('/api/v1/management/surveys', async (request) => {
		checkQuery(request.query, []);
		return { data: [...surveys.values()].map(surveyView) };
	});

	app.get('/api/v1/management/surveys/:surveyId', async (request) => {
		checkQuery(request.query, []);
		const survey = surveys.get(findSurveyId(request))!;
		return { data: { ...surveyView(survey), questions: survey.questions ?? [] } };
	});

	app.get('/api/v1/management/surveys/:surveyId/responses', async (request) => {
		const query = checkQuery(request.query, [
			'limit',
			'offset',
			'startDate',
			'endDate',
			'filterDateField',
		]);
		const limit = integerParam(query.limit, 'limit', RESPONSES_LIMIT);
		const offset = integerParam(query.offset, 'offset', {
			fallback: 0,
			min: 0,
			max: Number.MAX_SAFE_INTEGER,
		});
		// Inclusive bounds; a date alone is midnight UTC of that day (Date.parse reads it so).
		const start =
			query.startDate === undefined ? -Infinity : Date.parse(isoTime(query.startDate, 'startDate'));
		const end =
			query.endDate === undefined ? Infinity : Date.parse(isoTime(query.endDate, 'endDate'));
		const field = oneOf(query.filterDateField ?? 'createdAt', DATE_FIELDS, 'filterDateField');
		const all = responses.get(findSurveyId(request))!;
		const matching =
			start === -Infinity && end === Infinity
				? all
				: all.filter((response) => {
						const time = Date.parse(response[field]);
						return time >= start && time <= end;
					});
		return {
			data: matching.slice(offset, offset + limit),
			meta: { total: matching.length, limit, offset },
		};
	});

	app.delete('/api/v1/management/responses/:responseId', async (request) => {
		checkQuery(request.query, []);
		const response = findResponse(request);
		responsesById.delete(response.id);
		const list = responses.get(response.surveyId)!;
		list.splice(list.indexOf(response), 1);
		return { data: response };
	});

	app.get('/api/v1/management/responses/:responseId', async (request) => {
		checkQuery(request.query, []);
		return { data: findResponse(request) };
	});

	app.post('/api/v1/webhooks', async (request, reply) => {
		checkQuery(request.query, []);
		const body = checkBody(request.body, {
			required: { url: 'string', triggers: 'string[]' },
			optional: { surveyIds: 'string[]', source: 'string' },
		});
		const triggers = body.triggers as string[];
		if (triggers.length === 0) throw badRequest('"triggers" must not be empty');
		for (const trigger of triggers) oneOf(trigger, SURVEY_EVENTS, 'triggers[]');
		const hook: Hook = {
			id: newId('wh'),
			url: httpUrl(body.url, 'url'),
			triggers: [...new Set(triggers)],
			surveyIds: [...new Set((body.surveyIds as string[] | undefined) ?? [])],
			...(body.source === undefined ? {} : { source: String(body.source) }),
			secret: `whsec_${randomBytes(24).toString('base64')}`,
		};
		hooks.push(hook);
		return await reply.code(201).send({ data: { ...hookView(hook), secret: hook.secret } });
	});

	app.get('/api/v1/webhooks', async (request) => {
		checkQuery(request.query, []);
		return { data: hooks.map(hookView) };
	});

	app.delete('/api/v1/webhooks/:webhookId', async (request) => {
		checkQuery(request.query, []);
		const { webhookId } = request.params as { webhookId: string };
		const hook = hooks.find((candidate) => candidate.id === webhookId);
		if (!hook) throw notFound('Webhook not found');
		hooks = hooks.filter((candidate) => candidate !== hook);
		return { data: hookView(hook) };
	});

	// Control endpoints: respondents' actions and bulk data.
	app.get('/_sandbox/deliveries', async () => options.deliverer.report());
	// With their secrets, so that tests and benchmarks can sign deliveries as the service would.
	app.get('/_sandbox/webhooks', async () => ({ data: hooks }));
	app.post('/_sandbox/surveys', async (request) => {
		const body = checkBody(request.body, {
			required: { name: 'string' },
			optional: { id: 'string', status: 'string', type: 'string', questions: 'array' },
		});
		const survey: SurveyRecord = {
			id: body.id === undefined ? newId('srv') : nonEmpty(body.id, 'id'),
			name: nonEmpty(body.name, 'name'),
			status: oneOf(body.status ?? 'inProgress', SURVEY_STATUSES, 'status'),
			type: oneOf(body.type ?? 'link', SURVEY_TYPES, 'type'),
			createdAt: isoNow(options.clock),
			questions: ((body.questions as unknown[] | undefined) ?? []).map((question, index) =>
				checkQuestion(question, `questions[${index}]`),
			),
		};
		addSurvey(survey);
		return surveyView(survey);
	});
	app.post('/_sandbox/surveys/:surveyId/responses', async (request) => {
		const surveyId = findSurveyId(request);
		const body = checkBody(request.body, {
			required: { data: 'object' },
			optional: { finished: 'boolean', createdAt: 'string', meta: 'object', deliver: 'boolean' },
		});
		const now = isoNow(options.clock);
		const response: ResponseRecord = {
			id: newId('resp'),
			surveyId,
			createdAt: body.createdAt === undefined ? now : isoTime(body.createdAt, 'createdAt'),
			updatedAt: now,
			finished: body.finished !== false,
			data: body.data as Record<string, unknown>,
			meta: { source: 'link', ...(body.meta as Record<string, unknown> | undefined) },
		};
		addResponses(surveyId, [response]);
		// `deliver: false`: a response whose webhooks were lost (the tests send their own deliveries).
		if (body.deliver !== false) {
			fire('responseCreated', response);
			if (response.finished) fire('responseFinished', response);
		}
		return { data: response };
	});
	app.patch('/_sandbox/responses/:responseId', async (request) => {
		const response = findResponse(request);
		const body = checkBody(request.body, { optional: { data: 'object', finished: 'boolean' } });
		const wasFinished = response.finished;
		response.data = { ...response.data, ...(body.data as Record<string, unknown> | undefined) };
		if (body.finished !== undefined) response.finished = body.finished as boolean;
		response.updatedAt = isoNow(options.clock);
		fire('responseUpdated', response);
		if (!wasFinished && response.finished) fire('responseFinished', response);
		return { data: response };
	});
	app.post('/_sandbox/surveys/:surveyId/generate-responses', async (request) => {
		const surveyId = findSurveyId(request);
		const { count, finishedRatio } = generationRequest(request.body);
		const first = responses.get(surveyId)!.length + 1;
		addResponses(
			surveyId,
			Array.from({ length: count }, (_, index) =>
				generatedResponse(surveyId, first + index, index / count, finishedRatio),
			),
		);
		return { count, total: responses.get(surveyId)!.length };
	});

	return service;
}

/** The body of `POST /_sandbox/surveys/{id}/generate-responses`: `{count, finishedRatio?}`. */
export function generationRequest(value: unknown): { count: number; finishedRatio: number } {
	const body = checkBody(value, {
		required: { count: 'integer' },
		optional: { finishedRatio: 'number' },
	});
	const count = body.count as number;
	const finishedRatio = (body.finishedRatio as number | undefined) ?? 0.9;
	if (count < 1 || count > 100_000) throw badRequest('"count" must be between 1 and 100000');
	if (finishedRatio < 0 || finishedRatio > 1) {
		throw badRequest('"finishedRatio" must be between 0 and 1');
	}
	return { count, finishedRatio };
}

/**
 * Whether the n-th generated response is finished: the unfinished ones are spread evenly rather
 * than in one block (n * ratio crosses an integer for the finished).
 */
export const generatedFinished = (n: number, finishedRatio: number) =>
	Math.floor(n * finishedRatio) !== Math.floor((n - 1) * finishedRatio);

function checkQuestion(value: unknown, at: string): Question {
	const body = checkBody(
		value,
		{
			required: { id: 'string', type: 'string', headline: 'string' },
			optional: { required: 'boolean', choices: 'array' },
		},
		at,
	);
	const type = oneOf(body.type, QUESTION_TYPES, `${at}.type`);
	const multipleChoice = type === 'multipleChoiceSingle' || type === 'multipleChoiceMulti';
	if (multipleChoice !== (body.choices !== undefined)) {
		throw badRequest(`"${at}.choices" is given exactly for the multiple-choice types`);
	}
	return {
		id: nonEmpty(body.id, `${at}.id`),
		type,
		headline: String(body.headline),
		required: body.required !== false,
		...(multipleChoice
			? {
					choices: (body.choices as unknown[]).map((choice, index) => {
						const checked = checkBody(
							choice,
							{ required: { id: 'string', label: 'string' } },
							`${at}.choices[${index}]`,
						);
						return { id: String(checked.id), label: String(checked.label) };
					}),
				}
			: {}),
	};
}

/**
 * The n-th generated response: the same n gives the same answers. `position` (0 to 1) spreads
 * creation times over the past 60 days, oldest first; a share of 1 - finishedRatio is unfinished.
 */
function generatedResponse(
	surveyId: string,
	n: number,
	position: number,
	finishedRatio: number,
): ResponseRecord {
	const createdAt = daysAgo(60 - position * 59);
	const finished = generatedFinished(n, finishedRatio);
	return {
		id: `resp_${surveyId}_${String(n).padStart(6, '0')}`,
		surveyId,
		createdAt,
		updatedAt: new Date(Date.parse(createdAt) + (60 + (n % 900)) * 1000).toISOString(),
		finished,
		data: {
			fullName: `Applicant ${n}`,
			email: `applicant${n}@example.org`,
			phone: `+1 555 01${String(n % 100).padStart(2, '0')} ${String(n % 10_000).padStart(4, '0')}`,
			portfolio: `https://portfolio.example.org/applicant-${n}`,
			...(finished ? { decision: ['approved', 'rejected', 'pending'][n % 3] } : {}),
		},
		meta: { source: 'link' },
	};
}
