import { createHash } from 'crypto';

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
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

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
	withinDeadline,
} from '../shared/webhooks';
import { DOCUMENTED_API } from '../shared/apiChoice';
import { isObject } from '../shared/credentialTest';
import { surveyApiTest } from './credentialTest';
import { personalDataOption, triggerPersonalDataMode } from '../shared/privacy';
import type { RemoteHook, SurveyAdapter, SurveyEvent } from './adapters';
import { adapterFor } from './adapters';
import { answersModeOf, answersOption, shapeAnswers } from './answers';
import { extraPersonalFieldsOption, readExtraFields, redactResponses } from './personalData';
import { deliveryQuestions, forgetDeliveryQuestions, QUESTIONS_WAIT_MS } from './triggerSurveys';
import { simplifyResponseEvent, simplifyTriggerParameter } from './resources/response/simplify';
import { surveyLabel } from './resources/surveyLocator';
import { listSurveys } from './transport';
import { sealedWith } from './writeMark';
import { docsSection } from '../shared/docs';
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
	/**
	 * The webhook URL the hook was registered for, and the n8n instance that registered it (hashed):
	 * static data imported with a workflow from another n8n names that n8n's hook, not this one's.
	 */
	url?: string;
	instance?: string;
}

/**
 * This n8n's instance, hashed (n8n derives the instance ID from its encryption key). Undefined on
 * an n8n that does not tell it.
 */
function instanceOf(ctx: IHookFunctions): string | undefined {
	const withInstance = ctx as Partial<Pick<IHookFunctions, 'getInstanceId'>>;
	if (typeof withInstance.getInstanceId !== 'function') return undefined;
	return createHash('sha256').update(`survey-trigger\n${withInstance.getInstanceId()}`).digest('hex').slice(0, 16);
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

const NO_MANUAL_SECRET =
	"its credential has no Webhook Secret. Copy the webhook's signing secret (whsec_…) from the survey service into the credential's Webhook Secret (on Formbricks: Integrations → Webhooks, the webhook's settings), or set Registration to Automatic.";

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
	delete registered.url;
	delete registered.instance;
}

/**
 * The mark that ends the name of every hook this trigger registers: its workflow and node, and
 * whether "Listen for test event" registered it. It names the workflow in the service; it does not
 * make a hook this n8n's: a staging and a production n8n running the same imported workflow give
 * their hooks the same mark, and each keeps its own.
 */
function hookMark(ctx: IHookFunctions): string {
	const test = ctx.getMode() === 'manual' ? ' test' : '';
	return `[n8n ${String(ctx.getWorkflow().id ?? 'unsaved')}/${ctx.getNode().id}${test}]`;
}


/** How long activation waits for the address a hook was registered at, when the credential's is another. */
const OLD_ADDRESS_WAIT_MS = 10_000;

function warnHookLeft(ctx: IHookFunctions, text: string): void {
	ctx.logger?.warn(`Survey Trigger "${ctx.getNode().name}" (workflow ${String(ctx.getWorkflow().id)}): ${text}`);
}

/**
 * The stored hook, when it is not among the hooks the credential's key sees at the credential's
 * address, where a survey service that moved keeps its hooks. Registered at another address: it
 * is removed there, but the API key goes there only when the sealed secret opens with it, which
 * shows that this node wrote the record with this key (static data can be edited by anyone who
 * can edit the workflow), and an address that does not answer does not hold activation up.
 * Registered here with a key that does not open it: it belongs to that key's organisation or
 * workspace, which this key cannot see. What cannot be removed is logged, with where it is.
 */
async function removeUnlistedHook(ctx: IHookFunctions, registered: RegisteredHook, access: SurveyAccess): Promise<void> {
	const { webhookId } = registered;
	if (!webhookId) return;
	const where = registered.baseUrl ?? access.baseUrl;
	const hook = `the webhook ${webhookId} this trigger registered at ${where}`;
	const opens = hookSecret(registered, access.apiKey) !== undefined;
	if (where === access.baseUrl) {
		// A key that opens it and does not list it: the hook was removed in the service.
		if (!opens) {
			warnHookLeft(
				ctx,
				`${hook} with an earlier API key is not among this key's webhooks (the credential now has another organisation's or workspace's key?). If it still exists it keeps receiving responses: remove it there.`,
			);
		}
		return;
	}
	if (!opens) {
		warnHookLeft(ctx, `${hook} could not be removed, because the credential now belongs to another service; remove it in that service.`);
		return;
	}
	try {
		const removal = await withinDeadline(
			registeredAdapter(ctx, registered).deleteHook(ctx, webhookId, where),
			OLD_ADDRESS_WAIT_MS,
		);
		if (removal.late) {
			warnHookLeft(ctx, `${hook} could not be removed there: no answer within ${OLD_ADDRESS_WAIT_MS / 1000} s. If a survey service still runs there, remove it there.`);
		}
	} catch (error) {
		const reason = error instanceof NodeApiError && error.description ? error.description : (error as Error).message;
		warnHookLeft(ctx, `${hook} could not be removed there (${reason}). If a survey service still runs there, remove it there.`);
	}
}

