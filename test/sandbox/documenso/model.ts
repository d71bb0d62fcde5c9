/**
 * Documenso's data as its API v2 shows it (documenso/documenso at tag v2.17.0, commit
 * 75330166cc00b29c14399bc2e391e4b4d8080c00): one envelope per document or template, with a
 * numeric legacy id (`document_<n>` / `template_<n>` as secondaryId), numeric recipient and
 * field ids, and the views the routes answer with. Each view follows the zod schema named
 * beside it in Documenso's source; the contract tests parse every one with the schemas of
 * `@documenso/sdk-typescript`.
 */
import { randomBytes } from 'node:crypto';

import { documentPdf } from '../signingPdf';

export const ROLES = ['SIGNER', 'APPROVER', 'VIEWER', 'CC', 'ASSISTANT'] as const;
export type Role = (typeof ROLES)[number];
export const STATUSES = ['DRAFT', 'PENDING', 'COMPLETED', 'REJECTED', 'CANCELLED'] as const;
export type Status = (typeof STATUSES)[number];
export type FieldType =
	| 'SIGNATURE'
	| 'FREE_SIGNATURE'
	| 'INITIALS'
	| 'NAME'
	| 'EMAIL'
	| 'DATE'
	| 'TEXT'
	| 'NUMBER'
	| 'RADIO'
	| 'CHECKBOX'
	| 'DROPDOWN';

/** The API token's owner: audit entries made through the API carry the team's name. */
export const OWNER = { userId: 1, teamId: 1, teamUrl: 'sandbox', teamName: 'Sandbox team' };
export const OWNER_USER = { id: 1, name: 'Sandbox Admin', email: 'admin@sandbox.test' };

export interface Recipient {
	id: number;
	email: string;
	name: string;
	/** The secret part of `<webapp>/sign/<token>`. */
	token: string;
	role: Role;
	readStatus: 'NOT_OPENED' | 'OPENED';
	signingStatus: 'NOT_SIGNED' | 'SIGNED' | 'REJECTED';
	sendStatus: 'NOT_SENT' | 'SENT';
	signedAt: string | null;
	rejectionReason: string | null;
	signingOrder: number | null;
	expiresAt: string | null;
	expirationNotifiedAt: string | null;
}

export interface Field {
	id: number;
	secondaryId: string;
	recipientId: number;
	type: FieldType;
	page: number;
	positionX: number;
	positionY: number;
	width: number;
	height: number;
	customText: string;
	inserted: boolean;
	fieldMeta: Record<string, unknown> | null;
	/** The item the field is on; the envelope's first when absent. */
	envelopeItemId?: string;
}

/** One PDF of an envelope (EnvelopeItem): an upload keeps its bytes here, as the document data. */
export interface EnvelopeItem {
	id: string;
	title: string;
	documentDataId: string;
	order: number;
	/** The uploaded file (after Documenso's processing: placeholders covered). */
	pdf?: Buffer;
}

export interface AuditLog {
	id: string;
	createdAt: string;
	type: string;
	data: Record<string, unknown>;
	name: string | null;
	email: string | null;
	userId: number | null;
	userAgent: string | null;
	ipAddress: string | null;
}

export interface Meta {
	id: string;
	subject: string | null;
	message: string | null;
	redirectUrl: string | null;
	timezone: string | null;
	dateFormat: string | null;
	language: string;
	distributionMethod: 'EMAIL' | 'NONE';
	signingOrder: 'PARALLEL' | 'SEQUENTIAL';
}

export interface Envelope {
	/** `envelope_<16 letters>`. */
	id: string;
	type: 'DOCUMENT' | 'TEMPLATE';
	/** The document id or template id of the API's document and template routes. */
	legacyId: number;
	title: string;
	status: Status;
	source: 'DOCUMENT' | 'TEMPLATE' | 'TEMPLATE_DIRECT_LINK';
	externalId: string | null;
	/** The template a document was made from. */
	templateId: number | null;
	formValues: Record<string, string | boolean | number> | null;
	createdAt: string;
	updatedAt: string;
	completedAt: string | null;
	deletedAt: string | null;
	meta: Meta;
	recipients: Recipient[];
	fields: Field[];
	/** The first PDF of a document (`envelope_item_<16 letters>`) and its document data. */
	item: { id: string; title: string; documentDataId: string };
	/** Every PDF of an envelope made by an upload, `item` first; absent for one made from a template. */
	items?: EnvelopeItem[];
	/** Links shown to signers (EnvelopeAttachment, type "link"). */
	attachments?: Array<{ id: string; type: 'link'; label: string; data: string }>;
	/** The folder it is filed in; null or absent: the root. */
	folderId?: string | null;
	auditLogs: AuditLog[];
}

