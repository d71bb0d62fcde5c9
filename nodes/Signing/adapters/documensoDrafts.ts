import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { credentialBaseUrl } from '../../shared/request';
import { documentedRecipient } from './documensoShapes';
import { documentEnvelopeId, getEnvelope, legacyIdOf, numericId } from './documensoEnvelopes';
import { documensoTransport } from './documensoTransport';
import type { SigningFields, SigningRecipients } from './types';

/**
 * The recipients and fields of a document on Documenso: the envelope routes
 * (packages/trpc/server/envelope-router/envelope-recipients/, envelope-fields/), which take the
 * envelope's `envelope_…` id. What Documenso allows is checked first, so that the user reads why
 * in words: nothing changes on a completed, rejected or cancelled document, nor a recipient who
 * has signed or filled a field in (canRecipientBeModified, packages/lib/utils/recipients.ts), and
 * CC and Viewer recipients have no fields (canRecipientFieldsBeModified).
 */
const { request } = documensoTransport;

const FINISHED = new Set(['COMPLETED', 'REJECTED', 'CANCELLED']);

/** The document's envelope (status, recipients, fields), by its number (1001) or its `envelope_…` id. */
async function documentEnvelope(ctx: IExecuteFunctions, documentId: string, itemIndex: number): Promise<IDataObject> {
	return await getEnvelope(ctx, await documentEnvelopeId(ctx, documentId, itemIndex), itemIndex);
}

const words = (envelope: IDataObject) => `Document ${legacyIdOf(envelope) ?? String(envelope.id)}`;

function mustBeChangeable(
	ctx: IExecuteFunctions,
	envelope: IDataObject,
	what: string,
	itemIndex: number,
): void {
	if (!FINISHED.has(String(envelope.status))) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`${words(envelope)} is ${String(envelope.status).toLowerCase()}: its ${what} can no longer be changed`,
		{
			itemIndex,
			description:
				'Documenso changes recipients and fields of drafts and of pending documents only. To send a corrected document, Duplicate it (or upload it again).',
		},
	);
}

function mustNotHaveActed(
	ctx: IExecuteFunctions,
	envelope: IDataObject,
	recipient: IDataObject,
	itemIndex: number,
): void {
	const filled = ((envelope.fields as IDataObject[] | undefined) ?? []).some(
		(field) => field.recipientId === recipient.id && field.inserted === true,
	);
	if (recipient.role === 'CC' || (recipient.signingStatus !== 'SIGNED' && !filled)) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`Recipient ${String(recipient.id)} (${String(recipient.email)}) has ${recipient.signingStatus === 'SIGNED' ? 'signed' : 'filled fields in'} already: Documenso keeps a recipient who has acted, with their fields`,
		{
			itemIndex,
			description: `${words(envelope)} is ${String(envelope.status).toLowerCase()}. Nothing was changed.`,
		},
	);
}

/** A recipient with the envelope it belongs to (`GET /envelope/recipient/{recipientId}`, then the envelope). */
async function recipientAndEnvelope(
	ctx: IExecuteFunctions,
	recipientId: string,
	itemIndex: number,
) {
	const id = numericId(ctx, recipientId, 'Recipient ID', itemIndex);
	const recipient = await request(ctx, {
		method: 'GET',
		path: `/api/v2/envelope/recipient/${id}`,
		itemIndex,
		errorHints: {
			404: `Check the Recipient ID: no recipient ${id} in this team's documents (Document → Get lists them as recipientId)`,
		},
	});
	return { recipient, envelope: await getEnvelope(ctx, String(recipient.envelopeId), itemIndex) };
}

async function shapedRecipient(
	ctx: IExecuteFunctions,
	recipient: IDataObject,
	envelope: IDataObject,
	itemIndex: number,
) {
	const baseUrl = await credentialBaseUrl(ctx, 'signingApi', itemIndex);
	return {
		documentId: legacyIdOf(envelope) ?? null,
		...documentedRecipient(recipient, baseUrl),
		envelopeId: envelope.id,
	};
}

