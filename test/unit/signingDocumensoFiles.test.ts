/**
 * Issue 33: Download of a Documenso envelope holding several PDFs (one output item per PDF, from
 * `/envelope/item/{id}/download`; `/document/{id}/download` serves only the first,
 * apps/remix/server/api/download/download.ts), the audit log and signing certificate as PDFs
 * (`/envelope/{id}/audit-log/download`, `/certificate/download`, same file), and Attachment → Add,
 * Get Many, Remove (packages/trpc/server/envelope-router/attachment/). Against the Documenso
 * flavour of the sandbox; every request parsed again with the SDK's schemas after each test.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { startSandbox } from '../sandbox';
import { textPdf } from '../sandbox/signingPdf';
import { executeContext, type Parameters } from './helpers/context';
import { documensoForEachTest } from './helpers/documenso';

jest.setTimeout(60_000);

const FIRST = textPdf([['Agreement']]);
const SECOND = textPdf([['Annex A: house rules']]);

describe('Files and attachments of Documenso documents', () => {
	const documenso = documensoForEachTest();
	const node = new Signing();

	const run = async (parameters: Parameters, tool = false): Promise<INodeExecutionData[]> => {
		const { context } = executeContext({ parameters, credentials: documenso.credentials(), tool });
		return (await node.execute.call(context))[0];
	};

	/** An envelope of two PDFs, made as Documenso's web app or SDK would (two `files` parts), then sent. */
	async function twoFileDocument(): Promise<number> {
		const form = new FormData();
		form.append(
			'payload',
			JSON.stringify({
				title: 'Agreement with annex',
				type: 'DOCUMENT',
				recipients: [
					{
						email: 'ada@example.org',
						name: 'Ada Lovelace',
						role: 'SIGNER',
						fields: [
							{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 10, width: 20, height: 5 },
						],
					},
				],
			}),
		);
		form.append('files', new Blob([FIRST], { type: 'application/pdf' }), 'agreement.pdf');
		form.append('files', new Blob([SECOND], { type: 'application/pdf' }), 'annex.pdf');
		const response = await fetch(`${documenso.sandbox.signing.url}/api/v2/envelope/create`, {
			method: 'POST',
			headers: { authorization: `Bearer ${documenso.sandbox.signing.apiKey}` },
			body: form,
		});
		const { id } = (await response.json()) as { id: string };
		const envelope = (await (
			await fetch(`${documenso.sandbox.signing.url}/api/v2/envelope/${id}`, {
				headers: { authorization: `Bearer ${documenso.sandbox.signing.apiKey}` },
			})
		).json()) as IDataObject;
		return Number(String(envelope.secondaryId).replace('document_', ''));
	}

	it('Download gives every PDF of an envelope, one item each, in order, not only the first', async () => {
		const documentId = await twoFileDocument();
		await run({ resource: 'document', operation: 'send', documentId: String(documentId) });
		await documenso.control(`/documents/${documentId}/complete`);
		await documenso.clearRequests();

		const items = await run({
			resource: 'document',
			operation: 'download',
			documentId: String(documentId),
			version: 'signed',
			binaryPropertyName: 'data',
		});
		expect(
			items.map((item) => [item.json.fileIndex, item.json.fileCount, item.json.fileName]),
		).toEqual([
			[1, 2, 'agreement_signed.pdf'],
			[2, 2, 'annex_signed.pdf'],
		]);
		const bytes = items.map((item) => Buffer.from(item.binary!.data.data, 'base64'));
		// Each is its own file, sealed: the upload's bytes with the seal after them.
		expect(bytes[0].subarray(0, FIRST.length).equals(FIRST)).toBe(true);
		expect(bytes[1].subarray(0, SECOND.length).equals(SECOND)).toBe(true);
		expect(bytes[1].toString('latin1')).toContain('% Signed by ada@example.org');
		expect(
			items.every((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 0),
		).toBe(true);
		const downloads = (await documenso.requests()).filter((request) =>
			request.path.endsWith('/download'),
		);
		expect(
			downloads.map(
				(request) =>
					`${request.path.replace(/envelope_item_\w+/, 'ITEM')}?version=${String(request.query.version)}`,
			),
		).toEqual([
			'/api/v2/envelope/item/ITEM/download?version=signed',
			'/api/v2/envelope/item/ITEM/download?version=signed',
		]);

		// As a tool: what each file is, no bytes.
		const described = await run(
			{
				resource: 'document',
				operation: 'download',
				documentId: String(documentId),
				version: 'original',
			},
			true,
		);
		expect(described.map((item) => [item.json.fileName, item.binary])).toEqual([
			['agreement.pdf', undefined],
			['annex.pdf', undefined],
		]);
	});

	it('the audit log and the signing certificate come as PDFs; the certificate only once completed', async () => {
		const documentId = await twoFileDocument();
		const [log] = await run({
			resource: 'document',
			operation: 'download',
			documentId: String(documentId),
			version: 'auditLog',
		});
		expect(log.json).toMatchObject({
			version: 'auditLog',
			fileName: 'Agreement with annex_audit-log.pdf',
		});
		expect(Buffer.from(log.binary!.data.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
		await expect(
			run({
				resource: 'document',
				operation: 'download',
				documentId: String(documentId),
				version: 'certificate',
			}),
		).rejects.toThrow(
			`Document ${documentId} is not completed yet (status DRAFT): its signing certificate exists once every signer and approver has signed`,
		);
		await run({ resource: 'document', operation: 'send', documentId: String(documentId) });
		await documenso.control(`/documents/${documentId}/complete`);
		const [certificate] = await run({
			resource: 'document',
			operation: 'download',
			documentId: String(documentId),
			version: 'certificate',
		});
		expect(certificate.json.fileName).toBe('Agreement with annex_certificate.pdf');
		expect(Buffer.from(certificate.binary!.data.data, 'base64').toString('latin1')).toContain(
			'Signing certificate',
		);
	});

	it('Attachment → Add, Get Many, Remove', async () => {
		const documentId = await twoFileDocument();
		const [added] = await run({
			resource: 'attachment',
			operation: 'add',
			documentId: String(documentId),
			label: 'House rules',
			url: 'https://example.org/rules.pdf',
		});
		expect(added.json).toMatchObject({
			id: expect.stringMatching(/^attachment_/),
			label: 'House rules',
			url: 'https://example.org/rules.pdf',
		});
		await expect(
			run({
				resource: 'attachment',
				operation: 'add',
				documentId: String(documentId),
				label: 'Bad',
				url: 'ftp://example.org/x',
			}),
		).rejects.toThrow('URL: "ftp://example.org/x" is not an http(s) URL');
		expect(
			(
				await run({ resource: 'attachment', operation: 'getMany', documentId: String(documentId) })
			).map((item) => item.json.label),
		).toEqual(['House rules']);
		await run({ resource: 'attachment', operation: 'remove', attachmentId: String(added.json.id) });
		expect(
			await run({ resource: 'attachment', operation: 'getMany', documentId: String(documentId) }),
		).toEqual([]);
	});
});

describe('Files and attachments on the documented API', () => {
	it('the audit log PDF and attachments are Documenso’s: the shared error, nothing sent for them', async () => {
		const sandbox = await startSandbox();
		try {
			const credentials = {
				signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
			};
			const { context } = executeContext({
				parameters: { resource: 'attachment', operation: 'getMany', documentId: 'doc_1' },
				credentials,
			});
			await expect(new Signing().execute.call(context)).rejects.toThrow(
				'Attachment → Get Many is available with the Documenso API; this credential uses the documented API',
			);
			for (const [version, name] of [
				['auditLog', 'Audit Log (PDF)'],
				['certificate', 'Signing Certificate (PDF)'],
			]) {
				const download = executeContext({
					parameters: { resource: 'document', operation: 'download', documentId: 'doc_1', version },
					credentials,
				});
				await expect(new Signing().execute.call(download.context)).rejects.toThrow(
					`Download › ${name} is available with the Documenso API; this credential uses the documented API`,
				);
			}
			const { requests } = (await (
				await fetch(`${sandbox.signing.url}/_sandbox/requests`)
			).json()) as { requests: unknown[] };
			expect(requests).toEqual([]);
		} finally {
			await sandbox.stop();
		}
	});
});
