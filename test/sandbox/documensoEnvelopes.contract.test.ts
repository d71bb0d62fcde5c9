/**
 * The Documenso flavour's route modes (documenso/service.ts) and the envelope routes that replace
 * the document and template routes Documenso removes on 1 March 2027 (envelope/get-many,
 * envelope/use, envelope/redistribute at v2.17.0), each request parsed with the SDK's schemas.
 */
import type { Sandbox } from './index';
import { DOCUMENSO_SEED } from './index';
import { ada, director, documensoClient, startDocumenso } from './documenso/testkit';

jest.setTimeout(60_000);

const MISSING_ROUTE = {
	message: 'Not found',
	code: 'NOT_FOUND',
	data: { code: 'NOT_FOUND', httpStatus: 404 },
};

describe('Documenso flavour after 1 March 2027 (the default)', () => {
	let sandbox: Sandbox;
	const client = documensoClient(() => sandbox);
	beforeAll(async () => (sandbox = await startDocumenso()));
	afterAll(async () => await sandbox.stop());
	beforeEach(async () => await client.control('/reset'));

	/** POST /envelope/use: its JSON in a `payload` part (use-envelope.types.ts, multipart only). */
	const use = async (payload: unknown) => {
		const form = new FormData();
		form.append('payload', JSON.stringify(payload));
		const response = await fetch(client.url('/api/v2/envelope/use'), {
			method: 'POST',
			headers: client.auth(),
			body: form,
		});
		return { status: response.status, json: (await response.json()) as Record<string, unknown> };
	};
	const templateEnvelopeId = async (number: number) => {
		const { json } = await client.post('/api/v2/envelope/get-many', {
			ids: { type: 'templateId', ids: [number] },
		});
		return String((json as { data: Array<{ id: string }> }).data[0].id);
	};

	it('answers every document and template route as a route it does not have', async () => {
		for (const path of [
			'/api/v2/document',
			'/api/v2/document/1001',
			'/api/v2/template',
			'/api/v2/template/1',
		]) {
			expect(await client.get(path)).toMatchObject({ status: 404, json: MISSING_ROUTE });
		}
		for (const path of [
			'/api/v2/template/use',
			'/api/v2/document/distribute',
			'/api/v2/document/redistribute',
		]) {
			expect(await client.post(path, {})).toMatchObject({ status: 404, json: MISSING_ROUTE });
		}
		const openApi = (await client.get('/api/v2/openapi.json')).json as {
			paths: Record<string, unknown>;
		};
		expect(
			Object.keys(openApi.paths).filter((path) => /^\/(document|template)/.test(path)),
		).toEqual([]);
	});

	it('envelope/get-many finds envelopes by id or by their numbers, leaving unknown ones out', async () => {
		const envelopeId = await templateEnvelopeId(DOCUMENSO_SEED.residencyTemplateId);
		const byId = await client.post('/api/v2/envelope/get-many', {
			ids: { type: 'envelopeId', ids: [envelopeId, 'envelope_unknown'] },
		});
		expect(byId.status).toBe(200);
		expect((byId.json as { data: Array<Record<string, unknown>> }).data).toEqual([
			expect.objectContaining({
				id: envelopeId,
				type: 'TEMPLATE',
				secondaryId: `template_${DOCUMENSO_SEED.residencyTemplateId}`,
			}),
		]);
		// A template's number is no document's.
		const asDocument = await client.post('/api/v2/envelope/get-many', {
			ids: { type: 'documentId', ids: [DOCUMENSO_SEED.residencyTemplateId] },
		});
		expect(asDocument.json).toEqual({ data: [] });
		const tooMany = await client.post('/api/v2/envelope/get-many', {
			ids: { type: 'documentId', ids: Array.from({ length: 21 }, (_, index) => index + 1) },
		});
		expect(tooMany.status).toBe(400);
	});

	it('envelope/use makes a document from a template by its envelope id, sends it when asked, and answers its recipients', async () => {
		const envelopeId = await templateEnvelopeId(DOCUMENSO_SEED.residencyTemplateId);
		const made = await use({
			envelopeId,
			recipients: [
				{ id: ada.id, email: ada.email, name: ada.name },
				{ id: director.id, email: director.email, name: director.name },
			],
			distributeDocument: true,
			override: { title: 'Residency – Ada' },
		});
		expect(made.status).toBe(200);
		expect(made.json).toMatchObject({
			id: expect.stringMatching(/^envelope_/),
			recipients: [
				expect.objectContaining({
					email: ada.email,
					signingUrl: expect.stringContaining('/sign/'),
				}),
				expect.anything(),
			],
		});
		const document = (await client.get(`/api/v2/envelope/${String(made.json.id)}`)).json as Record<
			string,
			unknown
		>;
		expect(document).toMatchObject({
			type: 'DOCUMENT',
			status: 'PENDING',
			title: 'Residency – Ada',
			templateId: DOCUMENSO_SEED.residencyTemplateId,
		});
		// A document's envelope id is no template.
		expect((await use({ envelopeId: made.json.id })).status).toBe(404);
		// JSON is refused: the route is multipart only.
		expect((await client.post('/api/v2/envelope/use', { envelopeId })).status).toBe(400);
	});

	it('envelope/use leaves a draft and answers DOCUMENT_SEND_FAILED when the document cannot be sent', async () => {
		const template = (
			await client.control('/templates', {
				title: 'No signature field',
				recipients: [{ name: 'Signer', role: 'SIGNER', signatureField: false }],
			})
		).json as { id: number; recipients: Array<{ id: number }> };
		const made = await use({
			envelopeId: await templateEnvelopeId(template.id),
			recipients: [{ id: template.recipients[0].id, email: ada.email, name: ada.name }],
			distributeDocument: true,
		});
		expect(made).toMatchObject({ status: 400, json: { data: { code: 'DOCUMENT_SEND_FAILED' } } });
		const drafts = (
			await client.get(`/api/v2/envelope?type=DOCUMENT&status=DRAFT&templateId=${template.id}`)
		).json as { data: unknown[] };
		expect(drafts.data).toHaveLength(1);
	});

	it('envelope/redistribute reminds pending recipients of a pending document', async () => {
		const made = await use({
			envelopeId: await templateEnvelopeId(DOCUMENSO_SEED.residencyTemplateId),
			recipients: [
				{ id: ada.id, email: ada.email, name: ada.name },
				{ id: director.id, email: director.email, name: director.name },
			],
			distributeDocument: true,
		});
		const recipientIds = (made.json.recipients as Array<{ id: number }>).map(
			(recipient) => recipient.id,
		);
		const reminded = await client.post('/api/v2/envelope/redistribute', {
			envelopeId: made.json.id,
			recipients: recipientIds,
		});
		expect(reminded).toMatchObject({ status: 200, json: { success: true, id: made.json.id } });
		expect(
			(
				await client.post('/api/v2/envelope/redistribute', {
					envelopeId: made.json.id,
					recipients: [],
				})
			).status,
		).toBe(400);
	});
});

describe('Documenso flavour older than the envelope API', () => {
	let sandbox: Sandbox;
	const client = documensoClient(() => sandbox);
	beforeAll(async () => (sandbox = await startDocumenso('before-envelopes')));
	afterAll(async () => await sandbox.stop());

	it('serves the document and template routes, and no envelope route', async () => {
		expect((await client.get('/api/v2/template')).status).toBe(200);
		expect(await client.get('/api/v2/envelope?type=TEMPLATE')).toMatchObject({
			status: 404,
			json: MISSING_ROUTE,
		});
		expect(
			await client.post('/api/v2/envelope/get-many', { ids: { type: 'documentId', ids: [1] } }),
		).toMatchObject({
			status: 404,
			json: MISSING_ROUTE,
		});
	});
});
