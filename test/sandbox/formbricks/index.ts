/**
 * The Formbricks flavour of the survey service: Formbricks' management API v1 and v2 routes the
 * Survey nodes need, as Formbricks' source answers them (commit b66c1dd), every request checked
 * against Formbricks' own OpenAPI files and every 2xx answer against their response schemas, and
 * webhooks delivered as Formbricks' response pipeline delivers them. Built on the sandbox core
 * (../service.ts: auth, the 100 a minute rate limit, faults, request log, control endpoints) and
 * its deliverer (../deliveries.ts). See README.md beside this file.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Deliverer } from '../deliveries';
import { FixedWindowLimit } from '../rateLimit';
import { createService, listen, type Service } from '../service';
import { type Clock, systemClock } from '../timers';
import { HttpProblem } from '../validation';
import { registerControlRoutes, type FormbricksSettings, type SpecViolation } from './control';
import { apiVersion, formbricksErrorStyle, FormbricksProblem, sendNextNotFound, v1, v2 } from './errors';
import { Pipeline } from './pipeline';
import { registerContactRoutes } from './routesContacts';
import { registerV1Routes } from './routesV1';
import { registerSurveyRoutes } from './routesSurveys';
import { registerV2Routes } from './routesV2';
import { formbricksSpecs, SPEC_DEVIATIONS, undocumentedRoute, type FormbricksSpecs } from './spec';
import { FormbricksStore } from './store';
import { FORMBRICKS_DELIVERY } from './timing';

export { FORMBRICKS_SEED, FORMBRICKS_SEED_COUNTS, SAMPLE_QUESTION_IDS } from './seed';
export { buildDelivery, FORMBRICKS_COMMIT } from './webhook';

export interface FormbricksOptions {
	apiKey: string;
	/** Requests per key in each minute of the clock (Formbricks: 100); null for none. */
	rateLimit: number | null;
	deliverer: Deliverer;
	/** The sandbox's time (../timers.ts). */
	clock: Clock;
	seed: boolean;
	/** BullMQ's backoff delay before the 2nd attempt (doubled before the 3rd); 5000 in Formbricks. */
	backoffDelayMs?: number;
	/** The workspace was an environment before Formbricks 5: `GET /me` answers its old id. */
	legacyEnvironmentId?: boolean;
	/**
	 * A server from before the rename of environments to workspaces (Formbricks 4): `GET /me` answers
	 * the key's environment without `workspace`, bodies name it by `environmentId` only, and it has no
	 * API v3. Implies `legacyEnvironmentId`.
	 */
	preWorkspaceRename?: boolean;
	/** Formbricks' PUBLIC_URL / WEBAPP_URL, which relative storage URLs in answers are resolved with. */
	publicUrl?: string;
	/** The residency and erasure surveys with the question ids the sample workflows read (`npm start`). */
	sampleQuestionIds?: boolean;
	/**
	 * Whether the server has an Enterprise licence with the Contacts feature (`getIsContactsEnabled`);
	 * true unless given. Without it, contacts and personal links are refused with 403.
	 */
	enterpriseLicence?: boolean;
	logger?: boolean;
}

export interface FormbricksService extends Service {
	store: FormbricksStore;
	pipeline: Pipeline;
	specs: FormbricksSpecs;
	settings: FormbricksSettings;
	/** 2xx answers that did not match the spec (each also answered 500). */
	violations: SpecViolation[];
}

const DEFAULT_SETTINGS: FormbricksSettings = {
	allowInternalWebhookUrls: true,
	retryAfter: false,
	enterpriseLicence: true,
	v3Surveys: true,
};

/** The API key: `x-api-key`, or `Authorization: Bearer fbk_…` (parseApiKeyV2 formats only). */
function presentedKey(request: FastifyRequest): string | undefined {
	const header = request.headers['x-api-key'];
	if (typeof header === 'string' && header.trim()) return header.trim();
	const bearer = /^bearer\s+(fbk_[A-Za-z0-9_-]+)\s*$/i.exec(request.headers.authorization ?? '');
	return bearer?.[1];
}

