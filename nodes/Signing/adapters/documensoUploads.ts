import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { multipartBody } from '../../shared/multipart';
import { withDescription } from '../../shared/request';
import {
	deleteEnvelope,
	documentOfEnvelope,
	envelopeTransport,
	envelopeWords,
	findByExternalId,
	getEnvelope,
	legacyIdOf,
} from './documensoEnvelopes';
import type { CreateFromFileInput, FieldPlacement, SigningUploads } from './types';

/** What an upload of a document or a template takes. */
type UploadInput = Omit<CreateFromFileInput, 'distribute' | 'distribution' | 'meta'> &
	Partial<Pick<CreateFromFileInput, 'distribution' | 'meta'>>;

const { request } = envelopeTransport;

/** APP_DOCUMENT_UPLOAD_SIZE_LIMIT (packages/lib/constants/app.ts): NEXT_PUBLIC_DOCUMENT_SIZE_UPLOAD_LIMIT, 50 MB by default. */
const DEFAULT_SIZE_LIMIT_MB = 50;

/** A field's settings in Documenso's terms (ZEnvelopeFieldAndMetaSchema): its type again, in lower case. */
function fieldAndMeta(field: FieldPlacement): IDataObject {
	const typed: IDataObject = { type: field.type };
	if (field.meta && Object.keys(field.meta).length > 0 && field.type !== 'FREE_SIGNATURE') {
		typed.fieldMeta = { type: field.type.toLowerCase(), ...field.meta };
	}
	return typed;
}

const hasPlaceholder = (field: FieldPlacement) => 'placeholder' in field.position;

/**
 * The `payload` part of `POST /envelope/create` (ZCreateEnvelopePayloadSchema,
 * envelope-router/create-envelope.types.ts): recipients with their fields at a position (the
 * only kind the upload takes; fields at a text are added once the PDF is stored).
 */
function createPayload(input: UploadInput, type: 'DOCUMENT' | 'TEMPLATE'): IDataObject {
	const meta: IDataObject = { ...input.meta };
	if (input.distribution) meta.distributionMethod = input.distribution;
	if (input.signingOrder) meta.signingOrder = input.signingOrder;
	const payload: IDataObject = {
		title: input.title,
		type,
		recipients: input.recipients.map((recipient, index) => {
			const fields = input.fields
				.filter((field) => field.recipient === index && !hasPlaceholder(field))
				.map((field) => {
					const position = field.position as Extract<FieldPlacement['position'], { page: number }>;
					return {
						...fieldAndMeta(field),
						page: position.page,
						positionX: position.x,
						positionY: position.y,
						width: position.width,
						height: position.height,
					};
				});
			return {
				email: recipient.email,
				name: recipient.name,
				role: recipient.role,
				...(recipient.signingOrder === undefined ? {} : { signingOrder: recipient.signingOrder }),
				...(fields.length > 0 ? { fields } : {}),
			};
		}),
	};
	if (Object.keys(meta).length > 0) payload.meta = meta;
	if (input.externalId) payload.externalId = input.externalId;
	if (input.folderId) payload.folderId = input.folderId;
	return payload;
}

/** The recipient ids of a new envelope, in the order the recipients were given (Documenso keeps it: ids ascend). */
function recipientIds(envelope: IDataObject, input: UploadInput): number[] {
	const stored = ((envelope.recipients as IDataObject[] | undefined) ?? []).slice();
	return input.recipients.map((recipient) => {
		const index = stored.findIndex(
			(candidate) => String(candidate.email).toLowerCase() === recipient.email.toLowerCase(),
		);
		const [match] = stored.splice(Math.max(index, 0), 1);
		return match?.id as number;
	});
}

/** The placeholder Documenso says it did not find: `Placeholder "[[sign-ada]]" not found in PDF` (create-envelope-fields.ts). */
const missingPlaceholder = (error: unknown) =>
	error instanceof NodeApiError
		? /Placeholder "(.*)" not found in PDF/.exec(error.message)?.[1]
		: undefined;

/**
 * `POST /envelope/distribute` (envelope-router/distribute-envelope.ts). A failure here leaves the
 * document a draft: the error says so, with its number, and how not to make a second one.
 */
async function distribute(
	ctx: IExecuteFunctions,
	envelope: IDataObject,
	input: CreateFromFileInput,
	itemIndex: number,
) {
	try {
		await request(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/distribute',
			body: { envelopeId: String(envelope.id), meta: { distributionMethod: input.distribution } },
			itemIndex,
		});
	} catch (error) {
		throw withDescription(
			ctx,
			error as Error,
			itemIndex,
			`Documenso stored the PDF as ${envelopeWords(envelope)}, a draft that was not sent. Send it with Document → Send, or delete it. ${
				input.externalId
					? `Running this again with "If a Document With This External ID Exists" set to Return It sends that draft instead of uploading a second one.`
					: 'Running this again would upload a second document: set Options › External ID (and Return It) so that a retry finds this one.'
			}`,
		);
	}
}

