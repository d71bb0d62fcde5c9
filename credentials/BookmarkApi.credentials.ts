import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { bookmarkApis } from '../nodes/Bookmarks/adapters/registry';
import { serverRateLimitProperties } from '../nodes/shared/rateBudget';

export class BookmarkApi implements ICredentialType {
	name = 'bookmarkApi';

	displayName = 'Bookmark or Karakeep API';

	icon: Icon = { light: 'file:../nodes/Bookmarks/bookmarks.svg', dark: 'file:../nodes/Bookmarks/bookmarks.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-sign-survey-bookmark/n8n-nodes-sign-survey-bookmark/blob/main/docs/credentials.md#bookmark-or-karakeep-api';

	properties: INodeProperties[] = [
		bookmarkApis.apiOption(),
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://bookmarks.example.com',
			description: 'Address of your bookmark service (e.g. your Karakeep), without /api/v1',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Key generated in the web portal under Settings → API Tokens (in Karakeep: Settings → API Keys)',
		},
		{
			displayName: 'Webhook Token',
			name: 'webhookToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'For the Bookmarks Webhook Trigger: the Token of the webhook in Karakeep (Settings → Webhooks). The trigger refuses deliveries without it.',
			displayOptions: bookmarkApis.displayOnlyFor(['karakeep']),
		},
		...serverRateLimitProperties(
			'Karakeep limits only with RATE_LIMITING_ENABLED and then says the wait in its 429, the documented bookmark service as its 429s say',
		),
	];

	// "Test credential" is nodes/Bookmarks/credentialTest.ts (bookmarkApiTest, referenced by the nodes' `testedBy`):
	// unlike a declarative `test`, it can say which setting is wrong in words.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};
}
