import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiAdapter } from '../../shared/adapterRegistry';
import type { StreamedFileSource } from '../../shared/multipart';
import type { RequestContext, ServiceAnswer } from '../../shared/request';

/**
 * One e-signature API as the Signing nodes use it: the documented API (CONTRACTS.md, the
 * default) or a platform's own (Documenso's API v2). Operations and the trigger call only this
 * and get the documented shapes back, with whatever else the API returns kept beside them; a new
 * API is one more adapter.
 */
export interface SigningAdapter extends ApiAdapter {
	/** How this API's IDs look, for hints and errors: "doc_…", "a number such as 1001". */
	readonly idLooks: { document: string; template: string; recipient: string };
	/** A document or recipient ID as the API's own records give it (Documenso: a number), for outputs that repeat one. */
	outputId(id: string): string | number;
	/** The statuses Cancel accepts, and what to tell a user whose document is in another. */
	readonly cancellable: { statuses: readonly string[]; hint: string };

	/** Templates, newest first (all when `limit` is undefined), in the documented template shape. */
	listTemplates(ctx: RequestContext, limit?: number, itemIndex?: number): Promise<IDataObject[]>;
	/** One template: `recipients` (`placeholder`, `role`; a slot `id` where the API has slots) and prefillable `fields`. */
	getTemplate(ctx: RequestContext, templateId: string, itemIndex?: number): Promise<IDataObject>;

	/** Creates a document from a template: the documented generate answer (`documentId`, recipients with `signingUrl`). */
	generate(ctx: IExecuteFunctions, input: GenerateInput, itemIndex: number): Promise<IDataObject>;
	/** A document as the documented Get returns it. */
	getDocument(ctx: IExecuteFunctions, documentId: string, itemIndex: number): Promise<IDataObject>;
	/** Documents, newest first, each exactly once (see `readNumberedPages`). */
	listDocuments(
		ctx: IExecuteFunctions,
		filter: DocumentFilter,
		limit: number | undefined,
		itemIndex: number,
	): Promise<IDataObject[]>;
	/** Sends a draft's invitations; the document as it is then. */
	send(ctx: IExecuteFunctions, documentId: string, itemIndex: number): Promise<IDataObject>;
	/** Reminds the given recipients (each once), or every signer and approver who has not signed: `{ resent }`. */
	resend(
		ctx: IExecuteFunctions,
		documentId: string,
		recipientIds: string[] | 'allPending',
		itemIndex: number,
	): Promise<IDataObject>;
	/** Cancels the document, or says which status kept it from being cancelled. */
	cancel(ctx: IExecuteFunctions, documentId: string, itemIndex: number): Promise<CancelOutcome>;
	/**
	 * The PDF of a document already read with `getDocument`: its bytes as a stream (`GET`), or only
	 * the headers (`HEAD`). An `error` when the service says the signed version does not exist yet.
	 */
	downloadFile(
		ctx: IExecuteFunctions,
		document: IDataObject,
		file: { documentId: string; version: 'signed' | 'original'; method: 'GET' | 'HEAD'; timeoutMs?: number },
		itemIndex: number,
	): Promise<ServiceAnswer<unknown>>;
	/** The document's audit events, oldest first, each with the documented fields. */
	auditLog(ctx: IExecuteFunctions, documentId: string, itemIndex: number): Promise<IDataObject[]>;

	/** How this API's webhooks prove where they come from, and the events it sends beyond the documented ones. */
	readonly webhooks: WebhookRules;
	/** A delivery's body as the documented event, or undefined when it is not one of this API's deliveries. */
	parseDelivery(delivery: DeliveryReceived, context: { baseUrl?: string }): SigningEvent | undefined;

