import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { eventsSubtitle } from '../shared/descriptions';
import {
	ACKNOWLEDGE_ONLY,
	admitDelivery,
	credentialWebhookSecret,
	deliveryScope,
	rawBodyOf,
	recentDeliveries,
	rejectBadRequest,
	rejectUnauthorized,
	secretsMatch,
	sha256Hex,
} from '../shared/webhooks';
import { signingApiTest } from './credentialTest';
import { simplifyEvent, simplifyTriggerParameter } from './resources/document/simplify';
import { readmeSection } from '../shared/docs';
import { SIGNING_TRIGGER_DESCRIPTION } from '../shared/nodeDescriptions';
import { givesOneShape, NODE_VERSIONS, ONE_SHAPE_VERSION } from '../shared/simplify';

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
		documentationUrl: readmeSection('signing-trigger'),
		defaults: { name: 'Signing Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'signingApi',
				required: false,
				testedBy: 'signingApiTest',
				displayName: 'Signing API (for the webhook secret)',
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
				displayName:
					'The signing service has no API to register webhooks: an administrator adds this node’s Production URL (under "Webhook URLs" above) as a webhook endpoint in the service’s administrator panel. If the endpoint has a shared secret, put the same value in the credential’s Webhook Secret field: deliveries without it are then refused.',
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
				options: [
					{
						name: 'Document Cancelled',
						value: 'document.cancelled',
						description:
							'The document was cancelled before completion; nobody can sign it any more',
					},
					{
						name: 'Document Completed',
						value: 'document.completed',
						description: 'All required parties signed and the certified package is ready',
					},
					{
						name: 'Document Created',
						value: 'document.created',
						description: 'A new document was drafted',
					},
					{
						name: 'Document Opened',
						value: 'document.opened',
						description:
							'A recipient opened their signing link (fires on each opening); the recipient is in "recipient"',
					},
					{
						name: 'Document Rejected',
						value: 'document.rejected',
						description:
							'A signer or approver declined to sign; the recipient is in "recipient", their reason in "rejectionReason"',
					},
					{
						name: 'Document Sent',
						value: 'document.sent',
						description: 'Invitations were dispatched to the recipients',
					},
					{
						name: 'Document Signed',
						value: 'document.signed',
						description: 'One recipient completed their signing action',
					},
				],
			},
			simplifyTriggerParameter,
		],
	};

	// The service has no registration API: endpoints are added by an administrator, so
	// activation has nothing to create or delete remotely.
	methods = { credentialTest: { signingApiTest } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				recentDeliveries.forget(deliveryScope(this));
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const headers = this.getHeaderData() as IDataObject;
		const secret = await credentialWebhookSecret(this, 'signingApi');
		if (secret !== '') {
			const received = headers['x-signing-secret'];
			if (typeof received !== 'string' || !secretsMatch(received, secret)) {
				return rejectUnauthorized(this, 'Missing or wrong X-Signing-Secret');
			}
		}

		const body = this.getBodyData() as IDataObject;
		const event = body.event;
		const payload = body.payload;
		if (typeof event !== 'string' || payload === null || typeof payload !== 'object') {
			return rejectBadRequest(this, 'Expected a signing event: { event, createdAt, payload }');
		}

		const events = this.getNodeParameter('events', []) as string[];
		if (!events.includes(event)) return ACKNOWLEDGE_ONLY;

		const deliveryHeader = headers['x-signing-delivery'];
		// Deployments that send no delivery id repeat the same bytes on a retry.
		const deliveryId =
			typeof deliveryHeader === 'string' && deliveryHeader !== ''
				? deliveryHeader
				: `body:${sha256Hex(rawBodyOf(this))}`;
		const refusal = await admitDelivery(this, deliveryId);
		if (refusal) return refusal;

		if (givesOneShape(this) && (this.getNodeParameter('simplify', true) as boolean)) {
			const item = simplifyEvent(event, body.createdAt, deliveryId, payload as IDataObject);
			return { workflowData: [this.helpers.returnJsonArray([item])] };
		}
		const { recipient, ...document } = payload as IDataObject;
		const item: IDataObject = {
			event,
			deliveryId,
			createdAt: body.createdAt ?? null,
			documentId: document.id ?? null,
			document,
		};
		if (recipient !== undefined) item.recipient = recipient;
		if (event === 'document.rejected') {
			item.rejectionReason = (recipient as IDataObject | undefined)?.rejectionReason ?? null;
		}
		return { workflowData: [this.helpers.returnJsonArray([item])] };
	}
}
