import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../shared/credentialTest';
import type { BookmarkWebhooks } from './types';

/**
 * Karakeep's webhook deliveries (apps/workers/workers/webhookWorker.ts at 7ca5ee2, `runWebhook`):
 * a POST of `{jobId, bookmarkId, userId, url?, type?, operation}` with `Authorization: Bearer
 * <token>` when the webhook has a token; no signature, no delivery id. `jobId` is the queue job's
 * id, the same on every attempt and re-run of one event and unique per event, so `jobId` plus
 * `operation` recognises a redelivery. test/karakeep/webhooks.test.ts pins this against the real worker.
 */
const EVENTS = [
	{
		name: 'AI Tagged',
		value: 'ai tagged',
		action: 'On Bookmark AI-Tagged',
		description: 'Karakeep’s AI attached tags to a record',
	},
	{
		name: 'Crawled',
		value: 'crawled',
		action: 'On Bookmark Crawled',
		description: 'Karakeep fetched a link’s page (title, description, content)',
	},
	{ name: 'Created', value: 'created', action: 'On Bookmark Created', description: 'A record was stored' },
	{ name: 'Deleted', value: 'deleted', action: 'On Bookmark Deleted', description: 'A record was deleted' },
	{
		name: 'Edited',
		value: 'edited',
		action: 'On Bookmark Edited',
		description: 'A record was changed (title, note, archived, favourited…), or a stored URL was saved again',
	},
];

const OPERATIONS = new Set(EVENTS.map((event) => event.value));

export const karakeepWebhooks: BookmarkWebhooks = {
	events: EVENTS,
	setup: 'a webhook in Karakeep under Settings → Webhooks with this trigger’s URL and a Token, and the same token as Webhook Token in the credential',
	parseDelivery(body) {
		if (!isObject(body)) return undefined;
		const { jobId, bookmarkId, operation } = body;
		if (typeof jobId !== 'string' || jobId === '' || typeof bookmarkId !== 'string' || bookmarkId === '') return undefined;
		if (typeof operation !== 'string' || !OPERATIONS.has(operation)) return undefined;
		const beyond: IDataObject = { jobId, userId: body.userId ?? null, url: body.url ?? null, type: body.type ?? null };
		return { event: operation, deliveryId: `${jobId}:${operation}`, recordId: bookmarkId, beyond };
	},
	// `edited` is sent for a PATCH (title, note, archived, favourited, summary…), a tag attached or
	// detached by a person and a re-save (packages/trpc/routers/bookmarks.ts); `ai tagged` after the
	// AI attached tags (apps/workers/workers/inference/tagging.ts). Lists and highlights send none.
	changes: {
		comparedOn: {
			edited: ['archived', 'unarchived', 'favourited', 'unfavourited', 'tagsAdded', 'tagsRemoved', 'titleOrNoteChanged', 'summaryAdded'],
			'ai tagged': ['tagsAdded'],
		},
		learnedOn: ['created', 'crawled'],
	},
};
