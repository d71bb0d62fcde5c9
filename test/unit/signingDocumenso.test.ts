/**
 * Issue 26, acceptance 1: every operation of the Signing node against the Documenso flavour of the
 * signing sandbox (test/sandbox/documenso), with the credential's API set to Documenso. The flavour
 * parses each request with the request schema of `@documenso/sdk-typescript` and each answer with its
 * response schema; after every test the requests it received are parsed again here, and none may be
 * refused, go to a route Documenso lacks, or be answered 500 (`documensoSchemaProblems`).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { signingApiTest } from '../../nodes/Signing/credentialTest';
import { startSandbox } from '../sandbox';
import { credentialTestContext, executeContext, type Parameters } from './helpers/context';
import { isMultipartRecord } from '../sandbox/documenso/sdk';
import { DOCUMENSO_SEED, documensoForEachTest, payloadOf } from './helpers/documenso';

jest.setTimeout(60_000);

const { slots, fields } = DOCUMENSO_SEED;
const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const director = { name: 'Grace Hopper', email: 'director@example.org' };

describe('Signing node on Documenso (API v2), against the validating Documenso flavour', () => {
	const documenso = documensoForEachTest();
	const node = new Signing();

	const run = async (
		parameters: Parameters | Parameters[],
		options: { items?: IDataObject[]; version?: number; tool?: boolean; continueOnFail?: boolean } = {},
	): Promise<INodeExecutionData[]> => {
		const { context } = executeContext({
			parameters,
			items: options.items,
			credentials: documenso.credentials(),
			node: { typeVersion: options.version ?? 1 },
			tool: options.tool,
			continueOnFail: options.continueOnFail,
		});
		return (await node.execute.call(context))[0];
	};
	const json = async (parameters: Parameters, options: Parameters = {}) =>
		(await run({ ...parameters }, options)).map((item) => item.json);
	const generate = (overrides: Parameters = {}): Parameters => ({
		resource: 'document',
		operation: 'generateFromTemplate',
		templateId: { mode: 'id', value: String(DOCUMENSO_SEED.residencyTemplateId) },
		title: 'Residency agreement – Ada Lovelace',
		recipientsInput: 'json',
		recipientsJson: JSON.stringify([
			{ ...ada, role: 'SIGNER' },
			{ ...director, role: 'APPROVER' },
		]),
		...overrides,
	});
	// A multipart request (`/envelope/use`) by its JSON payload part.
	const posts = async (path: string) =>
		(await documenso.requests())
			.filter((request) => request.method === 'POST' && request.path === path)
			.map((request) => ({
				...request,
				body: isMultipartRecord(request.body) ? payloadOf(request) : (request.body as IDataObject),
			}));
	const operation = (name: string, extra: Parameters = {}): Parameters => ({
		resource: 'document',
		operation: name,
		...extra,
	});
	const complete = async (documentId: unknown) => await documenso.control(`/documents/${String(documentId)}/complete`);

	describe('Template', () => {
		it('Get Many: templates in the documented shape, each slot with its id and each prefillable field typed', async () => {
			const templates = await json({ resource: 'template', operation: 'getMany', returnAll: true });
			expect(templates.map((template) => template.title)).toEqual([
				'Residency agreement',
				'Mutual non-disclosure agreement',
			]);
			expect(templates[0]).toMatchObject({
				id: DOCUMENSO_SEED.residencyTemplateId,
				recipients: [
					{ placeholder: 'Applicant', role: 'SIGNER', id: slots.applicant, email: 'recipient.1@documenso.com', hasRecipient: false },
					{ placeholder: 'Director', role: 'APPROVER', id: slots.director },
				],
				envelopeId: expect.stringMatching(/^envelope_/),
			});
			expect(templates[0].fields).toEqual([
				expect.objectContaining({ id: fields.residency.projectTitle, label: 'Project title', type: 'text' }),
				expect.objectContaining({ id: fields.residency.stipend, type: 'number' }),
				expect.objectContaining({ id: fields.residency.startDate, type: 'date' }),
				expect.objectContaining({ id: fields.residency.housing, type: 'checkbox', options: ['Housing included'] }),
				expect.objectContaining({
					id: fields.residency.studio,
					type: 'dropdown',
					options: ['North studio', 'South studio', 'Print workshop'],
				}),
			]);
			// Documenso's own lists stay, signature fields included.
			expect((templates[0].documenso as IDataObject).fields).toHaveLength(7);
			const [limited] = await run({ resource: 'template', operation: 'getMany', returnAll: false, limit: 1 });
			expect(limited.json.id).toBe(DOCUMENSO_SEED.residencyTemplateId);
		});

		it('Get: one template by its number, given as text or as a number', async () => {
			for (const value of ['2', 2]) {
				const [template] = await json({ resource: 'template', operation: 'get', templateId: { mode: 'id', value } });
				expect(template).toMatchObject({ id: 2, title: 'Mutual non-disclosure agreement' });
			}
		});

		it('Get: an ID that is not a number is refused before any request, "." and ".." too', async () => {
			for (const value of ['tpl_residency_agreement', '.', '..']) {
				await expect(
					run({ resource: 'template', operation: 'get', templateId: { mode: 'id', value } }),
				).rejects.toThrow(NodeOperationError);
			}
			expect(await documenso.requests()).toEqual([]);
		});

		it('the Template Slot picker lists the template’s slots with their role and placeholder', async () => {
			const { context } = executeContext({ parameters: {}, credentials: documenso.credentials() });
			const loadContext = Object.assign(Object.create(context), {
				getCurrentNodeParameter: () => String(DOCUMENSO_SEED.residencyTemplateId),
			});
			const options = await node.methods.loadOptions.getTemplateSlots.call(loadContext);
			expect(options).toEqual([
				expect.objectContaining({ name: 'First Free Slot of the Role Below', value: '' }),
				{ name: 'Applicant (Signer, slot 1)', value: '1', description: 'Placeholder: Applicant <recipient.1@documenso.com>' },
				{ name: 'Director (Approver, slot 2)', value: '2', description: 'Placeholder: Director <recipient.2@documenso.com>' },
			]);
		});
	});

	describe('Generate From Template', () => {
		it('fills the slots by role, sends distributeDocument, and answers in the documented shape with signing URLs', async () => {
			const [document] = await json(generate());
			const [use] = await posts('/api/v2/envelope/use');
			expect(use.body).toEqual({
				envelopeId: expect.stringMatching(/^envelope_/),
				recipients: [
					{ id: slots.applicant, ...ada },
					{ id: slots.director, ...director },
				],
				distributeDocument: true,
				override: { title: 'Residency agreement – Ada Lovelace' },
			});
			expect(document).toMatchObject({
				documentId: DOCUMENSO_SEED.firstDocumentId,
				id: DOCUMENSO_SEED.firstDocumentId,
				title: 'Residency agreement – Ada Lovelace',
				status: 'PENDING',
				templateId: DOCUMENSO_SEED.residencyTemplateId,
				certifiedPackageUrl: null,
				documentUrl: expect.stringMatching(/\/t\/sandbox\/documents\/envelope_[a-z]+$/),
				envelopeId: expect.stringMatching(/^envelope_/),
			});
			const recipients = document.recipients as IDataObject[];
			expect(recipients.map((recipient) => [recipient.name, recipient.role, recipient.signingStatus])).toEqual([
				['Ada Lovelace', 'SIGNER', 'NOT_SIGNED'],
				['Grace Hopper', 'APPROVER', 'NOT_SIGNED'],
			]);
			expect(recipients[0]).toMatchObject({ recipientId: expect.any(Number), readStatus: 'NOT_OPENED' });
			// The token is given as the signing link, which opens the recipient's page.
			expect(recipients[0]).not.toHaveProperty('token');
			const page = await fetch(String(recipients[0].signingUrl));
			expect(page.status).toBe(200);
			expect(await page.text()).toContain('For Ada Lovelace (SIGNER)');
		});

		it('maps people to slots chosen in the picker (Define Below), whatever their order', async () => {
			await json(
				generate({
					recipientsInput: 'fields',
					recipients: {
						recipient: [
							{ slot: String(slots.director), ...director, role: 'SIGNER' },
							{ slot: String(slots.applicant), ...ada, role: 'SIGNER' },
						],
					},
				}),
			);
			const [use] = await posts('/api/v2/envelope/use');
			expect(use.body.recipients).toEqual([
				{ id: slots.applicant, ...ada },
				{ id: slots.director, ...director },
			]);
		});

		it('From Expression: by slotId, else by role, else by the slots’ order', async () => {
			const template = { mode: 'id', value: String(DOCUMENSO_SEED.ndaTemplateId) };
			await json(
				generate({
					templateId: template,
					recipientsJson: JSON.stringify([
						{ name: 'Party One', email: 'one@example.org' },
						{ name: 'Party Two', email: 'two@example.org' },
					]),
				}),
			);
			await json(
				generate({
					templateId: template,
					recipientsJson: JSON.stringify([
						{ name: 'Party One', email: 'one@example.org' },
						{ name: 'Party Two', email: 'two@example.org', slotId: slots.partyA },
					]),
				}),
			);
			const uses = await posts('/api/v2/envelope/use');
			expect(uses.map((request) => request.body.recipients)).toEqual([
				[
					{ id: slots.partyA, name: 'Party One', email: 'one@example.org' },
					{ id: slots.partyB, name: 'Party Two', email: 'two@example.org' },
				],
				[
					{ id: slots.partyA, name: 'Party Two', email: 'two@example.org' },
					{ id: slots.partyB, name: 'Party One', email: 'one@example.org' },
				],
			]);
		});

		it('refuses before sending when a slot would keep its placeholder address, naming the slot', async () => {
			await expect(
				run(generate({ recipientsJson: JSON.stringify([{ ...ada, role: 'SIGNER' }]) })),
			).rejects.toThrow(
				'Recipients: nobody is given the template slot Director (Approver, slot 2) of "Residency agreement": add a recipient for it (Template Slot, or a Approver); otherwise the service would invite its placeholder address recipient.2@documenso.com',
			);
			// Keeping the template's recipient is no way around a placeholder.
			await expect(
				run(
					generate({
						recipientsJson: JSON.stringify([{ ...ada, role: 'SIGNER' }]),
						options: { unfilledSlots: 'keep' },
					}),
				),
			).rejects.toThrow(/nobody is given the template slot Director/);
			expect(await posts('/api/v2/envelope/use')).toEqual([]);
		});

		it('keeps a slot the template gives a real person when asked to, and fails without', async () => {
			// A team names its fixed approver in the template (Documenso's template editor).
			const template = await documenso.control<IDataObject>('/templates', 'POST', {
				title: 'Agreement with a fixed approver',
				recipients: [
					{ name: 'Signer', role: 'SIGNER' },
					{ name: 'Legal', role: 'APPROVER', email: 'legal@example.org' },
				],
			});
			const parameters = generate({
				templateId: { mode: 'id', value: String(template.id) },
				recipientsJson: JSON.stringify([{ ...ada, role: 'SIGNER' }]),
			});
			await expect(run(parameters)).rejects.toThrow(
				/nobody is given the template slot Legal \(Approver, slot \d+\) of "Agreement with a fixed approver": .*, or set Options › Template Slots Without Recipient to keep the template’s recipient legal@example.org/,
			);
			expect(await posts('/api/v2/envelope/use')).toEqual([]);
			const [document] = await json({ ...parameters, options: { unfilledSlots: 'keep' } });
			const [use] = await posts('/api/v2/envelope/use');
			expect(use.body.recipients).toEqual([{ id: (template.recipients as IDataObject[])[0].id, ...ada }]);
			expect((document.recipients as IDataObject[]).map((recipient) => recipient.email)).toEqual([
				'ada@example.org',
				'legal@example.org',
			]);
		});

		it('refuses a role the template has no free slot of, and a slot it does not have', async () => {
			await expect(
				run(generate({ recipientsJson: JSON.stringify([{ ...ada, role: 'VIEWER' }, director]) })),
			).rejects.toThrow(/Recipients › Role \(recipient 1\): the template "Residency agreement" has no Viewer slot left/);
			await expect(
				run(generate({ recipientsJson: JSON.stringify([{ ...ada, slotId: 9 }, director]) })),
			).rejects.toThrow(/Recipients › Template Slot \(recipient 1\): the template "Residency agreement" has no slot "9"/);
			expect(await posts('/api/v2/envelope/use')).toEqual([]);
		});

		// Issue 32 item 16. createDocumentFromTemplate stores the document, then sendDocument refuses a
		// signer without a signature field (MISSING_SIGNATURE_FIELD, packages/lib/server-only/document/
		// send-document.ts); the router rethrows it (packages/trpc/server/template-router/router.ts) and
		// the draft stays, named nowhere in the answer.
		it('a template Documenso refuses to send (a signer without a signature field) leaves a draft: the error names it', async () => {
			const template = await documenso.control<IDataObject>('/templates', 'POST', {
				title: 'Agreement without a signature field',
				recipients: [{ name: 'Signer', role: 'SIGNER', signatureField: false }],
			});
			const error = (await run(
				generate({
					templateId: { mode: 'id', value: String(template.id) },
					title: 'Agreement – Ada Lovelace',
					recipientsJson: JSON.stringify([{ ...ada, role: 'SIGNER' }]),
				}),
			).then(
				() => new Error('the node did not fail'),
				(caught: unknown) => caught,
			)) as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			// use-envelope.ts turns any failure of sendDocument into DOCUMENT_SEND_FAILED.
			expect(error.message).toMatch(/answered 400: DOCUMENT_SEND_FAILED/);
			const { documents } = await documenso.control<{ documents: IDataObject[] }>('/documents', 'GET');
			expect(documents.map(({ id, status }) => ({ id, status }))).toEqual([{ id: DOCUMENSO_SEED.firstDocumentId, status: 'DRAFT' }]);
			expect(error.description).toContain(
				`POST /api/v2/envelope/use (DOCUMENT_SEND_FAILED). Documenso made the document before it refused to send it: it is kept as draft ${DOCUMENSO_SEED.firstDocumentId} ("Agreement – Ada Lovelace")`,
			);
			expect(error.description).toContain('Running this item again makes another document.');
		});

		it('Send Now off leaves a draft: distributeDocument false is sent, not left out', async () => {
			const [document] = await json(generate({ distribute: false }));
			expect(document.status).toBe('DRAFT');
			const [use] = await posts('/api/v2/envelope/use');
			expect(use.body.distributeDocument).toBe(false);
		});

		it('prefills every field type with its Documenso type, keeping the fields’ labels', async () => {
			const [document] = await json(
				generate({
					prefillInput: 'json',
					prefillFieldsJson: JSON.stringify([
						{ id: String(fields.residency.projectTitle), value: 'Light studies' },
						{ id: fields.residency.stipend, value: 1200 },
						{ id: fields.residency.startDate, value: '2027-01-15' },
						{ id: fields.residency.housing, value: true },
						{ id: fields.residency.studio, value: 'North studio' },
					]),
					emailOptions: { subject: 'Your agreement', message: 'Please sign', redirectUrl: 'https://example.org/thanks' },
				}),
			);
			const [use] = await posts('/api/v2/envelope/use');
			expect(use.body.prefillFields).toEqual([
				{ id: fields.residency.projectTitle, type: 'text', label: 'Project title', value: 'Light studies' },
				{ id: fields.residency.stipend, type: 'number', label: 'Monthly stipend (EUR)', value: '1200' },
				{ id: fields.residency.startDate, type: 'date', value: '2027-01-15T00:00:00' },
				{ id: fields.residency.housing, type: 'checkbox', label: 'Housing included', value: ['Housing included'] },
				{ id: fields.residency.studio, type: 'dropdown', label: 'Studio', value: 'North studio' },
			]);
			expect(use.body.override).toEqual({
				title: 'Residency agreement – Ada Lovelace',
				subject: 'Your agreement',
				message: 'Please sign',
				redirectUrl: 'https://example.org/thanks',
			});
			expect(document.meta).toEqual({ subject: 'Your agreement', message: 'Please sign', redirectUrl: 'https://example.org/thanks' });
			expect(document.prefillFields).toEqual([
				{ id: expect.any(Number), label: 'Project title', value: 'Light studies' },
				{ id: expect.any(Number), label: 'Monthly stipend (EUR)', value: '1200' },
				{ id: expect.any(Number), label: 'Start date', value: '2027-01-15 12:00 AM' },
				{ id: expect.any(Number), label: 'Housing included', value: 'true' },
				{ id: expect.any(Number), label: 'Studio', value: 'North studio' },
			]);
		});

		// Issue 32 item 12. Documenso writes a prefilled date as DateTime.fromJSDate(new Date(value)) in
		// the server's own time zone (packages/lib/server-only/template/create-document-from-template.ts):
		// "2027-01-15" is midnight UTC, which a server west of UTC wrote as the 14th.
		it.each(['America/Los_Angeles', 'Pacific/Auckland', 'Etc/UTC'])(
			'a prefilled date is that day at midnight on a server in %s: sent as a date and time without a zone',
			async (timeZone) => {
				await documenso.control('/time-zone', 'PUT', { timeZone });
				const [document] = await json(
					generate({
						prefillInput: 'json',
						prefillFieldsJson: JSON.stringify([{ id: fields.residency.startDate, value: '2027-01-15' }]),
					}),
				);
				const [use] = await posts('/api/v2/envelope/use');
				expect(use.body.prefillFields).toEqual([
					{ id: fields.residency.startDate, type: 'date', value: '2027-01-15T00:00:00' },
				]);
				expect(document.prefillFields).toEqual([
					{ id: expect.any(Number), label: 'Start date', value: '2027-01-15 12:00 AM' },
				]);
			},
		);

		it('checks prefill values against the template before sending, by the field’s label', async () => {
			await expect(
				run(
					generate({
						prefillInput: 'json',
						prefillFieldsJson: JSON.stringify([{ id: fields.residency.studio, value: 'Garden' }]),
					}),
				),
			).rejects.toThrow('Prefill Fields › Studio: "Garden" is not one of its options: North studio, South studio, Print workshop');
			expect(await posts('/api/v2/envelope/use')).toEqual([]);
		});

		it('as a tool, or with Include Signing URLs off, returns no signing URL', async () => {
			// Sending at once e-mails people: as a tool only with the author's consent.
			const [asTool] = await json(generate({ allowAsTool: true }), { tool: true });
			expect((asTool.recipients as IDataObject[]).every((recipient) => recipient.signingUrl === undefined)).toBe(true);
		});

		it('version 2 with Simplify: the one shape, with the link to the document in Documenso', async () => {
			const [document] = await json(generate(), { version: 2 });
			expect(Object.keys(document).sort()).toEqual(
				['certifiedPackageUrl', 'completedAt', 'createdAt', 'documentId', 'documentUrl', 'recipients', 'status', 'templateId', 'title', 'updatedAt'].sort(),
			);
			expect(document.documentId).toBe(DOCUMENSO_SEED.firstDocumentId);
		});
	});

	describe('Document', () => {
		const generated = async (overrides: Parameters = {}) => (await json(generate(overrides)))[0];

		it('Get: the document in the documented shape, its ID as text or as a number', async () => {
			const { documentId } = await generated();
			for (const id of [documentId, String(documentId)]) {
				const [document] = await json(operation('get', { documentId: id }));
				expect(document).toMatchObject({
					id: documentId,
					status: 'PENDING',
					templateId: DOCUMENSO_SEED.residencyTemplateId,
					certifiedPackageUrl: null,
					documentUrl: expect.stringContaining('/t/sandbox/documents/envelope_'),
					meta: { subject: null, message: null, redirectUrl: null },
				});
				expect((document.recipients as IDataObject[]).map((recipient) => recipient.recipientId)).toEqual([
					expect.any(Number),
					expect.any(Number),
				]);
			}
		});

		it('Get: as a tool, no signing URL', async () => {
			const { documentId } = await generated();
			const [document] = await json(operation('get', { documentId }), { tool: true });
			expect(JSON.stringify(document)).not.toContain('/sign/');
		});

		it('Get: an ID that is not a Documenso ID is refused before any request; an unknown one is named', async () => {
			await expect(run(operation('get', { documentId: 'doc_1' }))).rejects.toThrow(
				'Document ID: "doc_1" is not a Documenso ID: Documenso’s IDs are a number such as 1001, or an envelope ID such as envelope_abc123',
			);
			await expect(run(operation('get', { documentId: '..' }))).rejects.toThrow('Document ID: ".." is not a valid ID');
			expect(await documenso.requests()).toEqual([]);
			// A number is looked up with envelope/get-many, which leaves unknown ones out.
			await expect(run(operation('get', { documentId: 4242 }))).rejects.toThrow(
				'Document ID: this Documenso team has no document 4242',
			);
			const failure = run(operation('get', { documentId: 'envelope_unknown' }));
			await expect(failure).rejects.toThrow(NodeApiError);
			await expect(failure).rejects.toThrow('The Documenso server answered 404: Envelope not found');
		});

		it('Get Many: newest first, by status and template, Return All or Limit', async () => {
			const first = await generated();
			const draft = await generated({ distribute: false });
			const nda = await generated({
				templateId: { mode: 'id', value: String(DOCUMENSO_SEED.ndaTemplateId) },
				recipientsJson: JSON.stringify([ada, director]),
			});
			const all = await json(operation('getMany', { returnAll: true }));
			expect(all.map((document) => document.id)).toEqual([nda.documentId, draft.documentId, first.documentId]);
			const pending = await json(operation('getMany', { returnAll: true, filters: { status: 'PENDING' } }));
			expect(pending.map((document) => document.id)).toEqual([nda.documentId, first.documentId]);
			const residency = await json(
				operation('getMany', {
					returnAll: true,
					filters: { templateId: { mode: 'id', value: String(DOCUMENSO_SEED.residencyTemplateId) } },
				}),
			);
			expect(residency.map((document) => document.id)).toEqual([draft.documentId, first.documentId]);
			const two = await json(operation('getMany', { returnAll: false, limit: 2 }));
			expect(two).toHaveLength(2);
			expect(all[0]).toMatchObject({ documentUrl: expect.stringContaining('/t/sandbox/documents/'), team: { url: 'sandbox' } });
			const [query] = (await documenso.requests()).filter(
				(request) => request.path === '/api/v2/envelope' && request.query.status === 'PENDING',
			);
			expect(query.query).toMatchObject({ type: 'DOCUMENT', status: 'PENDING', page: '1' });
			// A template named by its envelope ID filters by its number.
			const [template] = await json({ resource: 'template', operation: 'get', templateId: { mode: 'id', value: String(DOCUMENSO_SEED.residencyTemplateId) } });
			const byEnvelope = await json(
				operation('getMany', { returnAll: true, filters: { templateId: { mode: 'id', value: String(template.envelopeId) } } }),
			);
			expect(byEnvelope.map((document) => document.id)).toEqual([draft.documentId, first.documentId]);
		});

		it('Send: a draft is distributed and comes back pending with its recipients', async () => {
			const { documentId } = await generated({ distribute: false });
			const [sent] = await json(operation('send', { documentId }));
			expect(sent).toMatchObject({ id: documentId, status: 'PENDING' });
			expect((sent.recipients as IDataObject[]).every((recipient) => recipient.sendStatus === 'SENT')).toBe(true);
			const [distribute] = await posts('/api/v2/envelope/distribute');
			expect(distribute.body).toEqual({ envelopeId: sent.envelopeId });
		});

		it('Send: a document that is not a draft is refused, and Documenso is not asked to send it again', async () => {
			const { documentId } = await generated();
			await expect(run(operation('send', { documentId }))).rejects.toThrow(
				`Document ${String(documentId)} is not a draft (it is pending): only a draft can be sent`,
			);
			expect(await posts('/api/v2/envelope/distribute')).toEqual([]);
		});

		it('Resend, All Pending Signers: the node computes them from the document', async () => {
			const document = await generated();
			const [applicant, approver] = document.recipients as IDataObject[];
			await documenso.control(`/documents/${String(document.documentId)}/sign`, 'POST', { recipientId: applicant.id });
			const [item] = await json(operation('resend', { documentId: document.documentId, remind: 'allPending' }));
			expect(item).toEqual({ documentId: document.documentId, resent: [approver.id], success: true });
			const [redistribute] = await posts('/api/v2/envelope/redistribute');
			expect(redistribute.body).toEqual({ envelopeId: document.envelopeId, recipients: [approver.id] });
		});

		// Issue 32 item 13. resend-document.ts e-mails every listed recipient but CC who has not signed;
		// Documenso itself invites viewers and assistants once, and in a SEQUENTIAL document only the
		// recipient whose turn it is (send-document.ts, recipient/get-is-recipient-turn.ts).
		it('Resend, All Pending Signers: signers and approvers only, and in a sequential document only whose turn it is', async () => {
			const person = (name: string, role: string) => ({ name, email: `${name.toLowerCase()}@example.org`, role });
			const slotsOf = (people: Array<{ name: string; role: string }>) =>
				people.map(({ name, role }) => ({ name: `${name} slot`, role }));
			const everyRole = [
				person('Chair', 'SIGNER'),
				person('Observer', 'VIEWER'),
				person('Clerk', 'ASSISTANT'),
				person('Treasurer', 'APPROVER'),
				person('Archive', 'CC'),
			];
			const inTurns = [person('First', 'SIGNER'), person('Second', 'SIGNER'), person('Third', 'APPROVER')];
			const documentFor = async (people: typeof everyRole, signingOrder: string) => {
				const template = await documenso.control<IDataObject>('/templates', 'POST', {
					title: `${signingOrder} resolution`,
					signingOrder,
					recipients: slotsOf(people),
				});
				// Each person fills their slot by its id: the node takes no ASSISTANT role of its own.
				const slotIds = (template.recipients as IDataObject[]).map((slot) => slot.id);
				const document = await generated({
					templateId: { mode: 'id', value: String(template.id) },
					recipientsJson: JSON.stringify(people.map(({ name, email }, index) => ({ name, email, slotId: slotIds[index] }))),
				});
				const idOf = (name: string) =>
					(document.recipients as IDataObject[]).find((recipient) => recipient.name === name)?.recipientId;
				return { documentId: document.documentId, idOf };
			};
			const remind = async (documentId: unknown) =>
				(await json(operation('resend', { documentId, remind: 'allPending' })))[0].resent;

			const parallel = await documentFor(everyRole, 'PARALLEL');
			expect(await remind(parallel.documentId)).toEqual([parallel.idOf('Chair'), parallel.idOf('Treasurer')]);

			const sequential = await documentFor(inTurns, 'SEQUENTIAL');
			expect(await remind(sequential.documentId)).toEqual([sequential.idOf('First')]);
			await documenso.control(`/documents/${String(sequential.documentId)}/sign`, 'POST', {
				recipientId: sequential.idOf('First'),
			});
			expect(await remind(sequential.documentId)).toEqual([sequential.idOf('Second')]);
			expect((await posts('/api/v2/envelope/redistribute')).map((request) => request.body.recipients)).toEqual([
				[parallel.idOf('Chair'), parallel.idOf('Treasurer')],
				[sequential.idOf('First')],
				[sequential.idOf('Second')],
			]);
		});

		it('Resend, Chosen Recipients: each once; one who signed is refused before sending', async () => {
			const document = await generated();
			const [applicant, approver] = document.recipients as IDataObject[];
			const [item] = await json(
				operation('resend', {
					documentId: document.documentId,
					remind: 'chosen',
					recipientIds: `${String(approver.id)}, ${String(approver.id)}`,
				}),
			);
			expect(item.resent).toEqual([approver.id]);
			await documenso.control(`/documents/${String(document.documentId)}/sign`, 'POST', { recipientId: applicant.id });
			await documenso.clearRequests();
			await expect(
				run(operation('resend', { documentId: document.documentId, remind: 'chosen', recipientIds: [applicant.id] })),
			).rejects.toThrow(`Recipient IDs: recipient ${String(applicant.id)} has signed already`);
			expect(await posts('/api/v2/envelope/redistribute')).toEqual([]);
		});

		it('Resend: a draft cannot be reminded; nobody pending is an empty result without a request', async () => {
			const draft = await generated({ distribute: false });
			await expect(run(operation('resend', { documentId: draft.documentId }))).rejects.toThrow(
				/cannot be reminded: it is draft/,
			);
			const pendingDocument = await generated({
				templateId: { mode: 'id', value: String(DOCUMENSO_SEED.ndaTemplateId) },
				recipientsJson: JSON.stringify([ada, director]),
			});
			// The two signers sign: the document completes, nobody is left (and it is no longer pending).
			await complete(pendingDocument.documentId);
			await expect(run(operation('resend', { documentId: pendingDocument.documentId }))).rejects.toThrow(
				/cannot be reminded: it is completed/,
			);
			expect(await posts('/api/v2/envelope/redistribute')).toEqual([]);
		});

		it('Cancel: a pending document through the envelope API, by its envelope ID', async () => {
			const document = await generated();
			const [cancelled] = await json(operation('cancel', { documentId: document.documentId }));
			expect(cancelled).toEqual({
				id: document.documentId,
				envelopeId: document.envelopeId,
				status: 'CANCELLED',
				success: true,
				alreadyGone: false,
			});
			const [cancel] = await posts('/api/v2/envelope/cancel');
			expect(cancel.body).toEqual({ envelopeId: document.envelopeId });
			const [after] = await json(operation('get', { documentId: document.documentId }));
			expect(after.status).toBe('CANCELLED');
			// Again: it is gone already; by the user's choice a failure or a success.
			await expect(run(operation('cancel', { documentId: document.documentId }))).rejects.toThrow(
				`Document ${String(document.documentId)} cannot be cancelled: it is cancelled already`,
			);
			const [again] = await json(operation('cancel', { documentId: document.documentId, ifAlreadyGone: 'succeed' }));
			expect(again).toMatchObject({ status: 'CANCELLED', alreadyGone: true });
		});

		it('Cancel: a draft or a completed document is refused with what to do, nothing is sent', async () => {
			const draft = await generated({ distribute: false });
			await expect(run(operation('cancel', { documentId: draft.documentId }))).rejects.toThrow(
				`Document ${String(draft.documentId)} cannot be cancelled: it is a draft`,
			);
			const signed = await generated();
			await complete(signed.documentId);
			await expect(run(operation('cancel', { documentId: signed.documentId }))).rejects.toThrow(/it is completed/);
			expect(await posts('/api/v2/envelope/cancel')).toEqual([]);
		});

		it('Download: the signed PDF once completed; before, a clear error and no download', async () => {
			const document = await generated();
			await expect(run(operation('download', { documentId: document.documentId }))).rejects.toThrow(
				/is not completed yet \(status PENDING\)/,
			);
			await complete(document.documentId);
			const [item] = await run(operation('download', { documentId: document.documentId, binaryPropertyName: 'data' }));
			expect(item.json).toMatchObject({
				documentId: document.documentId,
				status: 'COMPLETED',
				version: 'signed',
				fileName: 'Residency agreement – Ada Lovelace.pdf',
				mimeType: 'application/pdf',
			});
			const bytes = Buffer.from(item.binary!.data.data, 'base64');
			expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
			expect(item.json.fileSize).toBe(bytes.length);
			const downloads = (await documenso.requests()).filter((request) => request.path.endsWith('/download'));
			expect(downloads.map((request) => [request.path, request.query.version])).toEqual([
				[expect.stringMatching(/^\/api\/v2\/envelope\/item\/envelope_item_\w+\/download$/), 'signed'],
			]);
		});

		it('Download: the original from the envelope item (the document route ignores ?version=original)', async () => {
			const document = await generated();
			const [item] = await run(operation('download', { documentId: document.documentId, version: 'original' }));
			expect(item.json).toMatchObject({ version: 'original', status: 'PENDING' });
			const [download] = (await documenso.requests()).filter((request) => request.path.endsWith('/download'));
			expect(download.path).toMatch(/^\/api\/v2\/envelope\/item\/envelope_item_[a-z]+\/download$/);
			expect(download.query).toEqual({ version: 'original' });
		});

		it('Download as a tool: the file’s name and size from a HEAD request, no bytes', async () => {
			const document = await generated();
			await complete(document.documentId);
			const [item] = await run(operation('download', { documentId: document.documentId }), { tool: true });
			expect(item.binary).toBeUndefined();
			// As a tool the recipient's name in the title is redacted in the file's name too.
			expect(item.json).toMatchObject({ fileName: expect.stringMatching(/^Residency agreement – NAME_\d+\.pdf$/), fileSize: expect.any(Number) });
		});

		it('Get Audit Log: oldest first, every page, with the documented types and Documenso’s kept', async () => {
			const document = await generated();
			await complete(document.documentId);
			const events = await json(operation('getAuditLog', { documentId: document.documentId }));
			expect(events.map((event) => event.type)).toEqual([
				'DOCUMENT_CREATED',
				'DOCUMENT_SENT',
				'EMAIL_SENT',
				'EMAIL_SENT',
				'DOCUMENT_OPENED',
				'DOCUMENT_SIGNED',
				'DOCUMENT_OPENED',
				'DOCUMENT_SIGNED',
				'DOCUMENT_COMPLETED',
			]);
			const signed = events.find((event) => event.type === 'DOCUMENT_SIGNED')!;
			expect(signed).toMatchObject({
				documentId: document.documentId,
				recipientId: expect.any(Number),
				email: 'ada@example.org',
				documenso: { type: 'DOCUMENT_RECIPIENT_COMPLETED' },
				data: expect.objectContaining({ recipientRole: 'SIGNER' }),
			});
			const [audit] = (await documenso.requests()).filter((request) => request.path.endsWith('/audit-log'));
			expect(audit.path).toBe(`/api/v2/envelope/${String(document.envelopeId)}/audit-log`);
			expect(audit.query).toMatchObject({ orderByDirection: 'asc', perPage: '100' });
			const [single] = await json(operation('getAuditLog', { documentId: document.documentId, auditOutput: 'single' }));
			expect(single.events).toHaveLength(9);
		});

		it('Continue On Fail: a bad item fails alone, paired with its input', async () => {
			const document = await generated();
			const items = await run(
				[operation('get', { documentId: 'nope' }), operation('get', { documentId: document.documentId })],
				{ items: [{}, {}], continueOnFail: true },
			);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(items[0].json.error).toMatch(/not a Documenso ID/);
			expect(items[1].json.id).toBe(document.documentId);
		});
	});

	describe('Test credential', () => {
		const test = async (data: IDataObject) =>
			await signingApiTest.call(credentialTestContext(), { id: 'c', name: 'c', type: 'signingApi', data } as never);

		it('connects with API Documenso, and refuses a wrong token in Documenso’s words', async () => {
			const { signingApi } = documenso.credentials();
			expect(await test(signingApi)).toEqual({ status: 'OK', message: 'Connected to the Documenso server' });
			expect(await test({ ...signingApi, apiToken: 'api_wrong' })).toMatchObject({
				status: 'Error',
				message: expect.stringMatching(/^The Documenso server refused the API token \(401\)/),
			});
		});

		it('says when the server answers like the other API', async () => {
			const { signingApi } = documenso.credentials();
			const documentedProbe = await test({ ...signingApi, api: 'documented' });
			// The documented API's route, asked on purpose: not a request of an operation.
			await documenso.clearRequests();
			expect(documentedProbe).toEqual({
				status: 'Error',
				message: 'This server answers like Documenso: choose "Documenso" under API in this credential.',
			});
			const documented = await startSandbox({ ports: {} });
			try {
				expect(
					await test({ api: 'documenso', baseUrl: documented.signing.url, apiToken: documented.signing.apiKey }),
				).toEqual({
					status: 'Error',
					message:
						'This server answers like the documented signing API: choose "Documented API (the Sandbox, or a Server Built to the README)" under API in this credential.',
				});
			} finally {
				await documented.stop();
			}
		});
	});
});
