import type { IDataObject } from 'n8n-workflow';

import type { ApiAdapter } from '../../shared/adapterRegistry';
import type { ServiceProbe } from '../../shared/credentialTest';
import { isObject } from '../../shared/credentialTest';

/**
 * "Test credential" on Karakeep: `GET /api/v1/users/me` (packages/api/routes/users.ts at
 * 7ca5ee2) answers only there, `{id, name, email, image, localUser}`; test/karakeep/credential.test.ts
 * pins it against the real server. The user's name and e-mail never reach the message.
 */
const isWhoAmI = (body: unknown): body is IDataObject =>
	isObject(body) && typeof body.id === 'string' && typeof body.localUser === 'boolean';

/** Karakeep's 401, on every route (packages/api/middlewares/auth.ts). */
const isKarakeepRefusal = (body: unknown) => typeof body === 'string' && body.trim() === 'Unauthorized';

/** How "Test credential" and errors on another API recognise a Karakeep server. */
export const KARAKEEP_RECOGNITION: ApiAdapter['recognition'] = {
	probePath: '/api/v1/users/me',
	answersLikeIt: ({ statusCode, body }) => statusCode === 200 && isWhoAmI(body),
};

export const KARAKEEP_CREDENTIAL_PROBE: ServiceProbe = {
	service: 'Karakeep server',
	secretName: 'API key',
	secretHint: 'Check the API Key: Karakeep makes keys under Settings → API Keys.',
	apiPrefix: '/api/v1',
	probePath: '/api/v1/users/me',
	headers: (credentials) => ({ authorization: `Bearer ${String(credentials.apiKey ?? '')}` }),
	isServiceAnswer: isWhoAmI,
	isServiceRefusal: isKarakeepRefusal,
};
