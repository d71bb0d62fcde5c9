/**
 * Documenso's error answers, as its API v2 sends them (tag v2.17.0):
 *
 * - tRPC routes, through trpc-to-openapi 2.1.5 (`adapters/node-http/core.js`) and the error
 *   formatter of packages/trpc/server/trpc.ts: `{message, code, data: {code, httpStatus, path,
 *   appError?}, issues?}`. An AppError thrown by a route becomes code `INTERNAL_SERVER_ERROR` at
 *   the top level, its own code in `data.code` and `data.appError`, and its status from
 *   genericErrorCodeToTrpcErrorCodeMap (apps/remix/server/trpc/hono-trpc-open-api.ts). A bad input
 *   is 400 `Input validation failed` with zod's `issues`. A plain Error is a 500 with its message.
 * - the PDF routes (apps/remix/server/api/download/download.ts): `{error, code?}`.
 * - the rate limit (packages/lib/server-only/rate-limit/rate-limit-middleware.ts): 429 `{error}`.
 */
import type { FastifyReply } from 'fastify';
import type { ZodIssue } from 'zod/v3';

import type { ErrorStyle } from '../service';
import { HttpProblem } from '../validation';

/** The status genericErrorCodeToTrpcErrorCodeMap (packages/lib/errors/app-error.ts) gives an AppError code. */
const APP_ERROR_STATUS: Record<string, number> = {
	INVALID_BODY: 400,
	INVALID_REQUEST: 400,
	MISSING_SIGNATURE_FIELD: 400,
	NOT_FOUND: 404,
	UNAUTHORIZED: 401,
	FORBIDDEN: 403,
	TOO_MANY_REQUESTS: 429,
	UNKNOWN_ERROR: 500,
};

const TRPC_CODE_STATUS: Record<string, number> = {
	BAD_REQUEST: 400,
	UNAUTHORIZED: 401,
	FORBIDDEN: 403,
	NOT_FOUND: 404,
	TOO_MANY_REQUESTS: 429,
	INTERNAL_SERVER_ERROR: 500,
};

/** An answer with Documenso's own body: thrown by routes, sent as it is. */
export class DocumensoProblem extends HttpProblem {
	constructor(status: number, body: Record<string, unknown>) {
		super(status, String(body.message ?? body.error), { body });
	}
}

/** A TRPCError the procedure threw itself (validation, the session check, an unknown route). */
export const trpcError = (
	procedure: string | undefined,
	code: keyof typeof TRPC_CODE_STATUS,
	message: string,
	issues?: ZodIssue[],
) =>
	new DocumensoProblem(TRPC_CODE_STATUS[code], {
		message,
		code,
		data: {
			code,
			httpStatus: TRPC_CODE_STATUS[code],
			...(procedure ? { path: procedure } : {}),
		},
		...(issues ? { issues } : {}),
	});

export const inputValidationFailed = (procedure: string, issues: ZodIssue[]) =>
	trpcError(procedure, 'BAD_REQUEST', 'Input validation failed', issues);

/** `throw new AppError(code, {message})` inside a route. */
export const appError = (
	procedure: string,
	code: string,
	message?: string,
	statusCode?: number,
) => {
	const status = statusCode ?? APP_ERROR_STATUS[code] ?? 400;
	return new DocumensoProblem(status, {
		message: message ?? code,
		code: 'INTERNAL_SERVER_ERROR',
		data: {
			code,
			httpStatus: status,
			path: procedure,
			appError: { code, ...(message ? { message } : {}), ...(statusCode ? { statusCode } : {}) },
		},
	});
};

/** `throw new Error(message)` inside a route: Documenso answers 500 with the message. */
export const plainError = (procedure: string, message: string) =>
	new DocumensoProblem(500, {
		message,
		code: 'INTERNAL_SERVER_ERROR',
		data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, path: procedure },
	});

/** The PDF routes' shape. */
export const downloadError = (status: number, error: string, code?: string) =>
	new DocumensoProblem(status, { error, ...(code ? { code } : {}) });

/**
 * The shared service's own answers (auth, rate limit, faults, unknown routes, bodies that are not
 * JSON) in Documenso's shapes. `procedureOf` names the tRPC procedure of a request, if any.
 */
export function documensoErrors(
	procedureOf: (reply: FastifyReply) => string | undefined,
	isDownload: (reply: FastifyReply) => boolean,
): ErrorStyle {
	return {
		send(reply, status, message, details) {
			const body = (details as { body?: Record<string, unknown> } | undefined)?.body;
			if (body) return reply.code(status).type('application/json').send(body);
			if (status === 429) {
				return reply
					.code(429)
					.type('application/json')
					.send({ error: 'Too many requests, please try again later.' });
			}
			const procedure = procedureOf(reply);
			if (isDownload(reply)) {
				// resolveApiToken in download.ts: no header, or a token that matches none.
				const unauthorised = reply.request.headers.authorization
					? 'Invalid token'
					: 'API token was not provided';
				const shaped =
					status === 401
						? downloadError(401, unauthorised, 'UNAUTHORIZED')
						: downloadError(status, message);
				return reply.code(status).type('application/json').send(shaped.details.body);
			}
			let problem: DocumensoProblem;
			if (status === 401) {
				// A token that matches none is an AppError; no Authorization header at all falls through
				// to the session check (authenticatedMiddleware in packages/trpc/server/trpc.ts).
				problem = reply.request.headers.authorization
					? appError(procedure ?? 'unknown', 'UNAUTHORIZED', 'Invalid token', 401)
					: trpcError(procedure, 'UNAUTHORIZED', 'Invalid session or API token.');
			} else if (status === 404 && !procedure) {
				problem = trpcError(undefined, 'NOT_FOUND', 'Not found');
			} else if (status === 400) {
				problem = trpcError(procedure, 'BAD_REQUEST', message);
			} else {
				problem = new DocumensoProblem(status, {
					message,
					code: 'INTERNAL_SERVER_ERROR',
					data: {
						code: 'INTERNAL_SERVER_ERROR',
						httpStatus: status,
						...(procedure ? { path: procedure } : {}),
					},
				});
			}
			return reply.code(status).type('application/json').send(problem.details.body);
		},
	};
}