/** A folder of documents or templates (ZFolderSchema, packages/lib/types/folder-type.ts). */
export interface Folder {
	id: string;
	name: string;
	type: 'DOCUMENT' | 'TEMPLATE';
	parentId: string | null;
	pinned: boolean;
	visibility: 'EVERYONE' | 'MANAGER_AND_ABOVE' | 'ADMIN';
	createdAt: string;
	updatedAt: string;
}

/** The envelope's PDFs, in order. */
export const itemsOf = (envelope: Envelope): EnvelopeItem[] => envelope.items ?? [{ ...envelope.item, order: 1 }];

const LETTERS = 'abcdefhiklmnorstuvwxyz';
/** Ids as Documenso's `prefixedId` makes them (packages/lib/universal/id.ts): a prefix and 16 letters. */
export const prefixedId = (prefix: string) =>
	`${prefix}_${[...randomBytes(16)].map((byte) => LETTERS[byte % LETTERS.length]).join('')}`;

/** Recipient tokens are nanoids (21 characters). */
export const recipientToken = () => randomBytes(16).toString('base64url').slice(0, 21);

const recipientAuth = () => ({ accessAuth: [], actionAuth: [] });
const documentAuth = () => ({ globalAccessAuth: [], globalActionAuth: [] });

/** How a recipient's own signing page is reached (`apps/remix/app/routes/_recipient+/sign.$token+`). */
export const signingUrl = (webappUrl: string, recipient: Recipient) =>
	`${webappUrl}/sign/${recipient.token}`;

const legacyIds = (envelope: Envelope) =>
	envelope.type === 'DOCUMENT'
		? { documentId: envelope.legacyId, templateId: null }
		: { documentId: null, templateId: envelope.legacyId };

/** ZRecipientLiteSchema (packages/lib/types/recipient.ts) with mapRecipientToLegacyRecipient's ids. */
export const recipientView = (envelope: Envelope, recipient: Recipient) => ({
	envelopeId: envelope.id,
	role: recipient.role,
	readStatus: recipient.readStatus,
	signingStatus: recipient.signingStatus,
	sendStatus: recipient.sendStatus,
	id: recipient.id,
	email: recipient.email,
	name: recipient.name,
	token: recipient.token,
	documentDeletedAt: null,
	expired: null,
	expiresAt: recipient.expiresAt,
	expirationNotifiedAt: recipient.expirationNotifiedAt,
	signedAt: recipient.signedAt,
	authOptions: recipientAuth(),
	signingOrder: recipient.signingOrder,
	rejectionReason: recipient.rejectionReason,
	...legacyIds(envelope),
});

/** ZFieldSchema (packages/lib/types/field.ts) with mapFieldToLegacyField's ids. */
export const fieldView = (envelope: Envelope, field: Field) => ({
	envelopeId: envelope.id,
	envelopeItemId: field.envelopeItemId ?? envelope.item.id,
	type: field.type,
	id: field.id,
	secondaryId: field.secondaryId,
	recipientId: field.recipientId,
	page: field.page,
	positionX: field.positionX,
	positionY: field.positionY,
	width: field.width,
	height: field.height,
	customText: field.customText,
	inserted: field.inserted,
	fieldMeta: field.fieldMeta,
	...legacyIds(envelope),
});

const metaCommon = (meta: Meta) => ({
	id: meta.id,
	subject: meta.subject,
	message: meta.message,
	timezone: meta.timezone,
	dateFormat: meta.dateFormat,
	redirectUrl: meta.redirectUrl,
	signingOrder: meta.signingOrder,
	distributionMethod: meta.distributionMethod,
	typedSignatureEnabled: true,
	uploadSignatureEnabled: true,
	drawSignatureEnabled: true,
	allowDictateNextSigner: false,
	language: meta.language,
	emailSettings: null,
});

