import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiAdapter } from '../../shared/adapterRegistry';
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
