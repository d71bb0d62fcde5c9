import type {
	IDataObject,
	IHookFunctions,
	ILoadOptionsFunctions,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { eventsSubtitle } from '../shared/descriptions';
import { verifyStandardWebhook } from '../shared/standardWebhooks';
import {
	ACKNOWLEDGE_ONLY,
	credentialWebhookSecret,
	deliveryScope,
	rawBodyOf,
	recentDeliveries,
	rejectBadRequest,
	rejectUnauthorized,
	sha256Hex,
} from '../shared/webhooks';
import { surveyApiTest } from './credentialTest';
import { listSurveys, surveyRequest } from './transport';

interface RegisteredHook {
	webhookId?: string;
	secret?: string;
}

interface RemoteHook {
	id: string;
	url: string;
	triggers: string[];
	surveyIds: string[];
}

const MANUAL_HINT =
	'This survey service has no webhook API. Set "Registration" to Manual and add the webhook URL in the service yourself.';

function sameSet(a: string[] = [], b: string[] = []): boolean {
	return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

function wantedHook(ctx: IHookFunctions | IWebhookFunctions): { triggers: string[]; surveyIds: string[] } {
	const triggers = ctx.getNodeParameter('events', []) as string[];
	const allSurveys = ctx.getNodeParameter('allSurveys', true) as boolean;
	const surveyIds = allSurveys ? [] : (ctx.getNodeParameter('surveyIds', []) as string[]);
	return { triggers, surveyIds };
}

function isAutomatic(ctx: IHookFunctions | IWebhookFunctions): boolean {
	return ctx.getNodeParameter('registration', 'automatic') === 'automatic';
}

export class SurveyTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Survey Trigger',
		name: 'surveyTrigger',
		icon: { light: 'file:survey.svg', dark: 'file:survey.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle(),
		description: 'Starts the workflow when a survey response is created, updated or finished',
		defaults: { name: 'Survey Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'surveyApi', required: true, testedBy: 'surveyApiTest' }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName: 'Registration',
				name: 'registration',
				type: 'options',
				default: 'automatic',
				options: [
					{
						name: 'Automatic',
						value: 'automatic',
						description: 'Register the webhook through the service’s API on activation, remove it on deactivation',
					},
					{
						name: 'Manual',
						value: 'manual',
						description: 'You add the webhook URL in the service yourself',
					},
				],
			},
			{
				displayName:
					'Add this node’s Production URL (under "Webhook URLs" above) as a webhook in the survey service. If the service shows a signing secret (whsec_…), put it in the credential’s Webhook Secret field so deliveries are verified.',
				name: 'manualNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { registration: ['manual'] } },
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['responseFinished'],
				options: [
					{
						name: 'Response Created',
						value: 'responseCreated',
						description: 'A respondent started the survey',
					},
					{
						name: 'Response Finished',
						value: 'responseFinished',
						description: 'All mandatory questions were answered and submitted',
					},
					{
						name: 'Response Updated',
						value: 'responseUpdated',
						description: 'Intermediate progress was saved',
					},
				],
			},
			{
				displayName: 'All Surveys',
				name: 'allSurveys',
				type: 'boolean',
				default: true,
				description: 'Whether to start on responses to any survey of the workspace',
			},
			{
				displayName: 'Survey Names or IDs',
				name: 'surveyIds',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getSurveys' },
				required: true,
				default: [],
				description:
					'Surveys whose responses start the workflow. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: { show: { allSurveys: [false] } },
			},
		],
	};

	methods = {
		credentialTest: { surveyApiTest },
		loadOptions: {
			async getSurveys(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const surveys = await listSurveys(this);
				return surveys.map((survey) => ({
					name: `${String(survey.name)} (${String(survey.status)})`,
					value: String(survey.id),
				}));
			},
		},
	};

	webhookMethods = {
		default: {
			/** True when our hook exists with the current events and surveys; stale hooks of this URL are removed. */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (!isAutomatic(this)) return true;
				const registered = this.getWorkflowStaticData('node') as RegisteredHook;
				const url = this.getNodeWebhookUrl('default');
				const wanted = wantedHook(this);
				const { data: hooks } = await surveyRequest<{ data: RemoteHook[] }>(this, {
					method: 'GET',
					path: '/api/v1/webhooks',
					errorHints: { 404: MANUAL_HINT, 405: MANUAL_HINT },
				});
				let reusable = false;
				for (const hook of hooks.filter((candidate) => candidate.url === url)) {
					const ours = hook.id === registered.webhookId && registered.secret !== undefined;
					if (ours && sameSet(hook.triggers, wanted.triggers) && sameSet(hook.surveyIds, wanted.surveyIds)) {
						reusable = true;
						continue;
					}
					// Its events or surveys changed, or its secret is unknown to us: replace it.
					await surveyRequest(this, {
						method: 'DELETE',
						path: `/api/v1/webhooks/${encodeURIComponent(hook.id)}`,
						acceptStatuses: [404],
					});
				}
				if (!reusable) {
					delete registered.webhookId;
					delete registered.secret;
				}
				return reusable;
			},

			async create(this: IHookFunctions): Promise<boolean> {
				if (!isAutomatic(this)) return true;
				const { triggers, surveyIds } = wantedHook(this);
				const { data } = await surveyRequest<{ data: { id: string; secret: string } }>(this, {
					method: 'POST',
					path: '/api/v1/webhooks',
					body: { url: this.getNodeWebhookUrl('default'), triggers, surveyIds, source: 'n8n' },
					errorHints: { 404: MANUAL_HINT, 405: MANUAL_HINT },
				});
				const registered = this.getWorkflowStaticData('node') as RegisteredHook;
				registered.webhookId = data.id;
				registered.secret = data.secret;
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				recentDeliveries.forget(deliveryScope(this));
				const registered = this.getWorkflowStaticData('node') as RegisteredHook;
				if (!isAutomatic(this) || !registered.webhookId) return true;
				await surveyRequest(this, {
					method: 'DELETE',
					path: `/api/v1/webhooks/${encodeURIComponent(registered.webhookId)}`,
					acceptStatuses: [404],
				});
				delete registered.webhookId;
				delete registered.secret;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const headers = this.getHeaderData() as IDataObject;
		const rawBody = rawBodyOf(this);
		const secret = isAutomatic(this)
			? ((this.getWorkflowStaticData('node') as RegisteredHook).secret ?? '')
			: await credentialWebhookSecret(this, 'surveyApi');
		if (secret !== '') {
			const verification = verifyStandardWebhook(
				secret,
				{
					id: headers['webhook-id'] as string | undefined,
					timestamp: headers['webhook-timestamp'] as string | undefined,
					signature: headers['webhook-signature'] as string | undefined,
				},
				rawBody,
			);
			if (!verification.valid) return rejectUnauthorized(this, verification.reason);
		}

		const body = this.getBodyData() as IDataObject;
		if (typeof body.event !== 'string' || typeof body.surveyId !== 'string') {
			return rejectBadRequest(this, 'Expected a survey event: { event, surveyId, responseId, createdAt, data }');
		}
		const { triggers, surveyIds } = wantedHook(this);
		if (!triggers.includes(body.event)) return ACKNOWLEDGE_ONLY;
		if (surveyIds.length && !surveyIds.includes(body.surveyId)) return ACKNOWLEDGE_ONLY;

		const webhookId = typeof headers['webhook-id'] === 'string' ? headers['webhook-id'] : '';
		const deliveryId = webhookId || `body:${sha256Hex(rawBody)}`;
		if (recentDeliveries.checkAndRemember(deliveryScope(this), deliveryId)) return ACKNOWLEDGE_ONLY;

		const item: IDataObject = {
			event: body.event,
			surveyId: body.surveyId,
			responseId: body.responseId ?? null,
			createdAt: body.createdAt ?? null,
			data: body.data ?? {},
			deliveryId,
		};
		return { workflowData: [this.helpers.returnJsonArray([item])] };
	}
}
