/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/** Contract tests for the signing service's wider API (CONTRACTS.md Part 2, section 4). */
import { ManualClock, type Sandbox, SEED, startSandbox } from './index';
import { SEED_TEMPLATE_FIELDS } from './seed';
import { call, eventually, type Receiver, settledDeliveries, startReceiver } from './testkit';

const logger = process.env.SANDBOX_LOG === '1';

describe('signing service contract, Part 2 §4', () => {
	let sandbox: Sandbox;
	let receiver: Receiver;
	const auth = () => ({ authorization: `Bearer ${sandbox.signing.apiKey}` });
	const api = (path: string) => `${sandbox.signing.url}${path}`;
	const get = async (path: string, headers: Record<string, string> = auth()) =>
		await call(api(path), { headers });
	const control = async (route: string, body?: unknown, method = 'POST') =>
		await call(api(`/_sandbox${route}`), { method, body });
	const addTemplate = async (title: string) => (await control('/templates', { title })).json;

	const send = async (
		method: string,
		path: string,
		body?: unknown,
		headers: Record<string, string> = auth(),
	) => await call(api(path), { method, headers, body });
	const fields = SEED_TEMPLATE_FIELDS.residency;
	const ada = { name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' };
	const director = { name: 'Director', email: 'director@example.org', role: 'APPROVER' };
	const office = { name: 'Office', email: 'office@example.org', role: 'CC' };
	const generate = async (
		extra: Record<string, unknown> = {},
		templateId: string = SEED.residencyTemplateId,
	) =>
		await send('POST', `/api/v2/templates/${templateId}/generate-document`, {
			title: 'Residency agreement – Ada Lovelace',
			recipients: [ada, director, office],
			...extra,
		});
	const draft = async () => (await generate({ distribute: false })).json;
	const pending = async () => (await generate()).json;
	/** The events of one document, once `count` of them have arrived. */
	const events = async (documentId: string, count: number) =>
		await eventually(`${count} events of ${documentId}`, () => {
			const bodies = receiver.received
				.map((delivery) => delivery.body)
				.filter((body) => body.payload.id === documentId);
			return bodies.length >= count && bodies;
		});

	beforeAll(async () => {
		receiver = await startReceiver();
		// No webhook timeout fires on this clock, however busy the machine.
		sandbox = await startSandbox({ ports: {}, logger, clock: new ManualClock(), webhookRetryDelayMs: 50 });
	});
	afterAll(async () => {
		await sandbox.stop();
		await receiver.close();
	});
	beforeEach(async () => {
		await control('/reset');
		receiver.clear();
		await control('/webhook-endpoints', { url: receiver.url });
	});

	describe('GET /api/v2/templates', () => {
		it('lists the seeded templates newest first with the Template shape and a pagination object', async () => {
			const answer = await get('/api/v2/templates');
			expect(answer.status).toBe(200);
			expect(Object.keys(answer.json)).toEqual(['data', 'pagination']);
			expect(answer.json.pagination).toEqual({ page: 1, perPage: 20, total: 2, totalPages: 1 });
			expect(answer.json.data.map((template: { id: string }) => template.id)).toEqual([
				SEED.residencyTemplateId,
				SEED.ndaTemplateId,
			]);
			const residency = answer.json.data[0];
			expect(residency).toEqual({
				id: SEED.residencyTemplateId,
				title: 'Residency agreement',
				createdAt: expect.stringMatching(/Z$/),
				updatedAt: expect.stringMatching(/Z$/),
				recipients: [
					{ placeholder: 'Applicant', role: 'SIGNER' },
					{ placeholder: 'Director', role: 'APPROVER' },
				],
				fields: expect.any(Array),
			});
			// Each seeded template offers every field type, options only on the dropdown.
			for (const template of answer.json.data) {
				const types = template.fields.map((field: { type: string }) => field.type).sort();
				expect(types).toEqual(['checkbox', 'date', 'dropdown', 'number', 'text']);
				for (const field of template.fields) {
					expect(field.id).toMatch(/^fld_/);
					expect(typeof field.label).toBe('string');
					if (field.type === 'dropdown') {
						expect(field.options).toEqual(expect.arrayContaining([expect.any(String)]));
					} else {
						expect(field).not.toHaveProperty('options');
					}
				}
			}
		});

		it('pages with page and perPage across every page, and answers data [] past the end', async () => {
			const added = [];
			for (let index = 0; index < 5; index++) added.push(await addTemplate(`Added ${index}`));
			const seen: string[] = [];
			for (let page = 1; page <= 3; page++) {
				const answer = await get(`/api/v2/templates?page=${page}&perPage=3`);
				expect(answer.status).toBe(200);
				expect(answer.json.pagination).toEqual({ page, perPage: 3, total: 7, totalPages: 3 });
				seen.push(...answer.json.data.map((template: { id: string }) => template.id));
			}
			// The templates added last are the newest.
			expect(seen).toEqual([
				...added.map((template) => template.id).reverse(),
				SEED.residencyTemplateId,
				SEED.ndaTemplateId,
			]);
			const past = await get('/api/v2/templates?page=4&perPage=3');
			expect(past.status).toBe(200);
			expect(past.json).toEqual({
				data: [],
				pagination: { page: 4, perPage: 3, total: 7, totalPages: 3 },
			});
		});

		it.each([
			['perPage above 100', 'perPage=101'],
			['perPage 0', 'perPage=0'],
			['page 0', 'page=0'],
			['a page that is not a number', 'page=two'],
			['an unknown parameter', 'status=DRAFT'],
		])('answers 400 {message} to %s', async (_, query) => {
			const answer = await get(`/api/v2/templates?${query}`);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ message: expect.any(String) });
		});

		it('accepts perPage 100 and answers 401 without the token', async () => {
			expect((await get('/api/v2/templates?perPage=100')).status).toBe(200);
			const answer = await get('/api/v2/templates', {});
			expect(answer.status).toBe(401);
			expect(answer.json).toEqual({ message: expect.any(String) });
		});
	});

	describe('GET /api/v2/templates/{templateId}', () => {
		it('returns the template with its fields, types and dropdown options', async () => {
			const answer = await get(`/api/v2/templates/${SEED.residencyTemplateId}`);
			expect(answer.status).toBe(200);
			expect(answer.json.fields).toEqual([
				{ id: SEED_TEMPLATE_FIELDS.residency.projectTitle, label: 'Project title', type: 'text' },
				{
					id: SEED_TEMPLATE_FIELDS.residency.stipend,
					label: 'Monthly stipend (EUR)',
					type: 'number',
				},
				{ id: SEED_TEMPLATE_FIELDS.residency.startDate, label: 'Start date', type: 'date' },
				{ id: SEED_TEMPLATE_FIELDS.residency.housing, label: 'Housing included', type: 'checkbox' },
				{
					id: SEED_TEMPLATE_FIELDS.residency.studio,
					label: 'Studio',
					type: 'dropdown',
					options: ['North studio', 'South studio', 'Print workshop'],
				},
			]);
			const listed = (await get('/api/v2/templates')).json.data[0];
			expect(answer.json).toEqual(listed);
		});

		it('returns a template added through control, with its fields', async () => {
			const added = await control('/templates', {
				id: 'tpl_lease',
				title: 'Studio lease',
				recipients: [{ placeholder: 'Tenant', role: 'SIGNER' }],
				fields: [{ label: 'Rooms', type: 'dropdown', options: ['One', 'Two'] }],
			});
			expect(added.status).toBe(200);
			const answer = await get('/api/v2/templates/tpl_lease');
			expect(answer.json).toEqual({
				id: 'tpl_lease',
				title: 'Studio lease',
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				recipients: [{ placeholder: 'Tenant', role: 'SIGNER' }],
				fields: [
					{
						id: expect.stringMatching(/^fld_/),
						label: 'Rooms',
						type: 'dropdown',
						options: ['One', 'Two'],
					},
				],
			});
		});

		it('answers 404 "Template not found", 401 without the token, 400 to a query parameter', async () => {
			const missing = await get('/api/v2/templates/tpl_missing');
			expect(missing.status).toBe(404);
			expect(missing.json).toEqual({ message: 'Template not found' });
			expect((await get(`/api/v2/templates/${SEED.residencyTemplateId}`, {})).status).toBe(401);
			expect((await get(`/api/v2/templates/${SEED.residencyTemplateId}?full=1`)).status).toBe(400);
		});
	});

	describe('GET /api/v2/documents', () => {
		it('lists documents newest first, page by page, with the Document shape', async () => {
			const created = [];
			for (let index = 0; index < 5; index++) {
				created.push((await generate({ title: `Agreement ${index}` })).json.documentId);
			}
			const seen: string[] = [];
			for (let page = 1; page <= 2; page++) {
				const answer = await get(`/api/v2/documents?page=${page}&perPage=3`);
				expect(answer.status).toBe(200);
				expect(answer.json.pagination).toEqual({ page, perPage: 3, total: 5, totalPages: 2 });
				seen.push(...answer.json.data.map((document: { id: string }) => document.id));
			}
			expect(seen).toEqual([...created].reverse());
			const first = (await get('/api/v2/documents?perPage=1')).json.data[0];
			expect(first).toEqual((await get(`/api/v2/documents/${created[4]}`)).json);
			const past = await get('/api/v2/documents?page=3&perPage=3');
			expect(past.json).toEqual({
				data: [],
				pagination: { page: 3, perPage: 3, total: 5, totalPages: 2 },
			});
		});

		it('filters by status and by template', async () => {
			const draftDocument = await draft();
			const pendingDocument = await pending();
			const nda = (await generate({}, SEED.ndaTemplateId)).json;
			const ids = async (query: string) =>
				(await get(`/api/v2/documents?${query}`)).json.data.map(
					(document: { id: string }) => document.id,
				);
			expect(await ids('status=DRAFT')).toEqual([draftDocument.documentId]);
			expect(await ids('status=PENDING')).toEqual([nda.documentId, pendingDocument.documentId]);
			expect(await ids(`templateId=${SEED.ndaTemplateId}`)).toEqual([nda.documentId]);
			expect(await ids(`status=PENDING&templateId=${SEED.residencyTemplateId}`)).toEqual([
				pendingDocument.documentId,
			]);
			expect(await ids('status=COMPLETED')).toEqual([]);
			expect(await ids('templateId=tpl_missing')).toEqual([]);
		});

		it.each([
			['an unknown status', 'status=SIGNED'],
			['a lowercase status', 'status=pending'],
			['perPage above 100', 'perPage=101'],
			['an unknown parameter', 'q=ada'],
		])('answers 400 {message} to %s, 401 without the token', async (_, query) => {
			const answer = await get(`/api/v2/documents?${query}`);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ message: expect.any(String) });
			expect((await get('/api/v2/documents', {})).status).toBe(401);
		});
	});

	describe('generate-document with prefillFields, meta and distribute', () => {
		const prefill = [
			{ id: fields.projectTitle, value: 'Listening to looms' },
			{ id: fields.stipend, value: '1250.50' },
			{ id: fields.startDate, value: '2027-01-04' },
			{ id: fields.housing, value: 'true' },
			{ id: fields.studio, value: 'South studio' },
		];
		const meta = {
			subject: 'Your agreement',
			message: 'Please sign',
			redirectUrl: 'https://example.org/thanks',
		};

		it('with distribute false leaves a DRAFT carrying prefillFields and meta; only document.created fires', async () => {
			const answer = await generate({ prefillFields: prefill, meta, distribute: false });
			expect(answer.status).toBe(200);
			expect(answer.json.status).toBe('DRAFT');
			const document = (await get(`/api/v2/documents/${answer.json.documentId}`)).json;
			expect(document).toMatchObject({ status: 'DRAFT', prefillFields: prefill, meta });
			const [created] = await events(answer.json.documentId, 1);
			expect(created.event).toBe('document.created');
			// Deliveries to one endpoint keep their order: a document.sent fired at generation
			// would arrive before the cancellation's event.
			await send('DELETE', `/api/v2/documents/${answer.json.documentId}`);
			const all = await events(answer.json.documentId, 2);
			expect(all.map((event) => event.event)).toEqual(['document.created', 'document.cancelled']);
			expect(
				(await get(`/api/v2/documents/${answer.json.documentId}/audit-log`)).json.data.map(
					(entry: { type: string }) => entry.type,
				),
			).toEqual(['DOCUMENT_CREATED', 'DOCUMENT_CANCELLED']);
		});

		it('sends at once by default (distribute true), and accepts meta fields one by one', async () => {
			const answer = await generate({ meta: { subject: 'Only a subject' }, distribute: true });
			expect(answer.json.status).toBe('PENDING');
			expect((await events(answer.json.documentId, 2)).map((event) => event.event)).toEqual([
				'document.created',
				'document.sent',
			]);
			expect((await get(`/api/v2/documents/${answer.json.documentId}`)).json.meta).toEqual({
				subject: 'Only a subject',
			});
		});

		it.each([
			['an id the template lacks', [{ id: 'fld_missing', value: 'x' }], 'fld_missing'],
			['a number that is not one', [{ id: fields.stipend, value: 'twelve' }], 'Monthly stipend'],
			['a date in another format', [{ id: fields.startDate, value: '04/01/2027' }], 'Start date'],
			['a date that does not exist', [{ id: fields.startDate, value: '2027-02-30' }], 'Start date'],
			['a checkbox as yes', [{ id: fields.housing, value: 'yes' }], 'Housing included'],
			['a dropdown value not among the options', [{ id: fields.studio, value: 'Roof' }], 'Studio'],
			[
				'a value that is not a string',
				[{ id: fields.stipend, value: 12 }],
				'prefillFields[0].value',
			],
			['a field without value', [{ id: fields.stipend }], 'prefillFields[0].value'],
			[
				'the same field twice',
				[
					{ id: fields.studio, value: 'South studio' },
					{ id: fields.studio, value: 'North studio' },
				],
				'Studio',
			],
		])('answers 400 naming the field to %s', async (_, prefillFields, named) => {
			const answer = await generate({ prefillFields });
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ message: expect.stringContaining(named) });
			expect((await get('/api/v2/documents')).json.data).toEqual([]);
		});

		it.each([
			[
				'a redirect URL that is not http(s)',
				{ meta: { redirectUrl: 'ftp://example.org' } },
				'redirectUrl',
			],
			['an unknown meta field', { meta: { cc: 'x@example.org' } }, 'meta.cc'],
			['distribute as a string', { distribute: 'false' }, 'distribute'],
			[
				'prefillFields that are not an array',
				{ prefillFields: { id: fields.stipend } },
				'prefillFields',
			],
		])('answers 400 to %s', async (_, extra, named) => {
			const answer = await generate(extra);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ message: expect.stringContaining(named) });
		});
	});

	describe('POST /api/v2/documents/{documentId}/send', () => {
		it('sends a draft: 200 Document now PENDING, fires document.sent', async () => {
			const created = await draft();
			const answer = await send('POST', `/api/v2/documents/${created.documentId}/send`);
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual((await get(`/api/v2/documents/${created.documentId}`)).json);
			expect(answer.json.status).toBe('PENDING');
			const [, sent] = await events(created.documentId, 2);
			expect(sent).toMatchObject({
				event: 'document.sent',
				payload: { id: created.documentId, status: 'PENDING' },
			});
		});

		it('answers 409 "Document is not a draft" for any other status, 404 unknown, 400 with a body', async () => {
			const created = await pending();
			const again = await send('POST', `/api/v2/documents/${created.documentId}/send`);
			expect(again.status).toBe(409);
			expect(again.json).toEqual({ message: 'Document is not a draft' });
			await send('DELETE', `/api/v2/documents/${created.documentId}`);
			expect((await send('POST', `/api/v2/documents/${created.documentId}/send`)).status).toBe(409);
			const missing = await send('POST', '/api/v2/documents/doc_missing/send');
			expect(missing.status).toBe(404);
			expect(missing.json).toEqual({ message: 'Document not found' });
			const other = await draft();
			expect(
				(await send('POST', `/api/v2/documents/${other.documentId}/send`, { now: true })).status,
			).toBe(400);
			expect(
				(await send('POST', `/api/v2/documents/${other.documentId}/send`, undefined, {})).status,
			).toBe(401);
		});
	});

	describe('POST /api/v2/documents/{documentId}/resend', () => {
		it('without a body reminds every SIGNER and APPROVER who has not signed, and fires no event', async () => {
			const created = await pending();
			await control(`/documents/${created.documentId}/sign`, { email: ada.email });
			await events(created.documentId, 3);
			const answer = await send('POST', `/api/v2/documents/${created.documentId}/resend`);
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual({ resent: [created.recipients[1].recipientId] });
			const log = (await get(`/api/v2/documents/${created.documentId}/audit-log`)).json.data;
			expect(log.at(-1)).toMatchObject({
				type: 'INVITATION_RESENT',
				recipientId: created.recipients[1].recipientId,
				email: director.email,
			});
			// Every event sent so far has been delivered: the resend added none.
			const deliveries: Array<{ event: string }> = await settledDeliveries(sandbox.signing.url);
			expect(deliveries.map((delivery) => delivery.event)).toEqual([
				'document.created',
				'document.sent',
				'document.signed',
			]);
		});

		it('reminds the chosen recipients', async () => {
			const created = await pending();
			const ids = [created.recipients[0].recipientId, created.recipients[1].recipientId];
			const answer = await send('POST', `/api/v2/documents/${created.documentId}/resend`, {
				recipientIds: ids,
			});
			expect(answer.json).toEqual({ resent: ids });
		});

		it('answers 400 for a recipient not on the document or already signed, 409 unless PENDING', async () => {
			const created = await pending();
			const resend = async (body?: unknown, id = created.documentId) =>
				await send('POST', `/api/v2/documents/${id}/resend`, body);
			const unknown = await resend({ recipientIds: ['rcp_missing'] });
			expect(unknown.status).toBe(400);
			expect(unknown.json).toEqual({ message: expect.stringContaining('rcp_missing') });
			await control(`/documents/${created.documentId}/sign`, { email: ada.email });
			const signed = await resend({ recipientIds: [created.recipients[0].recipientId] });
			expect(signed.status).toBe(400);
			expect(signed.json).toEqual({ message: expect.stringContaining('already signed') });
			expect((await resend({ recipientIds: [] })).status).toBe(400);
			expect((await resend({ recipientIds: 'rcp_x' })).status).toBe(400);
			expect((await resend({ other: 1 })).status).toBe(400);
			const draftDocument = await draft();
			const notPending = await resend(undefined, draftDocument.documentId);
			expect(notPending.status).toBe(409);
			expect(notPending.json).toEqual({ message: 'Document is not pending' });
			await control(`/documents/${created.documentId}/complete`, {});
			expect((await resend()).status).toBe(409);
			expect((await resend(undefined, 'doc_missing')).status).toBe(404);
		});
	});

	describe('DELETE /api/v2/documents/{documentId}', () => {
		it.each([
			['DRAFT', false],
			['PENDING', true],
		])(
			'cancels a %s document and fires document.cancelled without recipient',
			async (_, distribute) => {
				const created = (await generate({ distribute })).json;
				receiver.clear();
				const answer = await send('DELETE', `/api/v2/documents/${created.documentId}`);
				expect(answer.status).toBe(200);
				expect(answer.json).toEqual({ id: created.documentId, status: 'CANCELLED' });
				expect((await get(`/api/v2/documents/${created.documentId}`)).json.status).toBe(
					'CANCELLED',
				);
				const cancelled = (await events(created.documentId, distribute ? 3 : 2)).find(
					(event) => event.event === 'document.cancelled',
				);
				expect(cancelled).toEqual({
					event: 'document.cancelled',
					createdAt: expect.stringMatching(/Z$/),
					payload: (await get(`/api/v2/documents/${created.documentId}`)).json,
				});
			},
		);

		it('answers 409 "Document is completed" for a completed one, 409 when already cancelled, 404 unknown', async () => {
			const created = await pending();
			await control(`/documents/${created.documentId}/complete`, {});
			const completed = await send('DELETE', `/api/v2/documents/${created.documentId}`);
			expect(completed.status).toBe(409);
			expect(completed.json).toEqual({ message: 'Document is completed' });
			expect((await get(`/api/v2/documents/${created.documentId}`)).json.status).toBe('COMPLETED');
			const other = await pending();
			await send('DELETE', `/api/v2/documents/${other.documentId}`);
			expect((await send('DELETE', `/api/v2/documents/${other.documentId}`)).status).toBe(409);
			expect((await send('DELETE', '/api/v2/documents/doc_missing')).status).toBe(404);
		});
	});

	describe('GET /api/v2/documents/{documentId}/download', () => {
		const download = async (id: string, query = '', headers: Record<string, string> = auth()) => {
			const response = await fetch(api(`/api/v2/documents/${id}/download${query}`), { headers });
			return { response, bytes: Buffer.from(await response.arrayBuffer()) };
		};
		/** A PDF a reader opens: header, objects at the offsets the xref table gives, trailer. */
		const expectValidPdf = (bytes: Buffer) => {
			const text = bytes.toString('latin1');
			expect(text.startsWith('%PDF-1.4\n')).toBe(true);
			expect(text.endsWith('%%EOF\n')).toBe(true);
			const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
			expect(text.slice(startxref, startxref + 4)).toBe('xref');
			const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) =>
				Number(match[1]),
			);
			expect(offsets).toHaveLength(5);
			offsets.forEach((offset, index) =>
				expect(text.slice(offset).startsWith(`${index + 1} 0 obj`)).toBe(true),
			);
		};

		it('answers 409 "Document is not completed" for the signed version before completion; the original is there', async () => {
			const created = await pending();
			const early = await download(created.documentId);
			expect(early.response.status).toBe(409);
			expect(JSON.parse(early.bytes.toString())).toEqual({ message: 'Document is not completed' });
			expect((await download(created.documentId, '?version=signed')).response.status).toBe(409);
			const original = await download(created.documentId, '?version=original');
			expect(original.response.status).toBe(200);
			expectValidPdf(original.bytes);
		});

		it('returns the certified PDF once completed, with its headers; the same bytes every time', async () => {
			const created = (
				await send('POST', `/api/v2/templates/${SEED.residencyTemplateId}/generate-document`, {
					title: 'Studio agreement',
					recipients: [ada],
				})
			).json;
			await control(`/documents/${created.documentId}/complete`, {});
			const signed = await download(created.documentId);
			expect(signed.response.status).toBe(200);
			expect(signed.response.headers.get('content-type')).toBe('application/pdf');
			expect(signed.response.headers.get('content-disposition')).toBe(
				'attachment; filename="Studio agreement.pdf"',
			);
			expect(Number(signed.response.headers.get('content-length'))).toBe(signed.bytes.length);
			expectValidPdf(signed.bytes);
			expect(signed.bytes.toString('latin1')).toContain('(Studio agreement)');
			expect(signed.bytes.toString('latin1')).toContain(`(Document ${created.documentId})`);
			// Accept: application/json changes nothing.
			const again = await download(created.documentId, '?version=signed', {
				...auth(),
				accept: 'application/json',
			});
			expect(again.response.headers.get('content-type')).toBe('application/pdf');
			expect(again.bytes.equals(signed.bytes)).toBe(true);
			const original = await download(created.documentId, '?version=original');
			expectValidPdf(original.bytes);
			expect(original.bytes.equals(signed.bytes)).toBe(false);
			const other = await pending();
			await control(`/documents/${other.documentId}/complete`, {});
			expect((await download(other.documentId)).bytes.equals(signed.bytes)).toBe(false);
		});

		it('names a title beyond ASCII with an ASCII fallback and filename*', async () => {
			const created = await pending();
			const answer = await download(created.documentId, '?version=original');
			expect(answer.response.headers.get('content-disposition')).toBe(
				`attachment; filename="Residency agreement - Ada Lovelace.pdf"; filename*=UTF-8''${encodeURIComponent('Residency agreement – Ada Lovelace.pdf')}`,
			);
		});

		it('answers 400 to an unknown version, 404 unknown, 401 without the token', async () => {
			const created = await pending();
			const bad = await download(created.documentId, '?version=final');
			expect(bad.response.status).toBe(400);
			expect(JSON.parse(bad.bytes.toString())).toEqual({
				message: expect.stringContaining('version'),
			});
			expect((await download('doc_missing', '?version=original')).response.status).toBe(404);
			expect((await download(created.documentId, '?version=original', {})).response.status).toBe(
				401,
			);
		});
	});

	describe('GET /api/v2/documents/{documentId}/audit-log', () => {
		it('lists what happened oldest first, with the recipient, IP address and user agent of who acted', async () => {
			const created = await draft();
			await send('POST', `/api/v2/documents/${created.documentId}/send`);
			await call(api(`/_sandbox/documents/${created.documentId}/open`), {
				method: 'POST',
				headers: { 'user-agent': 'Browser/1.0' },
				body: { email: ada.email },
			});
			await send('POST', `/api/v2/documents/${created.documentId}/resend`, {
				recipientIds: [created.recipients[1].recipientId],
			});
			await control(`/documents/${created.documentId}/complete`, {});
			const answer = await get(`/api/v2/documents/${created.documentId}/audit-log`);
			expect(answer.status).toBe(200);
			expect(answer.json.data.map((entry: { type: string }) => entry.type)).toEqual([
				'DOCUMENT_CREATED',
				'DOCUMENT_SENT',
				'DOCUMENT_OPENED',
				'INVITATION_RESENT',
				'DOCUMENT_SIGNED',
				'DOCUMENT_SIGNED',
				'DOCUMENT_COMPLETED',
			]);
			expect(answer.json.data[0]).toEqual({
				id: expect.any(String),
				type: 'DOCUMENT_CREATED',
				createdAt: expect.stringMatching(/Z$/),
				recipientId: null,
				email: null,
				ipAddress: null,
				userAgent: null,
			});
			expect(answer.json.data[2]).toMatchObject({
				recipientId: created.recipients[0].recipientId,
				email: ada.email,
				ipAddress: '127.0.0.1',
				userAgent: 'Browser/1.0',
			});
			const times = answer.json.data.map((entry: { createdAt: string }) => entry.createdAt);
			expect([...times].sort()).toEqual(times);
		});

		it('answers 404 unknown, 400 to a query parameter, 401 without the token', async () => {
			const created = await pending();
			expect((await get('/api/v2/documents/doc_missing/audit-log')).status).toBe(404);
			expect((await get(`/api/v2/documents/${created.documentId}/audit-log?page=1`)).status).toBe(
				400,
			);
			expect((await get(`/api/v2/documents/${created.documentId}/audit-log`, {})).status).toBe(401);
		});
	});

	describe('events document.opened, document.rejected, document.cancelled', () => {
		it('fires document.opened with the recipient on each opening, by control or by the signing page', async () => {
			const created = await pending();
			await events(created.documentId, 2);
			await control(`/documents/${created.documentId}/open`, { email: ada.email });
			const page = await call(created.recipients[1].signingUrl);
			expect(page.status).toBe(200);
			await control(`/documents/${created.documentId}/open`, {
				recipientId: created.recipients[0].recipientId,
			});
			const opened = (await events(created.documentId, 5)).slice(2);
			expect(opened.map((event) => [event.event, event.payload.recipient.email])).toEqual([
				['document.opened', ada.email],
				['document.opened', director.email],
				['document.opened', ada.email],
			]);
			const document = (await get(`/api/v2/documents/${created.documentId}`)).json;
			expect(opened[0]).toEqual({
				event: 'document.opened',
				createdAt: expect.stringMatching(/Z$/),
				payload: { ...document, recipient: document.recipients[0] },
			});
		});

		it('fires document.rejected with the recipient and the reason; the document is REJECTED and never completes', async () => {
			const created = await pending();
			await control(`/documents/${created.documentId}/sign`, { email: ada.email });
			const rejected = await control(`/documents/${created.documentId}/reject`, {
				email: director.email,
				reason: 'The stipend is wrong',
			});
			expect(rejected.status).toBe(200);
			expect(rejected.json.status).toBe('REJECTED');
			const all = await events(created.documentId, 4);
			expect(all.map((event) => event.event)).toEqual([
				'document.created',
				'document.sent',
				'document.signed',
				'document.rejected',
			]);
			expect(all[3].payload).toMatchObject({
				status: 'REJECTED',
				recipient: {
					email: director.email,
					signingStatus: 'REJECTED',
					rejectionReason: 'The stipend is wrong',
				},
			});
			expect(all[3].payload.recipients[1]).toEqual(all[3].payload.recipient);
			// Nothing more can happen to it: no signature, no completion, no download of a signed copy.
			expect((await control(`/documents/${created.documentId}/complete`, {})).status).toBe(409);
			const download = await get(`/api/v2/documents/${created.documentId}/download`);
			expect(download.status).toBe(409);
		});

		it('refuses to open a draft or a cancelled document, and to reject for a CC or after signing', async () => {
			const created = await draft();
			expect(
				(await control(`/documents/${created.documentId}/open`, { email: ada.email })).status,
			).toBe(409);
			await send('POST', `/api/v2/documents/${created.documentId}/send`);
			expect(
				(await control(`/documents/${created.documentId}/reject`, { email: office.email })).status,
			).toBe(400);
			await control(`/documents/${created.documentId}/sign`, { email: ada.email });
			expect(
				(await control(`/documents/${created.documentId}/reject`, { email: ada.email })).status,
			).toBe(409);
			expect(
				(await control(`/documents/${created.documentId}/reject`, { email: 'x@example.org' }))
					.status,
			).toBe(404);
			expect(
				(
					await control(`/documents/${created.documentId}/reject`, {
						email: director.email,
						why: 'x',
					})
				).status,
			).toBe(400);
			await send('DELETE', `/api/v2/documents/${created.documentId}`);
			expect(
				(await control(`/documents/${created.documentId}/open`, { email: ada.email })).status,
			).toBe(409);
		});

		it('ages a document for reminders', async () => {
			const created = await pending();
			const before = Date.parse(
				(await get(`/api/v2/documents/${created.documentId}`)).json.createdAt,
			);
			const aged = await control(`/documents/${created.documentId}/age`, { days: 4 });
			expect(before - Date.parse(aged.json.createdAt)).toBe(4 * 24 * 3600 * 1000);
		});
	});
});