export async function createFormbricksService(options: FormbricksOptions): Promise<FormbricksService> {
	const specs = await formbricksSpecs();
	const preWorkspaceRename = options.preWorkspaceRename ?? false;
	const initialSettings = {
		...DEFAULT_SETTINGS,
		enterpriseLicence: options.enterpriseLicence ?? true,
		v3Surveys: !preWorkspaceRename,
	};
	const settings = { ...initialSettings };
	const violations: SpecViolation[] = [];
	const publicUrl = options.publicUrl ?? 'https://forms.residency.example.org';
	const urls = { publicUrl, webappUrl: publicUrl };
	const store = new FormbricksStore({
		seed: options.seed,
		legacyEnvironmentId: (options.legacyEnvironmentId ?? false) || preWorkspaceRename,
		sampleQuestionIds: options.sampleQuestionIds,
		urls,
	});
	const pipeline = new Pipeline({
		deliverer: options.deliverer,
		backoffDelayMs: options.backoffDelayMs ?? FORMBRICKS_DELIVERY.backoffDelayMs,
		hooksFor: (event, surveyId) => store.hooksFor(event, surveyId),
		survey: (surveyId) => store.surveys.get(surveyId),
		urls: () => store.urls,
	});
	store.pipeline = pipeline;

	const service = createService({
		name: 'survey',
		apiKey: options.apiKey,
		presentedKey,
		errors: formbricksErrorStyle({ retryAfter: () => settings.retryAfter }),
		rateLimit: options.rateLimit,
		rateWindows: (limit, clock) => new FixedWindowLimit(limit, clock),
		clock: options.clock,
		openPrefixes: ['/health', '/api/v2/health'],
		logger: options.logger,
		reset: () => {
			options.deliverer.log.length = 0;
			store.reset();
			violations.length = 0;
			Object.assign(settings, initialSettings);
		},
	});
	const { app } = service;

	// apps/web/app/health/route.ts
	app.get('/health', async () => ({ status: 'ok' }));
	registerControlRoutes(app, { store, deliverer: options.deliverer, settings, violations });
	await app.register(
		async (api) => {
			api.setNotFoundHandler((_request, reply) => sendNextNotFound(reply));
			api.setErrorHandler((error, request, reply) => sendProblem(error, request, reply));
			api.addHook('preHandler', async (request) => {
				// No route: Next.js' 404 page, whatever the request holds.
				if (request.routeOptions.url === undefined) return;
				const problem = specs.checkRequest({
					method: request.method,
					path: request.url.split('?')[0],
					query: request.query as Record<string, unknown>,
					headers: request.headers,
					body: preWorkspaceRename ? withWorkspaceName(request.body) : request.body,
				});
				if (problem) throw problem;
			});
			api.addHook('onSend', async (request, reply, payload) =>
				checkAnswer(specs, violations, request, reply, payload),
			);
			const routeOptions = {
				allowInternalWebhookUrls: () => settings.allowInternalWebhookUrls,
				preWorkspaceRename: () => preWorkspaceRename,
				v3Surveys: () => settings.v3Surveys,
			};
			registerV1Routes(api, store, routeOptions);
			registerSurveyRoutes(api, store, routeOptions);
			registerV2Routes(api, store, routeOptions);
			registerContactRoutes(api, store, { licensed: () => settings.enterpriseLicence });
		},
		{ prefix: '/api' },
	);
	return { ...service, store, pipeline, specs, settings, violations };
}

/**
 * A body to a server from before the rename, held to today's spec: its `environmentId` is what
 * the spec names `workspaceId` (the spec files at b66c1dd describe the renamed API only).
 */
