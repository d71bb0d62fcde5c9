import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class SigningApi implements ICredentialType {
	name = 'signingApi';

	displayName = 'Signing API';

	icon: Icon = { light: 'file:../nodes/Signing/signing.svg', dark: 'file:../nodes/Signing/signing.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-sign-survey-bookmark/n8n-nodes-sign-survey-bookmark#signing-api';

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

	// "Test credential" is nodes/Signing/credentialTest.ts (signingApiTest, referenced by the nodes' `testedBy`):
	// unlike a declarative `test`, it can say which setting is wrong in words.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiToken}}',
			},
		},
	};
}
