import type { ApiAdapter } from '../../shared/adapterRegistry';
import type { ServiceProbe } from '../../shared/credentialTest';
import { isObject } from '../../shared/credentialTest';
import { isDocumensoPage } from './documensoShapes';
import { isMissingRoute, OLDER_DOCUMENSO } from './documensoVersion';

/**
 * "Test credential" on Documenso: `GET /api/v2/envelope?type=TEMPLATE&perPage=1` (envelope.find,
 * packages/trpc/server/envelope-router/find-envelopes.ts at v2.17.0) answers a page of the team's
 * templates. A Documenso server also answers `GET /api/v2/openapi.json` without a token, titled
 * "Documenso v2 API" (packages/trpc/server/open-api.ts): that tells it apart from the documented
 * API, and a Documenso older than the envelope API from another server.
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
	probePath: '/api/v2/envelope?type=TEMPLATE&perPage=1',
	headers: (credentials) => ({ authorization: `Bearer ${String(credentials.apiToken ?? '')}` }),
	isServiceAnswer: isDocumensoPage,
	// A token that matches none is an AppError UNAUTHORIZED; no token at all, tRPC's UNAUTHORIZED
	// (get-api-token-by-token.ts, authenticatedMiddleware in packages/trpc/server/trpc.ts).
	isServiceRefusal: (body) => isObject(body) && isObject(body.data) && body.data.code === 'UNAUTHORIZED',
	async settle(answer, _credentials, get) {
		if (!isMissingRoute(answer.statusCode, answer.body)) return undefined;
		const openApi = await get(DOCUMENSO_RECOGNITION.probePath).catch(() => undefined);
		if (!openApi || !DOCUMENSO_RECOGNITION.answersLikeIt(openApi)) return undefined;
		return { status: 'Error', message: `${OLDER_DOCUMENSO}.` };
	},
};
