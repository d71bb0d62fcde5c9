/**
 * The signing service as Documenso (API v2, tag v2.17.0) instead of the documented API: the same
 * shared server (auth, rate limit, faults, request log, control endpoints) with Documenso's
 * routes, answers, errors and webhooks. See README.md beside this file.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

import type { Deliverer } from '../deliveries';
import { FixedWindowLimit } from '../rateLimit';
import { createService, type Service } from '../service';
import type { Clock } from '../timers';
import { registerDocumensoControl } from './control';
import { documensoErrors } from './errors';
import { OPERATIONS } from './sdk';
import { registerDraftRoutes } from './draftRoutes';
import { registerEnvelopeRoutes } from './envelopeRoutes';
import { registerEnvelopeUseRoutes } from './envelopeUseRoutes';
import { registerManageRoutes } from './manageRoutes';
import { registerDocumensoRoutes } from './routes';
import { DocumensoStore } from './store';
import type { WebhookEvent } from './webhooks';

export interface DocumensoOptions {
	apiKey: string;
	rateLimit: number | null;
	deliverer: Deliverer;
	/** The sandbox's time (../timers.ts). */
	clock: Clock;
	seed: boolean;
	/** Webhooks the team admin configured before the start; every event unless `events` says otherwise. */
	endpoints: Array<{ url: string; secret?: string; events?: WebhookEvent[] }>;
	logger?: boolean;
	/** Which of Documenso's routes the server has (`DOCUMENSO_ROUTE_MODES`); `after-march-2027` when not given. */
	routes?: DocumensoRouteMode;
}

/**
 * Which routes the flavour serves:
 * - `after-march-2027`: Documenso once the removal announced for 1 March 2027 is done
 *   (apps/docs/content/docs/developers/api/migrate-to-envelopes.mdx at v2.17.0): every
 *   `/api/v2/document…` and `/api/v2/template…` route answers as an unknown route does.
 * - `all`: Documenso 2.17 as released, the deprecated routes still served.
 * - `before-envelopes`: a server older than the envelope API (before 1.13, which added
 *   `/api/v2/envelope/{id}`; the list, get-many and use routes came in 2.4): no envelope route.
 */
export const DOCUMENSO_ROUTE_MODES = ['after-march-2027', 'all', 'before-envelopes'] as const;
export type DocumensoRouteMode = (typeof DOCUMENSO_ROUTE_MODES)[number];

const REMOVED_IN_2027 = /^\/api\/v2\/(document|template)(\/|$)/;
const ENVELOPE_API = /^\/api\/v2\/envelope(\/|$)/;

/** Whether a route (Fastify's form of its path) is missing from a server in `mode`. */
export function routeMissing(mode: DocumensoRouteMode, url: string): boolean {
	if (mode === 'after-march-2027') return REMOVED_IN_2027.test(url);
	if (mode === 'before-envelopes') return ENVELOPE_API.test(url);
	return false;
}

/**
 * Documenso reads the token as `Authorization: Bearer api_…` or the bare `Authorization: api_…`
 * (authenticatedMiddleware, packages/trpc/server/trpc.ts).
 */
function documensoToken(request: FastifyRequest): string | undefined {
	const header = request.headers.authorization;
	if (typeof header !== 'string') return undefined;
	return header.split('Bearer ').filter((part) => part.length > 0)[0];
}

const PDF_ROUTES = new Set<string>([
	OPERATIONS.downloadDocument.url,
	OPERATIONS.downloadEnvelopeItem.url,
	OPERATIONS.downloadAuditLogPdf.url,
	OPERATIONS.downloadCertificatePdf.url,
]);

const routeOf = (reply: FastifyReply) => reply.request.routeOptions?.url;

export function createDocumensoService(options: DocumensoOptions): Service {
	const store = new DocumensoStore(options.deliverer, options.seed, options.endpoints);
	const procedureOf = (reply: FastifyReply) =>
		Object.values(OPERATIONS).find(
			(op) => op.url === routeOf(reply) && op.method === reply.request.method,
		)?.procedure;
	const service = createService({
		name: 'signing',
		apiKey: options.apiKey,
		presentedKey: documensoToken,
		errors: documensoErrors(procedureOf, (reply) => PDF_ROUTES.has(routeOf(reply) ?? '')),
		rateLimit: options.rateLimit,
		rateWindows: (limit, clock) => new FixedWindowLimit(limit, clock),
		clock: options.clock,
		openPrefixes: ['/sign/', '/api/v2/openapi.json'],
		logger: options.logger,
		reset: () => store.reset(),
	});
	registerDocumensoRoutes(service.app, store);
	registerEnvelopeRoutes(service.app, store);
	registerDraftRoutes(service.app, store);
	registerManageRoutes(service.app, store);
	registerEnvelopeUseRoutes(service.app, store);
	const mode = options.routes ?? 'after-march-2027';
	// trpc-to-openapi finds no procedure for a path the server lacks: tRPC's NOT_FOUND without a path.
	service.app.addHook('preHandler', async (request, reply) => {
		const url = request.routeOptions?.url;
		if (!url || !routeMissing(mode, url)) return;
		await reply
			.code(404)
			.type('application/json')
			.send({ message: 'Not found', code: 'NOT_FOUND', data: { code: 'NOT_FOUND', httpStatus: 404 } });
	});
	registerDocumensoControl(service.app, store, () => options.deliverer.report());

	// Documenso serves its OpenAPI document without auth; its title tells a Documenso server apart.
	service.app.get('/api/v2/openapi.json', async () => ({
		openapi: '3.0.3',
		info: { title: 'Documenso v2 API', version: '1.0.0' },
		paths: Object.fromEntries(
			Object.values(OPERATIONS)
				.filter((op) => !routeMissing(mode, op.url))
				.map((op) => [
				op.url.replace('/api/v2', '').replace(/:(\w+)/g, '{$1}'),
				{ [op.method.toLowerCase()]: { operationId: op.procedure.replace(/\./g, '-') } },
			]),
		),
	}));

	return service;
}
