import type {
	IDataObject,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';

import {
	ACKNOWLEDGE_ONLY,
	admitDelivery,
	MANUAL_REGISTRATION_WEBHOOK_METHODS,
	rejectBadRequest,
	rejectUnauthorized,
	secretsMatch,
	withinDeadline,
} from '../shared/webhooks';
import { docsSection } from '../shared/docs';
import { learnAlongside } from '../shared/privacy';
import { BOOKMARKS_WEBHOOK_TRIGGER_DESCRIPTION } from '../shared/nodeDescriptions';
import { adapterFor, type BookmarkAdapter, webhookEventOptions } from './adapters';
import { bookmarkApiTest } from './credentialTest';
import { bookmarksTriggerPersonalDataOptions, redactBookmarkRecords } from './personalData';
import { simplifyBookmarks } from './resources/bookmark/simplify';

/**
 * How long Include Record waits for the record: Karakeep gives up on an answer after 5 s
 * (WEBHOOK_TIMEOUT_SEC) and sends the delivery again, so the record must come well before.
 */
const RECORD_WAIT_MS = 3_000;

const SIMPLIFIED_SHAPE = 'ID, type, title, URL or text, note, tag names, lists, archived, favourited and times';

/**
 * Starts a workflow when a bookmark API sends a webhook (Karakeep: created, edited, crawled, AI
 * tagged, deleted). A node of its own beside the polling Bookmarks Trigger: n8n activates both the
 * polling and the webhooks of a node type that has both, so one node cannot switch between them.
 */
export class BookmarksWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bookmarks Webhook Trigger',
		name: 'bookmarksWebhookTrigger',
		icon: { light: 'file:bookmarks.svg', dark: 'file:bookmarks.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{($parameter["events"] || []).join(", ")}}',
		description: BOOKMARKS_WEBHOOK_TRIGGER_DESCRIPTION,
		documentationUrl: docsSection('bookmarks', 'bookmarks-webhook-trigger'),
		defaults: { name: 'Bookmarks Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'bookmarkApi',
				required: true,
				testedBy: 'bookmarkApiTest',
				displayName: 'Bookmark or Karakeep API (its Webhook Token)',
			},
		],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName:
					'Karakeep sends webhooks; no API registers them, so you add one by hand: in Karakeep, Settings → Webhooks → Create Webhook, with this node’s Production URL (under "Webhook URLs" above), the events chosen here and a Token, and put the same token in the credential’s Webhook Token (deliveries without it are refused). A Karakeep on the same private network as n8n calls it only when its CRAWLER_ALLOWED_INTERNAL_HOSTNAMES names n8n’s host. For the documented bookmark API, which sends no events, use the polling Bookmarks Trigger.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['created'],
				description: 'Events that start the workflow; other events are acknowledged and ignored',
				options: webhookEventOptions,
			},
			{
				displayName: 'Include Record',
				name: 'includeRecord',
				type: 'boolean',
				default: false,
				description:
					'Whether to read the record and add it to the event as "record" (one request per event). A deleted record, or one deleted since the event, comes as null with recordStatus "deleted"; the event is never dropped.',
			},
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				description: `Whether to return a simplified version of the record (${SIMPLIFIED_SHAPE}) instead of the raw data`,
				displayOptions: { show: { includeRecord: [true] } },
			},
			bookmarksTriggerPersonalDataOptions,
		],
	};

	methods = { credentialTest: { bookmarkApiTest } };

	// Karakeep has no REST route that registers webhooks: the user adds this URL in Karakeep's
	// settings, so activation has nothing to create or delete remotely.
	webhookMethods = MANUAL_REGISTRATION_WEBHOOK_METHODS;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const credentials = this.getNode().credentials?.bookmarkApi ? await this.getCredentials('bookmarkApi') : undefined;
		let adapter: BookmarkAdapter;
		try {
			adapter = adapterFor(this, credentials ?? {});
		} catch (error) {
			// Fails closed: an API this version does not know has no webhook check to pass.
			this.logger.warn(
				`Bookmarks Webhook Trigger "${this.getNode().name}" (workflow ${String(this.getWorkflow().id)}) refused a delivery: ${(error as Error).message}. Choose Karakeep under API in the credential, or update this node package.`,
			);
			return rejectUnauthorized(this, 'This trigger’s credential names an API this version of the node does not know');
		}
		const { webhooks } = adapter;
		if (!credentials || !webhooks) {
			this.logger.warn(
				`Bookmarks Webhook Trigger "${this.getNode().name}" (workflow ${String(this.getWorkflow().id)}) refused a delivery: its credential's API sends no webhooks. Choose Karakeep under API in the credential, or use the polling Bookmarks Trigger.`,
			);
			return rejectUnauthorized(this, 'This trigger’s credential is not for an API that sends webhooks');
		}
		const token = typeof credentials.webhookToken === 'string' ? credentials.webhookToken : '';
		if (token === '') {
			// Fails closed: without a token anybody who knows the URL could start the workflow.
			this.logger.warn(
				`Bookmarks Webhook Trigger "${this.getNode().name}" (workflow ${String(this.getWorkflow().id)}) refused a delivery: its credential has no Webhook Token. Set ${webhooks.setup}.`,
			);
			return rejectUnauthorized(this, 'The trigger has no webhook token to check this delivery with: set it in the credential');
		}
		const authorization = this.getHeaderData().authorization;
		if (typeof authorization !== 'string' || !secretsMatch(authorization, `Bearer ${token}`)) {
			return rejectUnauthorized(this, 'Missing or wrong Authorization: Bearer token');
		}

		const delivery = webhooks.parseDelivery(this.getBodyData());
		if (!delivery) {
			return rejectBadRequest(this, 'Expected a bookmark event: { jobId, bookmarkId, userId, url?, type?, operation }');
		}
		if (!(this.getNodeParameter('events', []) as string[]).includes(delivery.event)) return ACKNOWLEDGE_ONLY;
		const refusal = await admitDelivery(this, delivery.deliveryId);
		if (refusal) return refusal;

		const item: IDataObject = {
			event: delivery.event,
			deliveryId: delivery.deliveryId,
			recordId: delivery.recordId,
			...delivery.beyond,
		};
		if (this.getNodeParameter('includeRecord', false) as boolean) {
			const { fields, whole } = await recordOf(this, adapter, delivery.event, delivery.recordId);
			Object.assign(item, fields);
			// Redaction learns from the whole record, also where Simplify leaves parts of it out.
			if (whole) learnAlongside(item, whole);
		}
		const output = await redactBookmarkRecords(this.getNodeParameter('options', {}) as IDataObject, [item]);
		return { workflowData: [this.helpers.returnJsonArray(output)] };
	}
}

