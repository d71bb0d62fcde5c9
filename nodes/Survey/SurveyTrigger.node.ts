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
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { eventsSubtitle, withTriggerActions } from '../shared/descriptions';
import { standardWebhookKey, verifyStandardWebhook } from '../shared/standardWebhooks';
import {
	ACKNOWLEDGE_ONLY,
	admitDelivery,
	deliveryScope,
	openSecret,
	OpenedSecrets,
	rawBodyOf,
	recentDeliveries,
	rejectBadRequest,
	rejectUnauthorized,
	sealSecret,
	sha256Hex,
} from '../shared/webhooks';
import { DOCUMENTED_API } from '../shared/apiChoice';
import { isObject } from '../shared/credentialTest';
import { surveyApiTest } from './credentialTest';
import type { PersonalDataMode } from '../shared/redaction';
import type { RequestContext } from '../shared/request';
import { personalDataOption, redactRecords } from '../shared/privacy';
import type { SurveyAdapter, SurveyEvent } from './adapters';
import { adapterFor } from './adapters';
import { answersModeOf, answersOption, shapeAnswers, surveyQuestions } from './answers';
import { answersGuide, extraPersonalFieldsOption, readExtraFields } from './personalData';
import { simplifyResponseEvent, simplifyTriggerParameter } from './resources/response/simplify';
import { surveyLabel } from './resources/surveyLocator';
import { listSurveys } from './transport';
import { readmeSection } from '../shared/docs';
import { SURVEY_TRIGGER_DESCRIPTION } from '../shared/nodeDescriptions';
import { givesOneShape, NODE_VERSIONS, ONE_SHAPE_VERSION } from '../shared/simplify';

/** What the node keeps in the workflow's static data about the hook it registered. */
interface RegisteredHook {
	webhookId?: string;
	/** The service the hook was registered at, to remove it there after the credential changed. */
	baseUrl?: string;
	/** The API the hook was registered through (the credential's API then), which its deliveries speak. */
	api?: string;
	/** The hook's signing secret, encrypted with a key derived from the credential's API key. */
	sealedSecret?: string;
	/** Kept in clear by earlier versions; dropped on activation. */
	secret?: string;
}

