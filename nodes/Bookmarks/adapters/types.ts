import type { IDataObject } from 'n8n-workflow';

import type { ApiAdapter } from '../../shared/adapterRegistry';
import type { RequestContext, ServiceAnswer } from '../../shared/request';

/** Get Many's filters in the documented API's terms (`GET /api/v1/bookmarks`). */
export interface BookmarkFilters {
	q?: string;
	/** One tag name. */
	tags?: string;
	listId?: string;
	archived?: 'true' | 'false';
	favourited?: 'true' | 'false';
	sortBy?: 'createdAt' | 'modifiedAt';
}

export interface NewRecord {
	type: 'link' | 'text';
	url?: string;
	text?: string;
	title?: string;
	note?: string;
	tags?: string[];
}

export interface RecordChanges {
	title?: string;
	note?: string;
	archived?: boolean;
	favourited?: boolean;
}

export interface ListFields {
	name?: string;
	icon?: string;
	description?: string;
}

export interface RecordPage {
	records: IDataObject[];
	nextCursor: string | null;
}

/** A tag as the documented API names it: `{ id, name }`, plus what the API gives beyond. */
export type TagRef = IDataObject & { id: string; name: string | null };

/** A webhook delivery in the Bookmarks Webhook Trigger's terms. */
export interface BookmarkEvent {
	/** The API's event name, e.g. "created", "ai tagged". */
	event: string;
	/** Stable across the API's attempts and re-runs of one event, unique per event. */
	deliveryId: string;
	recordId: string;
	/** What the delivery carries beyond, as the API sent it (Karakeep: jobId, userId, url, type). */
	beyond: IDataObject;
}

/** Webhooks of an API that sends them. */
export interface BookmarkWebhooks {
	/** The events the API sends, with the words the trigger shows for them. */
	events: Array<{ name: string; value: string; description: string; action?: string }>;
	/** Where a user registers the webhook and sets its token, for refusals logged. */
	setup: string;
	/** A delivery's body as an event; undefined when it is not one of this API's deliveries. */
	parseDelivery(body: unknown): BookmarkEvent | undefined;
}

/**
 * One bookmark API as the Bookmarks nodes use it: the documented API (CONTRACTS.md, the default)
 * or a platform's own (Karakeep). Operations, pickers and the trigger call only this and get the
 * documented shapes back, with whatever else the API returns kept beside them.
 */
export interface BookmarkAdapter extends ApiAdapter {
	/** Its webhooks; undefined for an API that sends none (the documented one). */
	readonly webhooks?: BookmarkWebhooks;

	/**
	 * Stores a record. When its URL is stored already, the stored record comes back unchanged
	 * with `alreadyExists: true` and the tags given are not attached; otherwise `alreadyExists: false`.
	 */
	createRecord(ctx: RequestContext, record: NewRecord, itemIndex: number): Promise<IDataObject>;
	/** One record with its `listIds`. */
	getRecord(ctx: RequestContext, recordId: string, itemIndex?: number): Promise<IDataObject>;
	/** One page of records, newest first (by `sortBy`), each filter applied. `listIds` may be missing: see `withListIds`. */
	recordPage(
		ctx: RequestContext,
		filters: BookmarkFilters,
		page: { limit: number; cursor: string | null },
		itemIndex?: number,
	): Promise<RecordPage>;
	/** The records with their `listIds`, for an API whose lists of records leave them out. */
	withListIds(ctx: RequestContext, records: IDataObject[], itemIndex?: number): Promise<IDataObject[]>;
	/** Applies the changes (at least one) and returns the record as it is now. */
	updateRecord(ctx: RequestContext, recordId: string, changes: RecordChanges, itemIndex: number): Promise<IDataObject>;
	/** Deletes a record; the answer's `error` is set when it was not there (for If Already Deleted). */
	deleteRecord(ctx: RequestContext, recordId: string, itemIndex: number): Promise<ServiceAnswer<unknown>>;
	/**
	 * Attaches tags by name (creating new ones), answering every tag named; or detaches them,
	 * answering only the tags the record had.
	 */
	changeTags(
		ctx: RequestContext,
		recordId: string,
		names: string[],
		change: 'attach' | 'detach',
		itemIndex: number,
	): Promise<TagRef[]>;
	/** Every tag, by name, with `bookmarkCount`. */
	listTags(ctx: RequestContext, itemIndex?: number): Promise<IDataObject[]>;
	/** Every list (`id`, `name`, `icon`, `description`), with `bookmarkCount` when `counted`. */
	listLists(ctx: RequestContext, itemIndex?: number, counted?: boolean): Promise<IDataObject[]>;
	createList(ctx: RequestContext, fields: ListFields & { name: string }, itemIndex: number): Promise<IDataObject>;
	updateList(ctx: RequestContext, listId: string, fields: ListFields, itemIndex: number): Promise<IDataObject>;
	/** Deletes a list (its records stay); the answer's `error` is set when it was not there. */
	deleteList(ctx: RequestContext, listId: string, itemIndex: number): Promise<ServiceAnswer<unknown>>;
	/**
	 * Adds a record to a list (adding it again is no error) or removes it; for a removal, the
	 * answer's `error` is set when the record was not in the list.
	 */
	changeMembership(
		ctx: RequestContext,
		listId: string,
		recordId: string,
		change: 'add' | 'remove',
		itemIndex: number,
	): Promise<ServiceAnswer<unknown>>;
}
