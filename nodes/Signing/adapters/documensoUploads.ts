import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { multipartBody } from '../../shared/multipart';
import { answerWasLost, withDescription } from '../../shared/request';
import {
	deleteEnvelope,
	documentOfEnvelope,
	envelopesWithExternalId,
	envelopeWords,
	findByExternalId,
	getEnvelope,
	legacyIdOf,
} from './documensoEnvelopes';
import { documensoTransport } from './documensoTransport';
import type { CreateFromFileInput, FieldPlacement, SigningUploads } from './types';

/** What an upload of a document or a template takes. */
type UploadInput = Omit<CreateFromFileInput, 'distribute' | 'distribution' | 'meta'> &
	Partial<Pick<CreateFromFileInput, 'distribution' | 'meta'>>;

const { request } = documensoTransport;

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
function createPayload(input: UploadInput, type: EnvelopeType): IDataObject {
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

/**
 * The recipient ids of a new envelope, in the order the recipients were given (Documenso keeps
 * it: ids ascend). A recipient the envelope does not have, that a field at a text is for, is an
 * error naming the fields: never someone else's field.
 */
function recipientIds(
	ctx: IExecuteFunctions,
	envelope: IDataObject,
	input: UploadInput,
	byText: FieldPlacement[],
	itemIndex: number,
): Array<number | undefined> {
	const stored = ((envelope.recipients as IDataObject[] | undefined) ?? []).slice();
	const listed = stored.map((recipient) => String(recipient.email)).join(', ') || 'none';
	return input.recipients.map((recipient, index) => {
		const at = stored.findIndex(
			(candidate) => String(candidate.email).toLowerCase() === recipient.email.toLowerCase(),
		);
		if (at >= 0) return stored.splice(at, 1)[0].id as number;
		const fields = byText.filter((field) => field.recipient === index);
		if (fields.length === 0) return undefined;
		throw new NodeOperationError(
			ctx.getNode(),
			`${fields.map((field) => field.label).join(', ')}: Documenso has no recipient ${recipient.email} in ${envelopeWords(envelope)} to give ${fields.length === 1 ? 'this field' : 'these fields'} to`,
			{ itemIndex, description: `Its recipients: ${listed}.` },
		);
	});
}

/** The placeholder Documenso says it did not find: `Placeholder "[[sign-ada]]" not found in PDF` (create-envelope-fields.ts). */
const missingPlaceholder = (error: unknown) =>
	error instanceof NodeApiError
		? /Placeholder "(.*)" not found in PDF/.exec(error.message)?.[1]
		: undefined;

/**
 * `POST /envelope/field/create-many` with the fields at a text (create-envelope-fields.ts: every
 * placeholder is resolved before any field is written, so all are made or none).
 */
async function addTextFields(
	ctx: IExecuteFunctions,
	envelope: IDataObject,
	input: UploadInput,
	byText: FieldPlacement[],
	itemIndex: number,
): Promise<void> {
	const ids = recipientIds(ctx, envelope, input, byText, itemIndex);
	await request(ctx, {
		method: 'POST',
		path: '/api/v2/envelope/field/create-many',
		body: {
			envelopeId: String(envelope.id),
			data: byText.map((field) => ({
				...fieldAndMeta(field),
				recipientId: ids[field.recipient],
				...field.position,
			})),
		},
		itemIndex,
	});
}

/**
 * Whether a draft lacks the fields at a text of `input`. They are made all at once after the
 * upload (`addTextFields`), so a draft whose upload answer or read-back was lost has none of them:
 * then some recipient has fewer fields of a type than the upload's positions and texts give them.
 */
function lacksTextFields(envelope: IDataObject, input: UploadInput, byText: FieldPlacement[]): boolean {
	const stored = (envelope.recipients as IDataObject[] | undefined) ?? [];
	const fields = (envelope.fields as IDataObject[] | undefined) ?? [];
	return byText.some((wanted) => {
		const email = input.recipients[wanted.recipient]?.email.toLowerCase();
		const ids = stored
			.filter((recipient) => String(recipient.email).toLowerCase() === email)
			.map((recipient) => recipient.id);
		const expected = input.fields.filter(
			(field) => field.recipient === wanted.recipient && field.type === wanted.type,
		).length;
		const present = fields.filter(
			(field) => ids.includes(field.recipientId) && field.type === wanted.type,
		).length;
		return present < expected;
	});
}

/**
 * A draft of this upload found again (Return It) made whole before anything else: the fields at
 * a text a failed run never added are added now. A draft that cannot be finished is not sent.
 */
async function finishDraft(
	ctx: IExecuteFunctions,
	envelope: IDataObject,
	input: UploadInput,
	itemIndex: number,
): Promise<void> {
	const byText = input.fields.filter(hasPlaceholder);
	if (byText.length === 0 || !lacksTextFields(envelope, input, byText)) return;
	try {
		await addTextFields(ctx, envelope, input, byText, itemIndex);
	} catch (error) {
		const placeholder = missingPlaceholder(error);
		throw withDescription(
			ctx,
			error as Error,
			itemIndex,
			`${envelopeWords(envelope)} with External ID "${input.externalId}" is a draft a failed run left without its fields at a text (${byText.map((field) => field.label).join(', ')}); adding them failed${placeholder ? `: the text "${placeholder}" is not in its PDF` : ''}, so it was not sent. Delete it, or add the fields (Field → Add) and send it (Document → Send).`,
		);
	}
}

type EnvelopeType = 'DOCUMENT' | 'TEMPLATE';

/**
 * What running the item again does with the envelope a failed run made: with an External ID,
 * Return It finds it (and `found` says what it then does); without one, a second upload.
 */
function retryAdvice(input: UploadInput, type: EnvelopeType, found: string): string {
	const kind = type === 'DOCUMENT' ? 'document' : 'template';
	return input.externalId
		? `Running this item again with "If a ${type === 'DOCUMENT' ? 'Document' : 'Template'} With This External ID Exists" set to Return It ${found} instead of uploading a second one.`
		: `Running this item again would upload a second ${kind}: delete this one first, or set Options › External ID with Return It so that a retry after a failure finds what the failed run made.`;
}

/**
 * The error of a read that follows the upload: the envelope exists (`made`: what Documenso did
 * with it), so the error names it and says how a retry does not upload it twice.
 */
export function failedAfterUpload(
	ctx: IExecuteFunctions,
	error: unknown,
	envelopeId: string,
	input: UploadInput,
	type: EnvelopeType,
	itemIndex: number,
	made = 'stored the upload',
): Error {
	const kind = type === 'DOCUMENT' ? 'document' : 'template';
	return withDescription(
		ctx,
		error as Error,
		itemIndex,
		`Documenso ${made}: the ${kind} exists as ${envelopeId}; only reading it back failed. ${retryAdvice(input, type, 'returns it')}`,
	);
}

/** `getEnvelope` of an envelope the upload made, its failure as `failedAfterUpload`. */
async function readUploaded(
	ctx: IExecuteFunctions,
	envelopeId: string,
	input: UploadInput,
	type: EnvelopeType,
	itemIndex: number,
	made?: string,
): Promise<IDataObject> {
	try {
		return await getEnvelope(ctx, envelopeId, itemIndex);
	} catch (error) {
		throw failedAfterUpload(ctx, error, envelopeId, input, type, itemIndex, made);
	}
}

/** An envelope's status read again, or undefined when that read fails too. */
async function statusNow(ctx: IExecuteFunctions, envelope: IDataObject, itemIndex: number) {
	try {
		return String((await getEnvelope(ctx, String(envelope.id), itemIndex)).status);
	} catch {
		return undefined;
	}
}

/**
 * `POST /envelope/distribute` (envelope-router/distribute-envelope.ts). A refusal leaves the
 * document a draft; a lost answer may not have: then it is read again, and a document Documenso
 * sent all the same is what was asked for (no error); otherwise the error says what it is, with
 * its number, and how not to make a second one.
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
		const words = envelopeWords(envelope);
		const status = answerWasLost(error) ? await statusNow(ctx, envelope, itemIndex) : 'DRAFT';
		if (status && status !== 'DRAFT') return;
		const outcome =
			status === 'DRAFT'
				? `Documenso stored the PDF as ${words}, a draft that was not sent. Send it with Document → Send, or delete it. ${retryAdvice(input, 'DOCUMENT', 'sends that draft')}`
				: `Documenso stored the PDF as ${words}; whether it was sent is unknown, as reading it back failed too: Document → Get shows it (pending once sent). ${retryAdvice(input, 'DOCUMENT', 'returns it, sending it if it is still a draft,')}`;
		throw withDescription(ctx, error as Error, itemIndex, outcome);
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
	type: EnvelopeType,
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
	const envelope = await readUploaded(ctx, created.id, input, type, itemIndex);
	const byText = input.fields.filter(hasPlaceholder);
	if (byText.length === 0) return envelope;
	try {
		await addTextFields(ctx, envelope, input, byText, itemIndex);
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
	return await readUploaded(ctx, created.id, input, type, itemIndex, 'stored the upload and its fields');
}

/**
 * What Return It gives for the document `found`: a draft is first finished (the fields at a text a
 * failed run never added) and, with `send`, sent; then the document as it is.
 */
async function returnExisting(
	ctx: IExecuteFunctions,
	found: IDataObject,
	input: CreateFromFileInput,
	itemIndex: number,
	send: boolean,
): Promise<IDataObject> {
	if (found.status === 'DRAFT') {
		// A list row has no fields: the draft is read whole only when it may lack some.
		if (input.fields.some(hasPlaceholder)) {
			await finishDraft(ctx, await getEnvelope(ctx, String(found.id), itemIndex), input, itemIndex);
		}
		if (send) await distribute(ctx, found, input, itemIndex);
	}
	const envelope = await getEnvelope(ctx, String(found.id), itemIndex);
	const document = await documentOfEnvelope(ctx, envelope, itemIndex);
	return { ...document, alreadyExisted: true };
}

/**
 * After an upload with External ID and Return It: the oldest document with that External ID in
 * the folder it went to, when it is not this upload. Two runs that looked the External ID up at
 * the same time (a form submitted twice) both uploaded; each looks again before sending, and the
 * younger deletes its own draft, so that one document is sent, once.
 */
async function olderTwin(
	ctx: IExecuteFunctions,
	envelope: IDataObject,
	input: CreateFromFileInput,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	if (!input.externalId || input.ifExists !== 'return') return undefined;
	try {
		const [oldest] = await envelopesWithExternalId(
			ctx,
			'DOCUMENT',
			input.externalId,
			input.folderId,
			itemIndex,
		);
		return oldest && String(oldest.id) !== String(envelope.id) ? oldest : undefined;
	} catch (error) {
		throw failedAfterUpload(ctx, error, String(envelope.id), input, 'DOCUMENT', itemIndex, 'stored the upload as a draft, not sent');
	}
}

export const documensoUploads: SigningUploads = {
	defaultSizeLimitMb: DEFAULT_SIZE_LIMIT_MB,

	/**
	 * The upload (`uploadEnvelope`), then the invitations. With an external ID, the document of a
	 * run that failed after creating it is found first (wherever it is filed), finished and
	 * returned, so a retry does not upload it twice; two runs at once keep the older upload.
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
				return await returnExisting(ctx, existing, input, itemIndex, input.distribute);
			}
		}

		let envelope = await uploadEnvelope(ctx, input, 'DOCUMENT', itemIndex);
		const older = await olderTwin(ctx, envelope, input, itemIndex);
		if (older) {
			try {
				await deleteEnvelope(ctx, String(envelope.id), itemIndex);
			} catch (error) {
				throw withDescription(
					ctx,
					error as Error,
					itemIndex,
					`Another run uploaded ${envelopeWords(older)} with External ID "${input.externalId}" first; this run's upload, ${envelopeWords(envelope)}, is a draft that was not sent and could not be deleted: delete it.`,
				);
			}
			// The older upload's own run finishes and sends it: sending it here too would race it.
			return await returnExisting(ctx, older, input, itemIndex, false);
		}

		if (input.distribute) {
			await distribute(ctx, envelope, input, itemIndex);
			envelope = await readUploaded(ctx, String(envelope.id), input, 'DOCUMENT', itemIndex, 'stored and sent the upload');
		}
		const document = await documentOfEnvelope(ctx, envelope, itemIndex);
		return { ...document, id: legacyIdOf(envelope) ?? document.id, alreadyExisted: false };
	},
};
