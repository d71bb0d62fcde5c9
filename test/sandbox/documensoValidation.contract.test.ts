/**
 * The Documenso flavour refuses what Documenso's own SDK schemas refuse, with Documenso's
 * "Input validation failed" answer, and accepts what Documenso's own SDK sends.
 */
import { Documenso } from '@documenso/sdk-typescript';
import { SDKValidationError } from '@documenso/sdk-typescript/models/errors';

import { DOCUMENSO_SEED, type Sandbox } from './index';
import { ada, director, documensoClient, startDocumenso } from './documenso/testkit';

jest.setTimeout(60_000);

describe('Documenso flavour: request validation', () => {
	let sandbox: Sandbox;
	const { get, post, control } = documensoClient(() => sandbox);
	const validUse = {
		templateId: DOCUMENSO_SEED.residencyTemplateId,
		recipients: [ada, director],
		distributeDocument: true,
	};
	const refusal = (procedure: string) => ({
		message: 'Input validation failed',
		code: 'BAD_REQUEST',
		data: { code: 'BAD_REQUEST', httpStatus: 400, path: procedure },
		issues: expect.any(Array),
	});
	const documentCount = async () =>
		(await control('/documents', undefined, 'GET')).json.documents.length;

	// The deprecated document and template routes as Documenso 2.17 serves them: `all`.
	beforeAll(async () => (sandbox = await startDocumenso('all')));
	afterAll(async () => await sandbox.stop());
	beforeEach(async () => await control('/reset'));

	describe('POST /template/use', () => {
		it.each([
			['a template id as a string', { ...validUse, templateId: '1' }, ['templateId']],
			['no recipients', { templateId: 1 }, ['recipients']],
			[
				'a recipient id as a string',
				{ ...validUse, recipients: [{ ...ada, id: '1' }] },
				['recipients', 0, 'id'],
			],
			[
				'a recipient without email',
				{ ...validUse, recipients: [{ id: 1, name: 'Ada' }] },
				['recipients', 0, 'email'],
			],
			[
				'a bad e-mail address',
				{ ...validUse, recipients: [{ ...ada, email: 'ada' }] },
				['recipients', 0, 'email'],
			],
			[
				'a role (the template decides it)',
				{ ...validUse, recipients: [{ ...ada, role: 'SIGNER' }] },
				['recipients', 0],
			],
			["the documented API's title", { ...validUse, title: 'Agreement' }, []],
			["the documented API's distribute", { ...validUse, distribute: true }, []],
			[
				'distributeDocument as a string',
				{ ...validUse, distributeDocument: 'true' },
				['distributeDocument'],
			],
			[
				'a prefill without type',
				{ ...validUse, prefillFields: [{ id: 1, value: 'x' }] },
				['prefillFields', 0],
			],
			[
				'a prefill id as a string',
				{ ...validUse, prefillFields: [{ id: 'fld_1', type: 'text', value: 'x' }] },
				['prefillFields', 0],
			],
			[
				'a checkbox value as a string',
				{ ...validUse, prefillFields: [{ id: 4, type: 'checkbox', value: 'true' }] },
				['prefillFields', 0],
			],
			['the documented meta', { ...validUse, meta: { subject: 'Hi' } }, []],
			['an empty override title', { ...validUse, override: { title: '' } }, ['override', 'title']],
			[
				'a redirect URL without scheme',
				{ ...validUse, override: { redirectUrl: 'example.org' } },
				['override', 'redirectUrl'],
			],
		])('refuses %s', async (_name, body, path) => {
			const answer = await post('/api/v2/template/use', body);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual(refusal('template.createDocumentFromTemplate'));
			expect(answer.json.issues.map((issue: { path: unknown }) => issue.path)).toContainEqual(path);
			expect(await documentCount()).toBe(0);
		});

		it('refuses a body that is not JSON', async () => {
			const answer = await post('/api/v2/template/use', undefined, {
				authorization: `Bearer ${sandbox.signing.apiKey}`,
				'content-type': 'text/plain',
			});
			expect(answer.status).toBe(400);
			expect(answer.json).toMatchObject({ code: 'BAD_REQUEST', data: { httpStatus: 400 } });
		});

		it('accepts an empty e-mail address, as Documenso does', async () => {
			const answer = await post('/api/v2/template/use', {
				...validUse,
				recipients: [{ ...ada, email: '' }],
				distributeDocument: false,
			});
			expect(answer.status).toBe(200);
		});
	});

	describe('query parameters', () => {
		it.each([
			['/api/v2/document?perPage=101', 'document.find', ['perPage']],
			['/api/v2/document?perPage=0', 'document.find', ['perPage']],
			['/api/v2/document?page=0', 'document.find', ['page']],
			['/api/v2/document?perPage=ten', 'document.find', ['perPage']],
			['/api/v2/document?status=SIGNED', 'document.find', ['status']],
			['/api/v2/document?templateId=tpl_residency_agreement', 'document.find', ['templateId']],
			['/api/v2/document?limit=10', 'document.find', []],
			['/api/v2/template?perPage=500', 'template.findTemplates', ['perPage']],
			['/api/v2/document/doc_1', 'document.get', ['documentId']],
			['/api/v2/template/tpl_residency_agreement', 'template.getTemplateById', ['templateId']],
		])('refuses %s', async (path, procedure, issuePath) => {
			const answer = await get(path);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual(refusal(procedure));
			expect(answer.json.issues.map((issue: { path: unknown }) => issue.path)).toContainEqual(
				issuePath,
			);
		});

		it('refuses an unknown audit-log order and a download version', async () => {
			const created = (await post('/api/v2/template/use', validUse)).json;
			expect(
				(await get(`/api/v2/envelope/${created.envelopeId}/audit-log?orderByDirection=up`)).status,
			).toBe(400);
			expect((await get(`/api/v2/document/${created.id}/download?version=final`)).status).toBe(400);
		});
	});

	describe('document actions', () => {
		it.each([
			['/api/v2/document/distribute', { documentId: '1001' }, 'document.distribute'],
			[
				'/api/v2/document/distribute',
				{ documentId: 1001, meta: { subject: 1 } },
				'document.distribute',
			],
			['/api/v2/document/redistribute', { documentId: 1001 }, 'document.redistribute'],
			[
				'/api/v2/document/redistribute',
				{ documentId: 1001, recipients: [] },
				'document.redistribute',
			],
			[
				'/api/v2/document/redistribute',
				{ documentId: 1001, recipientIds: [101] },
				'document.redistribute',
			],
			['/api/v2/document/delete', { id: 1001 }, 'document.delete'],
			['/api/v2/envelope/cancel', { documentId: 1001 }, 'envelope.cancel'],
			['/api/v2/envelope/cancel', { envelopeId: 1001 }, 'envelope.cancel'],
		])('refuses %s %j', async (path, body, procedure) => {
			const created = (await post('/api/v2/template/use', validUse)).json;
			expect(created.id).toBe(1001);
			const answer = await post(path, body);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual(refusal(procedure));
			expect((await get(`/api/v2/document/${created.id}`)).json.status).toBe('PENDING');
		});
	});

	describe("Documenso's own SDK as the client", () => {
		it('runs a document through templates.use, documents.get/find/redistribute, envelope cancel and audit log', async () => {
			const sdk = new Documenso({
				serverURL: `${sandbox.signing.url}/api/v2`,
				apiKey: sandbox.signing.apiKey,
			});
			const templates = await sdk.templates.find({ perPage: 10 });
			expect(templates.data.map((template) => template.id)).toEqual([1, 2]);
			const template = await sdk.templates.get({ templateId: DOCUMENSO_SEED.residencyTemplateId });
			const created = await sdk.templates.use({
				templateId: template.id,
				recipients: template.recipients.map((slot, index) => ({
					id: slot.id,
					email: `person${index}@example.org`,
					name: `Person ${index}`,
				})),
				distributeDocument: true,
				prefillFields: [
					{ id: DOCUMENSO_SEED.fields.residency.projectTitle, type: 'text', value: 'Light' },
				],
			});
			expect(created.status).toBe('PENDING');
			expect((await sdk.documents.get({ documentId: created.id })).envelopeId).toBe(
				created.envelopeId,
			);
			const found = await sdk.documents.find({ status: 'PENDING', templateId: template.id });
			expect(found.data.map((row) => row.id)).toEqual([created.id]);
			await sdk.documents.redistribute({
				documentId: created.id,
				recipients: [created.recipients[0].id],
			});
			await sdk.envelope.envelopeCancel({ envelopeId: created.envelopeId, reason: 'Test' });
			const log = await sdk.envelope.envelopeAuditLogFind({ envelopeId: created.envelopeId });
			expect(log.data[0].type).toBe('DOCUMENT_CANCELLED');
			const recorded = (await control('/requests', undefined, 'GET')).json.requests;
			expect(recorded.every((request: { status: number }) => request.status === 200)).toBe(true);
		});

		it('refuses, in the SDK itself, what the sandbox refuses on the wire', async () => {
			const sdk = new Documenso({
				serverURL: `${sandbox.signing.url}/api/v2`,
				apiKey: sandbox.signing.apiKey,
			});
			await expect(
				sdk.templates.use({
					templateId: '1' as unknown as number,
					recipients: [],
				}),
			).rejects.toBeInstanceOf(SDKValidationError);
		});
	});
});