function isAutomatic(ctx: IHookFunctions | IWebhookFunctions): boolean {
	return ctx.getNodeParameter('registration', 'automatic') === 'automatic';
}

/**
 * The event's answers as the Options ask: personal data kept unless the user chose otherwise
 * (a trigger never runs as an agent's tool), then keyed by question id, text or both. What the
 * API sends beyond the documented output (Formbricks: the response's meta, contact and contact
 * attributes) is redacted with the answers, as one response, by the rule every Survey operation
 * follows (`redactResponses`).
 *
 * Without the survey's questions (not read within QUESTIONS_WAIT_MS: a rate-limited key, a slow
 * service), the event is still emitted rather than answered with an error the service might give
 * up retrying: every answer is then treated as personal, the answers stay keyed by question id,
 * and `questionsUnavailable` says so.
 */
async function shapeEvent(
	ctx: IWebhookFunctions,
	event: SurveyEvent,
): Promise<{ data: IDataObject | IDataObject[]; beyond: IDataObject; questionsUnavailable: boolean }> {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const mode = triggerPersonalDataMode(options.personalData);
	const answersMode = answersModeOf(options.answers);
	// The questions say what each answer is (for redaction) and how to key it (for Answers).
	const read =
		answersMode === 'id' && mode === 'keep'
			? []
			: await deliveryQuestions(ctx, event.surveyId, Object.keys(event.data));
	const questions = read ?? [];
	const questionsUnavailable = read === undefined;
	const extraFields = [...readExtraFields(options), ...(questionsUnavailable ? Object.keys(event.data) : [])];
	const response = isObject(event.beyond.response) ? event.beyond.response : {};
	const [{ data: answers, ...redactedResponse }] = redactResponses(
		[{ ...response, data: event.data }],
		mode,
		questions,
		extraFields,
	);
	const beyond = isObject(event.beyond.response) ? { ...event.beyond, response: redactedResponse } : event.beyond;
	const data = answers as IDataObject;
	if (answersMode === 'id' || questionsUnavailable) return { data, beyond, questionsUnavailable };
	return { data: shapeAnswers(data, questions, answersMode), beyond, questionsUnavailable };
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
		documentationUrl: docsSection('survey', 'survey-trigger'),
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
					'Add this node’s Production URL (under "Webhook URLs" above) as a webhook in the survey service, and put the signing secret (whsec_…) it shows in the credential’s Webhook Secret field: without it every delivery is refused.',
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
							'Whether to skip events of responses as the Survey node’s Response → Create or Update last wrote them with this credential’s API key (Formbricks), so that a workflow that writes responses does not start itself. The mark is sealed with the key, so a respondent cannot forge it; a respondent’s later change starts the workflow again.',
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
			/**
			 * True when our hook exists with the current events and surveys. Hooks of this n8n that it
			 * will not reuse are removed: any hook of its URL, and the one its static data names where
			 * this n8n registered it (for the URL it had then: WEBHOOK_URL or the domain changed). A hook
			 * with this trigger's mark at another URL is another n8n's with the same workflow (staging and
			 * production), and is left alone.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (!isAutomatic(this)) return true;
				const registered = this.getWorkflowStaticData('node') as RegisteredHook;
				const access = await surveyAccess(this);
				const { baseUrl, apiKey, adapter } = access;
				// "Listen for test event" leaves alone what the active workflow registered.
				const testing = this.getMode() === 'manual';
				const url = this.getNodeWebhookUrl('default');
				const wanted = wantedHook(this);
				const registeredHere =
					(registered.baseUrl ?? baseUrl) === baseUrl && (registered.api ?? DOCUMENTED_API) === adapter.api;
				const knownSecret = registeredHere && hookSecret(registered, apiKey) !== undefined;
				const hooks = await adapter.listHooks(this);
				const instance = instanceOf(this);
				// Written by this n8n for that hook; an earlier version kept no URL: its record counts for its own URL alone.
				const storedHere = (hook: RemoteHook) =>
					hook.id === registered.webhookId && registered.url === hook.url && registered.instance === instance;
				let reusable = false;
				for (const hook of hooks) {
					const stored = hook.id === registered.webhookId;
					if (hook.url !== url && !(storedHere(hook) && !testing)) continue;
					const unchanged = sameSet(hook.triggers, wanted.triggers) && sameSet(hook.surveyIds, wanted.surveyIds);
					if (stored && hook.url === url && knownSecret && unchanged) {
						reusable = true;
						continue;
					}
					// Left behind, its events or surveys changed, or its secret is unknown to us: replace it.
					await adapter.deleteHook(this, hook.id);
				}
				if (!testing && !hooks.some((hook) => hook.id === registered.webhookId)) {
					await removeUnlistedHook(this, registered, access);
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
					name: `n8n: ${this.getWorkflow().name ?? 'workflow'} › ${this.getNode().name} ${hookMark(this)}`,
				});
				const registered = this.getWorkflowStaticData('node') as RegisteredHook;
				forgetHook(registered);
				if (typeof data.secret !== 'string' || !standardWebhookKey(data.secret)) {
					let removed = true;
					try {
						await adapter.deleteHook(this, data.id);
					} catch (error) {
						// The missing secret is what the user must hear about; the hook left behind goes to the log.
						removed = false;
						warnHookLeft(
							this,
							`the webhook ${data.id} it registered at ${baseUrl} came without a usable secret and could not be removed (${(error as Error).message}); remove it in the survey service.`,
						);
					}
					throw new NodeOperationError(
						this.getNode(),
						'The survey service returned no usable signing secret for the new webhook',
						{
							description: `Expected whsec_ followed by base64. ${removed ? 'The webhook was removed again' : `The webhook ${data.id} could not be removed: remove it in the survey service`}; use Manual registration with a secret you set.`,
						},
					);
				}
				Object.assign(registered, {
					webhookId: data.id,
					baseUrl,
					api: adapter.api,
					sealedSecret: sealSecret(data.secret, apiKey, sealingContext(data.id, baseUrl)),
					url: this.getNodeWebhookUrl('default') ?? '',
					instance: instanceOf(this),
				});
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				recentDeliveries.forget(deliveryScope(this));
				forgetDeliveryQuestions(this);
				const registered = this.getWorkflowStaticData('node') as RegisteredHook;
				const { webhookId } = registered;
				if (!isAutomatic(this) || !webhookId) return true;
				if (registered.instance !== undefined && registered.instance !== instanceOf(this)) {
					// Static data imported from another n8n names that n8n's hook: it stays, and so does its record.
					return true;
				}
				const access = await surveyAccess(this);
				if ((registered.baseUrl ?? access.baseUrl) === access.baseUrl) {
					await registeredAdapter(this, registered).deleteHook(this, webhookId);
				} else if ((await access.adapter.listHooks(this)).some((hook) => hook.id === webhookId)) {
					// The service moved to the credential's address, with its hooks.
					await access.adapter.deleteHook(this, webhookId);
				} else {
					await removeUnlistedHook(this, registered, access);
				}
				forgetHook(registered);
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
			if (secret === '') {
				// Fails closed: the service signs every hook (Formbricks gives each one a secret), so
				// without the secret anybody who knows the URL could start the workflow.
				this.logger?.warn(
					`Survey Trigger "${this.getNode().name}" (workflow ${String(this.getWorkflow().id)}) refused a delivery: ${NO_MANUAL_SECRET}`,
				);
				return rejectUnauthorized(
					this,
					'The trigger has no webhook secret to check this delivery with: set the Webhook Secret in the credential',
				);
			}
		}
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

		const event = adapter.parseDelivery(this.getBodyData());
		if (!event) return rejectBadRequest(this, `Expected a survey event: ${adapter.deliveryShape}`);
		const { triggers, surveyIds } = wantedHook(this);
		if (!triggers.includes(event.event)) return ACKNOWLEDGE_ONLY;
		if (surveyIds.length && !surveyIds.includes(event.surveyId)) return ACKNOWLEDGE_ONLY;
		if (event.writeMark && (this.getNodeParameter('options', {}) as IDataObject).ignoreN8nWrites === true) {
			if (sealedWith(event.writeMark, (await surveyAccess(this)).apiKey)) return ACKNOWLEDGE_ONLY;
		}

		const webhookId = typeof headers['webhook-id'] === 'string' ? headers['webhook-id'] : '';
		const deliveryId = webhookId || `body:${sha256Hex(rawBody)}`;
		// Shaped before the delivery is remembered: if shaping fails, the service's retry must run.
		const { data, beyond, questionsUnavailable } = await shapeEvent(this, event);
		const refusal = await admitDelivery(this, deliveryId);
		if (refusal) return refusal;
		if (questionsUnavailable) {
			this.logger?.warn(
				`Survey Trigger "${this.getNode().name}" (workflow ${String(this.getWorkflow().id)}) emitted delivery ${deliveryId} without the questions of survey ${event.surveyId}, which could not be read within ${QUESTIONS_WAIT_MS / 1000} s: its answers are keyed by question ID and all treated as personal (questionsUnavailable). The read goes on for the deliveries after it.`,
			);
		}

		const { event: name, surveyId, responseId, createdAt, finished, updatedAt } = event;
		if (givesOneShape(this) && (this.getNodeParameter('simplify', true) as boolean)) {
			const payload: IDataObject = { event: name, surveyId, responseId, createdAt, finished, updatedAt };
			const item = simplifyResponseEvent(payload, data, deliveryId);
			if (questionsUnavailable) item.questionsUnavailable = true;
			return { workflowData: [this.helpers.returnJsonArray([item])] };
		}
		// The documented output first; what the API sends beyond it (Formbricks: the response, the survey) after.
		const item: IDataObject = { event: name, surveyId, responseId, createdAt, data, deliveryId, ...beyond };
		if (questionsUnavailable) item.questionsUnavailable = true;
		return { workflowData: [this.helpers.returnJsonArray([item])] };
	}
}
