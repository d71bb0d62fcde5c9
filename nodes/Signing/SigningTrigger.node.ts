import type {
	IDataObject,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { eventsSubtitle } from '../shared/descriptions';
import { docsSection } from '../shared/docs';
import { learnAlongside, redactTriggerOutput } from '../shared/privacy';
import { SIGNING_TRIGGER_DESCRIPTION } from '../shared/nodeDescriptions';
import { givesOneShape, NODE_VERSIONS, ONE_SHAPE_VERSION } from '../shared/simplify';
import {
	ACKNOWLEDGE_ONLY,
	admitDeliveries,
	MANUAL_REGISTRATION_WEBHOOK_METHODS,
	rawBodyOf,
	rejectBadRequest,
	rejectUnauthorized,
	secretsMatch,
} from '../shared/webhooks';
import { isObject } from '../shared/credentialTest';
import {
	adapterFor,
	documentedEventName,
	type SigningAdapter,
	signingApis,
	type SigningEvent,
	webhookSetupNotices,
} from './adapters';
import { SIGNING_EVENT_OPTIONS } from './events';
import { signingApiTest } from './credentialTest';
import { signingGuide, signingTriggerPersonalDataOptions } from './personalData';
import { simplifyEvent, simplifyTriggerParameter } from './resources/document/simplify';

/**
 * Starts the workflow with the event's items, personal data handled as the Personal Data option
 * says by the rule of every Signing operation (`signingGuide`): recipients, titles, the
 * invitation's text and rejection reasons, prefilled fields by their label, Documenso's form values
 * by their names. Redaction learns from each whole document, so that a name in what Simplify
 * leaves out is still found in the title.
 */
async function emit(
	ctx: IWebhookFunctions,
	events: Array<{ item: IDataObject; payload: IDataObject }>,
): Promise<IWebhookResponseData> {
	const output = await redactTriggerOutput(
		ctx.getNodeParameter('options', {}) as IDataObject,
		events.map(({ item, payload }) => learnAlongside(item, payload)),
		async () => await signingGuide(ctx, events.map(({ payload }) => payload)),
	);
	return { workflowData: [ctx.helpers.returnJsonArray(output)] };
}

/**
 * Without a credential the trigger cannot tell which API a delivery speaks, and reads it as the
 * documented API's. An API whose deliveries need a secret shows itself by its secret header (sent
 * on every delivery, empty when there is none) or by its own event names: such a delivery is refused.
 */
function senderNeedingSecret(headers: IDataObject, body: unknown): SigningAdapter | undefined {
	const event = isObject(body) && typeof body.event === 'string' ? body.event : undefined;
	return signingApis.adapters.find(
		({ webhooks }) =>
			webhooks.secretRequired &&
			(webhooks.secretHeader in headers || (event !== undefined && event in webhooks.eventAliases)),
	);
}

/** The item of one event: the one shape (version 2, Simplify), else the documented event with what the API adds. */
function eventItem(ctx: IWebhookFunctions, delivery: SigningEvent, deliveryId: string, payload: IDataObject): IDataObject {
	const { event, createdAt } = delivery;
	if (givesOneShape(ctx) && (ctx.getNodeParameter('simplify', true) as boolean)) {
		return simplifyEvent(event, createdAt, deliveryId, payload);
	}
	const { recipient, ...document } = payload;
	const item: IDataObject = {
		event,
		deliveryId,
		createdAt: createdAt ?? null,
		documentId: document.id ?? null,
		document,
	};
	if (recipient !== undefined) item.recipient = recipient;
	if (event === 'document.rejected') {
		item.rejectionReason = (recipient as IDataObject | undefined)?.rejectionReason ?? null;
	}
	return Object.assign(item, delivery.beyond);
}

export class SigningTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Signing Trigger',
		name: 'signingTrigger',
		icon: { light: 'file:signing.svg', dark: 'file:signing.dark.svg' },
		group: ['trigger'],
		version: NODE_VERSIONS,
		defaultVersion: ONE_SHAPE_VERSION,
		subtitle: eventsSubtitle(),
		description: SIGNING_TRIGGER_DESCRIPTION,
		documentationUrl: docsSection('signing', 'signing-trigger'),
		defaults: { name: 'Signing Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'signingApi',
				required: false,
				testedBy: 'signingApiTest',
				displayName: 'Signing or Documenso API (for the webhook secret)',
			},
		],
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
				displayName: [
					'The signing service has no API to register webhooks: an administrator adds this node’s Production URL (under "Webhook URLs" above) as a webhook endpoint in the service’s administrator panel. If the endpoint has a shared secret, put the same value in the credential’s Webhook Secret field: deliveries without it are then refused.',
					...webhookSetupNotices,
				].join(' '),
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['document.completed'],
				description: 'Events that start the workflow; other events are acknowledged and ignored',
				options: SIGNING_EVENT_OPTIONS,
			},
			{
				displayName: 'Accept Deliveries Without Secret',
				name: 'acceptWithoutSecret',
				type: 'boolean',
				default: false,
				description:
					'Whether to start the workflow for Documenso deliveries while the credential has no Webhook Secret. Off (recommended): they are refused with 401, since anybody who knows the URL could send one. The documented API’s endpoints may have no secret: there a secret is checked when one is set.',
			},
			simplifyTriggerParameter,
			signingTriggerPersonalDataOptions,
		],
	};

	methods = { credentialTest: { signingApiTest } };

	// The service has no registration API: endpoints are added by an administrator, so
	// activation has nothing to create or delete remotely.
	webhookMethods = MANUAL_REGISTRATION_WEBHOOK_METHODS;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const headers = this.getHeaderData() as IDataObject;
		const credentials = this.getNode().credentials?.signingApi
			? await this.getCredentials('signingApi')
			: undefined;
		if (!credentials) {
			const sender = senderNeedingSecret(headers, this.getBodyData());
			if (sender) {
				const api = sender.option.name;
				this.logger.warn(
					`Signing Trigger "${this.getNode().name}" (workflow ${String(this.getWorkflow().id)}) refused a delivery from ${api}: the trigger has no credential. Choose a Signing or Documenso API credential with API "${api}" in the trigger, set ${sender.webhooks.setup} and the same value as Webhook Secret in the credential.`,
				);
				return rejectUnauthorized(
					this,
					`The trigger has no credential to check this ${api} delivery with: choose one with the webhook's secret`,
				);
			}
		}
		const adapter = adapterFor(this, credentials ?? {});
		const { webhooks } = adapter;
		const secret = typeof credentials?.webhookSecret === 'string' ? credentials.webhookSecret : '';
		if (secret === '') {
			if (webhooks.secretRequired && !(this.getNodeParameter('acceptWithoutSecret', false) as boolean)) {
				// Fails closed: without a secret anybody who knows the URL could start the workflow.
				this.logger.warn(
					`Signing Trigger "${this.getNode().name}" (workflow ${String(this.getWorkflow().id)}) refused a delivery: its credential has no Webhook Secret. Set ${webhooks.setup} and the same value as Webhook Secret in the credential, or turn on "Accept Deliveries Without Secret" in the trigger.`,
				);
				return rejectUnauthorized(
					this,
					'The trigger has no webhook secret to check this delivery with: set it in the credential',
				);
			}
		} else {
			const received = headers[webhooks.secretHeader];
			if (typeof received !== 'string' || !secretsMatch(received, secret)) {
				return rejectUnauthorized(this, `Missing or wrong ${webhooks.secretHeader}`);
			}
		}

		const delivery = adapter.parseDelivery(
			{ headers, body: this.getBodyData(), rawBody: rawBodyOf(this) },
			{ baseUrl: typeof credentials?.baseUrl === 'string' ? credentials.baseUrl : undefined },
		);
		if (!delivery) return rejectBadRequest(this, `Expected a signing event: ${webhooks.shape}`);

		const events = (this.getNodeParameter('events', []) as string[]).map(documentedEventName);
		if (!events.includes(delivery.event)) return ACKNOWLEDGE_ONLY;

		// One event per key: a delivery that stands for several recipients' signings emits each once.
		const payloads = new Map<string, IDataObject>(
			delivery.byRecipient?.map(({ deliveryKey, recipient }) => [deliveryKey, { ...delivery.payload, recipient }]) ?? [
				[delivery.deliveryKey, delivery.payload],
			],
		);
		const admission = await admitDeliveries(this, [...payloads.keys()]);
		if ('answer' in admission) return admission.answer;
		return await emit(
			this,
			admission.admitted.map((deliveryId) => {
				const payload = payloads.get(deliveryId)!;
				return { item: eventItem(this, delivery, deliveryId, payload), payload };
			}),
		);
	}
}
