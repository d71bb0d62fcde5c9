import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { givesOneShape, simplifyParameter } from '../../../shared/simplify';

/**
 * The one shape of a signing document (issue 28), from the records the contract documents: the
 * document of `GET /api/v2/documents/{id}` (and of Get Many, Send and the webhook payload), and
 * the answer of `generate-document`, which names the document `documentId`. Every operation and
 * the trigger name the document `documentId`, as the service's own references do (`templateId`,
 * `recipientId`) and as a trigger item must, where `id` alone would be ambiguous. Adapters of
 * other signing platforms turn their records into the documented shape first. Pure functions.
 */
export function simplifyDocument(document: IDataObject): IDataObject {
	const simplified: IDataObject = {
		documentId: document.documentId ?? document.id ?? null,
		title: document.title ?? null,
		status: document.status ?? null,
		templateId: document.templateId ?? null,
		createdAt: document.createdAt ?? null,
		updatedAt: document.updatedAt ?? null,
		completedAt: document.completedAt ?? null,
		certifiedPackageUrl: document.certifiedPackageUrl ?? null,
		recipients: ((document.recipients as IDataObject[] | undefined) ?? []).map(simplifyRecipient),
	};
	// Where the service has no certified package URL but a page of the document (Documenso), its link.
	if (document.documentUrl !== undefined) simplified.documentUrl = document.documentUrl;
	return simplified;
}

/** A recipient: who, in which role, and how far they are; their signing link and reason when given. */
export function simplifyRecipient(recipient: IDataObject): IDataObject {
	const simplified: IDataObject = {
		recipientId: recipient.recipientId ?? null,
		name: recipient.name ?? null,
		email: recipient.email ?? null,
		role: recipient.role ?? null,
		signingStatus: recipient.signingStatus ?? null,
		signedAt: recipient.signedAt ?? null,
	};
	if (recipient.rejectionReason !== undefined) simplified.rejectionReason = recipient.rejectionReason;
	if (recipient.signingUrl !== undefined) simplified.signingUrl = recipient.signingUrl;
	return simplified;
}

/** Cancel's answer (`{ id, status }`): the same two fields under the one shape's names. */
export const simplifyCancelled = (answer: IDataObject): IDataObject => ({
	documentId: answer.id ?? null,
	status: answer.status ?? null,
	alreadyGone: answer.alreadyGone ?? false,
});

/**
 * A Signing Trigger event: what happened and when, then the document in the one shape, then the
 * recipient who acted (opened, signed, rejected; null for the other events) and the reason of a
 * rejection (null for the other events).
 */
export function simplifyEvent(
	event: string,
	eventAt: unknown,
	deliveryId: string,
	payload: IDataObject,
): IDataObject {
	const { recipient, ...document } = payload;
	const actor = recipient !== null && typeof recipient === 'object' ? (recipient as IDataObject) : undefined;
	return {
		event,
		eventAt: eventAt ?? null,
		deliveryId,
		...simplifyDocument(document),
		recipient: actor ? simplifyRecipient(actor) : null,
		rejectionReason: event === 'document.rejected' ? (actor?.rejectionReason ?? null) : null,
	};
}

const SHAPE = 'document ID, title, status, template, times, certified package URL and recipients';

/** Version 2's Simplify switch, for the document operations that return the document. */
export const simplifyDocumentParameter = (operations: string[]): INodeProperties =>
	simplifyParameter(SHAPE, { resource: ['document'], operation: operations });

/** The Signing Trigger's Simplify switch (version 2). */
export const simplifyTriggerParameter = simplifyParameter(SHAPE);

/** Version 2 with Simplify on (the default); version 1 returns what the service answered. */
export const wantsSimplified = (ctx: IExecuteFunctions, itemIndex: number): boolean =>
	givesOneShape(ctx) && (ctx.getNodeParameter('simplify', itemIndex, true) as boolean);