/** The fields every document view shares (LegacyDocumentSchema's picks in packages/lib/types/document.ts). */
const documentBase = (envelope: Envelope) => ({
	visibility: 'EVERYONE',
	status: envelope.status,
	source: envelope.source,
	id: envelope.legacyId,
	externalId: envelope.externalId,
	userId: OWNER.userId,
	authOptions: documentAuth(),
	formValues: envelope.formValues,
	title: envelope.title,
	createdAt: envelope.createdAt,
	updatedAt: envelope.updatedAt,
	completedAt: envelope.completedAt,
	deletedAt: envelope.deletedAt,
	teamId: OWNER.teamId,
	folderId: envelope.folderId ?? null,
	envelopeId: envelope.id,
	internalVersion: envelope.items ? 2 : 1,
	templateId: envelope.templateId,
	documentDataId: envelope.item.documentDataId,
});

/** The PDF of an envelope's one item: sealed once a document is COMPLETED, the original before. */
/**
 * The PDF of an envelope's item (its first by default): an uploaded file as uploaded before
 * completion and, once COMPLETED, the same bytes with the seal appended after its end (a comment
 * per signer), so a test can tell them apart; a template's made-up PDF, sealed once COMPLETED.
 */
export function envelopePdf(envelope: Envelope, version: 'signed' | 'original', itemId?: string): Buffer {
	const item = itemsOf(envelope).find((candidate) => candidate.id === itemId) ?? itemsOf(envelope)[0];
	const sealed = version === 'signed' && envelope.status === 'COMPLETED';
	if (item.pdf) {
		if (!sealed) return item.pdf;
		const seal = envelope.recipients
			.filter((recipient) => recipient.signedAt)
			.map((recipient) => `% Signed by ${recipient.email} (${recipient.role}) at ${recipient.signedAt}\n`)
			.join('');
		return Buffer.concat([
			item.pdf,
			Buffer.from(`% Sealed by the Documenso sandbox at ${envelope.completedAt}\n${seal}`, 'latin1'),
		]);
	}
	return documentPdf(
		{
			id: String(envelope.legacyId),
			title: envelope.title,
			completedAt: envelope.completedAt,
			recipients: envelope.recipients.map(({ name, role, signingStatus, signedAt }) => ({
				name,
				role,
				signingStatus,
				signedAt,
			})),
		},
		sealed ? 'signed' : 'original',
	);
}

/**
 * The item's DocumentData as a default install keeps it: in the database, the file in base64
 * (`BYTES_64`, putFileInDatabase in packages/lib/universal/upload/put-file.server.ts, with
 * NEXT_PUBLIC_UPLOAD_TRANSPORT="database" as .env.example sets it); `data` is the file now (the
 * sealed PDF once completed), `initialData` as it was uploaded.
 */
const storedFile = (envelope: Envelope) => ({
	type: 'BYTES_64',
	id: envelope.item.documentDataId,
	data: envelopePdf(envelope, 'signed').toString('base64'),
	initialData: envelopePdf(envelope, 'original').toString('base64'),
	envelopeItemId: envelope.item.id,
});

/** ZDocumentSchema: GET /document/{id} and POST /template/use. */
export const documentView = (envelope: Envelope) => ({
	...documentBase(envelope),
	documentData: storedFile(envelope),
	documentMeta: {
		...metaCommon(envelope.meta),
		emailId: null,
		emailReplyTo: null,
		envelopeExpirationPeriod: null,
		reminderSettings: null,
		password: null,
		documentId: envelope.legacyId,
	},
	envelopeItems: itemsOf(envelope).map((item) => ({ id: item.id, envelopeId: envelope.id })),
	folder: null,
	recipients: envelope.recipients.map((recipient) => recipientView(envelope, recipient)),
	fields: envelope.fields.map((field) => fieldView(envelope, field)),
});

/** ZDocumentLiteSchema: POST /document/distribute. */
export const documentLiteView = (envelope: Envelope) => ({
	...documentBase(envelope),
	useLegacyFieldInsertion: false,
});

/** ZDocumentManySchema: the rows of GET /document. */
export const documentManyView = (envelope: Envelope) => ({
	...documentLiteView(envelope),
	user: OWNER_USER,
	recipients: envelope.recipients.map((recipient) => recipientView(envelope, recipient)),
	team: { id: OWNER.teamId, url: OWNER.teamUrl },
});

