import { randomBytes } from 'node:crypto';

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Webhook } from 'standardwebhooks';

import { Deliverer } from './deliveries';
import {
	badRequest,
	bearerToken,
	checkBody,
	checkQuery,
	createService,
	integerParam,
	newId,
	notFound,
	type Service,
} from './http';
import { seedResponses, seedSurveys } from './seed';

export const RESPONSES_DEFAULT_LIMIT = 50;
export const RESPONSES_MAX_LIMIT = 250;
export const SURVEY_EVENTS = ['responseCreated', 'responseUpdated', 'responseFinished'];

export interface SurveyRecord {
	id: string;
	name: string;
	status: string;
	type: string;
	createdAt: string;
}

export interface ResponseRecord {
	id: string;
	surveyId: string;
	createdAt: string;
	updatedAt: string;
	finished: boolean;
	data: Record<string, unknown>;
	meta: { source: string };
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
	send: (reply: FastifyReply, status: number, message: string, details: Record<string, unknown> = {}) =>
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
	...(hook.source !== undefined ? { source: hook.source } : {}),
});

export function createSurveyService(options: SurveyOptions): Service {
	let surveys = new Map<string, SurveyRecord>();
	let responses = new Map<string, ResponseRecord[]>();
	let responsesById = new Map<string, ResponseRecord>();
	let hooks: Hook[] = [];

	const addResponses = (surveyId: string, added: ResponseRecord[]) => {
		const list = responses.get(surveyId) ?? [];
		list.push(...added);
		list.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
		responses.set(surveyId, list);
		for (const response of added) responsesById.set(response.id, response);
	};

	const reset = () => {
		options.deliverer.log.length = 0;
		surveys = new Map();
		responses = new Map();
		responsesById = new Map();
		hooks = [];
		if (!options.seed) return;
		for (const survey of seedSurveys()) {
			surveys.set(survey.id, survey);
			responses.set(survey.id, []);
		}
		for (const response of seedResponses()) addResponses(response.surveyId, [response]);
	};
	reset();

	const service = createService({
		name: 'survey',
		apiKey: options.apiKey,
		presentedKey,
		errors: surveyErrors,
		rateLimit: options.rateLimit,
		logger: options.logger,
		reset,
	});
	const { app } = service;

	const fire = (event: string, response: ResponseRecord) => {
		const body = JSON.stringify({
			event,
			surveyId: response.surveyId,
			responseId: response.id,
			createdAt: response.createdAt,
			data: response.data,
		});
		for (const hook of hooks) {
			if (!hook.triggers.includes(event)) continue;
			if (hook.surveyIds.length > 0 && !hook.surveyIds.includes(response.surveyId)) continue;
			const webhookId = newId('msg');
			const signer = new Webhook(hook.secret);
			options.deliverer.send({
				deliveryId: webhookId,
				event,
				url: hook.url,
				body,
				headers: () => {
					const now = new Date();
					return {
						'content-type': 'application/json',
						'webhook-id': webhookId,
						'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
						'webhook-signature': signer.sign(webhookId, now, body),
					};
				},
			});
		}
	};

	const surveyView = (survey: SurveyRecord) => ({
		...survey,
		responseCount: responses.get(survey.id)?.length ?? 0,
	});

	app.get('/api/v1/management/surveys', async (request) => {
		checkQuery(request.query, []);
		return { data: [...surveys.values()].map(surveyView) };
	});

	app.get('/api/v1/management/surveys/:surveyId/responses', async (request) => {
		const query = checkQuery(request.query, ['limit', 'offset']);
		const limit = integerParam(query.limit, 'limit', RESPONSES_DEFAULT_LIMIT, 1, RESPONSES_MAX_LIMIT);
		const offset = integerParam(query.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
		const { surveyId } = request.params as { surveyId: string };
		if (!surveys.has(surveyId)) throw notFound('Survey not found');
		const all = responses.get(surveyId) ?? [];
		return { data: all.slice(offset, offset + limit), meta: { total: all.length, limit, offset } };
	});

	app.get('/api/v1/management/responses/:responseId', async (request) => {
		checkQuery(request.query, []);
		const response = responsesById.get((request.params as { responseId: string }).responseId);
		if (!response) throw notFound('Response not found');
		return { data: response };
	});

	app.post('/api/v1/webhooks', async (request, reply) => {
		checkQuery(request.query, []);
		const body = checkBody(request.body, { url: 'string', triggers: 'array' }, { surveyIds: 'array', source: 'string' });
		try {
			if (!/^https?:$/.test(new URL(String(body.url)).protocol)) throw new Error();
		} catch {
			throw badRequest('"url" must be an http(s) URL');
		}
		const triggers = body.triggers as unknown[];
		if (triggers.length === 0) throw badRequest('"triggers" must not be empty');
		for (const trigger of triggers) {
			if (!SURVEY_EVENTS.includes(String(trigger))) {
				throw badRequest(`Unknown trigger "${String(trigger)}"`, { allowed: SURVEY_EVENTS });
			}
		}
		const surveyIds = (body.surveyIds as unknown[] | undefined) ?? [];
		if (surveyIds.some((id) => typeof id !== 'string')) throw badRequest('"surveyIds" must be an array of strings');
		const hook: Hook = {
			id: newId('wh'),
			url: String(body.url),
			triggers: triggers as string[],
			surveyIds: surveyIds as string[],
			...(body.source !== undefined ? { source: String(body.source) } : {}),
			secret: `whsec_${randomBytes(24).toString('base64')}`,
		};
		hooks.push(hook);
		return reply.code(201).send({ data: { ...hookView(hook), secret: hook.secret } });
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
	app.get('/_sandbox/deliveries', async () => ({ deliveries: options.deliverer.log }));
	// With their secrets, so that tests and benchmarks can sign deliveries as the service would.
	app.get('/_sandbox/webhooks', async () => ({ data: hooks }));
	app.post('/_sandbox/surveys', async (request) => {
		const body = checkBody(request.body, { name: 'string' }, { id: 'string', status: 'string', type: 'string' });
		const survey: SurveyRecord = {
			id: String(body.id ?? newId('srv')),
			name: String(body.name),
			status: String(body.status ?? 'inProgress'),
			type: String(body.type ?? 'link'),
			createdAt: new Date().toISOString(),
		};
		surveys.set(survey.id, survey);
		responses.set(survey.id, responses.get(survey.id) ?? []);
		return surveyView(survey);
	});
	const findSurvey = (request: FastifyRequest) => {
		const { surveyId } = request.params as { surveyId: string };
		if (!surveys.has(surveyId)) throw notFound('Survey not found');
		return surveyId;
	};
	app.post('/_sandbox/surveys/:surveyId/responses', async (request) => {
		const surveyId = findSurvey(request);
		const body = checkBody(request.body, { data: 'object' }, { finished: 'boolean', createdAt: 'string' });
		const createdAt = String(body.createdAt ?? new Date().toISOString());
		const response: ResponseRecord = {
			id: newId('resp'),
			surveyId,
			createdAt,
			updatedAt: new Date().toISOString(),
			finished: body.finished !== false,
			data: body.data as Record<string, unknown>,
			meta: { source: 'link' },
		};
		addResponses(surveyId, [response]);
		fire('responseCreated', response);
		if (response.finished) fire('responseFinished', response);
		return { data: response };
	});
	app.patch('/_sandbox/responses/:responseId', async (request) => {
		const response = responsesById.get((request.params as { responseId: string }).responseId);
		if (!response) throw notFound('Response not found');
		const body = checkBody(request.body, {}, { data: 'object', finished: 'boolean' });
		const wasFinished = response.finished;
		response.data = { ...response.data, ...(body.data as Record<string, unknown> | undefined) };
		if (body.finished !== undefined) response.finished = body.finished as boolean;
		response.updatedAt = new Date().toISOString();
		fire('responseUpdated', response);
		if (!wasFinished && response.finished) fire('responseFinished', response);
		return { data: response };
	});
	app.post('/_sandbox/surveys/:surveyId/generate-responses', async (request) => {
		const surveyId = findSurvey(request);
		const body = checkBody(request.body, { count: 'number' }, { finishedRatio: 'number' });
		const count = Number(body.count);
		const unfinishedEvery = Math.max(1, Math.round(1 / Math.max(1e-9, 1 - Number(body.finishedRatio ?? 0.9))));
		const start = Date.now() - 60 * 24 * 3600 * 1000;
		const step = Math.max(1, Math.floor((59 * 24 * 3600 * 1000) / Math.max(1, count)));
		const existing = responses.get(surveyId)?.length ?? 0;
		const generated = Array.from({ length: count }, (_, index): ResponseRecord => {
			const n = existing + index + 1;
			const createdAt = start + index * step;
			return {
				id: `resp_${surveyId}_${String(n).padStart(6, '0')}`,
				surveyId,
				createdAt: new Date(createdAt).toISOString(),
				updatedAt: new Date(createdAt + (60 + (n % 900)) * 1000).toISOString(),
				finished: n % unfinishedEvery !== 0,
				data: {
					fullName: `Applicant ${n}`,
					email: `applicant${n}@example.org`,
					phone: `+1 555 01${String(n % 100).padStart(2, '0')} ${String(n).padStart(4, '0')}`,
					portfolio: `https://portfolio.example.org/applicant-${n}`,
					decision: ['approved', 'rejected', 'pending'][n % 3],
				},
				meta: { source: 'link' },
			};
		});
		addResponses(surveyId, generated);
		return { count, total: responses.get(surveyId)?.length ?? 0 };
	});

	return service;
}