	/*
	 * Optional capabilities: what only some APIs can do, each a group of related calls. An operation
	 * takes one with `signingApis.capability(...)`, which refuses at once on an API that lacks it.
	 */
	/** Documents (and templates) made from a PDF the workflow gives, with recipients and fields placed on it. */
	readonly uploads?: SigningUploads;
	/** The recipients of a document not finished yet: add, change, remove, read. */
	readonly recipients?: SigningRecipients;
	/** The fields of a document not finished yet: add (at a text or a position), change, remove, read. */
	readonly fields?: SigningFields;
	/** Deleting, changing and copying documents. */
	readonly documents?: SigningDocuments;
	/** Changing, copying and deleting templates. */
	readonly templates?: SigningTemplates;
	/** Folders of documents and templates, and what is filed in them. */
	readonly folders?: SigningFolders;
	/** A document's several PDFs, and the reports the API makes of it (audit log, signing certificate) as PDFs. */
	readonly files?: SigningFiles;
	/** Links shown to signers beside the document. */
	readonly attachments?: SigningAttachments;
	/** The PDFs a document is made of, as files to list, rename, reorder or remove. */
	readonly documentFiles?: SigningDocumentFiles;
}

export interface SigningDocumentFiles {
	list(ctx: IExecuteFunctions, documentId: string, itemIndex: number): Promise<IDataObject[]>;
	update(ctx: IExecuteFunctions, documentId: string, fileId: string, changes: { title?: string; order?: number }, itemIndex: number): Promise<IDataObject>;
	remove(ctx: IExecuteFunctions, documentId: string, fileId: string, itemIndex: number): Promise<IDataObject>;
}

export interface DocumentFile {
	id: string;
	title: string;
}

export interface FileRequest {
	method: 'GET' | 'HEAD';
	timeoutMs?: number;
}

export interface SigningFiles {
	/** The PDFs of a document read with `getDocument` when it has more than one; empty when it has one. */
	list(ctx: IExecuteFunctions, document: IDataObject, itemIndex: number): Promise<DocumentFile[]>;
	/** One of them, as `downloadFile` gives the document's. */
	download(
		ctx: IExecuteFunctions,
		file: DocumentFile,
		request: FileRequest & { version: 'signed' | 'original' },
		itemIndex: number,
	): Promise<ServiceAnswer<unknown>>;
	/** The audit log or the signing certificate (completed documents) of a document, as a PDF. */
	report(
		ctx: IExecuteFunctions,
		document: IDataObject,
		report: 'auditLog' | 'certificate',
		request: FileRequest,
		itemIndex: number,
	): Promise<ServiceAnswer<unknown>>;
}

export interface SigningAttachments {
	add(ctx: IExecuteFunctions, documentId: string, link: { label: string; url: string }, itemIndex: number): Promise<IDataObject>;
	list(ctx: IExecuteFunctions, documentId: string, itemIndex: number): Promise<IDataObject[]>;
	remove(ctx: IExecuteFunctions, attachmentId: string, itemIndex: number): Promise<IDataObject>;
}

export interface DocumentChanges {
	title?: string;
	subject?: string;
	message?: string;
	externalId?: string;
	/** A folder's ID, or null for the root. */
	folderId?: string | null;
}

export interface SigningDocuments {
	/** What became of it: `deleted` (gone for good) or `hidden` (a finished document kept out of lists). */
	delete(ctx: IExecuteFunctions, documentId: string, itemIndex: number): Promise<IDataObject>;
	update(ctx: IExecuteFunctions, documentId: string, changes: DocumentChanges, itemIndex: number): Promise<IDataObject>;
	/** A new draft with the same file, recipients and fields. */
	duplicate(ctx: IExecuteFunctions, documentId: string, itemIndex: number): Promise<IDataObject>;
}

export interface SigningTemplates {
	createFromFile(ctx: IExecuteFunctions, input: Omit<CreateFromFileInput, 'distribute' | 'distribution' | 'meta'>, itemIndex: number): Promise<IDataObject>;
	update(ctx: IExecuteFunctions, templateId: string, changes: Omit<DocumentChanges, 'subject' | 'message'>, itemIndex: number): Promise<IDataObject>;
	duplicate(ctx: IExecuteFunctions, templateId: string, itemIndex: number): Promise<IDataObject>;
	delete(ctx: IExecuteFunctions, templateId: string, itemIndex: number): Promise<IDataObject>;
}

export type FolderKind = 'DOCUMENT' | 'TEMPLATE';