const templateBase = (envelope: Envelope) => ({
	type: 'PRIVATE',
	visibility: 'EVERYONE',
	id: envelope.legacyId,
	externalId: envelope.externalId,
	title: envelope.title,
	userId: OWNER.userId,
	teamId: OWNER.teamId,
	authOptions: documentAuth(),
	createdAt: envelope.createdAt,
	updatedAt: envelope.updatedAt,
	publicTitle: '',
	publicDescription: '',
	folderId: envelope.folderId ?? null,
	envelopeId: envelope.id,
	templateDocumentDataId: envelope.item.documentDataId,
	directLink: null,
	recipients: envelope.recipients.map((recipient) => recipientView(envelope, recipient)),
	fields: envelope.fields.map((field) => fieldView(envelope, field)),
});

/** ZTemplateSchema (packages/lib/types/template.ts): GET /template/{id}. */
export const templateView = (envelope: Envelope) => ({
	...templateBase(envelope),
	templateDocumentData: storedFile(envelope),
	templateMeta: {
		...metaCommon(envelope.meta),
		emailId: null,
		emailReplyTo: null,
		templateId: envelope.legacyId,
	},
	user: OWNER_USER,
	folder: null,
	envelopeItems: itemsOf(envelope).map((item) => ({ id: item.id, envelopeId: envelope.id })),
});

/** The rows of GET /template (template-router/router.ts, findTemplates' remapping). */
export const templateManyView = (envelope: Envelope) => ({
	...templateBase(envelope),
	useLegacyFieldInsertion: false,
	team: { id: OWNER.teamId, url: OWNER.teamUrl, name: OWNER.teamName },
	templateMeta: {
		signingOrder: envelope.meta.signingOrder,
		distributionMethod: envelope.meta.distributionMethod,
	},
});

/**
 * ZWebhookDocumentSchema via mapEnvelopeToWebhookDocumentPayload (packages/lib/types/webhook-payload.ts):
 * the document of every webhook delivery, recipients twice (`recipients` and the legacy `Recipient`),
 * documentMeta with timezone and dateFormat forced to 'Etc/UTC' and 'yyyy-MM-dd hh:mm a'.
 */
export const webhookDocument = (envelope: Envelope) => {
	const recipients = envelope.recipients.map((recipient) => ({
		id: recipient.id,
		envelopeId: envelope.id,
		...legacyIds(envelope),
		email: recipient.email,
		name: recipient.name,
		token: recipient.token,
		documentDeletedAt: null,
		expiresAt: recipient.expiresAt,
		expirationNotifiedAt: recipient.expirationNotifiedAt,
		signedAt: recipient.signedAt,
		authOptions: recipientAuth(),
		signingOrder: recipient.signingOrder,
		rejectionReason: recipient.rejectionReason,
		role: recipient.role,
		readStatus: recipient.readStatus,
		signingStatus: recipient.signingStatus,
		sendStatus: recipient.sendStatus,
	}));
	return {
		id: envelope.legacyId,
		envelopeId: envelope.id,
		externalId: envelope.externalId,
		userId: OWNER.userId,
		authOptions: documentAuth(),
		formValues: envelope.formValues,
		visibility: 'EVERYONE',
		title: envelope.title,
		status: envelope.status,
		createdAt: envelope.createdAt,
		updatedAt: envelope.updatedAt,
		completedAt: envelope.completedAt,
		deletedAt: envelope.deletedAt,
		teamId: OWNER.teamId,
		templateId: envelope.templateId,
		source: envelope.source,
		documentMeta: {
			id: envelope.meta.id,
			subject: envelope.meta.subject,
			message: envelope.meta.message,
			timezone: 'Etc/UTC',
			dateFormat: 'yyyy-MM-dd hh:mm a',
			redirectUrl: envelope.meta.redirectUrl,
			signingOrder: envelope.meta.signingOrder,
			allowDictateNextSigner: false,
			typedSignatureEnabled: true,
			uploadSignatureEnabled: true,
			drawSignatureEnabled: true,
			language: envelope.meta.language,
			distributionMethod: envelope.meta.distributionMethod,
			emailSettings: null,
		},
		recipients,
		Recipient: recipients,
	};
};

