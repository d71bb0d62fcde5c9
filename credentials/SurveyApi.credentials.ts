import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { surveyApis } from '../nodes/Survey/adapters/registry';
import { serverRateLimitProperties } from '../nodes/shared/rateBudget';

export class SurveyApi implements ICredentialType {
	name = 'surveyApi';

	displayName = 'Survey or Formbricks API';

	icon: Icon = { light: 'file:../nodes/Survey/survey.svg', dark: 'file:../nodes/Survey/survey.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-sign-survey-bookmark/n8n-nodes-sign-survey-bookmark/blob/main/docs/credentials.md#survey-or-formbricks-api';

	properties: INodeProperties[] = [
		surveyApis.apiOption(),
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://survey.example.com',
			description: 'Address of your survey service (e.g. your Formbricks), without /api/v1',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Key generated in the dashboard under Settings → API Keys (Formbricks: Organization Settings → API Keys; Manage access lets the nodes delete responses and remove the trigger’s webhooks)',
		},
		{
			displayName: 'Workspace ID',
			name: 'workspaceId',
			type: 'string',
			default: '',
			placeholder: 'cm…',
			description:
				'Only for an API key with access to several workspaces: the workspace the Survey Trigger registers its webhooks in and Survey → Create makes surveys in (Formbricks shows it under the workspace’s settings → General). Empty: the key’s own workspace (on a Formbricks before 5.0, leave it empty: the key’s environment is used).',
			displayOptions: surveyApis.displayOnlyFor(['formbricks']),
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
		...serverRateLimitProperties(
			'Formbricks 100 a minute per key (no headers: learnt from its first 429), the documented survey service 100 a minute',
		),
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
