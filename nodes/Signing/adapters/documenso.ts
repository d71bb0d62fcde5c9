import type { IDataObject, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { multipartBody } from '../../shared/multipart';
import { learnAlongside } from '../../shared/privacyOfRun';
import { credentialBaseUrl, withDescription } from '../../shared/request';
import type { RequestContext, ServiceAnswer } from '../../shared/request';
import { lostAnswerHints, templateNotFoundHint } from '../hints';
import { signingPages } from '../transport';
import { DOCUMENSO_CREDENTIAL_PROBE, DOCUMENSO_RECOGNITION } from './documensoCredential';
import type { DocumensoPage } from './documensoShapes';
import {
	documensoError,
	documentedAuditEntry,
	documentedDocument,
	documentedTemplate,
} from './documensoShapes';
import {
	DOCUMENT_ID_LOOKS,
	getEnvelope,
	MAX_PER_PAGE,
	numericId,
	rawDocument,
	rawTemplate,
	TEMPLATE_ID_LOOKS,
	templateNumber,
	wholeEnvelopes,
	withLegacyId,
} from './documensoEnvelopes';
import { documensoFields, documensoRecipients } from './documensoDrafts';
import { documensoAttachments, documensoFiles } from './documensoFiles';
import { documensoDocumentFiles } from './documensoItems';
import { documensoDocuments, documensoFolders, documensoTemplates } from './documensoManage';
import { DOCUMENSO_RATE, documensoTransport } from './documensoTransport';
import { documensoUploads } from './documensoUploads';
import { DOCUMENSO_EVENTS, DOCUMENSO_EXTRA_EVENTS, documensoEvent } from './documensoWebhooks';
import type { PrefillValue, SigningAdapter } from './types';

/**
 * Documenso's API v2 (documenso/documenso, tag v2.17.0, commit 75330166cc00b29c14399bc2e391e4b4d8080c00;
 * facts and sources per route in test/sandbox/documenso/README.md). Its routes are tRPC procedures
 * served as REST by trpc-to-openapi under /api/v2. Every call goes to the envelope routes
 * (`/api/v2/envelope/*`): the document and template routes are removed on 1 March 2027
 * (apps/docs/content/docs/developers/api/migrate-to-envelopes.mdx). Documents and templates keep
 * their numbers in the outputs (`id`, `documentId`), with the envelope's id beside (`envelopeId`).
 */
const SERVICE = 'Documenso server';
const { request, answer } = documensoTransport;

const baseUrlOf = async (ctx: RequestContext, itemIndex?: number) =>
	await credentialBaseUrl(ctx, 'signingApi', itemIndex);

/** The team's URL name, which Documenso gives with every envelope (`team.url`), for the link to a document's page. */
const teamUrlOf = (envelope: IDataObject): string | undefined => {
	const team = envelope.team as IDataObject | undefined;
	return typeof team?.url === 'string' ? team.url : undefined;
};

/** The templates a run of the node has read, by the ID given: one read per template and run, not per item. */
const templatesOfRun = new WeakMap<object, Map<string, Promise<IDataObject>>>();

/**
 * A template for Generate From Template, read once per run of the node (n8n makes one context per
 * run): a run that makes a document for each of many items reads its template once, so that a
 * document costs two requests (`/envelope/use` and the new document read back), as before.
 */
async function templateOfRun(ctx: RequestContext, templateId: string, itemIndex: number): Promise<IDataObject> {
	let known = templatesOfRun.get(ctx);
	if (!known) templatesOfRun.set(ctx, (known = new Map()));
	const key = templateId.trim();
	let template = known.get(key);
	if (!template) {
		template = rawTemplate(ctx, key, itemIndex);
		template.catch(() => known.delete(key));
		known.set(key, template);
	}
	return await template;
}

const statusWords = (status: unknown) => String(status).toLowerCase();

/**
 * All Pending Signers as Documenso would e-mail them now: the signers and approvers who have not
 * signed, and in a SEQUENTIAL document only the recipient whose turn it is (sendDocument in
 * packages/lib/server-only/document/send-document.ts e-mails the first recipient but CC who has
 * not signed, by signingOrder then id; get-is-recipient-turn.ts lets nobody after them sign).
 * resend-document.ts itself would e-mail anyone listed but CC: viewers, assistants, and signers
 * whose turn has not come, who cannot sign yet.
 */
function pendingSignersNow(document: IDataObject): number[] {
	const recipients = ((document.recipients as IDataObject[] | undefined) ?? []).filter(
		(recipient) => recipient.role !== 'CC' && recipient.signingStatus !== 'SIGNED',
	);
	const meta = (document.documentMeta as IDataObject | undefined) ?? {};
	const order = (recipient: IDataObject) =>
		typeof recipient.signingOrder === 'number' ? recipient.signingOrder : Number.POSITIVE_INFINITY;
	const due =
		meta.signingOrder === 'SEQUENTIAL'
			? [...recipients].sort((a, b) => order(a) - order(b) || Number(a.id) - Number(b.id)).slice(0, 1)
			: recipients;
	return due
		.filter(
			(recipient) =>
				(recipient.role === 'SIGNER' || recipient.role === 'APPROVER') &&
				recipient.signingStatus === 'NOT_SIGNED',
		)
		.map((recipient) => recipient.id as number);
}

/** A prefill value in /envelope/use's terms (ZFieldMetaPrefillFieldsSchema): the field's type, a list for a checkbox. */
function documensoPrefill({ field, value }: PrefillValue): IDataObject {
	const meta = (field.fieldMeta as IDataObject | undefined) ?? {};
	const type = String(field.type);
	const prefill: IDataObject = { id: Number(field.id), type };
	// The label and placeholder sent replace the field's own (getUpdatedFieldMeta): send them back as
	// they are. A date is written into the field, not its meta, and takes neither.
	if (type !== 'date' && typeof meta.label === 'string') prefill.label = meta.label;
	if ((type === 'text' || type === 'number') && typeof meta.placeholder === 'string') {
		prefill.placeholder = meta.placeholder;
	}
	if (type === 'checkbox') prefill.value = value === 'true' ? ((field.options as string[]) ?? []) : [];
	// Documenso writes `DateTime.fromJSDate(new Date(value))` in the server's own time zone
	// (create-document-from-template.ts). `new Date` reads a date alone as midnight UTC, the day
	// before on a server west of UTC; a date and time without an offset is the server's midnight.
	else if (type === 'date') prefill.value = `${value}T00:00:00`;
	else prefill.value = value;
	return prefill;
}

/**
 * What /envelope/use answers when it made the document and then could not send it: the route
 * turns any error of sendDocument into DOCUMENT_SEND_FAILED (use-envelope.ts), and the document
 * stays a draft (send-document.ts: e.g. a signer without a signature field). The other codes are
 * kept for a server that passes sendDocument's own code on (MISSING_SIGNATURE_FIELD,
 * INVALID_REQUEST, RECIPIENT_LIMIT_EXCEEDED). Making the document fails with INVALID_BODY or
 * NOT_FOUND instead, before anything is stored.
 */
const SEND_FAILURES = new Set(['MISSING_SIGNATURE_FIELD', 'INVALID_REQUEST', 'RECIPIENT_LIMIT_EXCEEDED', 'DOCUMENT_SEND_FAILED']);

/** The error of /envelope/use, saying which draft it left when the document was made but not sent. */
async function withDraftLeft(
	ctx: RequestContext,
	used: ServiceAnswer<IDataObject>,
	sent: { templateId: number; title: string; body: IDataObject },
	itemIndex: number,
): Promise<Error> {
	const error = used.error as NodeApiError;
	const { code, message } = documensoError(used.body, used.statusCode);
	if (!code || !SEND_FAILURES.has(code)) return error;
	const emails = ((sent.body.recipients as IDataObject[] | undefined) ?? []).map((recipient) => String(recipient.email));
	const draft = await draftLeftBehind(ctx, { templateId: sent.templateId, title: sent.title, emails, message }, itemIndex).catch(
		() => undefined,
	);
	const kept = draft
		? `Documenso made the document before it refused to send it: it is kept as draft ${String(draft.id)} ("${String(draft.title)}"). Fix what Documenso names (in the template too, for the next documents), then send it with Document → Send, or delete it in Documenso`
		: `Documenso made the document before it refused to send it, and keeps it as a draft: Document → Get Many with Filters › Status Draft and Template ${sent.templateId} lists it`;
	// The draft's title may hold a recipient's name: what the error says to an agent is redacted knowing them.
	return learnAlongside(withDescription(ctx, error, itemIndex, `${kept}. Running this item again makes another document.`), sent.body);
}

/**
 * The draft a failed send of /envelope/use left: its answer does not name it. Among the newest
 * drafts made from the template (`GET /envelope` with `templateId` and `status`), the one with
 * the recipients the error names ("…, id: 123"), else the newest with the title and addresses sent.
 */
async function draftLeftBehind(
	ctx: RequestContext,
	sent: { templateId: number; title: string; emails: string[]; message: string },
	itemIndex: number,
): Promise<IDataObject | undefined> {
	const { data: rows } = await request<DocumensoPage>(ctx, {
		method: 'GET',
		path: '/api/v2/envelope',
		qs: { type: 'DOCUMENT', templateId: sent.templateId, status: 'DRAFT', perPage: 20 },
		itemIndex,
	});
	const drafts = rows.map(withLegacyId);
	const recipientIds = (draft: IDataObject) =>
		((draft.recipients as IDataObject[] | undefined) ?? []).map((recipient) => Number(recipient.id));
	const named = [...sent.message.matchAll(/\bid: (\d+)\)/g)].map((match) => Number(match[1]));
	if (named.length > 0) return drafts.find((draft) => named.some((id) => recipientIds(draft).includes(id)));
	const emails = (draft: IDataObject) =>
		((draft.recipients as IDataObject[] | undefined) ?? []).map((recipient) => String(recipient.email).toLowerCase());
	return drafts.find(
		(draft) =>
			(sent.title === '' || draft.title === sent.title) &&
			sent.emails.every((email) => emails(draft).includes(email.toLowerCase())),
	);
}

