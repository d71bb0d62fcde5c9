import { isObject } from '../../shared/credentialTest';

/**
 * The oldest Documenso with every envelope route the Signing node needs for its documents and
 * templates: `GET /envelope`, `POST /envelope/get-many` and `POST /envelope/use` came in 2.4.0
 * (`/envelope/{id}` in 1.13.0; Cancel's route in 2.13.0, the certificate download in 2.14.0).
 */
export const DOCUMENSO_MINIMUM_VERSION = '2.4';

/** What a user of a Documenso without the envelope API reads. */
export const OLDER_DOCUMENSO =
	`This Documenso server is older than the envelope API (/api/v2/envelope) the Signing node uses: it needs Documenso ${DOCUMENSO_MINIMUM_VERSION} or later (built for 2.17). Update Documenso; the node no longer calls the document and template routes Documenso removes on 1 March 2027`;

/**
 * trpc-to-openapi's answer for a path no procedure serves (adapters/node-http/core.js, through
 * apps/remix/server/trpc/hono-trpc-open-api.ts): tRPC's NOT_FOUND "Not found", with no procedure
 * path. A route's own "not found" names its procedure (`data.path`) or is an AppError.
 */
export const isMissingRoute = (status: number, body: unknown): boolean =>
	status === 404 &&
	isObject(body) &&
	body.code === 'NOT_FOUND' &&
	body.message === 'Not found' &&
	(!isObject(body.data) || body.data.path === undefined);
