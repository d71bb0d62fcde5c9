import type { IDataObject } from 'n8n-workflow';

import type { ApiAdapter } from '../../shared/adapterRegistry';
import type { StreamedFileSource } from '../../shared/multipart';
import type { RequestContext, ServiceAnswer } from '../../shared/request';
import type { ChangeEvent } from '../changes';

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

/** A list's fields beyond the documented ones (Karakeep): a smart list's query, the list it is nested in. */
export interface ListKindFields extends ListFields {
	/** A saved search (Karakeep's query language, qualifiers only: `#tag`, `is:fav`, `list:name`…): a smart list. */
	query?: string;
	/** The list this one is nested in; `null` moves it to the top. */
	parentId?: string | null;
}

/** A record's fields beyond the documented ones, as Karakeep edits them (`PATCH /bookmarks/{id}`). */
export interface MoreRecordChanges {
	summary?: string | null;
	/** A link's URL. */
	url?: string;
	description?: string | null;
	author?: string | null;
	publisher?: string | null;
	datePublished?: string | null;
	dateModified?: string | null;
	/** When the record was saved: where it stands in Karakeep's order (newest first). */
	createdAt?: string;
	/** A text record's text. */
	text?: string;
	/** An asset record's extracted text (what OCR gives). */
	assetContent?: string | null;
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

/** Which change events (issue 44) an API's webhook deliveries can carry, by the API's event name. */
export interface WebhookChanges {
	/** Deliveries after which the record is read again and compared: the events each can give. */
	comparedOn: Record<string, ChangeEvent[]>;
	/** Deliveries that only teach the trigger a record (a new one): read and remembered, nothing emitted unless chosen. */
	learnedOn: string[];
}

/** Webhooks of an API that sends them. */
export interface BookmarkWebhooks {
	/** The events the API sends, with the words the trigger shows for them. */
	events: Array<{ name: string; value: string; description: string; action?: string }>;
	/** Where a user registers the webhook and sets its token, for refusals logged. */
	setup: string;
	/** A delivery's body as an event; undefined when it is not one of this API's deliveries. */
	parseDelivery(body: unknown): BookmarkEvent | undefined;
	/** The change events its deliveries can be turned into. */
	readonly changes?: WebhookChanges;
}

/** Tags managed one by one (Karakeep): a tag is `{ id, name, bookmarkCount }` and what the API gives beyond. */
export interface TagManagement {
	create(ctx: RequestContext, name: string, itemIndex: number): Promise<IDataObject>;
	get(ctx: RequestContext, tagId: string, itemIndex: number): Promise<IDataObject>;
	rename(ctx: RequestContext, tagId: string, name: string, itemIndex: number): Promise<IDataObject>;
	/** Deletes a tag (its records stay, without it); the answer's `error` is set when it was not there. */
	delete(ctx: RequestContext, tagId: string, itemIndex: number): Promise<ServiceAnswer<unknown>>;
}

export interface HighlightFields {
	startOffset: number;
	endOffset: number;
	/** The text highlighted; `null` when not given. */
	text: string | null;
	note: string | null;
	color?: string;
}

/** A record's highlights (Karakeep): passages marked in its readable content, with a colour and a note. */
export interface Highlights {
	create(ctx: RequestContext, recordId: string, fields: HighlightFields, itemIndex: number): Promise<IDataObject>;
	get(ctx: RequestContext, highlightId: string, itemIndex: number): Promise<IDataObject>;
	/** One page of every highlight, newest first. */
	page(
		ctx: RequestContext,
		page: { limit: number; cursor: string | null },
		itemIndex: number,
	): Promise<{ highlights: IDataObject[]; nextCursor: string | null }>;
	/** Every highlight of one record (one request: the API does not page them). */
	ofRecord(ctx: RequestContext, recordId: string, itemIndex: number): Promise<IDataObject[]>;
	update(
		ctx: RequestContext,
		highlightId: string,
		changes: { color?: string; note?: string | null },
		itemIndex: number,
	): Promise<IDataObject>;
	/** The answer's `error` is set when it was not there. */
	delete(ctx: RequestContext, highlightId: string, itemIndex: number): Promise<ServiceAnswer<unknown>>;
}

/** One piece of a record's readable content, as the API cuts it. */
export interface ContentChunk {
	content: string;
	/** Where the piece is in the whole, in characters: `end` exclusive, `total` the whole's length. */
	range: { start: number; end: number; total: number };
	nextCursor: string | null;
	/** What the API says of the content beyond (Karakeep: `bookmarkType`, `contentVersion`). */
	beyond: IDataObject;
	/** Why a record has no content at all, when the API lets one tell (a file not read yet…). */
	emptyReason?: string;
}

/** A record's readable content, read piece by piece (Karakeep's `/bookmarks/{id}/content`). */
export interface ReadableContent {
	/**
	 * One piece of at most `maxChars` characters from `cursor` (the start when null). `changed` when
	 * the content changed since the cursor was given: read again from the start.
	 */
	chunk(
		ctx: RequestContext,
		recordId: string,
		read: { format: 'markdown' | 'text'; maxChars: number; cursor: string | null },
		itemIndex: number,
	): Promise<ContentChunk | 'changed'>;
	/** The most characters one piece may hold. */
	readonly maxCharsPerChunk: number;
}

/** What the API answered for an uploaded file. */
export interface UploadedAsset extends IDataObject {
	assetId: string;
	contentType: string;
	size: number;
	fileName: string;
}

/** Files kept by the API (Karakeep's assets): uploaded, made a record of, attached to records, downloaded. */
/** A backup of the whole account (Karakeep: a zip archive made by its background worker). */
export interface Backups {
	/** Starts one; it is made in the background (status `pending`). */
	create(ctx: RequestContext, itemIndex: number): Promise<IDataObject>;
	list(ctx: RequestContext, itemIndex: number): Promise<IDataObject[]>;
	get(ctx: RequestContext, backupId: string, itemIndex: number): Promise<IDataObject>;
	/** The archive of a finished backup (its `assetId`), streamed; HEAD: only its headers. */
	download(ctx: RequestContext, assetId: string, method: 'GET' | 'HEAD', itemIndex: number): Promise<ServiceAnswer<unknown>>;
	/** The answer's `error` is set when it was not there (for If Already Deleted). */
	delete(ctx: RequestContext, backupId: string, itemIndex: number): Promise<ServiceAnswer<unknown>>;
}

export interface FeedFields {
	name?: string;
	url?: string;
	enabled?: boolean;
	importTags?: boolean;
}

/** RSS subscriptions whose entries the service saves as records. */
export interface Feeds {
	create(ctx: RequestContext, fields: FeedFields & { name: string; url: string; enabled: boolean }, itemIndex: number): Promise<IDataObject>;
	list(ctx: RequestContext, itemIndex: number): Promise<IDataObject[]>;
	update(ctx: RequestContext, feedId: string, fields: FeedFields, itemIndex: number): Promise<IDataObject>;
	/** The answer's `error` is set when it was not there (for If Already Deleted). */
	delete(ctx: RequestContext, feedId: string, itemIndex: number): Promise<ServiceAnswer<unknown>>;
	/** Asks the service to read the feed now (done in the background). */
	fetchNow(ctx: RequestContext, feedId: string, itemIndex: number): Promise<void>;
}

export interface Assets {
	/** The MIME types the API keeps as a record of their own, and the record's asset type for each. */
	readonly recordTypes: Readonly<Record<string, 'pdf' | 'image'>>;
	/** The MIME types it takes as a file at all (attachments included). */
	readonly uploadTypes: ReadonlySet<string>;
	/** The largest file the API takes unless its server is set otherwise, in MiB. */
	readonly defaultMaxMiB: number;
	/** Words for an upload refused as too large, naming the server's setting. */
	readonly sizeSetting: string;
	upload(ctx: RequestContext, file: StreamedFileSource, itemIndex: number): Promise<UploadedAsset>;
	/** A record of an uploaded file (no tags: attach them after). */
	createRecord(
		ctx: RequestContext,
		record: { assetId: string; assetType: 'pdf' | 'image'; fileName: string; title?: string; note?: string },
		itemIndex: number,
	): Promise<IDataObject>;
	/** The file's bytes (`GET`, a stream) or only its headers (`HEAD`). */
	download(
		ctx: RequestContext,
		assetId: string,
		method: 'GET' | 'HEAD',
		itemIndex: number,
	): Promise<ServiceAnswer<unknown>>;
	attach(
		ctx: RequestContext,
		recordId: string,
		assetId: string,
		assetType: string,
		itemIndex: number,
	): Promise<IDataObject>;
	/** Puts an uploaded file in the place of one of the record's; the old file is deleted. */
	replace(ctx: RequestContext, recordId: string, oldAssetId: string, newAssetId: string, itemIndex: number): Promise<void>;
	/** Takes a file off a record and deletes it; the answer's `error` is set when it was not there. */
	detach(ctx: RequestContext, recordId: string, assetId: string, itemIndex: number): Promise<ServiceAnswer<unknown>>;
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
	/**
	 * One record with its `listIds`; `complete`: also with the content an API leaves out of its
	 * usual answers (Karakeep: an asset's extracted text, a page's crawled HTML).
	 */
	getRecord(ctx: RequestContext, recordId: string, itemIndex?: number, complete?: boolean): Promise<IDataObject>;
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

