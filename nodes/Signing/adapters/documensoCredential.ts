import type { ApiAdapter } from '../../shared/adapterRegistry';
import type { ServiceProbe } from '../../shared/credentialTest';
import { isObject } from '../../shared/credentialTest';
import { isDocumensoPage } from './documensoShapes';

/**
 * "Test credential" on Documenso: `GET /api/v2/template?perPage=1` (template.findTemplates,
 * packages/trpc/server/template-router/router.ts at v2.17.0) answers a page of the team's
 * templates. A Documenso server also answers `GET /api/v2/openapi.json` without a token, titled
 * "Documenso v2 API" (packages/trpc/server/open-api.ts): that tells it apart from the documented API.
 */

/** How "Test credential" and errors on another API recognise a Documenso server. */
export const DOCUMENSO_RECOGNITION: ApiAdapter['recognition'] = {
	probePath: '/api/v2/openapi.json',
	answersLikeIt: ({ statusCode, body }) =>
		statusCode === 200 && isObject(body) && isObject(body.info) && /documenso/i.test(String(body.info.title)),
};

export const DOCUMENSO_CREDENTIAL_PROBE: ServiceProbe = {
	service: 'Documenso server',
	secretName: 'API token',
	secretHint: 'Check the API Token: Documenso makes tokens under your team’s Settings → API Tokens (they start with api_).',
	apiPrefix: '/api/v2',
	probePath: '/api/v2/template?perPage=1',
	headers: (credentials) => ({ authorization: `Bearer ${String(credentials.apiToken ?? '')}` }),
	isServiceAnswer: isDocumensoPage,
	// A token that matches none is an AppError UNAUTHORIZED; no token at all, tRPC's UNAUTHORIZED
	// (get-api-token-by-token.ts, authenticatedMiddleware in packages/trpc/server/trpc.ts).
	isServiceRefusal: (body) => isObject(body) && isObject(body.data) && body.data.code === 'UNAUTHORIZED',
};
