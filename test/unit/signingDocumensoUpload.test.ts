/**
 * Issue 33: Document → Create From File on Documenso, against the Documenso flavour of the signing
 * sandbox. The upload is `POST /api/v2/envelope/create` (multipart: a `payload` JSON part and a
 * `files` part; packages/trpc/server/envelope-router/create-envelope.ts and .types.ts), fields at a
 * text are `POST /envelope/field/create-many` with `placeholder`
 * (packages/lib/server-only/field/create-envelope-fields.ts), sending is `POST /envelope/distribute`
 * (envelope-router/distribute-envelope.ts). The multipart body goes through n8n's own HTTP client
 * (@n8n/backend-network); the flavour reads it part by part, and after every test each request is
 * parsed again with the SDK's schemas, the payload part with `EnvelopeCreatePayload`.
 */
import { createHash } from 'node:crypto';

import type { IBinaryData, IDataObject, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { startSandbox } from '../sandbox';
import type { MultipartRecord } from '../sandbox/documenso/sdk';
import { textPdf } from '../sandbox/signingPdf';
import { executeContext, type Parameters } from './helpers/context';
import { documensoForEachTest } from './helpers/documenso';

jest.setTimeout(60_000);

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const grace = { name: 'Grace Hopper', email: 'grace@example.org' };

/** A two-page agreement with a placeholder for each signer, the second one twice. */
const AGREEMENT = textPdf([
	['Residency agreement', 'Signed for the resident: [[sign-ada]]', 'Date: [[date-ada]]'],
	[
		'Page two',
		'Signed for the programme: [[sign-grace]]',
		'Initials: [[init-grace]] and [[init-grace]]',
	],
]);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const inMemory = (
	bytes: Buffer,
	fileName = 'agreement.pdf',
	mimeType = 'application/pdf',
): IBinaryData => ({
	data: bytes.toString('base64'),
	mimeType,
	fileName,
});

describe('Document → Create From File on Documenso', () => {
	const documenso = documensoForEachTest();
	const node = new Signing();

	const run = async (
		parameters: Parameters,
		options: {
			binary?: Record<string, IBinaryData>;
			binaryStore?: Map<string, Buffer>;
			tool?: boolean;
			credentials?: Record<string, IDataObject>;
			onRequest?: (request: IHttpRequestOptions) => Promise<void>;
		} = {},
	): Promise<INodeExecutionData[]> => {
		const { context } = executeContext({
			parameters,
			binaries: [options.binary ?? { data: inMemory(AGREEMENT) }],
			binaryStore: options.binaryStore,
			credentials: options.credentials ?? documenso.credentials(),
			tool: options.tool,
			onRequest: options.onRequest,
		});
		return (await node.execute.call(context))[0];
	};
	const upload = (overrides: Parameters = {}): Parameters => ({
		resource: 'document',
		operation: 'createFromFile',
		binaryPropertyName: 'data',
		title: 'Residency agreement – Ada Lovelace',
		uploadRecipientsInput: 'fields',
		uploadRecipients: {
			recipient: [
				{ ...ada, role: 'SIGNER', signingOrder: 0 },
				{ ...grace, role: 'APPROVER', signingOrder: 0 },
			],
		},
		uploadFieldsInput: 'fields',
		uploadFields: {
			field: [
				{
					recipient: '1',
					type: 'SIGNATURE',
					placement: 'text',
					placeholder: '[[sign-ada]]',
					width: 0,
					height: 0,
				},
				{
					recipient: 'grace@example.org',
					type: 'SIGNATURE',
					placement: 'text',
					placeholder: '[[sign-grace]]',
					width: 30,
					height: 5,
				},
				{
					recipient: '1',
					type: 'DATE',
					placement: 'position',
					page: 1,
					x: 10,
					y: 80,
					width: 20,
					height: 4,
				},
			],
		},
		distribute: true,
		...overrides,
	});
	const requests = async () =>
		(await documenso.requests()).map((request) => `${request.method} ${request.path}`);
	const documents = async () =>
		(await documenso.control<{ documents: IDataObject[] }>('/documents', 'GET')).documents;

	it('uploads the PDF in a multipart body, places fields at a text and a position, sends it, and answers as Get', async () => {
		const [item] = await run(upload());
		const document = item.json;
		expect(document).toMatchObject({
			id: 1001,
			envelopeId: expect.stringMatching(/^envelope_/),
			title: 'Residency agreement – Ada Lovelace',
			status: 'PENDING',
			alreadyExisted: false,
			documentUrl: expect.stringContaining('/t/sandbox/documents/envelope_'),
			recipients: [
				expect.objectContaining({
					...ada,
					role: 'SIGNER',
					signingUrl: expect.stringMatching(/\/sign\/[\w-]+$/),
				}),
				expect.objectContaining({
					...grace,
					role: 'APPROVER',
					signingUrl: expect.stringMatching(/\/sign\/[\w-]+$/),
				}),
			],
		});
		expect(await requests()).toEqual([
			'POST /api/v2/envelope/create',
			`GET /api/v2/envelope/${String(document.envelopeId)}`,
			'POST /api/v2/envelope/field/create-many',
			`GET /api/v2/envelope/${String(document.envelopeId)}`,
			'POST /api/v2/envelope/distribute',
			`GET /api/v2/envelope/${String(document.envelopeId)}`,
		]);

		const [create] = await documenso.requests();
		expect(create.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
		const record = create.body as MultipartRecord;
		expect(record.parts.map(({ name, fileName, size }) => ({ name, fileName, size }))).toEqual([
			{ name: 'payload', fileName: undefined, size: expect.any(Number) },
			{ name: 'files', fileName: 'agreement.pdf', size: AGREEMENT.length },
		]);
		// The bytes Documenso received are the file's, and the request said how many in advance.
		expect(record.parts[1].sha256).toBe(sha256(AGREEMENT));
		expect(Number(create.headers['content-length'])).toBeGreaterThan(AGREEMENT.length);
		expect(record.parts[0].json).toEqual({
			title: 'Residency agreement – Ada Lovelace',
			type: 'DOCUMENT',
			recipients: [
				{
					...ada,
					role: 'SIGNER',
					fields: [{ type: 'DATE', page: 1, positionX: 10, positionY: 80, width: 20, height: 4 }],
				},
				{ ...grace, role: 'APPROVER' },
			],
			meta: { distributionMethod: 'EMAIL' },
		});
		const createMany = (await documenso.requests())[2].body as IDataObject;
		expect(createMany.data).toEqual([
			{ type: 'SIGNATURE', recipientId: 101, placeholder: '[[sign-ada]]' },
			{ type: 'SIGNATURE', recipientId: 102, placeholder: '[[sign-grace]]', width: 30, height: 5 },
		]);

		// Where Documenso put them: at the placeholders' boxes (page 2 for Grace), in percent of the page.
		const fields = document.fields as IDataObject[];
		const signature = (recipientId: number) =>
			fields.find(
				(field) => field.type === 'SIGNATURE' && field.recipientId === recipientId,
			) as IDataObject;
		expect(signature(101)).toMatchObject({ page: 1 });
		expect(signature(101).positionX as number).toBeGreaterThan(12);
		// The second line of the page (Helvetica 12 from 770 pt of 842, 14 pt apart).
		expect(signature(101).positionY as number).toBeGreaterThan(7);
		expect(signature(101).positionY as number).toBeLessThan(12);
		expect(signature(102)).toMatchObject({ page: 2, width: 30, height: 5 });
	});

	it('streams a file from n8n’s binary data store (filesystem mode) without reading it whole', async () => {
		const store = new Map([['filesystem-v2:workflows/1/executions/1/binary_data/abc', AGREEMENT]]);
		const sent: IHttpRequestOptions[] = [];
		const [item] = await run(upload(), {
			onRequest: async (request) => {
				sent.push(request);
			},
			binary: {
				data: {
					id: 'filesystem-v2:workflows/1/executions/1/binary_data/abc',
					data: 'filesystem-v2',
					mimeType: 'application/pdf',
					fileName: 'from-disk.pdf',
				},
			},
			binaryStore: store,
		});
		expect(item.json.status).toBe('PENDING');
		// Following redirects, n8n's HTTP client (follow-redirects) would keep the whole body to send it again.
		expect(sent[0]).toMatchObject({ url: expect.stringMatching(/\/envelope\/create$/), disableFollowRedirect: true });
		expect(sent.slice(1).map((request) => request.disableFollowRedirect)).not.toContain(true);
		const [create] = await documenso.requests();
		expect((create.body as MultipartRecord).parts[1]).toMatchObject({
			fileName: 'from-disk.pdf',
			size: AGREEMENT.length,
			sha256: sha256(AGREEMENT),
		});
	});

	it('refuses before anything is sent: not a PDF, over the size limit, no such binary field, a field for nobody', async () => {
		await expect(
			run(upload(), {
				binary: { data: inMemory(Buffer.from('hello'), 'notes.txt', 'text/plain') },
			}),
		).rejects.toThrow('Input Binary Field: the file "notes.txt" (text/plain) is not a PDF');
		// Issue 42: "%PDF-" anywhere in the first KiB passed. A PDF's first line is its header (ISO 32000-1, 7.5.2).
		await expect(
			run(upload(), {
				binary: { data: inMemory(Buffer.from('Notes on the file format: every file starts with %PDF-1.7\n'), 'notes.pdf', 'application/pdf') },
			}),
		).rejects.toThrow('Input Binary Field: the file "notes.pdf" (application/pdf) is not a PDF');
		const large = textPdf([['Large']], { padding: 2 * 1024 * 1024 });
		await expect(
			run(upload({ options: { sizeLimitMb: 1 } }), { binary: { data: inMemory(large) } }),
		).rejects.toThrow(
			`the file "agreement.pdf" is 2.0 MB (${large.length} bytes); Documenso takes at most 1 MB a file`,
		);
		await expect(run(upload({ binaryPropertyName: 'attachment' }))).rejects.toThrow(
			'input item 0 has no binary field "attachment"; its binary fields are "data"',
		);
		await expect(
			run(
				upload({
					uploadFields: {
						field: [{ recipient: '3', type: 'SIGNATURE', placement: 'text', placeholder: '[[x]]' }],
					},
				}),
			),
		).rejects.toThrow(
			'Fields › Recipient (field 1): there is no recipient 3; the document has 2 recipient(s): 1 ada@example.org, 2 grace@example.org',
		);
		await expect(
			run(
				upload({
					uploadFields: {
						field: [
							{
								recipient: 'nobody@example.org',
								type: 'SIGNATURE',
								placement: 'text',
								placeholder: '[[x]]',
							},
						],
					},
				}),
			),
		).rejects.toThrow('"nobody@example.org" is none of the recipients');
		await expect(
			run(
				upload({
					uploadFields: {
						field: [
							{
								recipient: '1',
								type: 'SIGNATURE',
								placement: 'position',
								page: 1,
								x: 10,
								y: 10,
								width: 0,
								height: 4,
							},
						],
					},
				}),
			),
		).rejects.toThrow(
			'Fields › Width (%) (field 1): 0 is not a percentage of the page above 0 and up to 100',
		);
		expect(await requests()).toEqual([]);
	});

	it('refuses a field for a CC or Viewer recipient before anything is sent, as Field → Add does', async () => {
		for (const [role, words] of [
			['CC', 'in CC'],
			['VIEWER', 'a viewer'],
		]) {
			await expect(
				run(
					upload({
						uploadRecipients: {
							recipient: [
								{ ...ada, role: 'SIGNER', signingOrder: 0 },
								{ ...grace, role, signingOrder: 0 },
							],
						},
					}),
				),
			).rejects.toThrow(
				`Fields › Recipient (field 2): recipient 2 (grace@example.org) is ${words}: Documenso gives such recipients no fields`,
			);
		}
		expect(await requests()).toEqual([]);
	});

	it('a placeholder missing from the PDF names the field, and the draft Documenso had made is deleted', async () => {
		const parameters = upload({
			uploadFields: {
				field: [
					{ recipient: '1', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-ada]]' },
					{ recipient: '2', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-nobody]]' },
				],
			},
		});
		const error = await run(parameters).catch((caught: NodeOperationError) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(
			'Fields (field 2): the text "[[sign-nobody]]" is not in the PDF',
		);
		expect((error as NodeOperationError).description).toContain(
			'Placeholder "[[sign-nobody]]" not found in PDF',
		);
		expect((error as NodeOperationError).description).toContain('was deleted; nothing is left');
		expect(await requests()).toContain('POST /api/v2/envelope/delete');
		expect(await documents()).toEqual([]);
	});

	it('a failed send says a draft exists; a retry with External ID and Return It sends that draft instead of uploading again', async () => {
		const parameters = upload({ options: { externalId: 'application-42', ifExists: 'return' } });
		await documenso.control('/faults', 'PUT', {
			status: 503,
			count: 1,
			path: '/envelope/distribute',
		});
		const error = await run(parameters).catch((caught: Error) => caught);
		expect((error as NodeOperationError).description).toMatch(
			/Documenso stored the PDF as document 1001 \(envelope_\w+\), a draft that was not sent.*Return It sends that draft/,
		);
		expect((await documents()).map((document) => document.status)).toEqual(['DRAFT']);

		await documenso.clearRequests();
		const [item] = await run(parameters);
		expect(item.json).toMatchObject({ id: 1001, status: 'PENDING', alreadyExisted: true });
		// The draft is read whole first: it is sent only with all its fields at a text (issue 41).
		expect(await requests()).toEqual([
			'GET /api/v2/envelope',
			`GET /api/v2/envelope/${String(item.json.envelopeId)}`,
			'POST /api/v2/envelope/distribute',
			`GET /api/v2/envelope/${String(item.json.envelopeId)}`,
		]);
		expect(await documents()).toHaveLength(1);

		await expect(
			run({ ...parameters, options: { externalId: 'application-42', ifExists: 'fail' } }),
		).rejects.toThrow('A document with External ID "application-42" exists already: document 1001');
	});

	it('a send whose answer was lost is read again: a document Documenso sent all the same is the item’s result, sent once', async () => {
		const parameters = upload({ options: { externalId: 'application-43', ifExists: 'return' } });
		await documenso.control('/faults', 'PUT', {
			status: 504,
			count: 1,
			path: '/envelope/distribute',
			afterHandling: true,
		});
		const [item] = await run(parameters);
		expect(item.json).toMatchObject({ id: 1001, status: 'PENDING' });
		expect((await documents()).map((document) => document.status)).toEqual(['PENDING']);
		const sent = await requests();
		expect(sent.filter((line) => line === 'POST /api/v2/envelope/distribute')).toHaveLength(1);
		expect(sent[sent.indexOf('POST /api/v2/envelope/distribute') + 1]).toMatch(
			/^GET \/api\/v2\/envelope\/envelope_\w+$/,
		);
		// The 504 was the fault this test set, not a problem of the requests.
		await documenso.clearRequests();
	});

	it('a read that fails after the upload names the document Documenso made, and how a retry returns it', async () => {
		const parameters = upload({ options: { externalId: 'application-44', ifExists: 'return' } });
		// The first read of the new envelope fails (a 403 is not repeated).
		const failRead = async (request: IHttpRequestOptions) => {
			const path = new URL(request.url).pathname;
			if (request.method === 'GET' && /\/envelope\/envelope_\w+$/.test(path)) {
				await documenso.control('/faults', 'PUT', { status: 403, count: 1, path });
			}
		};
		const error = (await run(parameters, { onRequest: failRead }).catch(
			(caught: Error) => caught,
		)) as NodeOperationError;
		expect(error.description).toMatch(
			/Documenso stored the upload: the document exists as envelope_\w+; only reading it back failed\. Running this item again with "If a Document With This External ID Exists" set to Return It returns it instead of uploading a second one\./,
		);
		expect(await documents()).toHaveLength(1);

		const withoutId = (await run(upload(), { onRequest: failRead }).catch(
			(caught: Error) => caught,
		)) as NodeOperationError;
		expect(withoutId.description).toContain('Running this item again would upload a second document');
	});

	it('a field whose recipient is not in Documenso’s answer fails naming it, never goes to another recipient', async () => {
		const { context } = executeContext({
			parameters: upload(),
			binaries: [{ data: inMemory(AGREEMENT) }],
			credentials: documenso.credentials(),
		});
		// Documenso's answer with Grace's address changed: her fields have no recipient to go to.
		const send = context.helpers.httpRequestWithAuthentication.bind(context);
		context.helpers.httpRequestWithAuthentication = async (type, request) => {
			const answer = (await send(type, request)) as { body?: IDataObject } & IDataObject;
			const body = (answer.body ?? answer) as IDataObject;
			for (const recipient of (body.recipients as IDataObject[] | undefined) ?? []) {
				if (recipient.email === grace.email) recipient.email = 'someone.else@example.org';
			}
			return answer;
		};
		const error = (await node.execute
			.call(context)
			.catch((caught: Error) => caught)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(
			/^Fields \(field 2\): Documenso has no recipient grace@example.org in document 1001 \(envelope_\w+\) to give this field to$/,
		);
		expect(error.description).toContain('Its recipients: ada@example.org, someone.else@example.org');
		expect(error.description).toContain('was deleted; nothing is left');
		expect(await requests()).not.toContain('POST /api/v2/envelope/field/create-many');
		expect(await documents()).toEqual([]);
	});

	it('Documenso’s own {{SIGNATURE, r1}} tags become fields at upload; Distribution None returns the signing links and e-mails nobody', async () => {
		const tagged = textPdf([
			['Agreement', 'Resident: {{SIGNATURE, r1}}', 'Programme: {{signature, r2}}'],
		]);
		const [item] = await run(upload({ uploadFields: {}, options: { distribution: 'NONE' } }), {
			binary: { data: inMemory(tagged) },
		});
		expect(item.json.status).toBe('PENDING');
		expect(
			(item.json.fields as IDataObject[]).map((field) => [field.type, field.recipientId]),
		).toEqual([
			['SIGNATURE', 101],
			['SIGNATURE', 102],
		]);
		expect(
			(item.json.recipients as IDataObject[]).every(
				(recipient) => typeof recipient.signingUrl === 'string',
			),
		).toBe(true);
		const [stored] = await documents();
		expect((stored.documentMeta as IDataObject).distributionMethod).toBe('NONE');
		expect((stored.recipients as IDataObject[]).map((recipient) => recipient.sendStatus)).toEqual([
			'NOT_SENT',
			'NOT_SENT',
		]);
	});

	it('Send Now off leaves a draft: no distribute request', async () => {
		const [item] = await run(upload({ distribute: false }));
		expect(item.json.status).toBe('DRAFT');
		expect(await requests()).not.toContain('POST /api/v2/envelope/distribute');
	});

	it('as an AI agent tool it needs the node’s consent, and gives no signing links', async () => {
		await expect(run(upload(), { tool: true })).rejects.toThrow(
			'Creating documents from a file is not allowed for an AI agent',
		);
		expect(await requests()).toEqual([]);
		const [item] = await run({ ...upload(), allowAsTool: true }, { tool: true });
		expect(
			(item.json.recipients as IDataObject[]).some((recipient) => 'signingUrl' in recipient),
		).toBe(false);
		// Personal data is redacted for a tool by default.
		expect(JSON.stringify(item.json)).not.toContain('ada@example.org');
	});
});

describe('Document → Create From File on the documented API', () => {
	it('fails at once: the operation is Documenso’s', async () => {
		const sandbox = await startSandbox();
		try {
			const { context } = executeContext({
				parameters: { resource: 'document', operation: 'createFromFile' },
				binaries: [{ data: inMemory(AGREEMENT) }],
				credentials: {
					signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
				},
			});
			await expect(new Signing().execute.call(context)).rejects.toThrow(
				'Document → Create From File is available with the Documenso API; this credential uses the documented API',
			);
			const { requests } = (await (
				await fetch(`${sandbox.signing.url}/_sandbox/requests`)
			).json()) as { requests: unknown[] };
			expect(requests).toEqual([]);
		} finally {
			await sandbox.stop();
		}
	});
});
