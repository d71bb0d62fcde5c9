import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class SurveyApi implements ICredentialType {
	name = 'surveyApi';

	displayName = 'Survey API';

	icon: Icon = { light: 'file:../nodes/Survey/survey.svg', dark: 'file:../nodes/Survey/survey.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-sign-survey-bookmark/n8n-nodes-sign-survey-bookmark#survey-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://survey.example.com',
			description: 'Address of your survey service, without /api/v1',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Key generated in the dashboard under Settings → API Keys',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'whsec_…',
			description:
				'Only for the Survey Trigger with Manual registration: the signing secret the service shows for the webhook. Automatic registration stores its own secret.',
		},
	];

	// "Test credential" is nodes/Survey/credentialTest.ts (surveyApiTest, referenced by the nodes' `testedBy`):
	// unlike a declarative `test`, it can say which setting is wrong in words.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'x-api-key': '={{$credentials.apiKey}}',
			},
		},
	};
}
