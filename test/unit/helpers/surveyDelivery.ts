import type { IDataObject } from 'n8n-workflow';
import { Webhook } from 'standardwebhooks';

import { sealingContext } from '../../../nodes/Survey/SurveyTrigger.node';
import { sealSecret } from '../../../nodes/shared/webhooks';
import type { Sandbox } from '../../sandbox';
import type { WebhookCall } from './context';

/**
 * A signed survey event for a Survey Trigger registered automatically (all surveys,
 * `responseFinished`), holding its hook as the node keeps it: the secret sealed with the API key.
 */
export function signedSurveyDelivery(
	sandbox: Sandbox,
	delivery: {
		id: string;
		secret: string;
		hookId: string;
		workflowId: string;
		body: IDataObject;
		options: IDataObject;
	},
): WebhookCall {
	const rawBody = JSON.stringify(delivery.body);
	const now = new Date();
	return {
		workflowId: delivery.workflowId,
		rawBody,
		body: delivery.body,
		parameters: {
			registration: 'automatic',
			events: ['responseFinished'],
			allSurveys: true,
			options: delivery.options,
		},
		staticData: {
			webhookId: delivery.hookId,
			baseUrl: sandbox.survey.url,
			sealedSecret: sealSecret(
				delivery.secret,
				sandbox.survey.apiKey,
				sealingContext(delivery.hookId, sandbox.survey.url),
			),
		},
		credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
		headers: {
			'content-type': 'application/json',
			'webhook-id': delivery.id,
			'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
			'webhook-signature': new Webhook(delivery.secret).sign(delivery.id, now, rawBody),
		},
	};
}