function sameSet(a: string[] = [], b: string[] = []): boolean {
	return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

function wantedHook(ctx: IHookFunctions | IWebhookFunctions): {
	triggers: string[];
	surveyIds: string[];
} {
	const triggers = ctx.getNodeParameter('events', []) as string[];
	const allSurveys = ctx.getNodeParameter('allSurveys', true) as boolean;
	const surveyIds = allSurveys ? [] : (ctx.getNodeParameter('surveyIds', []) as string[]);
	return { triggers, surveyIds };
}

const NO_SECRET =
	'No signing secret is known for this trigger\'s webhook (it is kept when the workflow is activated, and cannot be read after the credential\'s API key changed), so deliveries cannot be verified and are refused. Deactivate and activate the workflow again (or restart "Listen for test event") to register the webhook anew.';

interface SurveyAccess {
	baseUrl: string;
	apiKey: string;
	webhookSecret: string;
	adapter: SurveyAdapter;
}

async function surveyAccess(ctx: IHookFunctions | IWebhookFunctions): Promise<SurveyAccess> {
	const credentials = await ctx.getCredentials('surveyApi');
	return {
		baseUrl: String(credentials.baseUrl ?? '').replace(/\/+$/, ''),
		apiKey: String(credentials.apiKey ?? ''),
		webhookSecret: typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '',
		adapter: adapterFor(ctx, credentials),
	};
}

/** The adapter of the API a hook was registered through; hooks of earlier versions spoke the documented one. */
function registeredAdapter(ctx: IHookFunctions | IWebhookFunctions, registered: RegisteredHook): SurveyAdapter {
	return adapterFor(ctx, { api: registered.api ?? DOCUMENTED_API });
}

/** Binds the sealed secret to the hook and to where it lives, so neither can be swapped. */
export function sealingContext(webhookId: string, baseUrl: string): string {
	return `${webhookId}\n${baseUrl}`;
}

function hookSecret(registered: RegisteredHook, apiKey: string): string | undefined {
	const { webhookId, baseUrl, sealedSecret } = registered;
	if (!webhookId || baseUrl === undefined || !sealedSecret || apiKey === '') return undefined;
	return openSecret(sealedSecret, apiKey, sealingContext(webhookId, baseUrl));
}

const openedHookSecrets = new OpenedSecrets();

/**
 * The registered hook's secret for a delivery: opened once with the credential's API key, then
 * taken from memory while the node keeps the same credential and the same sealed secret.
 */
async function deliverySecret(ctx: IWebhookFunctions, registered: RegisteredHook): Promise<string | undefined> {
	const { sealedSecret } = registered;
	if (!sealedSecret) return undefined;
	const credentialId = ctx.getNode().credentials?.surveyApi?.id ?? '';
	const key = [deliveryScope(ctx), credentialId, sealedSecret].join('\n');
	const opened = openedHookSecrets.get(key);
	if (opened !== undefined) return opened;
	const secret = hookSecret(registered, (await surveyAccess(ctx)).apiKey);
	if (secret !== undefined) openedHookSecrets.set(key, secret);
	return secret;
}

function forgetHook(registered: RegisteredHook): void {
	delete registered.webhookId;
	delete registered.baseUrl;
	delete registered.api;
	delete registered.sealedSecret;
	delete registered.secret;
}

/**
 * Removes the registered hook at the service it was registered at. The API key goes to a
 * base URL other than the credential's only when the sealed secret opens with it, which
 * shows that this node wrote the record with this key (static data can be edited by anyone
 * who can edit the workflow). Otherwise the hook cannot be removed from here: the warning
 * says where it is.
 */
async function removeRegisteredHook(ctx: IHookFunctions, registered: RegisteredHook, apiKey: string): Promise<void> {
	const { webhookId } = registered;
	if (!webhookId) return;
	const current = (await surveyAccess(ctx)).baseUrl;
	const baseUrl = registered.baseUrl ?? current;
	if (baseUrl !== current && hookSecret(registered, apiKey) === undefined) {
		ctx.logger?.warn(
			`Survey Trigger "${ctx.getNode().name}": the webhook ${webhookId} registered at ${baseUrl} could not be removed, because the credential now belongs to another service; remove it in that service.`,
		);
	} else {
		await registeredAdapter(ctx, registered).deleteHook(ctx, webhookId, baseUrl);
	}
	forgetHook(registered);
}

function isAutomatic(ctx: IHookFunctions | IWebhookFunctions): boolean {
	return ctx.getNodeParameter('registration', 'automatic') === 'automatic';
}

/**
 * The event's answers as the Options ask: personal data kept unless the user chose otherwise
 * (a trigger never runs as an agent's tool), then keyed by question id, text or both. What the
 * API sends beyond the documented output is redacted alike: Formbricks' response carries the
 * respondent's meta (user agent, page URL, country) and contact attributes.
 */
async function shapeEvent(
	ctx: IWebhookFunctions,
	event: SurveyEvent,
): Promise<{ data: IDataObject | IDataObject[]; beyond: IDataObject }> {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const chosen = options.personalData;
	const mode: PersonalDataMode = chosen === 'redact' || chosen === 'omit' ? chosen : 'keep';
	const answersMode = answersModeOf(options.answers);
	// The questions say what each answer is (for redaction) and how to key it (for Answers).
	// The webhook context has n8n's authenticated request helper, as the other request contexts do.
	const questions =
		answersMode === 'id' && mode === 'keep'
			? []
			: await surveyQuestions(ctx as unknown as RequestContext, event.surveyId);
	const extraFields = readExtraFields(options);
	const [answers] = redactRecords([event.data], mode, { guide: answersGuide(questions), extraFields });
	const beyond = isObject(event.beyond.response)
		? {
				...event.beyond,
				response: redactRecords([event.beyond.response], mode, {
					guide: answersGuide(questions, ['data']),
					extraFields,
				})[0],
			}
		: event.beyond;
	if (answersMode === 'id') return { data: answers, beyond };
	return { data: shapeAnswers(answers, questions, answersMode), beyond };
}

export class SurveyTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Survey Trigger',
		name: 'surveyTrigger',
		icon: { light: 'file:survey.svg', dark: 'file:survey.dark.svg' },
		group: ['trigger'],
		version: NODE_VERSIONS,
		defaultVersion: ONE_SHAPE_VERSION,
		subtitle: eventsSubtitle(),
		description: SURVEY_TRIGGER_DESCRIPTION,
		documentationUrl: readmeSection('survey-trigger'),
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
						description:
							'Register the webhook through the service’s API on activation, remove it on deactivation',
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
				options: withTriggerActions([
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
				]),
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
			simplifyTriggerParameter,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					answersOption,
					extraPersonalFieldsOption,
					{
						displayName: 'Ignore Responses Written by the Survey Node',
						name: 'ignoreN8nWrites',
						type: 'boolean',
						default: true,
						description:
							'Whether to skip events of responses as the Survey node’s Response → Create or Update last wrote them (Formbricks), so that a workflow that writes responses does not start itself. A respondent’s later change starts it again.',
					},
					{
						...personalDataOption,
						description:
							'What to do with names, e-mail addresses, phone numbers, addresses, dates of birth and identity numbers in the answers, found by field name, by what each question asks and by value. Without this option: kept as they are.',
					},
				],
			},
		],
	};

	methods = {
		credentialTest: { surveyApiTest },
		loadOptions: {
			async getSurveys(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const surveys = await listSurveys(this);
				return surveys.map((survey) => ({ name: surveyLabel(survey), value: String(survey.id) }));
			},
		},
	};

	webhookMethods = {
		default: {
			/** True when our hook exists with the current events and surveys; stale hooks of this URL are removed. */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (!isAutomatic(this)) return true;
				const registered = this.getWorkflowStaticData('node') as RegisteredHook;
				const { baseUrl, apiKey, adapter } = await surveyAccess(this);
				// The credential now points at another service (or API): the hook lives where it was registered.
				const movedApi = registered.webhookId && (registered.api ?? DOCUMENTED_API) !== adapter.api;
				if (registered.webhookId && registered.baseUrl !== undefined && (registered.baseUrl !== baseUrl || movedApi)) {
					await removeRegisteredHook(this, registered, apiKey);
				}
				const url = this.getNodeWebhookUrl('default');
				const wanted = wantedHook(this);
				const hooks = await adapter.listHooks(this);
				const knownSecret = hookSecret(registered, apiKey) !== undefined;
				let reusable = false;
				for (const hook of hooks.filter((candidate) => candidate.url === url)) {
					const ours = hook.id === registered.webhookId && knownSecret;
					if (ours && sameSet(hook.triggers, wanted.triggers) && sameSet(hook.surveyIds, wanted.surveyIds)) {
						reusable = true;
						continue;
					}
					// Its events or surveys changed, or its secret is unknown to us: replace it.
					await adapter.deleteHook(this, hook.id);
				}
				if (!reusable) forgetHook(registered);
				// A secret kept in clear by an earlier version of this node.
				delete registered.secret;
				return reusable;
			},

			async create(this: IHookFunctions): Promise<boolean> {
				if (!isAutomatic(this)) return true;
				const { baseUrl, apiKey, adapter } = await surveyAccess(this);
				const { triggers, surveyIds } = wantedHook(this);
				const data = await adapter.registerHook(this, {
					url: this.getNodeWebhookUrl('default') ?? '',
					triggers,
					surveyIds,
					name: `n8n: ${this.getWorkflow().name ?? 'workflow'} › ${this.getNode().name}`,
				});
				const registered = this.getWorkflowStaticData('node') as RegisteredHook;
				forgetHook(registered);
				Object.assign(registered, { webhookId: data.id, baseUrl, api: adapter.api });
				if (typeof data.secret !== 'string' || !standardWebhookKey(data.secret)) {
					await removeRegisteredHook(this, registered, apiKey);
					throw new NodeOperationError(
						this.getNode(),
						'The survey service returned no usable signing secret for the new webhook',
						{ description: 'Expected whsec_ followed by base64. The webhook was removed again; use Manual registration with a secret you set.' },
					);
				}
				registered.sealedSecret = sealSecret(data.secret, apiKey, sealingContext(data.id, baseUrl));
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				recentDeliveries.forget(deliveryScope(this));
				const registered = this.getWorkflowStaticData('node') as RegisteredHook;
				if (!isAutomatic(this) || !registered.webhookId) return true;
				const { apiKey } = await surveyAccess(this);
				await removeRegisteredHook(this, registered, apiKey);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const headers = this.getHeaderData() as IDataObject;
		const rawBody = rawBodyOf(this);
		let secret: string;
		let adapter: SurveyAdapter;
		if (isAutomatic(this)) {
			const registered = this.getWorkflowStaticData('node') as RegisteredHook;
			const stored = await deliverySecret(this, registered);
			if (stored === undefined) {
				this.logger?.warn(`Survey Trigger "${this.getNode().name}": ${NO_SECRET}`);
				return rejectUnauthorized(this, NO_SECRET);
			}
			secret = stored;
			adapter = registeredAdapter(this, registered);
		} else {
			({ webhookSecret: secret, adapter } = await surveyAccess(this));
		}
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
			if (!verification.valid) {
				if (verification.configurationError) {
					const reason = `${verification.reason}: correct the Webhook Secret in the credential`;
					this.logger?.warn(`Survey Trigger "${this.getNode().name}": ${reason}`);
					return rejectUnauthorized(this, reason);
				}
				return rejectUnauthorized(this, verification.reason);
			}
		}

		const event = adapter.parseDelivery(this.getBodyData());
		if (!event) return rejectBadRequest(this, `Expected a survey event: ${adapter.deliveryShape}`);
		const { triggers, surveyIds } = wantedHook(this);
		if (!triggers.includes(event.event)) return ACKNOWLEDGE_ONLY;
		if (surveyIds.length && !surveyIds.includes(event.surveyId)) return ACKNOWLEDGE_ONLY;
		if (event.writtenByN8n && (this.getNodeParameter('options', {}) as IDataObject).ignoreN8nWrites === true) {
			return ACKNOWLEDGE_ONLY;
		}

		// Shaped before the delivery is remembered: if reading the questions fails, the service's retry must run.
		const { data, beyond } = await shapeEvent(this, event);
		const webhookId = typeof headers['webhook-id'] === 'string' ? headers['webhook-id'] : '';
		const deliveryId = webhookId || `body:${sha256Hex(rawBody)}`;
		const refusal = await admitDelivery(this, deliveryId);
		if (refusal) return refusal;

		const { event: name, surveyId, responseId, createdAt, finished, updatedAt } = event;
		if (givesOneShape(this) && (this.getNodeParameter('simplify', true) as boolean)) {
			const payload: IDataObject = { event: name, surveyId, responseId, createdAt, finished, updatedAt };
			const item = simplifyResponseEvent(payload, data, deliveryId);
			return { workflowData: [this.helpers.returnJsonArray([item])] };
		}
		// The documented output first; what the API sends beyond it (Formbricks: the response, the survey) after.
		const item: IDataObject = { event: name, surveyId, responseId, createdAt, data, deliveryId, ...beyond };
		return { workflowData: [this.helpers.returnJsonArray([item])] };
	}
}
