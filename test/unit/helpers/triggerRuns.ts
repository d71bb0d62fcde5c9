import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { BookmarksTrigger } from '../../../nodes/Bookmarks/BookmarksTrigger.node';
import { SigningTrigger } from '../../../nodes/Signing/SigningTrigger.node';
import type { ReceivedDelivery } from '../../sandbox/testkit';
import { callWebhook, type Parameters, pollContext, type WebhookCall } from './context';

/*
 * The privacy corpus through the triggers (issue 32, item 4): deliveries a service really sent
 * handed to the Signing Trigger as n8n would, and the polling Bookmarks Trigger over a corpus
 * filed after its activation.
 */

/** Every signing event the trigger offers, the documented ones and Documenso's own. */
export const ALL_SIGNING_EVENTS = [
	'document.created',
	'document.sent',
	'document.opened',
	'document.signed',
	'document.completed',
	'document.rejected',
	'document.cancelled',
	'document.recipient_completed',
	'document.reminder_sent',
	'document.recipient_expired',
];

const signingTrigger = new SigningTrigger();
let runs = 0;

/**
 * The items of the executions the Signing Trigger starts for these deliveries, handed to it in
 * the order they arrived. Each call is a workflow of its own, so that the same deliveries can be
 * run through the trigger set in several ways (the trigger starts one execution per delivery and workflow).
 */
export async function signingTriggerItems(
	deliveries: ReceivedDelivery[],
	call: Partial<WebhookCall> & { options?: IDataObject },
): Promise<IDataObject[]> {
	const workflowId = `privacy-corpus-signing-${++runs}`;
	const { options, ...rest } = call;
	const items: IDataObject[] = [];
	for (const delivery of deliveries) {
		const outcome = await callWebhook(signingTrigger.webhook as (this: IWebhookFunctions) => Promise<IWebhookResponseData>, {
			workflowId,
			headers: delivery.headers as Record<string, string>,
			body: delivery.body,
			rawBody: delivery.rawBody,
			...rest,
			parameters: { events: ALL_SIGNING_EVENTS, ...(options ? { options } : {}), ...rest.parameters },
		});
		if (outcome.status !== undefined) throw new Error(`The trigger refused a delivery: ${outcome.status}`);
		items.push(...(outcome.result.workflowData?.[0] ?? []).map((item) => item.json));
	}
	return items;
}

const bookmarksTrigger = new BookmarksTrigger();

/** One poll of the Bookmarks Trigger (New Records) from this state; the items it emits. */
export async function pollBookmarks(
	credentials: Record<string, IDataObject>,
	staticData: Record<string, unknown>,
	parameters: Parameters = {},
	typeVersion = 1,
): Promise<IDataObject[]> {
	const { context } = pollContext({
		credentials,
		staticData,
		typeVersion,
		parameters: { watch: 'newRecords', ...parameters },
	});
	const output = await bookmarksTrigger.poll.call(context);
	return output ? output[0].map((item) => item.json) : [];
}