/**
 * The event's record, or why there is none: `deleted` (the event says so, or Karakeep no longer
 * has it), `unavailable` (the read failed or took too long; `recordError` says which). Never throws:
 * an event whose record cannot be read is still emitted. `whole` is the record as read, before Simplify.
 */
async function recordOf(
	ctx: IWebhookFunctions,
	adapter: BookmarkAdapter,
	event: string,
	recordId: string,
): Promise<{ fields: IDataObject; whole?: IDataObject }> {
	if (event === 'deleted') return { fields: { record: null, recordStatus: 'deleted' } };
	try {
		const read = (async () => {
			const whole = await adapter.getRecord(ctx, recordId);
			if (!(ctx.getNodeParameter('simplify', true) as boolean)) return { record: whole, whole };
			const [simplified] = await simplifyBookmarks(ctx, [whole]);
			return { record: simplified, whole };
		})();
		const outcome = await withinDeadline(read, RECORD_WAIT_MS);
		if (outcome.late) {
			return {
				fields: {
					record: null,
					recordStatus: 'unavailable',
					recordError: `The record did not come within ${RECORD_WAIT_MS / 1000} s`,
				},
			};
		}
		const { record, whole } = outcome.value;
		return { fields: { record, recordStatus: 'found' }, whole };
	} catch (error) {
		if (error instanceof NodeApiError && error.httpCode === '404') {
			return { fields: { record: null, recordStatus: 'deleted' } };
		}
		return { fields: { record: null, recordStatus: 'unavailable', recordError: (error as Error).message } };
	}
}
