import { isObject, serviceCredentialTest } from '../shared/credentialTest';

/** "Test credential" for the Signing API: lists one template (contract: `GET /api/v2/templates`). */
export const signingApiTest = serviceCredentialTest({
	service: 'signing service',
	secretName: 'API token',
	secretHint: 'Check the API Token: it is generated in the portal under Settings → API & Webhooks.',
	apiPrefix: '/api/v2',
	probePath: '/api/v2/templates?perPage=1',
	headers: (credentials) => ({ authorization: `Bearer ${String(credentials.apiToken ?? '')}` }),
	isServiceAnswer: (body) => isObject(body) && Array.isArray(body.data) && isObject(body.pagination),
	// The signing service answers 401 with a JSON `message` (the bookmark service with plain text).
	isServiceRefusal: (body) => isObject(body) && typeof body.message === 'string' && body.code === undefined,
});
