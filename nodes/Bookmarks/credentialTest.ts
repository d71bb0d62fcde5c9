import { isObject, serviceCredentialTest } from '../shared/credentialTest';

/** "Test credential" for the Bookmark API: lists one bookmark (contract: `GET /api/v1/bookmarks`). */
export const bookmarkApiTest = serviceCredentialTest({
	service: 'bookmark service',
	secretName: 'API key',
	secretHint: 'Check the API Key: it is generated in the web portal under Settings → API Tokens.',
	apiPrefix: '/api/v1',
	probePath: '/api/v1/bookmarks?limit=1',
	headers: (credentials) => ({ authorization: `Bearer ${String(credentials.apiKey ?? '')}` }),
	isServiceAnswer: (body) => isObject(body) && Array.isArray(body.bookmarks) && 'nextCursor' in body,
	// The bookmark service answers 401 with the plain text "Unauthorized".
	isServiceRefusal: (body) => typeof body === 'string' && body.trim() === 'Unauthorized',
});
