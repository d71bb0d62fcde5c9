/**
 * Formbricks' two error shapes (b66c1dd):
 * - v1, apps/web/app/lib/api/response.ts: `{ code, message, details: {…} }`, `code` a word;
 * - v2, apps/web/modules/api/v2/lib/response.ts: `{ error: { code: <status>, message: <reason>, details?: [{ field, issue }] } }`
 *   (401, 403 and 429 carry no `details`).
 * Neither sends `Retry-After` with a 429.
 */
import type { FastifyReply } from 'fastify';

import type { ErrorStyle } from '../service';

export type ApiVersion = 'v1' | 'v2';

export const apiVersion = (url: string): ApiVersion => (url.startsWith('/api/v2/') ? 'v2' : 'v1');

export type V1Details = Record<string, unknown>;
export type V2Details = Array<{ field: string; issue: string; meta?: Record<string, unknown> }>;

/** A refusal a route handler throws; the Formbricks plugin's error handler sends it. */
export class FormbricksProblem extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
	) {
		super(`Formbricks answered ${status}`);
	}
}

const V1_CODES: Record<number, string> = {
	400: 'bad_request',
	401: 'not_authenticated',
	403: 'forbidden',
	404: 'not_found',
	405: 'method_not_allowed',
	409: 'conflict',
	410: 'gone',
	413: 'payload_too_large',
	429: 'too_many_requests',
};

/** v1 answers, named after the functions of apps/web/app/lib/api/response.ts. */
export const v1 = {
	badRequest: (message: string, details: V1Details = {}) =>
		new FormbricksProblem(400, { code: 'bad_request', message, details }),
	notAuthenticated: () =>
		new FormbricksProblem(401, {
			code: 'not_authenticated',
			message: 'Not authenticated',
			details: { 'x-Api-Key': 'Header not provided or API Key invalid' },
		}),
	unauthorized: () =>
		new FormbricksProblem(401, {
			code: 'unauthorized',
			message: 'You are not authorized to access this resource',
			details: {},
		}),
	notFound: (resourceType: string, resourceId: string | null) =>
		new FormbricksProblem(404, {
			code: 'not_found',
			message: `${resourceType} not found`,
			details: { resource_id: resourceId, resource_type: resourceType },
		}),
	tooManyRequests: () =>
		new FormbricksProblem(429, {
			code: 'too_many_requests',
			message: 'Maximum number of requests reached. Please try again later.',
			details: {},
		}),
	internal: (message: string) =>
		new FormbricksProblem(500, { code: 'internal_server_error', message, details: {} }),
	/** Any other status, in the same shape (simulated faults). */
	other: (status: number, message: string, details: V1Details = {}) =>
		new FormbricksProblem(status, {
			code: V1_CODES[status] ?? 'internal_server_error',
			message,
			details,
		}),
};

const V2_REASONS: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	409: 'Conflict',
	413: 'Payload Too Large',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	503: 'Service Unavailable',
};

/** v2 answers (`handleApiError` in apps/web/modules/api/v2/lib/utils.ts). */
export function v2(status: number, details?: V2Details): FormbricksProblem {
	const withoutDetails = status === 401 || status === 403 || status === 429;
	return new FormbricksProblem(status, {
		error: {
			code: status,
			message: V2_REASONS[status] ?? 'Internal Server Error',
			...(withoutDetails ? {} : { details: details ?? [] }),
		},
	});
}

/**
 * The shape the shared sandbox core (auth, rate limit, faults) answers in: v1 or v2 by path.
 * `retryAfter` keeps the core's Retry-After on a 429, which Formbricks itself never sends.
 */
export function formbricksErrorStyle(options: { retryAfter: () => boolean }): ErrorStyle {
	return {
		send(reply: FastifyReply, status: number, message: string, details?: Record<string, unknown>) {
			const version = apiVersion(reply.request.url);
			if (status === 429 && !options.retryAfter()) reply.removeHeader('retry-after');
			const problem =
				version === 'v2'
					? v2(status, status === 401 || status === 429 ? undefined : [{ field: 'error', issue: message }])
					: status === 401
						? v1.notAuthenticated()
						: status === 429
							? v1.tooManyRequests()
							: v1.other(status, message, details);
			return reply.code(problem.status).type('application/json').send(problem.body);
		},
	};
}

/**
 * Next.js' answer to a path no route serves: its not-found page, HTML with status 404. This is
 * what a client of the documented API gets from Formbricks for `/surveys/{id}/responses`.
 */
export function sendNextNotFound(reply: FastifyReply): FastifyReply {
	return reply
		.code(404)
		.type('text/html; charset=utf-8')
		.send(
			'<!DOCTYPE html><html><head><title>404: This page could not be found.</title></head>' +
				'<body><h1>404</h1><h2>This page could not be found.</h2></body></html>',
		);
}