export const documensoRecipients: SigningRecipients = {
	// POST /envelope/recipient/create-many (envelope-recipients/create-envelope-recipients.ts).
	async add(ctx, documentId, recipient, itemIndex) {
		const envelope = await documentEnvelope(ctx, documentId, itemIndex);
		mustBeChangeable(ctx, envelope, 'recipients', itemIndex);
		const { data } = await request<{ data: IDataObject[] }>(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/recipient/create-many',
			body: { envelopeId: String(envelope.id), data: [{ ...recipient }] },
			itemIndex,
		});
		return await shapedRecipient(ctx, data[0], envelope, itemIndex);
	},

	// POST /envelope/recipient/update-many (envelope-recipients/update-envelope-recipients.ts).
	async update(ctx, recipientId, changes, itemIndex) {
		const { recipient, envelope } = await recipientAndEnvelope(ctx, recipientId, itemIndex);
		mustBeChangeable(ctx, envelope, 'recipients', itemIndex);
		mustNotHaveActed(ctx, envelope, recipient, itemIndex);
		const { data } = await request<{ data: IDataObject[] }>(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/recipient/update-many',
			body: { envelopeId: String(envelope.id), data: [{ id: recipient.id, ...changes }] },
			itemIndex,
		});
		return await shapedRecipient(ctx, data[0], envelope, itemIndex);
	},

	// POST /envelope/recipient/delete (envelope-recipients/delete-envelope-recipient.ts): its fields go with it.
	async remove(ctx, recipientId, itemIndex) {
		const { recipient, envelope } = await recipientAndEnvelope(ctx, recipientId, itemIndex);
		mustBeChangeable(ctx, envelope, 'recipients', itemIndex);
		mustNotHaveActed(ctx, envelope, recipient, itemIndex);
		await request(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/recipient/delete',
			body: { recipientId: recipient.id as number },
			itemIndex,
		});
		return {
			recipientId: recipient.id,
			documentId: legacyIdOf(envelope) ?? null,
			envelopeId: envelope.id,
			removed: true,
		};
	},

	async get(ctx, recipientId, itemIndex) {
		const { recipient, envelope } = await recipientAndEnvelope(ctx, recipientId, itemIndex);
		return await shapedRecipient(ctx, recipient, envelope, itemIndex);
	},

	// POST /envelope/recipient/{recipientId}/reject (reject-envelope-recipient-on-behalf-of.ts): the
	// document must be pending and the recipient must not have signed (reject-document-on-behalf-of.ts);
	// Documenso then seals it as rejected and e-mails the other recipients that it was cancelled.
	async reject(ctx, recipientId, reason, itemIndex) {
		const { recipient, envelope } = await recipientAndEnvelope(ctx, recipientId, itemIndex);
		if (envelope.status !== 'PENDING') {
			throw new NodeOperationError(
				ctx.getNode(),
				`${words(envelope)} is ${String(envelope.status).toLowerCase()}: only a pending document can be rejected on a recipient's behalf`,
				{ itemIndex, description: 'A draft has not been sent yet (Delete it instead); a finished document stays as it is. Nothing was changed.' },
			);
		}
		if (recipient.signingStatus !== 'NOT_SIGNED') {
			throw new NodeOperationError(
				ctx.getNode(),
				`Recipient ${String(recipient.id)} has ${String(recipient.signingStatus) === 'SIGNED' ? 'signed' : 'rejected'} already: Documenso records one answer per recipient`,
				{ itemIndex, description: 'Nothing was changed.' },
			);
		}
		const rejected = await request(ctx, {
			method: 'POST',
			path: `/api/v2/envelope/recipient/${String(recipient.id)}/reject`,
			body: { envelopeId: String(envelope.id), reason },
			itemIndex,
		});
		return await shapedRecipient(ctx, rejected, envelope, itemIndex);
	},
};

/** A field with its ID under the documented name and the document it is on. */
const shapedField = (field: IDataObject, envelope: IDataObject): IDataObject => ({
	fieldId: field.id,
	documentId: legacyIdOf(envelope) ?? null,
	...field,
});

async function fieldAndEnvelope(ctx: IExecuteFunctions, fieldId: string, itemIndex: number) {
	const id = numericId(ctx, fieldId, 'Field ID', itemIndex);
	const field = await request(ctx, {
		method: 'GET',
		path: `/api/v2/envelope/field/${id}`,
		itemIndex,
		errorHints: {
			404: `Check the Field ID: no field ${id} in this team's documents (Document → Get lists them under fields)`,
		},
	});
	return { field, envelope: await getEnvelope(ctx, String(field.envelopeId), itemIndex) };
}

