import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class BookmarkApi implements ICredentialType {
	name = 'bookmarkApi';

	displayName = 'Bookmark API';

	icon: Icon = { light: 'file:../nodes/Bookmarks/bookmarks.svg', dark: 'file:../nodes/Bookmarks/bookmarks.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-sign-survey-bookmark/n8n-nodes-sign-survey-bookmark#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://bookmarks.example.com',
			description: 'Address of your bookmark service, without /api/v1',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Key generated in the web portal under Settings → API Tokens',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v1/bookmarks',
			qs: { limit: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The bookmark service refused the API key (401 Unauthorized)',
				},
			},
		],
	};
}
