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
	deliveryScope,
	MANUAL_REGISTRATION_WEBHOOK_METHODS,
	rejectBadRequest,
	rejectUnauthorized,
	secretsMatch,
	withinDeadline,
} from '../shared/webhooks';
import { docsSection } from '../shared/docs';
import { learnAlongside } from '../shared/privacy';
import { BOOKMARKS_WEBHOOK_TRIGGER_DESCRIPTION } from '../shared/nodeDescriptions';
import { adapterFor, type BookmarkAdapter, bookmarkApis, webhookEventOptions } from './adapters';
import { bookmarkApiTest } from './credentialTest';
import { bookmarksTriggerPersonalDataOptions, redactBookmarkRecords } from './personalData';
import { simplifyBookmarks } from './resources/bookmark/simplify';
import {
	beforeAiTags,
	CHANGE_EVENT_VALUES,
	CHANGE_EVENTS,
	type ChangeEvent,
	compare,
	isOlderThan,
	nameRemovedTags,
	RECENT_DELIVERIES_PER_RECORD,
	type RecordChange,
	remember,
	removesTags,
	webhookRecordMemory,
} from './changes';
import type { BookmarkEvent, BookmarkWebhooks } from './adapters/types';

/** The change events some API's webhooks can carry, as Events offers them beside the API's own. */
const webhookChangeEvents = (() => {
	const carried = new Set(
		webhookApis().flatMap((webhooks) => Object.values(webhooks.changes?.comparedOn ?? {}).flat()),
	);
	return CHANGE_EVENTS.filter((event) => carried.has(event.value)).map((event) => ({
		...event,
		description: `${event.description} (told by comparing the record after the service’s Edited and AI Tagged deliveries)`,
	}));
})();

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
				options: [...webhookEventOptions, ...webhookChangeEvents].sort((a, b) => a.name.localeCompare(b.name)),
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
				description: `Whether to return a simplified version of the record (${SIMPLIFIED_SHAPE}) instead of the raw data, with Include Record and in change events (Archived, Tags Added…)`,
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
		const chosen = this.getNodeParameter('events', []) as string[];
		const compared = (webhooks.changes?.comparedOn[delivery.event] ?? []).filter((event) => chosen.includes(event));
		const learns =
			(webhooks.changes?.learnedOn.includes(delivery.event) ?? false) && chosen.some((event) => CHANGE_EVENT_VALUES.has(event));
		const wantsEvent = chosen.includes(delivery.event);
		if (!wantsEvent && compared.length === 0 && !learns) return ACKNOWLEDGE_ONLY;

		// Read and compared before the delivery is admitted: a failed read answers an error, and Karakeep sends it again.
		const changed = compared.length || learns ? await changesOf(this, adapter, delivery, new Set(compared)) : undefined;
		const changeItems = changed?.changes.map((change) => ({
			event: change.event,
			deliveryId: `${delivery.deliveryId}:${change.event}`,
			recordId: delivery.recordId,
			...delivery.beyond,
			changes: change.changes,
			record: changed.record,
			recordStatus: 'found',
		}));
		if (!wantsEvent && !changeItems?.length) return ACKNOWLEDGE_ONLY;
		const refusal = await admitDelivery(this, delivery.deliveryId);
		if (refusal) return refusal;
		if (!wantsEvent) {
			if (changed?.whole) for (const item of changeItems!) learnAlongside(item, changed.whole);
			const output = await redactBookmarkRecords(this.getNodeParameter('options', {}) as IDataObject, changeItems!);
			return { workflowData: [this.helpers.returnJsonArray(output)] };
		}

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
		const items = [item, ...(changeItems ?? [])];
		if (changed?.whole) for (const changeItem of changeItems ?? []) learnAlongside(changeItem, changed.whole);
		const output = await redactBookmarkRecords(this.getNodeParameter('options', {}) as IDataObject, items);
		return { workflowData: [this.helpers.returnJsonArray(output)] };
	}
}

/**
 * The changes a delivery stands for: the record read now, compared with what this trigger last knew
 * of it, which is then the record read. A record the trigger did not know is learned (nothing is
 * emitted for it, except the tags an AI tagged delivery is about). A retry of a delivery gives its
 * changes again (n8n may have failed to start its execution); a read older than what is known
 * (it overtook another) changes nothing. The comparison and the memory's update are one synchronous
 * step after the read, so two deliveries at once do not both report one change.
 */
async function changesOf(
	ctx: IWebhookFunctions,
	adapter: BookmarkAdapter,
	delivery: BookmarkEvent,
	events: ReadonlySet<ChangeEvent>,
): Promise<{ changes: RecordChange[]; record?: IDataObject; whole?: IDataObject }> {
	// Deleted since: nothing left to compare. Any other failure answers the delivery with an error.
	const whole = await adapter
		.getRecord(ctx, delivery.recordId)
		.catch((error: Error) => (error instanceof NodeApiError && error.httpCode === '404' ? undefined : Promise.reject(error)));
	if (!whole) return { changes: [] };
	const scope = deliveryScope(ctx);
	const known = webhookRecordMemory.get(scope, delivery.recordId);
	const retried = known?.recent.find((recent) => recent.deliveryId === delivery.deliveryId);
	let changes: RecordChange[];
	if (retried) changes = retried.changes;
	else if (known && isOlderThan(whole, known.memory)) changes = [];
	else {
		const before = known?.memory ?? (delivery.event === 'ai tagged' ? beforeAiTags(whole) : undefined);
		changes = before ? compare(before, whole, events) : [];
		webhookRecordMemory.set(scope, delivery.recordId, {
			memory: remember(whole, before),
			recent: [...(known?.recent ?? []), { deliveryId: delivery.deliveryId, changes }].slice(-RECENT_DELIVERIES_PER_RECORD),
		});
	}
	if (!changes.length) return { changes };
	if (removesTags(changes)) {
		const tags = await adapter.listTags(ctx);
		changes = nameRemovedTags(changes, new Map(tags.map((tag) => [String(tag.id), String(tag.name)])));
	}
	const record = (ctx.getNodeParameter('simplify', true) as boolean) ? (await simplifyBookmarks(ctx, [whole]))[0] : whole;
	return { changes, record, whole };
}

/** The webhooks of every API that sends them. */
function webhookApis(): BookmarkWebhooks[] {
	return bookmarkApis.adapters.flatMap((adapter) => (adapter.webhooks ? [adapter.webhooks] : []));
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
