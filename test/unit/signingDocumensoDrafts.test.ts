/**
 * Issue 33: Recipient → Add, Update, Remove, Get and Field → Add, Update, Remove, Get on Documenso,
 * against the Documenso flavour of the signing sandbox. Routes: /envelope/recipient/create-many,
 * update-many, delete, {recipientId} (packages/trpc/server/envelope-router/envelope-recipients/) and
 * /envelope/field/create-many, update-many, delete, {fieldId} (envelope-fields/); what may change is
 * canRecipientBeModified / canRecipientFieldsBeModified (packages/lib/utils/recipients.ts). Every
 * request is parsed again with the SDK's schemas after each test.
 */
import type { IDataObject } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { startSandbox } from '../sandbox';
import { textPdf } from '../sandbox/signingPdf';
import { executeContext, type Parameters } from './helpers/context';
import { documensoForEachTest } from './helpers/documenso';

jest.setTimeout(60_000);

const PDF = textPdf([
	['Agreement', 'Resident: [[sign-ada]]', 'Programme: [[sign-grace]] [[sign-grace]]'],
]);

describe('Recipient and Field on Documenso', () => {
	const documenso = documensoForEachTest();
	const node = new Signing();

	const run = async (
		parameters: Parameters,
		credentials = documenso.credentials(),
	): Promise<IDataObject[]> => {
		const { context } = executeContext({
			parameters,
			binaries: [
				{
					data: {
						data: PDF.toString('base64'),
						mimeType: 'application/pdf',
						fileName: 'agreement.pdf',
					},
				},
			],
			credentials,
		});
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	/** A draft with Ada and her signature at [[sign-ada]]. */
	const draft = async () =>
		(
			await run({
				resource: 'document',
				operation: 'createFromFile',
				binaryPropertyName: 'data',
				uploadRecipients: {
					recipient: [{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' }],
				},
				uploadFields: {
					field: [
						{ recipient: '1', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-ada]]' },
					],
				},
				distribute: false,
			})
		)[0];

	it('adds, changes, reads and removes recipients and fields of a draft, then it can be sent', async () => {
		const document = await draft();
		const [grace] = await run({
			resource: 'recipient',
			operation: 'add',
			documentId: String(document.id),
			name: 'Grace Hopper',
			email: 'grace@example.org',
			role: 'APPROVER',
			signingOrder: 0,
		});
		expect(grace).toMatchObject({
			recipientId: 102,
			documentId: 1001,
			name: 'Grace Hopper',
			role: 'APPROVER',
			signingStatus: 'NOT_SIGNED',
		});

		// At every occurrence of her placeholder, by her e-mail address; the document given by its envelope ID.
		const placed = await run({
			resource: 'field',
			operation: 'add',
			documentId: String(document.envelopeId),
			recipient: 'grace@example.org',
			type: 'SIGNATURE',
			placement: 'text',
			placeholder: '[[sign-grace]]',
			matchAll: true,
			width: 0,
			height: 0,
		});
		expect(placed.map((field) => [field.type, field.recipientId, field.page])).toEqual([
			['SIGNATURE', 102, 1],
			['SIGNATURE', 102, 1],
		]);
		expect(placed[1].positionX as number).toBeGreaterThan(placed[0].positionX as number);

		const [dated] = await run({
			resource: 'field',
			operation: 'add',
			documentId: String(document.id),
			recipient: '101',
			type: 'DATE',
			placement: 'position',
			page: 1,
			x: 10,
			y: 50,
			width: 20,
			height: 3,
			label: 'Date',
		});
		expect(dated).toMatchObject({
			fieldId: expect.any(Number),
			type: 'DATE',
			recipientId: 101,
			positionX: 10,
			fieldMeta: { type: 'date', label: 'Date' },
		});

		// Issue 41: Documenso 2.17's update-many answers 200 and leaves the field where it was
		// (update-envelope-fields.ts passes page/positionX/positionY to a function that reads
		// pageNumber/pageX/pageY): a move is refused before any request, never reported as done.
		await documenso.clearRequests();
		await expect(
			run({
				resource: 'field',
				operation: 'update',
				fieldId: String(dated.fieldId),
				updateFields: { y: 60, required: true },
			}),
		).rejects.toThrow('Update Fields › Y (%): Documenso cannot move a field through its API');
		expect(await documenso.requests()).toEqual([]);
		const [resized] = await run({
			resource: 'field',
			operation: 'update',
			fieldId: String(dated.fieldId),
			updateFields: { height: 4, required: true },
		});
		expect(resized).toMatchObject({
			positionY: 50,
			positionX: 10,
			height: 4,
			fieldMeta: { label: 'Date', required: true },
		});
		expect(
			(await run({ resource: 'field', operation: 'get', fieldId: String(dated.fieldId) }))[0],
		).toMatchObject({ positionY: 50, height: 4 });
		expect(
			(await run({ resource: 'field', operation: 'remove', fieldId: String(placed[1].id) }))[0],
		).toMatchObject({ removed: true });

		const [renamed] = await run({
			resource: 'recipient',
			operation: 'update',
			recipientId: '102',
			updateFields: { name: 'Rear Admiral Hopper' },
		});
		expect(renamed).toMatchObject({
			recipientId: 102,
			name: 'Rear Admiral Hopper',
			email: 'grace@example.org',
		});
		expect(
			(await run({ resource: 'recipient', operation: 'get', recipientId: '102' }))[0],
		).toMatchObject({
			name: 'Rear Admiral Hopper',
			signingUrl: expect.stringMatching(/\/sign\//),
		});

		const [sent] = await run({
			resource: 'document',
			operation: 'send',
			documentId: String(document.id),
		});
		expect(sent.status).toBe('PENDING');

		// Once Ada has signed she stays as she is; a finished document changes no more.
		await documenso.control(`/documents/${String(document.id)}/sign`, 'POST', { recipientId: 101 });
		await expect(
			run({
				resource: 'recipient',
				operation: 'update',
				recipientId: '101',
				updateFields: { name: 'A. Lovelace' },
			}),
		).rejects.toThrow('Recipient 101 (ada@example.org) has signed already');
		await expect(
			run({ resource: 'field', operation: 'remove', fieldId: String(dated.fieldId) }),
		).rejects.toThrow('has signed already');
		await documenso.control(`/documents/${String(document.id)}/complete`);
		await expect(
			run({
				resource: 'recipient',
				operation: 'add',
				documentId: String(document.id),
				name: 'Late',
				email: 'late@example.org',
				role: 'CC',
			}),
		).rejects.toThrow('Document 1001 is completed: its recipients can no longer be changed');
	});

	it('removing a recipient takes their fields; a field for somebody not on the document is refused', async () => {
		const document = await draft();
		await expect(
			run({
				resource: 'field',
				operation: 'add',
				documentId: String(document.id),
				recipient: 'nobody@example.org',
				type: 'SIGNATURE',
				placement: 'text',
				placeholder: '[[sign-ada]]',
			}),
		).rejects.toThrow('Recipient: "nobody@example.org" is not a recipient of document 1001');
		await expect(
			run({
				resource: 'field',
				operation: 'add',
				documentId: String(document.id),
				recipient: '101',
				type: 'SIGNATURE',
				placement: 'text',
				placeholder: '[[missing]]',
			}),
		).rejects.toThrow('Placeholder "[[missing]]" not found in PDF');
		expect(
			(await run({ resource: 'recipient', operation: 'remove', recipientId: '101' }))[0],
		).toMatchObject({ recipientId: 101, removed: true });
		const [after] = await run({
			resource: 'document',
			operation: 'get',
			documentId: String(document.id),
		});
		expect(after.recipients).toEqual([]);
		expect(after.fields).toEqual([]);
	});
});

describe('Recipient and Field on the documented API', () => {
	it('fail at once with the shared message', async () => {
		const sandbox = await startSandbox();
		try {
			for (const [resource, operation, name] of [
				['recipient', 'add', 'Recipient → Add'],
				['field', 'update', 'Field → Update'],
			]) {
				const { context } = executeContext({
					parameters: { resource, operation, documentId: '1', fieldId: '1' },
					credentials: {
						signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
					},
				});
				await expect(new Signing().execute.call(context)).rejects.toThrow(
					`${name} is available with the Documenso API; this credential uses the documented API`,
				);
			}
		} finally {
			await sandbox.stop();
		}
	});
});