/** ZEnvelopeManySchema (packages/lib/types/envelope.ts): the rows of GET /envelope. */
export const envelopeManyView = (envelope: Envelope) => ({
	internalVersion: envelope.items ? 2 : 1,
	type: envelope.type,
	status: envelope.status,
	source: envelope.source,
	visibility: 'EVERYONE',
	templateType: 'PRIVATE',
	id: envelope.id,
	secondaryId: `${envelope.type === 'DOCUMENT' ? 'document' : 'template'}_${envelope.legacyId}`,
	externalId: envelope.externalId,
	createdAt: envelope.createdAt,
	updatedAt: envelope.updatedAt,
	completedAt: envelope.completedAt,
	deletedAt: envelope.deletedAt,
	title: envelope.title,
	authOptions: documentAuth(),
	formValues: envelope.formValues,
	publicTitle: '',
	publicDescription: '',
	userId: OWNER.userId,
	teamId: OWNER.teamId,
	folderId: envelope.folderId ?? null,
	templateId: envelope.templateId,
	user: OWNER_USER,
	recipients: envelope.recipients.map((recipient) => recipientView(envelope, recipient)),
	team: { id: OWNER.teamId, url: OWNER.teamUrl },
});

/** ZEnvelopeSchema (packages/lib/types/envelope.ts): GET /envelope/{envelopeId}. */
export const envelopeView = (envelope: Envelope) => {
	const { recipients, user, team, ...many } = envelopeManyView(envelope);
	return {
		...many,
		documentMeta: {
			...metaCommon(envelope.meta),
			emailId: null,
			emailReplyTo: null,
			envelopeExpirationPeriod: null,
		},
		recipients,
		fields: envelope.fields.map((field) => fieldView(envelope, field)),
		envelopeItems: itemsOf(envelope).map((item) => ({
			envelopeId: envelope.id,
			documentDataId: item.documentDataId,
			id: item.id,
			title: item.title,
			order: item.order,
		})),
		directLink: null,
		team,
		user,
	};
};

/** ZDocumentAuditLogSchema (packages/lib/types/document-audit-logs.ts). */
export const auditLogView = (envelope: Envelope, entry: AuditLog) => ({
	id: entry.id,
	createdAt: entry.createdAt,
	envelopeId: envelope.id,
	type: entry.type,
	data: entry.data,
	name: entry.name,
	email: entry.email,
	userId: entry.userId,
	userAgent: entry.userAgent,
	ipAddress: entry.ipAddress,
});

/** Roles whose action completes a document: everyone but CC (complete-document-with-token.ts). */
export const mustAct = (recipient: Recipient) =>
	recipient.role !== 'CC' && recipient.signingStatus !== 'SIGNED';

/**
 * The recipients in signing order: `signingOrder` ascending, none last, then by id (the order
 * sendDocument and completeDocumentWithToken read them in).
 */
export const inSigningOrder = (envelope: Envelope): Recipient[] =>
	[...envelope.recipients].sort(
		(a, b) =>
			(a.signingOrder ?? Number.POSITIVE_INFINITY) - (b.signingOrder ?? Number.POSITIVE_INFINITY) ||
			a.id - b.id,
	);

/**
 * Whether it is this recipient's turn (getIsRecipientsTurnToSign,
 * packages/lib/server-only/recipient/get-is-recipient-turn.ts): always in a PARALLEL document; in a
 * SEQUENTIAL one once everyone before them but CC has signed.
 */
export function isTurnOf(envelope: Envelope, recipient: Recipient): boolean {
	if (envelope.meta.signingOrder !== 'SEQUENTIAL') return true;
	const order = inSigningOrder(envelope);
	return order
		.slice(0, order.indexOf(recipient))
		.every((before) => before.role === 'CC' || before.signingStatus === 'SIGNED');
}

/**
 * The signers without a signature field, which sendDocument refuses to send
 * (getRecipientsWithMissingFields, packages/lib/utils/recipients.ts: SIGNERs only).
 */
export const signersWithoutSignatureField = (envelope: Envelope): Recipient[] =>
	envelope.recipients.filter(
		(recipient) =>
			recipient.role === 'SIGNER' &&
			!envelope.fields.some(
				(field) =>
					field.recipientId === recipient.id &&
					(field.type === 'SIGNATURE' || field.type === 'FREE_SIGNATURE'),
			),
	);