function fieldOwner(
	ctx: IExecuteFunctions,
	envelope: IDataObject,
	field: IDataObject,
	itemIndex: number,
): IDataObject {
	const owner =
		((envelope.recipients as IDataObject[] | undefined) ?? []).find(
			(recipient) => recipient.id === field.recipientId,
		) ?? {};
	mustNotHaveActed(ctx, envelope, owner, itemIndex);
	if (field.inserted === true) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Field ${String(field.id)} is filled in already: Documenso keeps it`,
			{ itemIndex },
		);
	}
	return owner;
}

export const documensoFields: SigningFields = {
	// POST /envelope/field/create-many (packages/lib/server-only/field/create-envelope-fields.ts).
	async add(ctx, documentId, field, itemIndex) {
		const envelope = await documentEnvelope(ctx, documentId, itemIndex);
		mustBeChangeable(ctx, envelope, 'fields', itemIndex);
		const recipients = (envelope.recipients as IDataObject[] | undefined) ?? [];
		const wanted = field.recipient.trim();
		const owner = recipients.find(
			(recipient) =>
				String(recipient.id) === wanted ||
				String(recipient.email).toLowerCase() === wanted.toLowerCase(),
		);
		if (!owner) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Recipient: "${wanted}" is not a recipient of ${words(envelope).toLowerCase()}`,
				{
					itemIndex,
					description: `Its recipients: ${recipients.map((recipient) => `${String(recipient.id)} ${String(recipient.email)}`).join(', ') || 'none'}. Give a recipient ID or e-mail address.`,
				},
			);
		}
		mustNotHaveActed(ctx, envelope, owner, itemIndex);
		if (owner.role === 'CC' || owner.role === 'VIEWER') {
			throw new NodeOperationError(
				ctx.getNode(),
				`Recipient ${String(owner.id)} is ${owner.role === 'CC' ? 'in CC' : 'a viewer'}: Documenso gives such recipients no fields`,
				{ itemIndex },
			);
		}
		const position =
			'placeholder' in field.position
				? field.position
				: {
						page: field.position.page,
						positionX: field.position.x,
						positionY: field.position.y,
						width: field.position.width,
						height: field.position.height,
					};
		const meta =
			field.meta && Object.keys(field.meta).length > 0 && field.type !== 'FREE_SIGNATURE'
				? { fieldMeta: { type: field.type.toLowerCase(), ...field.meta } }
				: {};
		const { data } = await request<{ data: IDataObject[] }>(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/field/create-many',
			body: {
				envelopeId: String(envelope.id),
				data: [{ type: field.type, ...meta, recipientId: owner.id, ...position }],
			},
			itemIndex,
		});
		return data.map((made) => shapedField(made, envelope));
	},

	/**
	 * POST /envelope/field/update-many (envelope-fields/update-envelope-fields.ts): the type is sent
	 * as it is. It changes the size and settings, never the place: the route hands `page`,
	 * `positionX` and `positionY` to updateEnvelopeFields, which reads `pageNumber`, `pageX` and
	 * `pageY` (packages/lib/server-only/field/update-envelope-fields.ts at v2.17.0), and answers 200
	 * with the field where it was. The route that places fields (set-envelope-fields.ts) is not
	 * public. So a move is refused before any request, saying how to move the field.
	 */
	async update(ctx, fieldId, changes, itemIndex) {
		const { page, x, y, width, height } = changes.position ?? {};
		const moves = [
			[page, 'Page'],
			[x, 'X (%)'],
			[y, 'Y (%)'],
		].flatMap(([value, name]) => (value === undefined ? [] : [`Update Fields › ${String(name)}`]));
		if (moves.length > 0) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${moves.join(', ')}: Documenso cannot move a field through its API`,
				{
					itemIndex,
					description:
						'Documenso 2.17 keeps a field where it is when its page or position is changed (its update route ignores them and answers as if it had moved it). Nothing was changed. To move a field, remove it (Field → Remove) and add it at the new place (Field → Add); its size, label and Required can be updated here.',
				},
			);
		}
		const { field, envelope } = await fieldAndEnvelope(ctx, fieldId, itemIndex);
		mustBeChangeable(ctx, envelope, 'fields', itemIndex);
		fieldOwner(ctx, envelope, field, itemIndex);
		const update: IDataObject = { id: field.id, type: field.type };
		if (width !== undefined) update.width = width;
		if (height !== undefined) update.height = height;
		if (changes.meta && Object.keys(changes.meta).length > 0 && field.type !== 'FREE_SIGNATURE') {
			update.fieldMeta = {
				...((field.fieldMeta as IDataObject | null) ?? {}),
				type: String(field.type).toLowerCase(),
				...changes.meta,
			};
		}
		const { data } = await request<{ data: IDataObject[] }>(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/field/update-many',
			body: { envelopeId: String(envelope.id), data: [update] },
			itemIndex,
		});
		return shapedField(data[0], envelope);
	},

	// POST /envelope/field/delete (envelope-fields/delete-envelope-field.ts).
	async remove(ctx, fieldId, itemIndex) {
		const { field, envelope } = await fieldAndEnvelope(ctx, fieldId, itemIndex);
		mustBeChangeable(ctx, envelope, 'fields', itemIndex);
		fieldOwner(ctx, envelope, field, itemIndex);
		await request(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/field/delete',
			body: { fieldId: field.id as number },
			itemIndex,
		});
		return {
			fieldId: field.id,
			documentId: legacyIdOf(envelope) ?? null,
			envelopeId: envelope.id,
			removed: true,
		};
	},

	async get(ctx, fieldId, itemIndex) {
		const { field, envelope } = await fieldAndEnvelope(ctx, fieldId, itemIndex);
		return shapedField(field, envelope);
	},
};