	// Operations only some APIs have (bookmarkApis.capability names the APIs that have them).
	/** Tags created, read, renamed and deleted one by one. */
	readonly tags?: TagManagement;
	readonly highlights?: Highlights;
	readonly readableContent?: ReadableContent;
	/** A record's fields beyond title, note, archived and favourited. */
	readonly moreRecordFields?: {
		update(ctx: RequestContext, recordId: string, changes: RecordChanges & MoreRecordChanges, itemIndex: number): Promise<IDataObject>;
	};
	/** One list read by id; smart and nested lists. */
	readonly listKinds?: {
		get(ctx: RequestContext, listId: string, itemIndex: number): Promise<IDataObject>;
		create(ctx: RequestContext, fields: ListKindFields & { name: string }, itemIndex: number): Promise<IDataObject>;
		update(ctx: RequestContext, listId: string, fields: ListKindFields, itemIndex: number): Promise<IDataObject>;
	};
	/** The user's numbers: records by kind, tags, lists, highlights, storage. */
	readonly userStats?: { get(ctx: RequestContext, itemIndex: number): Promise<IDataObject> };
	readonly assets?: Assets;
	/** Whether a link is stored, without storing it: the record's id, or null. */
	readonly urlCheck?: { savedUnder(ctx: RequestContext, url: string, itemIndex: number): Promise<string | null> };
	/** The service's AI summary of a record, stored on it; answers the summary. */
	readonly summaries?: { summarize(ctx: RequestContext, recordId: string, itemIndex: number): Promise<string> };
	readonly backups?: Backups;
	readonly feeds?: Feeds;
}
