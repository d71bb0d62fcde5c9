/**
 * The recipients and fields of an envelope (packages/trpc/server/envelope-router/envelope-recipients/
 * and envelope-fields/, tag v2.17.0): create, update, delete, get, with Documenso's rules
 * (canRecipientBeModified and canRecipientFieldsBeModified in packages/lib/utils/recipients.ts: a
 * recipient who signed or filled a field in stays, CC and viewers have no fields; nothing changes on
 * a completed, rejected or cancelled envelope).
 */
import type { FastifyInstance } from 'fastify';

import { appError } from './errors';
import {
	type Envelope,
	fieldView,
	type Field,
	itemsOf,
	type Recipient,
	recipientToken,
	recipientView,
	type Role,
} from './model';
import { documensoRoute } from './routes';
import { issue, OPERATIONS } from './sdk';
import type { DocumensoStore } from './store';

const FINISHED = ['COMPLETED', 'REJECTED', 'CANCELLED'];

export function registerDraftRoutes(app: FastifyInstance, store: DocumensoStore): void {
	const route = documensoRoute(app);
	const all = () => [...store.documents.values(), ...store.templates.values()];

	const envelopeOf = (procedure: string, envelopeId: string): Envelope => {
		const envelope = store.findEnvelope(envelopeId);
		if (!envelope) throw appError(procedure, 'NOT_FOUND', 'Envelope not found');
		if (FINISHED.includes(envelope.status)) {
			throw appError(
				procedure,
				`ENVELOPE_${envelope.status}`,
				`Envelope is ${envelope.status.toLowerCase()}`,
				400,
			);
		}
		return envelope;
	};
	const canBeModified = (envelope: Envelope, recipient: Recipient) =>
		recipient.role === 'CC' ||
		(recipient.signingStatus !== 'SIGNED' &&
			!envelope.fields.some((field) => field.recipientId === recipient.id && field.inserted));
	const recipientOf = (procedure: string, recipientId: number) => {
		for (const envelope of all()) {
			const recipient = envelope.recipients.find((candidate) => candidate.id === recipientId);
			if (recipient) return { envelope, recipient };
		}
		throw appError(procedure, 'NOT_FOUND', 'Recipient not found');
	};
	const fieldOf = (procedure: string, fieldId: number) => {
		for (const envelope of all()) {
			const field = envelope.fields.find((candidate) => candidate.id === fieldId);
			if (field) return { envelope, field };
		}
		throw appError(procedure, 'NOT_FOUND', 'Field not found');
	};

	type NewRecipient = { email: string; name: string; role: Role; signingOrder?: number };
	route<{ envelopeId: string; data: NewRecipient[] }>('createEnvelopeRecipients', (input) => {
		const procedure = OPERATIONS.createEnvelopeRecipients.procedure;
		const envelope = envelopeOf(procedure, input.envelopeId);
		const made = input.data.map(
			(given): Recipient => ({
				id: store.newRecipientId(),
				email: given.email.trim().toLowerCase(),
				name: given.name,
				token: recipientToken(),
				role: given.role,
				readStatus: 'NOT_OPENED',
				signingStatus: 'NOT_SIGNED',
				sendStatus: 'NOT_SENT',
				signedAt: null,
				rejectionReason: null,
				signingOrder: given.signingOrder ?? null,
				expiresAt: null,
				expirationNotifiedAt: null,
			}),
		);
		for (const recipient of made) {
			if (envelope.recipients.some((existing) => existing.email === recipient.email)) {
				throw appError(procedure, 'INVALID_REQUEST', 'Duplicate recipient email');
			}
		}
		envelope.recipients.push(...made);
		return { data: made.map((recipient) => recipientView(envelope, recipient)) };
	});

	route<{ envelopeId: string; data: Array<Partial<NewRecipient> & { id: number }> }>(
		'updateEnvelopeRecipients',
		(input) => {
			const procedure = OPERATIONS.updateEnvelopeRecipients.procedure;
			const envelope = envelopeOf(procedure, input.envelopeId);
			const updated = input.data.map((change) => {
				const recipient = envelope.recipients.find((candidate) => candidate.id === change.id);
				if (!recipient)
					throw appError(procedure, 'NOT_FOUND', `Recipient with id ${change.id} not found`);
				if (!canBeModified(envelope, recipient))
					throw appError(
						procedure,
						'INVALID_REQUEST',
						'Cannot modify a recipient who has already interacted with the document',
					);
				if (change.email !== undefined) recipient.email = change.email.trim().toLowerCase();
				if (change.name !== undefined) recipient.name = change.name;
				if (change.role !== undefined) recipient.role = change.role;
				if (change.signingOrder !== undefined) recipient.signingOrder = change.signingOrder;
				return recipient;
			});
			return { data: updated.map((recipient) => recipientView(envelope, recipient)) };
		},
	);

	route<{ recipientId: number }>('deleteEnvelopeRecipient', (input) => {
		const procedure = OPERATIONS.deleteEnvelopeRecipient.procedure;
		const { envelope, recipient } = recipientOf(procedure, input.recipientId);
		envelopeOf(procedure, envelope.id);
		if (!canBeModified(envelope, recipient))
			throw appError(
				procedure,
				'INVALID_REQUEST',
				'Recipient has already interacted with the document.',
			);
		envelope.recipients = envelope.recipients.filter((candidate) => candidate !== recipient);
		envelope.fields = envelope.fields.filter((field) => field.recipientId !== recipient.id);
		return { success: true };
	});

	// getEnvelopeItemPermissions (packages/lib/utils/envelope.ts): what may change of an envelope's PDFs.
	const itemPermissions = (envelope: Envelope) => {
		if (FINISHED.includes(envelope.status) || envelope.deletedAt !== null)
			return { title: false, file: false, order: false };
		if (envelope.type === 'TEMPLATE' || envelope.status === 'DRAFT') return { title: true, file: true, order: true };
		const active = envelope.recipients.some(
			(recipient) =>
				recipient.role !== 'CC' &&
				(recipient.signingStatus !== 'NOT_SIGNED' || recipient.sendStatus === 'SENT'),
		);
		return { title: true, file: false, order: !active };
	};
	const itemsEnvelope = (procedure: string, envelopeId: string) => {
		const envelope = store.findEnvelope(envelopeId);
		if (!envelope) throw appError(procedure, 'NOT_FOUND', 'Envelope not found');
		return { envelope, items: itemsOf(envelope) };
	};

	// update-envelope-items.ts, then UNSAFE_updateEnvelopeItems.
	route<{ envelopeId: string; data: Array<{ envelopeItemId: string; order?: number; title?: string }> }>(
		'updateEnvelopeItems',
		(input) => {
			const procedure = OPERATIONS.updateEnvelopeItems.procedure;
			const { envelope, items } = itemsEnvelope(procedure, input.envelopeId);
			const may = itemPermissions(envelope);
			const orderChange = input.data.some(
				(change) =>
					change.order !== undefined &&
					items.find((item) => item.id === change.envelopeItemId)?.order !== change.order,
			);
			if (input.data.some((change) => change.title !== undefined) && !may.title)
				throw appError(procedure, 'INVALID_REQUEST', 'Envelope item title is not editable');
			if (orderChange && !may.order)
				throw appError(procedure, 'INVALID_REQUEST', 'Envelope item order is not editable');
			if (!input.data.every((change) => items.some((item) => item.id === change.envelopeItemId)))
				throw appError(procedure, 'INVALID_REQUEST', 'One or more envelope items to update do not exist');
			for (const change of input.data) {
				const item = items.find((candidate) => candidate.id === change.envelopeItemId)!;
				if (change.title !== undefined) item.title = change.title;
				if (change.order !== undefined) item.order = change.order;
			}
			items.sort((a, b) => a.order - b.order);
			// An envelope of one item keeps it as `item` (itemsOf gives a copy).
			if (envelope.items === undefined) envelope.item.title = items[0].title;
			return {
				data: items.map((item) => ({ id: item.id, order: item.order, title: item.title, envelopeId: envelope.id })),
			};
		},
	);

	// delete-envelope-item.ts: the item and its fields.
	route<{ envelopeId: string; envelopeItemId: string }>('deleteEnvelopeItem', (input) => {
		const procedure = OPERATIONS.deleteEnvelopeItem.procedure;
		const { envelope, items } = itemsEnvelope(procedure, input.envelopeId);
		if (!itemPermissions(envelope).file)
			throw appError(procedure, 'INVALID_REQUEST', 'Envelope item is not editable');
		if (!items.some((item) => item.id === input.envelopeItemId))
			throw appError(procedure, 'NOT_FOUND', 'Envelope item not found');
		const first = items[0].id;
		envelope.items = items.filter((item) => item.id !== input.envelopeItemId);
		envelope.fields = envelope.fields.filter(
			(field) => (field.envelopeItemId ?? first) !== input.envelopeItemId,
		);
		return { success: true };
	});

	// reject-document-on-behalf-of.ts: a pending document's recipient who has not acted.
	route<{ recipientId: number; envelopeId: string; reason: string; actAsEmail?: string }>(
		'rejectEnvelopeRecipientOnBehalfOf',
		(input, request) => {
			const procedure = OPERATIONS.rejectEnvelopeRecipientOnBehalfOf.procedure;
			const envelope = store.findEnvelope(input.envelopeId);
			const recipient = envelope?.recipients.find((candidate) => candidate.id === input.recipientId);
			if (!envelope || envelope.type !== 'DOCUMENT' || !recipient)
				throw appError(procedure, 'NOT_FOUND', 'Document or recipient not found');
			if (envelope.status !== 'PENDING')
				throw appError(procedure, 'INVALID_REQUEST', `Document ${envelope.id} must be pending to reject`);
			if (recipient.signingStatus !== 'NOT_SIGNED')
				throw appError(procedure, 'INVALID_REQUEST', `Recipient ${recipient.id} has already actioned this document`);
			// The sandbox's team has no other member to elect (getValidatedElectedUser).
			if (input.actAsEmail !== undefined)
				throw appError(procedure, 'UNAUTHORIZED', 'The user to act on behalf of must be a member of the team');
			store.reject(
				envelope,
				recipient,
				input.reason,
				{ ipAddress: request.ip, userAgent: request.headers['user-agent'] ?? null },
				true,
			);
			return {
				...recipientView(envelope, recipient),
				fields: envelope.fields
					.filter((field) => field.recipientId === recipient.id)
					.map((field) => fieldView(envelope, field)),
			};
		},
		// ZRejectEnvelopeRecipientOnBehalfOfRequestSchema: reason z.string().min(1), actAsEmail zEmail().
		(input) => [
			...(input.reason.length === 0
				? [issue(['reason'], 'String must contain at least 1 character(s)', 'too_small')]
				: []),
			...(input.actAsEmail !== undefined && !/^[^\s@]+@[^\s@]+$/.test(input.actAsEmail)
				? [issue(['actAsEmail'], 'Invalid email', 'invalid_string')]
				: []),
		],
	);

	route<{ recipientId: number }>('getEnvelopeRecipient', (input) => {
		const { envelope, recipient } = recipientOf(
			OPERATIONS.getEnvelopeRecipient.procedure,
			input.recipientId,
		);
		// ZRecipientSchema: the recipient with its fields.
		return {
			...recipientView(envelope, recipient),
			fields: envelope.fields
				.filter((field) => field.recipientId === recipient.id)
				.map((field) => fieldView(envelope, field)),
		};
	});

	route<{ envelopeId: string; data: Array<Partial<Field> & { id: number; type: Field['type'] }> }>(
		'updateEnvelopeFields',
		(input) => {
			const procedure = OPERATIONS.updateEnvelopeFields.procedure;
			const envelope = envelopeOf(procedure, input.envelopeId);
			const updated = input.data.map((change) => {
				const field = envelope.fields.find((candidate) => candidate.id === change.id);
				if (!field) throw appError(procedure, 'NOT_FOUND', `Field with id ${change.id} not found`);
				const recipient = envelope.recipients.find(
					(candidate) => candidate.id === field.recipientId,
				);
				if (!recipient || !canBeModified(envelope, recipient) || field.inserted) {
					throw appError(
						procedure,
						'INVALID_REQUEST',
						'Cannot modify a field of a recipient who has already interacted with the document',
					);
				}
				// update-envelope-fields.ts hands `page`, `positionX` and `positionY` to
				// updateEnvelopeFields, which reads `pageNumber`, `pageX` and `pageY`
				// (packages/lib/server-only/field/update-envelope-fields.ts): they change nothing.
				for (const key of ['type', 'width', 'height', 'fieldMeta'] as const) {
					if (change[key] !== undefined)
						(field as unknown as Record<string, unknown>)[key] = change[key];
				}
				return field;
			});
			return { data: updated.map((field) => fieldView(envelope, field)) };
		},
	);

	route<{ fieldId: number }>('deleteEnvelopeField', (input) => {
		const procedure = OPERATIONS.deleteEnvelopeField.procedure;
		const { envelope, field } = fieldOf(procedure, input.fieldId);
		envelopeOf(procedure, envelope.id);
		if (field.inserted)
			throw appError(procedure, 'INVALID_REQUEST', 'Cannot delete a field that has been inserted');
		envelope.fields = envelope.fields.filter((candidate) => candidate !== field);
		return { success: true };
	});

	route<{ fieldId: number }>('getEnvelopeField', (input) => {
		const { envelope, field } = fieldOf(OPERATIONS.getEnvelopeField.procedure, input.fieldId);
		return fieldView(envelope, field);
	});
}
