import type { IDataObject } from 'n8n-workflow';

import { documentedOption } from '../../shared/adapterRegistry';
import { DOCUMENTED_API } from '../../shared/apiChoice';
import { isObject } from '../../shared/credentialTest';
import { sha256Hex } from '../../shared/webhooks';
import { lostAnswerHints, templateNotFoundHint } from '../hints';
import { signingPages, signingTransport } from '../transport';
import type { SigningAdapter } from './types';

const SERVICE = 'signing service';
const { request, answer } = signingTransport(SERVICE);

/** The service's largest page. */
const MAX_PER_PAGE = 100;

interface Page {
	data: IDataObject[];
	pagination: { page: number; perPage: number; total: number; totalPages: number };
}

const isTemplatePage = (body: unknown) => isObject(body) && Array.isArray(body.data) && isObject(body.pagination);

const documentPath = (documentId: string, action = '') =>
	`/api/v2/documents/${encodeURIComponent(documentId)}${action}`;

/** The signing service as CONTRACTS.md describes it (section 1 and Part 2, section 4). */
export const documentedAdapter: SigningAdapter = {
	api: DOCUMENTED_API,
	option: documentedOption(SERVICE),
	like: 'the documented signing API',
	apiName: 'the documented API',
	serviceName: SERVICE,
	// Documenso has no plural `/templates` route.
	recognition: {
		probePath: '/api/v2/templates?perPage=1',
		answersLikeIt: ({ statusCode, body }) => statusCode === 200 && isTemplatePage(body),
	},
	idLooks: { document: 'doc_…', template: 'tpl_…', recipient: 'rcp_…' },
	cancellable: {
		statuses: ['DRAFT', 'PENDING'],
		hint: 'Only a draft or a pending document can be cancelled.',
	},
	outputId: (id) => id,
	credentialProbe: {
		service: SERVICE,
		secretName: 'API token',
		secretHint: 'Check the API Token: it is generated in the portal under Settings → API & Webhooks.',
		apiPrefix: '/api/v2',
		probePath: '/api/v2/templates?perPage=1',
		headers: (credentials) => ({ authorization: `Bearer ${String(credentials.apiToken ?? '')}` }),
		isServiceAnswer: isTemplatePage,
		// The signing service answers 401 with a JSON `message` and no code (Documenso's carry one).
		isServiceRefusal: (body) => isObject(body) && typeof body.message === 'string' && body.code === undefined,
	},

	async listTemplates(ctx, limit, itemIndex) {
		return await signingPages(
			ctx,
			async (page, perPage) =>
				(
					await request<Page>(ctx, {
						method: 'GET',
						path: '/api/v2/templates',
						qs: { page, perPage },
						itemIndex,
					})
				).data,
			'templates',
			{ maxPerPage: MAX_PER_PAGE, limit, itemIndex },
		);
	},

	async getTemplate(ctx, templateId, itemIndex) {
		return await request(ctx, {
			method: 'GET',
			path: `/api/v2/templates/${encodeURIComponent(templateId)}`,
			itemIndex,
			errorHints: { 404: templateNotFoundHint(templateId, this.idLooks.template) },
		});
	},

	async generate(ctx, input, itemIndex) {
		// The template is read only when something is checked against it: prefill values, chosen slots.
		const needsTemplate = input.hasPrefill || input.recipients.some((recipient) => recipient.slot !== undefined);
		const template = needsTemplate ? await this.getTemplate(ctx, input.templateId, itemIndex) : undefined;
		// Placeholders here are descriptions, not recipients: the document has exactly the people given.
		const assignments = template
			? input.assignSlots(template, { everySlot: false })
			: input.recipients.map((recipient) => ({ recipient, slot: undefined }));
		const recipients = assignments.flatMap(({ recipient, slot }) =>
			recipient
				? [{ name: recipient.name, email: recipient.email, role: slot?.role ?? recipient.role ?? 'SIGNER' }]
				: [],
		);
		const body: IDataObject = { title: input.title, recipients };
		if (template && input.hasPrefill) {
			body.prefillFields = input.prefill(template).map(({ id, value }) => ({ id, value }));
		}
		if (input.meta) body.meta = input.meta;
		if (!input.distribute) body.distribute = false;
		return await request(ctx, {
			method: 'POST',
			path: `/api/v2/templates/${encodeURIComponent(input.templateId)}/generate-document`,
			body,
			itemIndex,
			lostAnswerHint: lostAnswerHints.generate(input.templateId, input.title),
			errorHints: { 404: templateNotFoundHint(input.templateId, this.idLooks.template) },
		});
	},

	async getDocument(ctx, documentId, itemIndex) {
		return await request(ctx, { method: 'GET', path: documentPath(documentId), itemIndex });
	},

	async listDocuments(ctx, filter, limit, itemIndex) {
		const qs: IDataObject = {};
		if (filter.status) qs.status = filter.status;
		if (filter.templateId) qs.templateId = filter.templateId;
		return await signingPages(
			ctx,
			async (page, perPage) =>
				(
					await request<Page>(ctx, {
						method: 'GET',
						path: '/api/v2/documents',
						qs: { ...qs, page, perPage },
						itemIndex,
					})
				).data,
			'documents',
			{ maxPerPage: MAX_PER_PAGE, limit, itemIndex },
		);
	},

	async send(ctx, documentId, itemIndex) {
		return await request(ctx, {
			method: 'POST',
			path: documentPath(documentId, '/send'),
			itemIndex,
			lostAnswerHint: lostAnswerHints.send(documentId),
			errorHints: {
				409: `Only a draft can be sent: document ${documentId} was sent already, or is completed, rejected or cancelled. To remind its signers, use Resend.`,
			},
		});
	},

	async resend(ctx, documentId, recipientIds, itemIndex) {
		return await request(ctx, {
			method: 'POST',
			path: documentPath(documentId, '/resend'),
			// No body: the service reminds every signer and approver who has not signed.
			body: recipientIds === 'allPending' ? undefined : { recipientIds },
			itemIndex,
			lostAnswerHint: lostAnswerHints.resend(documentId),
			errorHints: {
				409: `Only a pending document can be reminded: document ${documentId} is a draft (use Send) or is completed, rejected or cancelled.`,
			},
		});
	},

	async cancel(ctx, documentId, itemIndex) {
		const cancelled = await answer<IDataObject>(ctx, {
			method: 'DELETE',
			path: documentPath(documentId),
			itemIndex,
			acceptStatuses: [409],
		});
		if (!cancelled.error) return { cancelled: cancelled.body };
		// 409: the document is not a draft or pending; its status says why.
		const { status } = await this.getDocument(ctx, documentId, itemIndex);
		return { refused: { status: String(status), repeated: cancelled.repeated } };
	},

	async downloadFile(ctx, _document, file, itemIndex) {
		return await answer<unknown>(ctx, {
			method: file.method,
			path: documentPath(file.documentId, '/download'),
			qs: { version: file.version },
			encoding: file.method === 'GET' ? 'stream' : undefined,
			timeoutMs: file.timeoutMs,
			itemIndex,
			// 409: the signed version does not exist before completion.
			acceptStatuses: [409],
		});
	},

	async auditLog(ctx, documentId, itemIndex) {
		const { data } = await request<{ data: IDataObject[] }>(ctx, {
			method: 'GET',
			path: documentPath(documentId, '/audit-log'),
			itemIndex,
		});
		return data;
	},

	webhooks: {
		secretHeader: 'x-signing-secret',
		// CONTRACTS.md: an endpoint's secret is optional, and checked when the user set one.
		secretRequired: false,
		shape: '{ event, createdAt, payload }',
		setup: "the webhook endpoint's shared secret in the signing service's administrator panel",
		extraEvents: [],
		eventAliases: {},
	},

	parseDelivery({ headers, body, rawBody }) {
		if (!isObject(body) || typeof body.event !== 'string' || !isObject(body.payload)) return undefined;
		const header = headers['x-signing-delivery'];
		return {
			event: body.event,
			createdAt: body.createdAt ?? null,
			// Deployments that send no delivery id repeat the same bytes on a retry.
			deliveryKey: typeof header === 'string' && header !== '' ? header : `body:${sha256Hex(rawBody)}`,
			payload: body.payload,
			beyond: {},
		};
	},
};