export const documensoAdapter: SigningAdapter = {
	api: 'documenso',
	option: {
		name: 'Documenso',
		description: 'Documenso’s own API v2, as in Documenso 2.17; see "Using with Documenso" in the README',
	},
	like: 'Documenso',
	apiName: 'the Documenso API',
	serviceName: SERVICE,
	rate: DOCUMENSO_RATE,
	idLooks: { document: DOCUMENT_ID_LOOKS, template: TEMPLATE_ID_LOOKS, recipient: 'a number such as 101' },
	cancellable: {
		statuses: ['PENDING'],
		hint: 'Documenso cancels only pending documents (cancelDocument, packages/lib/server-only/document/cancel-document.ts); a draft is deleted in Documenso instead.',
	},
	credentialProbe: DOCUMENSO_CREDENTIAL_PROBE,
	recognition: DOCUMENSO_RECOGNITION,
	outputId: (id) => (/^\d+$/.test(id.trim()) ? Number(id.trim()) : id),

	// GET /envelope?type=TEMPLATE (envelope.find, envelope-router/find-envelopes.ts): newest first, the root folder;
	// then the templates themselves, 20 a request (POST /envelope/get-many).
	async listTemplates(ctx, limit, itemIndex) {
		const templates = await signingPages(
			ctx,
			async (page, perPage) =>
				(
					await request<DocumensoPage>(ctx, {
						method: 'GET',
						path: '/api/v2/envelope',
						qs: { type: 'TEMPLATE', page, perPage },
						itemIndex,
					})
				).data,
			'templates',
			{ maxPerPage: MAX_PER_PAGE, limit, itemIndex },
		);
		// The rows have no fields, which say what a template can prefill: each is read whole.
		return (await wholeEnvelopes(ctx, templates, itemIndex)).map((template) => documentedTemplate(withLegacyId(template)));
	},

	// GET /envelope/{envelopeId}, or envelope/get-many by its number (rawTemplate).
	async getTemplate(ctx, templateId, itemIndex) {
		return documentedTemplate(await rawTemplate(ctx, templateId, itemIndex));
	},

	/**
	 * POST /envelope/use (envelope.use, envelope-router/use-envelope.ts; createDocumentFromTemplate in
	 * packages/lib/server-only/template/create-document-from-template.ts), multipart: its JSON in a
	 * `payload` part. Recipients fill the template's slots by their id, the role comes from the
	 * slot; a slot left out keeps the template's name and address, so every slot is checked first.
	 * Its answer names the new envelope and its recipients only: the document is read once made.
	 */
	async generate(ctx, input, itemIndex) {
		const raw = await templateOfRun(ctx, input.templateId, itemIndex);
		const template = documentedTemplate(raw);
		const templateId = Number(raw.id);
		const assignments = input.assignSlots(template, { everySlot: true });
		const prefill = input.hasPrefill ? input.prefill(template) : [];
		const baseUrl = await baseUrlOf(ctx, itemIndex);
		const body: IDataObject = {
			envelopeId: String(raw.envelopeId),
			recipients: assignments.flatMap(({ slot, recipient }) =>
				recipient && slot ? [{ id: Number(slot.id), email: recipient.email, name: recipient.name }] : [],
			),
			distributeDocument: input.distribute,
			override: { title: input.title, ...input.meta },
		};
		if (prefill.length > 0) body.prefillFields = prefill.map(documensoPrefill);
		const used = await answer<IDataObject>(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/use',
			multipart: multipartBody({ payload: JSON.stringify(body) }),
			itemIndex,
			lostAnswerHint: lostAnswerHints.generate(input.templateId, input.title),
			errorHints: { 404: templateNotFoundHint(input.templateId, this.idLooks.template) },
			acceptStatuses: input.distribute ? [400] : [],
		});
		if (used.error) throw await withDraftLeft(ctx, used, { templateId, title: input.title, body }, itemIndex);
		const document = withLegacyId(await getEnvelope(ctx, String(used.body.id), itemIndex));
		return { documentId: document.id, ...documentedDocument(document, baseUrl, teamUrlOf(document)) };
	},

	async getDocument(ctx, documentId, itemIndex) {
		const document = await rawDocument(ctx, documentId, itemIndex);
		return documentedDocument(document, await baseUrlOf(ctx, itemIndex), teamUrlOf(document));
	},

	// GET /envelope?type=DOCUMENT (envelope.find, envelope-router/find-envelopes.ts): newest first, the root folder.
	async listDocuments(ctx, filter, limit, itemIndex) {
		const qs: IDataObject = { type: 'DOCUMENT' };
		if (filter.status) qs.status = filter.status;
		if (filter.templateId) qs.templateId = await templateNumber(ctx, filter.templateId, 'Filters › Template', itemIndex);
		const baseUrl = await baseUrlOf(ctx, itemIndex);
		const documents = await signingPages(
			ctx,
			async (page, perPage) =>
				(
					await request<DocumensoPage>(ctx, {
						method: 'GET',
						path: '/api/v2/envelope',
						qs: { ...qs, page, perPage },
						itemIndex,
					})
				).data.map(withLegacyId),
			'documents',
			{ maxPerPage: MAX_PER_PAGE, limit, itemIndex },
		);
		return documents.map((document) => documentedDocument(document, baseUrl, teamUrlOf(document)));
	},

	/**
	 * POST /envelope/distribute (envelope.distribute, envelope-router/distribute-envelope.ts; sendDocument
	 * in packages/lib/server-only/document/send-document.ts).
	 * Documenso also sends a pending document again and refuses a finished one with a plain 500; the
	 * documented Send takes only a draft, so the status is read first. Its answer has no recipients:
	 * the document is read again.
	 */
	async send(ctx, documentId, itemIndex) {
		const document = await rawDocument(ctx, documentId, itemIndex);
		if (document.status !== 'DRAFT') {
			throw new NodeOperationError(
				ctx.getNode(),
				`Document ${documentId} is not a draft (it is ${statusWords(document.status)}): only a draft can be sent`,
				{ itemIndex, description: 'It was sent already, or is completed, rejected or cancelled. To remind its signers, use Resend.' },
			);
		}
		await request(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/distribute',
			body: { envelopeId: String(document.envelopeId) },
			itemIndex,
			lostAnswerHint: lostAnswerHints.send(documentId),
		}).catch((error: Error) => {
			// Documenso's refusal names recipients (MISSING_SIGNATURE_FIELD): redacted for an agent knowing them.
			throw learnAlongside(error, document);
		});
		return await this.getDocument(ctx, documentId, itemIndex);
	},

	/**
	 * POST /envelope/redistribute (envelope.redistribute, envelope-router/redistribute-envelope.ts;
	 * resendDocument in packages/lib/server-only/document/resend-document.ts)
	 * takes the recipients to remind, at least one, and skips without a word the ones that are not
	 * on the document, have signed or are CC. So the node reads the document, computes All Pending
	 * Signers (`pendingSignersNow`) and refuses what the documented API refuses, before sending.
	 */
	async resend(ctx, documentId, recipientIds, itemIndex) {
		const document = await rawDocument(ctx, documentId, itemIndex);
		if (document.status !== 'PENDING') {
			throw new NodeOperationError(
				ctx.getNode(),
				`Document ${documentId} cannot be reminded: it is ${statusWords(document.status)}`,
				{
					itemIndex,
					description: `Only a pending document can be reminded: ${document.status === 'DRAFT' ? 'send the draft first (Send)' : 'nobody is left to sign'}.`,
				},
			);
		}
		let ids: number[];
		if (recipientIds === 'allPending') {
			ids = pendingSignersNow(document);
		} else {
			ids = [...new Set(recipientIds.map((id) => numericId(ctx, id, 'Recipient IDs', itemIndex)))];
			for (const id of ids) {
				const recipient = ((document.recipients as IDataObject[] | undefined) ?? []).find(
					(candidate) => candidate.id === id,
				);
				const problem = !recipient
					? 'is not a recipient of this document'
					: recipient.role === 'CC'
						? 'is in CC: CC recipients get a copy once it is completed and are never reminded'
						: recipient.signingStatus !== 'NOT_SIGNED'
							? `has ${recipient.signingStatus === 'SIGNED' ? 'signed' : 'rejected'} already`
							: undefined;
				if (problem) {
					throw new NodeOperationError(ctx.getNode(), `Recipient IDs: recipient ${id} ${problem}`, {
						itemIndex,
						description: `Document ${documentId}'s recipients are listed by Get (recipientId). Nothing was sent.`,
					});
				}
			}
		}
		// Nobody left to remind: Documenso refuses an empty list, and there is nothing to send.
		if (ids.length === 0) return { resent: [] };
		// Its answer lists every recipient with their signing token: only whether it succeeded is kept.
		const { success } = await request(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/redistribute',
			body: { envelopeId: String(document.envelopeId), recipients: ids },
			itemIndex,
			lostAnswerHint: lostAnswerHints.resend(documentId),
		});
		return { resent: ids, success };
	},

	/**
	 * POST /envelope/cancel {envelopeId, reason?} (envelope.cancel,
	 * packages/trpc/server/envelope-router/cancel-envelope.ts; cancelDocument in
	 * packages/lib/server-only/document/cancel-document.ts): the envelope's id, not the document's
	 * number, and only a PENDING document; anything else is 400 INVALID_REQUEST.
	 */
	async cancel(ctx, documentId, itemIndex) {
		const document = await rawDocument(ctx, documentId, itemIndex);
		if (document.status !== 'PENDING') return { refused: { status: String(document.status), repeated: false } };
		const cancelled = await answer(ctx, {
			method: 'POST',
			path: '/api/v2/envelope/cancel',
			body: { envelopeId: String(document.envelopeId) },
			itemIndex,
			lostAnswerHint: lostAnswerHints.cancel(documentId),
			acceptStatuses: [400],
		});
		if (cancelled.error) {
			// The document left PENDING meanwhile (completed, cancelled elsewhere): its status says why.
			const { status } = await rawDocument(ctx, documentId, itemIndex);
			if (status === 'PENDING') throw cancelled.error;
			return { refused: { status: String(status), repeated: cancelled.repeated } };
		}
		return {
			cancelled: { id: document.id, envelopeId: document.envelopeId, status: 'CANCELLED', ...cancelled.body },
		};
	},

	/**
	 * `GET /envelope/item/{envelopeItemId}/download?version=` (apps/remix/server/api/download/download.ts,
	 * a Hono router in front of the tRPC ones): the document's first PDF, signed (the file as it is
	 * now) or original.
	 */
	async downloadFile(ctx, document, file, itemIndex) {
		const items = ((document.envelopeItems as IDataObject[] | undefined) ?? [])
			.slice()
			.sort((a, b) => Number(a.order) - Number(b.order));
		const itemId = items[0]?.id ?? (document.documentData as IDataObject | undefined)?.envelopeItemId;
		return await answer<unknown>(ctx, {
			method: file.method,
			path: `/api/v2/envelope/item/${encodeURIComponent(String(itemId))}/download`,
			qs: { version: file.version },
			encoding: file.method === 'GET' ? 'stream' : undefined,
			timeoutMs: file.timeoutMs,
			itemIndex,
		});
	},

	/**
	 * GET /envelope/{envelopeId}/audit-log (envelope.auditLog.find,
	 * packages/trpc/server/envelope-router/find-envelope-audit-logs.ts): 50 a page and newest first by
	 * default; read oldest first, every page, as the documented log is.
	 */
	async auditLog(ctx, documentId, itemIndex) {
		const document = await rawDocument(ctx, documentId, itemIndex);
		const path = `/api/v2/envelope/${encodeURIComponent(String(document.envelopeId))}/audit-log`;
		const entries: IDataObject[] = [];
		for (let page = 1; ; page++) {
			const answered = await request<DocumensoPage>(ctx, {
				method: 'GET',
				path,
				qs: { page, perPage: MAX_PER_PAGE, orderByDirection: 'asc' },
				itemIndex,
			});
			entries.push(...answered.data);
			if (answered.data.length === 0 || page >= answered.totalPages) break;
		}
		return entries.map(documentedAuditEntry);
	},

	webhooks: {
		secretHeader: 'x-documenso-secret',
		// Documenso sends the header on every delivery, empty when the webhook has no secret: without
		// one, anybody who knows the URL could start the workflow.
		secretRequired: true,
		shape: '{ event, payload, createdAt, webhookEndpoint }',
		setup: "the webhook's Secret in Documenso (team settings → Webhooks)",
		notice:
			'On Documenso: add the URL under your team’s Settings → Webhooks with a Secret, and the same Secret in the credential (required); a self-hosted Documenso calls private or local addresses only if NEXT_PRIVATE_WEBHOOK_SSRF_BYPASS_HOSTS names them.',
		extraEvents: DOCUMENSO_EXTRA_EVENTS,
		eventAliases: DOCUMENSO_EVENTS,
	},

	parseDelivery({ body }, { baseUrl }) {
		return documensoEvent(body, (baseUrl ?? '').replace(/\/+$/, ''));
	},

	uploads: documensoUploads,
	recipients: documensoRecipients,
	fields: documensoFields,
	documents: documensoDocuments,
	templates: documensoTemplates,
	folders: documensoFolders,
	files: documensoFiles,
	attachments: documensoAttachments,
	documentFiles: documensoDocumentFiles,
};