/**
 * `POST /envelope/create` (multipart: a `payload` JSON part and the PDF as a `files` part;
 * envelope-router/create-envelope.ts), which also turns Documenso's own `{{TYPE, rN}}` tags in the
 * PDF into fields (packages/lib/server-only/pdf/auto-place-fields.ts); then the fields at a text
 * with `POST /envelope/field/create-many` (packages/lib/server-only/field/create-envelope-fields.ts,
 * all or none). The envelope as it is then.
 */
export async function uploadEnvelope(
	ctx: IExecuteFunctions,
	input: UploadInput,
	type: 'DOCUMENT' | 'TEMPLATE',
	itemIndex: number,
): Promise<IDataObject> {
	const created = await request<{ id: string }>(ctx, {
		method: 'POST',
		path: '/api/v2/envelope/create',
		multipart: multipartBody({ payload: JSON.stringify(createPayload(input, type)), files: input.file }),
		itemIndex,
		errorHints: {
			400: 'Documenso refused the upload: its message says why (a file over its upload limit, NEXT_PUBLIC_DOCUMENT_SIZE_UPLOAD_LIMIT; the team’s document limit, LIMIT_EXCEEDED)',
		},
	});
	const envelope = await getEnvelope(ctx, created.id, itemIndex);
	const byText = input.fields.filter(hasPlaceholder);
	if (byText.length === 0) return envelope;
	const ids = recipientIds(envelope, input);
	try {
		await request(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/field/create-many',
			body: {
				envelopeId: created.id,
				data: byText.map((field) => ({
					...fieldAndMeta(field),
					recipientId: ids[field.recipient],
					...field.position,
				})),
			},
			itemIndex,
		});
	} catch (error) {
		// No field was made (create-envelope-fields.ts resolves every field before it writes any):
		// the upload holds the PDF without them, and goes, so that a corrected run starts clean.
		const placeholder = missingPlaceholder(error);
		const named = byText.filter(
			(field) => (field.position as { placeholder: string }).placeholder === placeholder,
		);
		let outcome = `The draft Documenso had made of the upload (${envelopeWords(envelope)}) was deleted; nothing is left.`;
		try {
			await deleteEnvelope(ctx, created.id, itemIndex);
		} catch {
			outcome = `Documenso keeps the upload as a draft without these fields: ${envelopeWords(envelope)}; delete it or add the fields to it (Field → Add).`;
		}
		if (named.length > 0) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${named.map((field) => field.label).join(', ')}: the text "${placeholder}" is not in the PDF`,
				{
					itemIndex,
					description: `Documenso answered: ${(error as Error).message}. Check the placeholder's spelling, and that the PDF has it as text (not in an image). ${outcome}`,
				},
			);
		}
		throw withDescription(ctx, error as Error, itemIndex, outcome);
	}
	return await getEnvelope(ctx, created.id, itemIndex);
}

export const documensoUploads: SigningUploads = {
	defaultSizeLimitMb: DEFAULT_SIZE_LIMIT_MB,

	/**
	 * The upload (`uploadEnvelope`), then the invitations. With an external ID, the document of a
	 * run that failed after creating it is found first, so a retry does not upload it twice.
	 */
	async createDocument(ctx, input, itemIndex) {
		if (input.externalId && input.ifExists !== 'create') {
			const existing = await findByExternalId(
				ctx,
				'DOCUMENT',
				input.externalId,
				input.folderId,
				itemIndex,
			);
			if (existing) {
				if (input.ifExists === 'fail') {
					throw new NodeOperationError(
						ctx.getNode(),
						`A document with External ID "${input.externalId}" exists already: ${envelopeWords(existing)}, ${String(existing.status).toLowerCase()}`,
						{
							itemIndex,
							description:
								'Nothing was uploaded. To get that document instead, set "If a Document With This External ID Exists" to Return It.',
						},
					);
				}
				if (existing.status === 'DRAFT' && input.distribute)
					await distribute(ctx, existing, input, itemIndex);
				const document = await documentOfEnvelope(
					ctx,
					await getEnvelope(ctx, String(existing.id), itemIndex),
					itemIndex,
				);
				return { ...document, alreadyExisted: true };
			}
		}

		let envelope = await uploadEnvelope(ctx, input, 'DOCUMENT', itemIndex);

		if (input.distribute) {
			await distribute(ctx, envelope, input, itemIndex);
			envelope = await getEnvelope(ctx, String(envelope.id), itemIndex);
		}
		const document = await documentOfEnvelope(ctx, envelope, itemIndex);
		return { ...document, id: legacyIdOf(envelope) ?? document.id, alreadyExisted: false };
	},
};
