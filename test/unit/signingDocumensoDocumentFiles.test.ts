/**
 * Issue 41: File → Get Many, Update (rename, reorder), Remove on Documenso: a document's PDFs, its
 * envelope items (packages/trpc/server/envelope-router/update-envelope-items.ts,
 * delete-envelope-item.ts at v2.17.0; what may change is getEnvelopeItemPermissions). Against the
 * Documenso flavour of the sandbox; every request parsed again with the SDK's schemas after each test.
 */
import type { IDataObject } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { startSandbox } from '../sandbox';
import { textPdf } from '../sandbox/signingPdf';
import { executeContext, type Parameters } from './helpers/context';
import { documensoForEachTest } from './helpers/documenso';

jest.setTimeout(60_000);

const FIRST = textPdf([['Agreement']]);
const SECOND = textPdf([['Annex A: house rules']]);

describe('File on Documenso', () => {
	const documenso = documensoForEachTest();
	const node = new Signing();

	const run = async (parameters: Parameters, tool = false): Promise<IDataObject[]> => {
		const { context } = executeContext({ parameters, credentials: documenso.credentials(), tool });
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const api = async (method: string, path: string, body?: FormData) =>
		(await (
			await fetch(`${documenso.sandbox.signing.url}/api/v2${path}`, {
				method,
				headers: { authorization: `Bearer ${documenso.sandbox.signing.apiKey}` },
				body,
			})
		).json()) as IDataObject;

	/** A draft of two PDFs, made as Documenso's web app or SDK would (two `files` parts): its number. */
	async function twoFileDraft(): Promise<number> {
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
						fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 10, width: 20, height: 5 }],
					},
				],
			}),
		);
		form.append('files', new Blob([FIRST], { type: 'application/pdf' }), 'agreement.pdf');
		form.append('files', new Blob([SECOND], { type: 'application/pdf' }), 'annex.pdf');
		const { id } = await api('POST', '/envelope/create', form);
		const envelope = await api('GET', `/envelope/${String(id)}`);
		return Number(String(envelope.secondaryId).replace('document_', ''));
	}
	const posts = async (path: string) =>
		(await documenso.requests()).filter((request) => request.method === 'POST' && request.path === path);

	it('lists the files in order, renames one, moves it first, removes the other', async () => {
		const documentId = String(await twoFileDraft());
		const files = await run({ resource: 'file', operation: 'getMany', documentId });
		expect(files.map((file) => [file.title, file.order])).toEqual([
			['agreement.pdf', 1],
			['annex.pdf', 2],
		]);
		expect(files[0]).toMatchObject({ fileId: expect.stringMatching(/^envelope_item_/), documentId: Number(documentId), envelopeId: expect.stringMatching(/^envelope_/) });
		const [agreement, annex] = files;

		const [renamed] = await run({
			resource: 'file',
			operation: 'update',
			documentId,
			fileId: String(annex.fileId),
			fileUpdateFields: { title: 'Annex A – house rules', order: 1 },
		});
		expect(renamed).toMatchObject({ fileId: annex.fileId, title: 'Annex A – house rules', order: 1 });
		expect((await posts('/api/v2/envelope/item/update-many')).map((request) => request.body)).toEqual([
			{ envelopeId: annex.envelopeId, data: [{ envelopeItemId: annex.fileId, title: 'Annex A – house rules', order: 1 }] },
		]);

		expect(await run({ resource: 'file', operation: 'remove', documentId, fileId: String(agreement.fileId) })).toEqual([
			{ fileId: agreement.fileId, documentId: Number(documentId), envelopeId: agreement.envelopeId, removed: true },
		]);
		expect((await run({ resource: 'file', operation: 'getMany', documentId })).map((file) => file.fileId)).toEqual([annex.fileId]);
	});

	it('refuses before any request a file of another document, an empty change, the last file', async () => {
		const documentId = String(await twoFileDraft());
		const other = String(await twoFileDraft());
		const [foreign] = await run({ resource: 'file', operation: 'getMany', documentId: other });
		await documenso.clearRequests();
		await expect(
			run({ resource: 'file', operation: 'remove', documentId, fileId: String(foreign.fileId) }),
		).rejects.toThrow(`File ID: "${String(foreign.fileId)}" is not a file of document ${documentId}`);
		await expect(
			run({ resource: 'file', operation: 'update', documentId, fileId: String(foreign.fileId), fileUpdateFields: {} }),
		).rejects.toThrow('Update Fields');
		const [first, second] = await run({ resource: 'file', operation: 'getMany', documentId });
		await run({ resource: 'file', operation: 'remove', documentId, fileId: String(first.fileId) });
		await expect(
			run({ resource: 'file', operation: 'remove', documentId, fileId: String(second.fileId) }),
		).rejects.toThrow('is the only file of document');
		expect(await posts('/api/v2/envelope/item/delete')).toHaveLength(1);
		expect(await posts('/api/v2/envelope/item/update-many')).toEqual([]);
	});

	it('a sent document: Documenso refuses to remove a file, with its own message', async () => {
		const documentId = String(await twoFileDraft());
		expect((await run({ resource: 'document', operation: 'send', documentId }))[0]).toMatchObject({ status: 'PENDING' });
		const [first] = await run({ resource: 'file', operation: 'getMany', documentId });
		await expect(run({ resource: 'file', operation: 'remove', documentId, fileId: String(first.fileId) })).rejects.toThrow(
			'Envelope item is not editable',
		);
		expect((await run({ resource: 'file', operation: 'getMany', documentId }))).toHaveLength(2);
	});

	it('as a tool: Get Many runs; Remove only with Allow as AI Agent Tool', async () => {
		const documentId = String(await twoFileDraft());
		const [first] = await run({ resource: 'file', operation: 'getMany', documentId }, true);
		await expect(
			run({ resource: 'file', operation: 'remove', documentId, fileId: String(first.fileId) }, true),
		).rejects.toThrow('Changing documents is not allowed for an AI agent');
		expect(await posts('/api/v2/envelope/item/delete')).toEqual([]);
	});
});

describe('File on the documented API', () => {
	it('fails at once with the shared message', async () => {
		const sandbox = await startSandbox();
		try {
			const { context } = executeContext({
				parameters: { resource: 'file', operation: 'getMany', documentId: '1' },
				credentials: { signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey } },
			});
			await expect(new Signing().execute.call(context)).rejects.toThrow(
				'File → Get Many is available with the Documenso API; this credential uses the documented API',
			);
		} finally {
			await sandbox.stop();
		}
	});
});