export interface SigningFolders {
	list(ctx: RequestContext, kind: FolderKind | undefined, itemIndex?: number): Promise<IDataObject[]>;
	create(ctx: IExecuteFunctions, folder: { name: string; kind: FolderKind; parentId?: string }, itemIndex: number): Promise<IDataObject>;
	update(ctx: IExecuteFunctions, folderId: string, changes: { name?: string; parentId?: string | null }, itemIndex: number): Promise<IDataObject>;
	delete(ctx: IExecuteFunctions, folderId: string, itemIndex: number): Promise<IDataObject>;
	/**
	 * Documents (or templates) of one folder, or of every folder (`all`: the root, then each folder,
	 * one list read per folder and per 100 records), newest first, in the documented shapes.
	 */
	listIn(
		ctx: RequestContext,
		kind: FolderKind,
		folder: string | 'all',
		filter: DocumentFilter,
		limit: number | undefined,
		itemIndex?: number,
	): Promise<IDataObject[]>;
}

export interface SigningRecipients {
	add(ctx: IExecuteFunctions, documentId: string, recipient: UploadRecipient, itemIndex: number): Promise<IDataObject>;
	update(ctx: IExecuteFunctions, recipientId: string, changes: Partial<UploadRecipient>, itemIndex: number): Promise<IDataObject>;
	remove(ctx: IExecuteFunctions, recipientId: string, itemIndex: number): Promise<IDataObject>;
	get(ctx: IExecuteFunctions, recipientId: string, itemIndex: number): Promise<IDataObject>;
	/** Records that a recipient who has not acted declined outside the platform: the document ends rejected. */
	reject(ctx: IExecuteFunctions, recipientId: string, reason: string, itemIndex: number): Promise<IDataObject>;
}

/** A field to add to a document: whose it is by recipient ID or e-mail address. */
export type DraftField = Omit<FieldPlacement, 'recipient'> & { recipient: string };

export interface FieldChanges {
	position?: Partial<{ page: number; x: number; y: number; width: number; height: number }>;
	meta?: IDataObject;
}

export interface SigningFields {
	/** The fields made (several for a text found more than once with `matchAll`). */
	add(ctx: IExecuteFunctions, documentId: string, field: DraftField, itemIndex: number): Promise<IDataObject[]>;
	update(ctx: IExecuteFunctions, fieldId: string, changes: FieldChanges, itemIndex: number): Promise<IDataObject>;
	remove(ctx: IExecuteFunctions, fieldId: string, itemIndex: number): Promise<IDataObject>;
	get(ctx: IExecuteFunctions, fieldId: string, itemIndex: number): Promise<IDataObject>;
}

/** A recipient of a document made from a file. */
export interface UploadRecipient {
	name: string;
	email: string;
	role: string;
	signingOrder?: number;
}

/** Where a field goes: at a text in the PDF (every occurrence with `matchAll`), or at a position in percent of the page. */
export type FieldPosition =
	| { placeholder: string; width?: number; height?: number; matchAll?: boolean }
	| { page: number; x: number; y: number; width: number; height: number };

/** A field to place for one recipient. */
export interface FieldPlacement {
	/** Index of the recipient in the recipients given (counted from 0). */
	recipient: number;
	/** The API's field type (Documenso: SIGNATURE, INITIALS, NAME, EMAIL, DATE, TEXT, NUMBER, CHECKBOX…). */
	type: string;
	position: FieldPosition;
	/** The field's settings beyond its type (label, required…), as the API takes them. */
	meta?: IDataObject;
	/** The field as the form names it, for errors: "Fields › Placeholder (field 2)". */
	label: string;
}

export interface CreateFromFileInput {
	title: string;
	file: StreamedFileSource;
	recipients: UploadRecipient[];
	fields: FieldPlacement[];
	/** Send at once (true) or leave a draft. */
	distribute: boolean;
	/** How recipients get their invitation: by e-mail, or not at all (the signing links are returned). */
	distribution: 'EMAIL' | 'NONE';
	signingOrder?: 'PARALLEL' | 'SEQUENTIAL';
	meta?: { subject?: string; message?: string; redirectUrl?: string };
	externalId?: string;
	/** With `externalId`: what to do when a document with it exists already. */
	ifExists: 'create' | 'fail' | 'return';
	folderId?: string;
}

export interface SigningUploads {
	/** Uploads the PDF and makes a document of it (sent, or left a draft); the document as Get returns it. */
	createDocument(ctx: IExecuteFunctions, input: CreateFromFileInput, itemIndex: number): Promise<IDataObject>;
	/** The most bytes the server takes in one file, for the check before uploading. */
	readonly defaultSizeLimitMb: number;
}

