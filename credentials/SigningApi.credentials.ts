import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class SigningApi implements ICredentialType {
	name = 'signingApi';

	displayName = 'Signing API';

	icon: Icon = { light: 'file:../nodes/Signing/signing.svg', dark: 'file:../nodes/Signing/signing.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-sign-survey-bookmark/n8n-nodes-sign-survey-bookmark#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://sign.example.com',
			description: 'Address of your signing service, without /api/v2',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Token generated in the portal under Settings → API & Webhooks',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Shared secret of the webhook endpoint configured in the administrator panel. The Signing Trigger refuses deliveries whose X-Signing-Secret header does not match. Leave empty when the endpoint has none.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiToken}}',
			},
		},
	};

	// The service has no "who am I" endpoint. Reading a document that cannot exist answers
	// 404 to a valid token and 401 {"message":"Unauthorized"} to a wrong one; n8n's test
	// request only sees the body, so the refusal is recognised by that message.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v2/documents/n8n-credential-test',
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Unauthorized',
					message: 'The signing service refused the API token (401 Unauthorized)',
				},
			},
		],
	};
}
