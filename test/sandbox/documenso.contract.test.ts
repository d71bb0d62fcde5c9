/**
 * The Documenso flavour of the signing sandbox, route by route: what Documenso's API v2 answers
 * at tag v2.17.0 (test/sandbox/documenso/README.md), every answer parsed with the response schema
 * of `@documenso/sdk-typescript`.
 */
import * as ops from '@documenso/sdk-typescript/models/operations';
import type { ZodTypeAny } from 'zod/v3';

import { DOCUMENSO_DEFAULT_KEY, DOCUMENSO_SEED, type Sandbox } from './index';
import { ada, director, documensoClient, startDocumenso } from './documenso/testkit';

jest.setTimeout(60_000);

/** The answer as the SDK reads it; fails with the SDK's own complaint. */
function sdkParses(schema: ZodTypeAny, json: unknown) {
	const result = schema.safeParse(json);
	if (!result.success) throw new Error(JSON.stringify(result.error.issues.slice(0, 5)));
	return result.data;
}

describe('Documenso flavour: routes', () => {
	let sandbox: Sandbox;
	const { get, post, control, url } = documensoClient(() => sandbox);
	const use = async (extra: Record<string, unknown> = {}) =>
		await post('/api/v2/template/use', {
			templateId: DOCUMENSO_SEED.residencyTemplateId,
			recipients: [ada, director],
			distributeDocument: true,
			...extra,
		});
	const pending = async () => (await use()).json;

	// The deprecated document and template routes as Documenso 2.17 serves them: `all`.
	beforeAll(async () => (sandbox = await startDocumenso('all')));
	afterAll(async () => await sandbox.stop());
	beforeEach(async () => await control('/reset'));

	it('starts with a Documenso-style token as the signing key', () => {
		expect(sandbox.signing.apiKey).toBe(DOCUMENSO_DEFAULT_KEY);
	});

	describe('templates', () => {
		it('GET /template pages the templates, newest first, with their slots and fields', async () => {
			const answer = await get('/api/v2/template?page=1&perPage=1');
			expect(answer.status).toBe(200);
			const parsed = sdkParses(ops.TemplateFindTemplatesResponse$inboundSchema, answer.json);
			expect(parsed).toMatchObject({ count: 2, currentPage: 1, perPage: 1, totalPages: 2 });
			expect(answer.json.data.map((template: { id: number }) => template.id)).toEqual([
				DOCUMENSO_SEED.residencyTemplateId,
			]);
			const second = await get('/api/v2/template?page=2&perPage=1');
			expect(second.json.data.map((template: { id: number }) => template.id)).toEqual([
				DOCUMENSO_SEED.ndaTemplateId,
			]);
			expect((await get('/api/v2/template?page=3&perPage=1')).json.data).toEqual([]);
			// Without perPage, Documenso's findTemplates gives 10.
			expect((await get('/api/v2/template')).json.perPage).toBe(10);
		});

		it('GET /template/{id} gives the slots (numeric id, role, placeholder name) and the prefillable fields', async () => {
			const answer = await get(`/api/v2/template/${DOCUMENSO_SEED.residencyTemplateId}`);
			expect(answer.status).toBe(200);
			sdkParses(ops.TemplateGetTemplateByIdResponse$inboundSchema, answer.json);
			expect(
				answer.json.recipients.map(({ id, role, name }: Record<string, unknown>) => ({
					id,
					role,
					name,
				})),
			).toEqual([
				{ id: DOCUMENSO_SEED.slots.applicant, role: 'SIGNER', name: 'Applicant' },
				{ id: DOCUMENSO_SEED.slots.director, role: 'APPROVER', name: 'Director' },
			]);
			const prefillable = answer.json.fields.filter(
				(field: { fieldMeta: { label?: string } | null }) => field.fieldMeta?.label,
			);
			expect(prefillable.map(({ id, type }: Record<string, unknown>) => ({ id, type }))).toEqual([
				{ id: DOCUMENSO_SEED.fields.residency.projectTitle, type: 'TEXT' },
				{ id: DOCUMENSO_SEED.fields.residency.stipend, type: 'NUMBER' },
				{ id: DOCUMENSO_SEED.fields.residency.startDate, type: 'DATE' },
				{ id: DOCUMENSO_SEED.fields.residency.housing, type: 'CHECKBOX' },
				{ id: DOCUMENSO_SEED.fields.residency.studio, type: 'DROPDOWN' },
			]);
			expect(answer.json.envelopeId).toMatch(/^envelope_[a-z]{16}$/);
		});

		it('adds a template through the control endpoint, with slots of any role', async () => {
			const added = await control('/templates', {
				title: 'Loan of a work',
				recipients: [
					{ name: 'Borrower', role: 'SIGNER' },
					{ name: 'Registrar', role: 'VIEWER' },
					{ name: 'Archive', role: 'CC' },
				],
				fields: [{ label: 'Work', type: 'TEXT' }],
			});
			expect(added.status).toBe(200);
			const template = (await get(`/api/v2/template/${added.json.id}`)).json;
			expect(template.id).toBe(3);
			expect(template.recipients.map(({ role }: { role: string }) => role)).toEqual([
				'SIGNER',
				'VIEWER',
				'CC',
			]);
			const [borrower, registrar, archive] = template.recipients.map(
				({ id }: { id: number }) => id,
			);
			const created = await post('/api/v2/template/use', {
				templateId: template.id,
				recipients: [
					{ id: borrower, email: 'b@example.org', name: 'B' },
					{ id: registrar, email: 'r@example.org', name: 'R' },
					{ id: archive, email: 'a@example.org', name: 'A' },
				],
				distributeDocument: true,
				prefillFields: [{ id: template.fields[0].id, type: 'text', value: 'Nocturne' }],
			});
			expect(created.status).toBe(200);
			// The viewer has to act too; the CC never does.
			await control(`/documents/${created.json.id}/sign`, { email: 'b@example.org' });
			expect((await get(`/api/v2/document/${created.json.id}`)).json.status).toBe('PENDING');
			await control(`/documents/${created.json.id}/sign`, { email: 'r@example.org' });
			expect((await get(`/api/v2/document/${created.json.id}`)).json.status).toBe('COMPLETED');
			expect((await control('/templates', { title: 'Empty', recipients: [] })).status).toBe(400);
		});

		it('answers an unknown template with a 404 AppError', async () => {
			const answer = await get('/api/v2/template/999');
			expect(answer.status).toBe(404);
			expect(answer.json).toEqual({
				message: 'Template not found',
				code: 'INTERNAL_SERVER_ERROR',
				data: {
					code: 'NOT_FOUND',
					httpStatus: 404,
					path: 'template.getTemplateById',
					appError: { code: 'NOT_FOUND', message: 'Template not found' },
				},
			});
		});
	});

	describe('POST /template/use', () => {
		it('fills the slots by id, takes the roles from the template, and distributes when asked', async () => {
			const answer = await use({ override: { title: 'Residency agreement – Ada Lovelace' } });
			expect(answer.status).toBe(200);
			sdkParses(ops.TemplateCreateDocumentFromTemplateResponse$inboundSchema, answer.json);
			expect(answer.json).toMatchObject({
				id: DOCUMENSO_SEED.firstDocumentId,
				envelopeId: expect.stringMatching(/^envelope_/),
				title: 'Residency agreement – Ada Lovelace',
				status: 'PENDING',
				source: 'TEMPLATE',
				templateId: DOCUMENSO_SEED.residencyTemplateId,
			});
			expect(
				answer.json.recipients.map(
					({ email, name, role, signingStatus }: Record<string, unknown>) => ({
						email,
						name,
						role,
						signingStatus,
					}),
				),
			).toEqual([
				{ email: ada.email, name: ada.name, role: 'SIGNER', signingStatus: 'NOT_SIGNED' },
				{
					email: director.email,
					name: director.name,
					role: 'APPROVER',
					signingStatus: 'NOT_SIGNED',
				},
			]);
			// New recipient ids, not the slots'.
			expect(answer.json.recipients[0].id).not.toBe(ada.id);
			// The signing link is the web app's /sign/<token>, not in the answer.
			const page = await fetch(url(`/sign/${answer.json.recipients[0].token}`));
			expect(page.status).toBe(200);
		});

		it('leaves a document DRAFT without distributeDocument (its default is false)', async () => {
			const answer = await use({ distributeDocument: undefined });
			expect(answer.json.status).toBe('DRAFT');
		});

		it('keeps the template placeholder in a slot nobody was given', async () => {
			const answer = await use({ recipients: [ada] });
			expect(answer.json.recipients[1]).toMatchObject({
				name: 'Director',
				email: 'recipient.2@documenso.com',
				role: 'APPROVER',
			});
		});

		it('prefills fields by id and type, checkbox values as a list', async () => {
			const fields = DOCUMENSO_SEED.fields.residency;
			const answer = await use({
				prefillFields: [
					{ id: fields.projectTitle, type: 'text', value: 'Light studies' },
					{ id: fields.stipend, type: 'number', value: '1200' },
					{ id: fields.startDate, type: 'date', value: '2027-01-15' },
					{ id: fields.housing, type: 'checkbox', value: ['Housing included'] },
					{ id: fields.studio, type: 'dropdown', value: 'North studio' },
				],
			});
			expect(answer.status).toBe(200);
			const ofType = (type: string) =>
				answer.json.fields.find((field: { type: string }) => field.type === type);
			expect(ofType('TEXT').fieldMeta.text).toBe('Light studies');
			expect(ofType('NUMBER').fieldMeta.value).toBe('1200');
			expect(ofType('DATE')).toMatchObject({ inserted: true, customText: '2027-01-15 12:00 AM' });
			expect(ofType('CHECKBOX').fieldMeta.values).toEqual([
				{ id: 1, checked: true, value: 'Housing included' },
			]);
			expect(ofType('DROPDOWN').fieldMeta.defaultValue).toBe('North studio');
		});

		it.each([
			[
				{ id: 999, type: 'text', value: 'x' },
				'The following field IDs do not exist in the template: 999',
			],
			[
				{ id: DOCUMENSO_SEED.fields.residency.stipend, type: 'text', value: '1' },
				`Field type mismatch for field ${DOCUMENSO_SEED.fields.residency.stipend}: expected number, got text`,
			],
			[
				{ id: DOCUMENSO_SEED.fields.residency.studio, type: 'dropdown', value: 'Basement' },
				`Value "Basement" not found in options for DROPDOWN field ${DOCUMENSO_SEED.fields.residency.studio}`,
			],
			[
				{ id: DOCUMENSO_SEED.fields.residency.startDate, type: 'date', value: 'someday' },
				`Invalid date value for field ${DOCUMENSO_SEED.fields.residency.startDate}: someday`,
			],
		])('refuses the prefill %j with a 400 INVALID_BODY', async (prefill, message) => {
			const answer = await use({ prefillFields: [prefill] });
			expect(answer.status).toBe(400);
			expect(answer.json).toMatchObject({
				message,
				code: 'INTERNAL_SERVER_ERROR',
				data: { code: 'INVALID_BODY', httpStatus: 400 },
			});
			expect((await control('/documents', undefined, 'GET')).json.documents).toEqual([]);
		});

		it('refuses a recipient id that is not a slot of the template', async () => {
			const answer = await use({ recipients: [{ ...ada, id: DOCUMENSO_SEED.slots.partyA }] });
			expect(answer.status).toBe(400);
			expect(answer.json.message).toBe(
				`Recipient with ID ${DOCUMENSO_SEED.slots.partyA} not found in the template.`,
			);
		});

		it('answers an unknown template with 404', async () => {
			const answer = await use({ templateId: 999 });
			expect(answer.status).toBe(404);
			expect(answer.json.data.code).toBe('NOT_FOUND');
		});
	});

	describe('documents', () => {
		it('GET /document/{id} gives the document; an unknown one is a 404 AppError', async () => {
			const created = await pending();
			const answer = await get(`/api/v2/document/${created.id}`);
			expect(answer.status).toBe(200);
			sdkParses(ops.DocumentGetResponse$inboundSchema, answer.json);
			expect(answer.json).toEqual(created);
			const missing = await get('/api/v2/document/4242');
			expect(missing.status).toBe(404);
			expect(missing.json).toMatchObject({
				message: 'Envelope could not be found',
				data: { code: 'NOT_FOUND' },
			});
		});

		it('GET /document filters by status and templateId and pages with count/currentPage/perPage/totalPages', async () => {
			const first = await pending();
			const draft = (await use({ distributeDocument: false })).json;
			const nda = (
				await post('/api/v2/template/use', {
					templateId: DOCUMENSO_SEED.ndaTemplateId,
					recipients: [{ id: DOCUMENSO_SEED.slots.partyA, email: 'a@example.org', name: 'A' }],
					distributeDocument: true,
				})
			).json;
			const ids = async (query: string) => {
				const answer = await get(`/api/v2/document${query}`);
				expect(answer.status).toBe(200);
				sdkParses(ops.DocumentFindResponse$inboundSchema, answer.json);
				return { ids: answer.json.data.map((row: { id: number }) => row.id), answer: answer.json };
			};
			expect((await ids('')).ids).toEqual([nda.id, draft.id, first.id]);
			expect((await ids('?status=PENDING')).ids).toEqual([nda.id, first.id]);
			expect((await ids(`?templateId=${DOCUMENSO_SEED.residencyTemplateId}`)).ids).toEqual([
				draft.id,
				first.id,
			]);
			expect(
				(await ids(`?status=DRAFT&templateId=${DOCUMENSO_SEED.residencyTemplateId}`)).ids,
			).toEqual([draft.id]);
			const paged = await ids('?page=2&perPage=2');
			expect(paged.ids).toEqual([first.id]);
			expect(paged.answer).toMatchObject({ count: 3, currentPage: 2, perPage: 2, totalPages: 2 });
		});

		it('POST /document/distribute sends a draft and answers the document lite', async () => {
			const draft = (await use({ distributeDocument: false })).json;
			const answer = await post('/api/v2/document/distribute', {
				documentId: draft.id,
				meta: { subject: 'Please sign', message: 'Thank you' },
			});
			expect(answer.status).toBe(200);
			sdkParses(ops.DocumentDistributeResponse$inboundSchema, answer.json);
			expect(answer.json).toMatchObject({
				id: draft.id,
				status: 'PENDING',
				useLegacyFieldInsertion: false,
			});
			expect(answer.json.recipients).toBeUndefined();
			const document = (await get(`/api/v2/document/${draft.id}`)).json;
			expect(document.documentMeta).toMatchObject({ subject: 'Please sign', message: 'Thank you' });
			expect(
				document.recipients.map((recipient: { sendStatus: string }) => recipient.sendStatus),
			).toEqual(['SENT', 'SENT']);
		});

		it('distributing a finished or unknown document is a plain 500, as sendDocument throws', async () => {
			const created = await pending();
			await control(`/documents/${created.id}/complete`);
			const finished = await post('/api/v2/document/distribute', { documentId: created.id });
			expect(finished.status).toBe(500);
			expect(finished.json).toEqual({
				message: 'Can not send completed document',
				code: 'INTERNAL_SERVER_ERROR',
				data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, path: 'document.distribute' },
			});
			expect((await post('/api/v2/document/distribute', { documentId: 4242 })).json.message).toBe(
				'Document not found',
			);
		});

		it('POST /document/redistribute reminds the listed pending recipients, silently skipping the others', async () => {
			const created = await pending();
			await control(`/documents/${created.id}/sign`, { recipientId: created.recipients[0].id });
			const answer = await post('/api/v2/document/redistribute', {
				documentId: created.id,
				recipients: created.recipients.map((recipient: { id: number }) => recipient.id),
			});
			expect(answer.status).toBe(200);
			expect(sdkParses(ops.DocumentRedistributeResponse$inboundSchema, answer.json)).toEqual({
				success: true,
			});
			const log = (
				await get(`/api/v2/envelope/${created.envelopeId}/audit-log?orderByDirection=asc`)
			).json.data;
			const resent = log.filter(
				(entry: { type: string; data: { isResending?: boolean } }) =>
					entry.type === 'EMAIL_SENT' && entry.data.isResending,
			);
			expect(
				resent.map((entry: { data: { recipientId: number } }) => entry.data.recipientId),
			).toEqual([created.recipients[1].id]);
		});

		it('redistribute needs a pending document: a draft is a 500', async () => {
			const draft = (await use({ distributeDocument: false })).json;
			const answer = await post('/api/v2/document/redistribute', {
				documentId: draft.id,
				recipients: [draft.recipients[0].id],
			});
			expect(answer.status).toBe(500);
			expect(answer.json.message).toBe('Can not send draft document');
		});

		it('POST /envelope/cancel cancels a pending document by its envelope id', async () => {
			const created = await pending();
			const answer = await post('/api/v2/envelope/cancel', {
				envelopeId: created.envelopeId,
				reason: 'Withdrawn',
			});
			expect(answer.status).toBe(200);
			expect(sdkParses(ops.EnvelopeCancelResponse$inboundSchema, answer.json)).toEqual({
				success: true,
			});
			const document = (await get(`/api/v2/document/${created.id}`)).json;
			expect(document).toMatchObject({ status: 'CANCELLED', completedAt: expect.any(String) });
			const again = await post('/api/v2/envelope/cancel', { envelopeId: created.envelopeId });
			expect(again.status).toBe(400);
			expect(again.json).toMatchObject({
				message: 'Only pending documents can be cancelled',
				data: { code: 'INVALID_REQUEST' },
			});
		});

		it('cancel refuses a draft, a document id and an unknown envelope', async () => {
			const draft = (await use({ distributeDocument: false })).json;
			expect((await post('/api/v2/envelope/cancel', { envelopeId: draft.envelopeId })).status).toBe(
				400,
			);
			const byNumber = await post('/api/v2/envelope/cancel', { envelopeId: String(draft.id) });
			expect(byNumber.status).toBe(400);
			expect(byNumber.json.message).toBe('Invalid envelope ID');
			expect(
				(await post('/api/v2/envelope/cancel', { envelopeId: 'envelope_unknown' })).status,
			).toBe(404);
		});

		it('POST /document/delete deletes a draft for good and keeps a finished document, marked deleted', async () => {
			const draft = (await use({ distributeDocument: false })).json;
			const deleted = await post('/api/v2/document/delete', { documentId: draft.id });
			expect(deleted.status).toBe(200);
			expect(sdkParses(ops.DocumentDeleteResponse$inboundSchema, deleted.json)).toEqual({
				success: true,
			});
			expect((await get(`/api/v2/document/${draft.id}`)).status).toBe(404);
			const finished = await pending();
			await control(`/documents/${finished.id}/complete`);
			await post('/api/v2/document/delete', { documentId: finished.id });
			expect((await get(`/api/v2/document/${finished.id}`)).json.deletedAt).toEqual(
				expect.any(String),
			);
			expect((await get('/api/v2/document')).json.data).toEqual([]);
		});

		it('GET /envelope/{envelopeId}/audit-log pages the log, newest first by default', async () => {
			const created = await pending();
			await control(`/documents/${created.id}/complete`);
			const answer = await get(`/api/v2/envelope/${created.envelopeId}/audit-log`);
			expect(answer.status).toBe(200);
			sdkParses(ops.EnvelopeAuditLogFindResponse$inboundSchema, answer.json);
			const types = answer.json.data.map((entry: { type: string }) => entry.type);
			expect(types[0]).toBe('DOCUMENT_COMPLETED');
			expect([...types].reverse()).toEqual([
				'DOCUMENT_CREATED',
				'DOCUMENT_SENT',
				'EMAIL_SENT',
				'EMAIL_SENT',
				'DOCUMENT_OPENED',
				'DOCUMENT_RECIPIENT_COMPLETED',
				'DOCUMENT_OPENED',
				'DOCUMENT_RECIPIENT_COMPLETED',
				'DOCUMENT_COMPLETED',
			]);
			expect(answer.json).toMatchObject({ count: 9, currentPage: 1, perPage: 50, totalPages: 1 });
			const template = await get(`/api/v2/template/${DOCUMENSO_SEED.residencyTemplateId}`);
			const refused = await get(`/api/v2/envelope/${template.json.envelopeId}/audit-log`);
			expect(refused.status).toBe(400);
			expect(refused.json.message).toBe('Templates do not have audit logs.');
		});
	});

	describe('PDFs', () => {
		it('GET /document/{id}/download serves the signed PDF, and ignores ?version (Documenso reads it from the path)', async () => {
			const created = await pending();
			const before = await fetch(url(`/api/v2/document/${created.id}/download?version=original`), {
				headers: { authorization: DOCUMENSO_DEFAULT_KEY },
			});
			expect(before.status).toBe(200);
			expect(before.headers.get('content-type')).toBe('application/pdf');
			expect(before.headers.get('content-disposition')).toBe(
				'attachment; filename="Residency agreement_signed.pdf"',
			);
			const original = Buffer.from(await before.arrayBuffer());
			expect(original.subarray(0, 5).toString()).toBe('%PDF-');
			await control(`/documents/${created.id}/complete`);
			const signed = Buffer.from(
				await (
					await fetch(url(`/api/v2/document/${created.id}/download?version=original`), {
						headers: { authorization: DOCUMENSO_DEFAULT_KEY },
					})
				).arrayBuffer(),
			);
			expect(signed.equals(original)).toBe(false);
			expect(signed.toString('latin1')).toContain('Certified copy');
		});

		it('GET /envelope/item/{envelopeItemId}/download?version=original serves the original', async () => {
			const created = await pending();
			await control(`/documents/${created.id}/complete`);
			const itemId = created.envelopeItems[0].id;
			const original = await fetch(
				url(`/api/v2/envelope/item/${itemId}/download?version=original`),
				{
					headers: { authorization: `Bearer ${DOCUMENSO_DEFAULT_KEY}` },
				},
			);
			expect(original.status).toBe(200);
			expect(original.headers.get('content-disposition')).toBe(
				'attachment; filename="Residency agreement.pdf"',
			);
			expect(Buffer.from(await original.arrayBuffer()).toString('latin1')).not.toContain(
				'Certified copy',
			);
			const pendingOnly = await get(`/api/v2/envelope/item/${itemId}/download?version=pending`);
			expect(pendingOnly.status).toBe(400);
			expect(pendingOnly.json).toMatchObject({ code: 'ENVELOPE_COMPLETED' });
		});

		it('answers an unknown document with {error}', async () => {
			const answer = await get('/api/v2/document/4242/download');
			expect(answer.status).toBe(404);
			expect(answer.json).toEqual({ error: 'Document not found' });
			const unauthorised = await get('/api/v2/document/4242/download', {
				authorization: 'api_wrong',
			});
			expect(unauthorised.status).toBe(401);
			expect(unauthorised.json).toEqual({ error: 'Invalid token', code: 'UNAUTHORIZED' });
			const anonymous = await get('/api/v2/document/4242/download', {});
			expect(anonymous.json).toEqual({ error: 'API token was not provided', code: 'UNAUTHORIZED' });
		});
	});

	describe('auth, unknown routes, server detection', () => {
		it('accepts the token with or without "Bearer "', async () => {
			expect((await get('/api/v2/template', { authorization: DOCUMENSO_DEFAULT_KEY })).status).toBe(
				200,
			);
			expect(
				(await get('/api/v2/template', { authorization: `Bearer ${DOCUMENSO_DEFAULT_KEY}` }))
					.status,
			).toBe(200);
		});

		it('answers a wrong token with the AppError and no token with the session error', async () => {
			const wrong = await get('/api/v2/template', { authorization: 'Bearer api_wrong' });
			expect(wrong.status).toBe(401);
			expect(wrong.json).toEqual({
				message: 'Invalid token',
				code: 'INTERNAL_SERVER_ERROR',
				data: {
					code: 'UNAUTHORIZED',
					httpStatus: 401,
					path: 'template.findTemplates',
					appError: { code: 'UNAUTHORIZED', message: 'Invalid token', statusCode: 401 },
				},
			});
			const none = await get('/api/v2/template', {});
			expect(none.status).toBe(401);
			expect(none.json).toEqual({
				message: 'Invalid session or API token.',
				code: 'UNAUTHORIZED',
				data: { code: 'UNAUTHORIZED', httpStatus: 401, path: 'template.findTemplates' },
			});
		});

		it("answers the documented API's paths with tRPC's 404, and serves openapi.json without a token", async () => {
			const documented = await get(`/api/v2/templates`);
			expect(documented.status).toBe(404);
			expect(documented.json).toEqual({
				message: 'Not found',
				code: 'NOT_FOUND',
				data: { code: 'NOT_FOUND', httpStatus: 404 },
			});
			const spec = await get('/api/v2/openapi.json', {});
			expect(spec.status).toBe(200);
			expect(spec.json.info.title).toBe('Documenso v2 API');
		});

		it('answers a rate-limited request with {error} and Retry-After', async () => {
			await call429(control, get);
		});
	});
});

async function call429(
	control: (route: string, body?: unknown, method?: string) => Promise<{ status: number }>,
	get: (path: string) => Promise<{ status: number; json: unknown; headers: Headers }>,
) {
	// Documenso refuses a request once the minute's count exceeds the limit (`count > max`,
	// packages/lib/server-only/rate-limit/rate-limit.ts at v2.17.0): a limit of 2 lets two through.
	await control('/rate-limit', { limit: 2 }, 'PUT');
	expect((await get('/api/v2/template')).status).toBe(200);
	expect((await get('/api/v2/template')).status).toBe(200);
	const limited = await get('/api/v2/template');
	expect(limited.status).toBe(429);
	expect(limited.json).toEqual({ error: 'Too many requests, please try again later.' });
	expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
}