function withWorkspaceName(body: unknown): unknown {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
	const { environmentId, ...rest } = body as Record<string, unknown>;
	return environmentId === undefined || 'workspaceId' in rest ? body : { ...rest, workspaceId: environmentId };
}

function sendProblem(error: unknown, request: FastifyRequest, reply: FastifyReply) {
	const version = apiVersion(request.url);
	let problem: FormbricksProblem;
	if (error instanceof FormbricksProblem) problem = error;
	else if (error instanceof HttpProblem && error.status === 400) {
		// The sandbox core refuses a body that is not JSON; Formbricks' words for it.
		const message = 'Malformed JSON input, please check your request body';
		problem = version === 'v2' ? v2(400, [{ field: 'error', issue: message }]) : v1.badRequest(message);
	} else {
		problem =
			version === 'v2'
				? v2(500, [{ field: 'error', issue: (error as Error).message }])
				: v1.internal('An unexpected error occurred.');
	}
	return reply.code(problem.status).type('application/json').send(problem.body);
}

/**
 * Holds each 2xx answer to its operation's response schema. An answer that does not match is
 * recorded and replaced by a 500 naming what is wrong, so that no test passes on it.
 */
async function checkAnswer(
	specs: FormbricksSpecs,
	violations: SpecViolation[],
	request: FastifyRequest,
	reply: FastifyReply,
	payload: unknown,
): Promise<unknown> {
	const status = reply.statusCode;
	const path = request.url.split('?')[0];
	if (status < 200 || status > 299 || typeof payload !== 'string') return payload;
	const operation = specs.operationKey(request.method, path);
	if (operation !== undefined && SPEC_DEVIATIONS[operation] !== undefined) return payload;
	if (undocumentedRoute(request.method, path)) return payload;
	const errors = specs.checkAnswer(request.method, path, status, JSON.parse(payload));
	if (errors.length === 0) return payload;
	violations.push({ method: request.method, path, status, errors });
	const message = `The sandbox's answer to ${request.method} ${path} does not match Formbricks' spec: ${errors.join('; ')}`;
	const problem = apiVersion(path) === 'v2' ? v2(500, [{ field: 'spec', issue: message }]) : v1.internal(message);
	reply.code(500);
	return JSON.stringify(problem.body);
}

export interface FormbricksSandbox {
	url: string;
	apiKey: string;
	service: FormbricksService;
	deliverer: Deliverer;
	/** Resolves once every queued webhook job has been tried to the end (retries included). */
	idle(): Promise<void>;
	stop(): Promise<void>;
}

/**
 * The Formbricks flavour alone, on a free port of 127.0.0.1 (startSandbox({ survey: 'formbricks' })
 * starts it beside the other two services). The key has Formbricks' own format (`fbk_…`).
 */
export async function startFormbricks(
	options: Partial<Omit<FormbricksOptions, 'deliverer'>> & { timeoutMs?: number } = {},
): Promise<FormbricksSandbox> {
	const clock = options.clock ?? systemClock;
	const deliverer = new Deliverer({
		retryDelayMs: 0,
		timeoutMs: options.timeoutMs ?? FORMBRICKS_DELIVERY.timeoutMs,
		clock,
	});
	const apiKey = options.apiKey ?? 'fbk_sandboxFormbricksKey';
	const service = await createFormbricksService({
		...options,
		apiKey,
		rateLimit: options.rateLimit === undefined ? 100 : options.rateLimit,
		deliverer,
		clock,
		seed: options.seed ?? true,
	});
	const stop = async () => {
		deliverer.stop();
		await service.app.close();
	};
	let port: number | undefined;
	try {
		port = await listen(service.app, '127.0.0.1', 0);
	} finally {
		// A port that could not be had must not leave the deliverer running.
		if (port === undefined) await stop();
	}
	return {
		url: `http://127.0.0.1:${port}`,
		apiKey,
		service,
		deliverer,
		idle: async () => await deliverer.idle(),
		stop,
	};
}