export interface DocumentFilter {
	status?: string;
	templateId?: string;
}

/** A recipient as the node read it, before it is matched to the template. */
export interface RecipientInput {
	name: string;
	email: string;
	/** Undefined when the input gave none (JSON without "role"): the documented API then means SIGNER. */
	role?: string;
	/** The template slot chosen for this person, when one was. */
	slot?: string;
	/** Counted from 0, as the input lists them (for error messages). */
	position: number;
}

export interface PrefillValue {
	/** The template field's ID. */
	id: string;
	/** The value as the documented API wants it (a string of the field's type). */
	value: string;
	/** The template field, in the documented template shape (with the API's own fields beside). */
	field: IDataObject;
}

/**
 * A recipient and the template slot it fills; `slot` undefined for a recipient no slot was chosen
 * for (where slots are not required), `recipient` undefined for a slot the template keeps.
 */
export interface SlotAssignment {
	slot?: IDataObject;
	recipient?: RecipientInput;
}

export interface GenerateInput {
	templateId: string;
	title: string;
	recipients: RecipientInput[];
	meta?: { subject?: string; message?: string; redirectUrl?: string };
	distribute: boolean;
	/** Whether any prefill value was given (the documented API reads the template only then). */
	hasPrefill: boolean;
	/** The prefill values, checked against the template's fields. */
	prefill(template: IDataObject): PrefillValue[];
	/**
	 * Matches the recipients to the template's slots (by slot, role or order) and checks them:
	 * with `everySlot`, a slot nobody was given is an error unless the user chose to keep the
	 * template's own recipient there (never a placeholder address).
	 */
	assignSlots(template: IDataObject, options: { everySlot: boolean }): SlotAssignment[];
}

export type CancelOutcome =
	| { cancelled: IDataObject }
	/** Not cancelled: the document's status; `repeated` when the request had to be sent again. */
	| { refused: { status: string; repeated: boolean } };

export interface WebhookRules {
	/** The header the secret comes in (lower case, as n8n gives headers). */
	secretHeader: string;
	/** Whether a delivery is refused while the credential has no Webhook Secret. */
	secretRequired: boolean;
	/** The body this API's deliveries have, for the refusal of anything else. */
	shape: string;
	/** Where the user enters the trigger's URL and secret, for the log line of a refusal. */
	setup: string;
	/** How to point this API's webhooks at the trigger, for the trigger's notice (after the documented API's). */
	notice?: string;
	/** Events this API sends that the documented API has not, offered in the trigger as "<name> (<API>)". */
	extraEvents: EventOption[];
	/** This API's own names of events, by the trigger's name for them (Documenso: DOCUMENT_SIGNED → document.signed). */
	eventAliases: Record<string, string>;
}

/** An event the Signing Trigger offers. */
export interface EventOption {
	name: string;
	value: string;
	description: string;
	/** How n8n's nodes panel names the trigger for it ("On Document Completed"). */
	action?: string;
}

/** A delivery as the trigger received it. */
export interface DeliveryReceived {
	/** Lower-case names, as n8n gives them. */
	headers: IDataObject;
	body: unknown;
	/** The body's bytes as received. */
	rawBody: Buffer;
}

/** A delivery in the documented event's terms. */
export interface SigningEvent {
	/** The documented event name (`document.signed`), or the name of one of the API's extra events. */
	event: string;
	/** When the delivery was made (the documented `createdAt`). */
	createdAt: unknown;
	/** What tells a redelivery of this delivery apart from another delivery (the same on every attempt). */
	deliveryKey: string;
	/**
	 * Where one delivery can stand for several recipients' events (Documenso reads the document for
	 * its signed events after the signing committed, so two signers close together are both in both
	 * deliveries): each recipient's event, oldest first, with a key of its own. The trigger emits
	 * those not emitted before, one item each, in place of `deliveryKey`.
	 */
	byRecipient?: Array<{ deliveryKey: string; recipient: IDataObject }>;
	/** The document as the documented payload has it, with `recipient` (who acted) where that is known. */
	payload: IDataObject;
	/** What the API sends beyond the documented event (Documenso: its event name, its webhook URL). */
	beyond: IDataObject;
}
