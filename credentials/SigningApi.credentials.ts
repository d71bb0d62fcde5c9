import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { signingApis } from '../nodes/Signing/adapters/registry';
import { serverRateLimitProperties } from '../nodes/shared/rateBudget';

export class SigningApi implements ICredentialType {
	name = 'signingApi';

	displayName = 'Signing or Documenso API';

	icon: Icon = { light: 'file:../nodes/Signing/signing.svg', dark: 'file:../nodes/Signing/signing.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-sign-survey-bookmark/n8n-nodes-sign-survey-bookmark/blob/main/docs/credentials.md#signing-or-documenso-api';

	properties: INodeProperties[] = [
		signingApis.apiOption(),
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://sign.example.com',
			description:
				'Address of your signing service (e.g. your Documenso, the address you open it at), without /api/v2',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Token generated in the portal under Settings → API & Webhooks (Documenso: your team’s Settings → API Tokens; it starts with api_)',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'For the Signing Trigger: the secret of the webhook that calls it. Documented API: the shared secret of the endpoint in the administrator panel (X-Signing-Secret; optional). Documenso: the Secret of the webhook in your team’s settings (X-Documenso-Secret); required, deliveries are refused without it.',
		},
		...serverRateLimitProperties(
			'Documenso 1,000 a minute per client address (it names its limit in every answer\'s headers), the documented signing service as its 429s say',
		),
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
