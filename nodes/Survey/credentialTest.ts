import { isObject, serviceCredentialTest } from '../shared/credentialTest';

/** "Test credential" for the Survey API: lists the surveys (contract: `GET /api/v1/management/surveys`). */
export const surveyApiTest = serviceCredentialTest({
	service: 'survey service',
	secretName: 'API key',
	secretHint: 'Check the API Key: it is generated in the dashboard under Settings → API Keys.',
	apiPrefix: '/api/v1',
	probePath: '/api/v1/management/surveys',
	headers: (credentials) => ({ 'x-api-key': String(credentials.apiKey ?? '') }),
	isServiceAnswer: (body) => isObject(body) && Array.isArray(body.data),
	// The survey service's errors carry a code; a wrong or missing key is `not_authenticated`.
	isServiceRefusal: (body) => isObject(body) && body.code === 'not_authenticated',
});
