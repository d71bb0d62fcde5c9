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
	registerDocumensoControl(service.app, store, () => options.deliverer.report());

	// Documenso serves its OpenAPI document without auth; its title tells a Documenso server apart.
	service.app.get('/api/v2/openapi.json', async () => ({
		openapi: '3.0.3',
		info: { title: 'Documenso v2 API', version: '1.0.0' },
		paths: Object.fromEntries(
			Object.values(OPERATIONS).map((op) => [
				op.url.replace('/api/v2', '').replace(/:(\w+)/g, '{$1}'),
				{ [op.method.toLowerCase()]: { operationId: op.procedure.replace(/\./g, '-') } },
			]),
		),
	}));

	return service;
}
