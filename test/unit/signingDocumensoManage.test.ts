/**
 * Issue 33: Document → Delete, Update, Duplicate; Template → Create From File, Update, Duplicate,
 * Delete; Folder → Get Many, Create, Update, Delete; the Folder filter of Document and Template Get
 * Many and the template picker, on Documenso, against the Documenso flavour of the signing sandbox.
 * Routes: /envelope/delete, /envelope/update, /envelope/duplicate (packages/trpc/server/envelope-router/),
 * /folder, /folder/create, /folder/update, /folder/delete (folder-router/router.ts); lists show one
 * folder at a time, the root without folderId (packages/lib/server-only/document/find-documents.ts,
 * template/find-templates.ts). Every request is parsed again with the SDK's schemas after each test.
 */
import type { IDataObject } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { textPdf } from '../sandbox/signingPdf';
import { executeContext, type Parameters } from './helpers/context';
import { documensoForEachTest } from './helpers/documenso';

jest.setTimeout(60_000);

const PDF = textPdf([['Agreement', 'Resident: [[sign-1]]']]);

describe('Documents, templates and folders on Documenso', () => {
	const documenso = documensoForEachTest();
	const node = new Signing();

	const context = (parameters: Parameters) =>
		executeContext({
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
			credentials: documenso.credentials(),
		}).context;
	const run = async (parameters: Parameters): Promise<IDataObject[]> =>
		(await node.execute.call(context(parameters)))[0].map((item) => item.json);
	const upload = (resource: 'document' | 'template', extra: Parameters = {}) =>
		run({
			resource,
			operation: 'createFromFile',
			binaryPropertyName: 'data',
			uploadRecipients: {
				recipient: [{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' }],
			},
			uploadFields: {
				field: [
					{ recipient: '1', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-1]]' },
				],
			},
			distribute: false,
			...extra,
		});

	it('files a document in a folder, where Get Many sees it only when asked; All Folders reads each folder', async () => {
		const [folder] = await run({
			resource: 'folder',
			operation: 'create',
			kind: 'DOCUMENT',
			name: 'Residencies',
		});
		expect(folder).toMatchObject({
			id: expect.stringMatching(/^folder_/),
			name: 'Residencies',
			type: 'DOCUMENT',
		});
		const [filed] = await upload('document', {
			title: 'Filed',
			options: { folderId: String(folder.id) },
		});
		const [loose] = await upload('document', { title: 'Loose' });
		expect(filed.folderId).toBe(folder.id);

		const list = (filters: IDataObject) =>
			run({ resource: 'document', operation: 'getMany', returnAll: true, filters });
		expect((await list({})).map((document) => document.title)).toEqual(['Loose']);
		expect((await list({ folderId: String(folder.id) })).map((document) => document.title)).toEqual(
			['Filed'],
		);
		await documenso.clearRequests();
		expect((await list({ folderId: 'all' })).map((document) => document.title).sort()).toEqual([
			'Filed',
			'Loose',
		]);
		expect(
			(await documenso.requests()).map(
				(request) => `${request.method} ${request.path} ${String(request.query.folderId ?? '')}`,
			),
		).toEqual([
			'GET /api/v2/folder ',
			'GET /api/v2/envelope ',
			`GET /api/v2/envelope ${String(folder.id)}`,
		]);

		// The picker offers the root, All Folders and each folder.
		const loadContext = Object.assign(Object.create(context({})), {
			getCurrentNodeParameter: () => undefined,
		});
		expect(await node.methods.loadOptions.getDocumentFolders.call(loadContext)).toEqual([
			{ name: 'Root (Not in a Folder)', value: '' },
			expect.objectContaining({ name: 'All Folders', value: 'all' }),
			{ name: 'Residencies', value: folder.id },
		]);

		const [renamed] = await run({
			resource: 'folder',
			operation: 'update',
			folderId: String(folder.id),
			updateFields: { name: 'Residencies 2027' },
		});
		expect(renamed.name).toBe('Residencies 2027');
		expect(
			(
				await run({ resource: 'folder', operation: 'getMany', kind: 'DOCUMENT', returnAll: true })
			).map((found) => found.name),
		).toEqual(['Residencies 2027']);
		// Deleting the folder leaves its document in the root.
		expect(
			(await run({ resource: 'folder', operation: 'delete', folderId: String(folder.id) }))[0],
		).toMatchObject({ deleted: true });
		expect((await list({})).map((document) => document.title).sort()).toEqual(['Filed', 'Loose']);
		expect(loose.status).toBe('DRAFT');
	});

	it('an empty Folder ID (an expression that gave nothing) moves nothing; only "root" moves to the root', async () => {
		const [parent] = await run({ resource: 'folder', operation: 'create', kind: 'DOCUMENT', name: 'Residencies' });
		const [child] = await run({
			resource: 'folder',
			operation: 'create',
			kind: 'DOCUMENT',
			name: '2027',
			parentId: String(parent.id),
		});
		const [filed] = await upload('document', { options: { folderId: String(child.id) } });
		const update = (updateFields: IDataObject) =>
			run({ resource: 'document', operation: 'update', documentId: String(filed.id), updateFields });

		expect(await update({ title: 'Renamed', folderId: '  ' })).toEqual([
			expect.objectContaining({ title: 'Renamed', folderId: child.id }),
		]);
		await expect(update({ folderId: '' })).rejects.toThrow('add at least one field to change');
		expect(await update({ folderId: 'root' })).toEqual([expect.objectContaining({ folderId: null })]);

		const [renamed] = await run({
			resource: 'folder',
			operation: 'update',
			folderId: String(child.id),
			updateFields: { name: '2028', parentId: '' },
		});
		expect(renamed).toMatchObject({ name: '2028', parentId: parent.id });
		await expect(
			run({ resource: 'folder', operation: 'update', folderId: String(child.id), updateFields: { parentId: '' } }),
		).rejects.toThrow('add at least one field to change');
		const [moved] = await run({
			resource: 'folder',
			operation: 'update',
			folderId: String(child.id),
			updateFields: { parentId: 'root' },
		});
		expect(moved).toMatchObject({ parentId: null });
	});

	it('Update changes title, e-mail, external ID and folder; Duplicate makes a draft with the same recipients and fields', async () => {
		const [document] = await upload('document');
		const [updated] = await run({
			resource: 'document',
			operation: 'update',
			documentId: String(document.id),
			updateFields: {
				title: 'Residency agreement (signed copy)',
				subject: 'Please sign',
				externalId: 'application-7',
			},
		});
		expect(updated).toMatchObject({
			id: 1001,
			title: 'Residency agreement (signed copy)',
			externalId: 'application-7',
			meta: { subject: 'Please sign' },
		});

		const [copy] = await run({
			resource: 'document',
			operation: 'duplicate',
			documentId: String(document.id),
		});
		expect(copy).toMatchObject({
			id: 1002,
			status: 'DRAFT',
			title: 'Residency agreement (signed copy) (copy)',
		});
		expect((copy.recipients as IDataObject[]).map((recipient) => recipient.email)).toEqual([
			'ada@example.org',
		]);
		expect((copy.fields as IDataObject[]).map((field) => field.type)).toEqual(['SIGNATURE']);
	});

	it('Delete: a draft is gone, a completed document is only hidden, and the output says which', async () => {
		const [draft] = await upload('document');
		expect(
			(await run({ resource: 'document', operation: 'delete', documentId: String(draft.id) }))[0],
		).toMatchObject({
			id: 1001,
			status: 'DRAFT',
			outcome: 'deleted',
			recipientsEmailed: false,
		});
		const [sent] = await upload('document', { distribute: true });
		await documenso.control(`/documents/${String(sent.id)}/complete`);
		expect(
			(await run({ resource: 'document', operation: 'delete', documentId: String(sent.id) }))[0],
		).toMatchObject({
			status: 'COMPLETED',
			outcome: 'hidden',
		});
		expect(await run({ resource: 'document', operation: 'getMany', returnAll: true })).toEqual([]);
		// Still readable by its ID.
		expect(
			(await run({ resource: 'document', operation: 'get', documentId: String(sent.id) }))[0]
				.status,
		).toBe('COMPLETED');
	});

	it('a template upload whose envelope has no template number fails naming it, and never asks for /template/undefined', async () => {
		const harness = context({
			resource: 'template',
			operation: 'createFromFile',
			binaryPropertyName: 'data',
			uploadRecipients: { recipient: [{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' }] },
			uploadFields: {},
		});
		const send = harness.helpers.httpRequestWithAuthentication.bind(harness);
		harness.helpers.httpRequestWithAuthentication = async (type, request) => {
			const answer = (await send(type, request)) as { body?: IDataObject } & IDataObject;
			const body = (answer.body ?? answer) as IDataObject;
			if (typeof body.secondaryId === 'string') delete body.secondaryId;
			return answer;
		};
		const error = (await node.execute.call(harness).catch((caught: Error) => caught)) as Error & {
			description?: string;
		};
		expect(error.message).toMatch(/^Documenso's answer gives envelope envelope_\w+ no template number/);
		expect(error.description).toMatch(/the template exists as envelope_\w+; only reading it back failed/);
		expect((await documenso.requests()).map((request) => request.path)).not.toContain(
			'/api/v2/template/undefined',
		);
	});

	it('templates: Create From File (slots and fields), filed in a folder the picker finds, Update, Duplicate, Delete', async () => {
		const [folder] = await run({
			resource: 'folder',
			operation: 'create',
			kind: 'TEMPLATE',
			name: 'Contracts',
		});
		const [template] = await upload('template', {
			title: 'NDA',
			options: { folderId: String(folder.id) },
		});
		expect(template).toMatchObject({
			id: 3,
			title: 'NDA',
			alreadyExisted: false,
			recipients: [expect.objectContaining({ placeholder: 'Ada Lovelace', role: 'SIGNER' })],
		});
		expect(
			((template.documenso as IDataObject).fields as IDataObject[]).map((field) => field.type),
		).toEqual(['SIGNATURE']);

		// Get Many sees the root alone unless asked; the picker looks in every folder.
		expect(
			(await run({ resource: 'template', operation: 'getMany', returnAll: true })).map(
				(found) => found.title,
			),
		).not.toContain('NDA');
		expect(
			(
				await run({
					resource: 'template',
					operation: 'getMany',
					returnAll: true,
					filters: { folderId: String(folder.id) },
				})
			).map((found) => found.title),
		).toEqual(['NDA']);
		const { results } = await node.methods.listSearch.searchTemplates.call(
			Object.assign(Object.create(context({})), { getCurrentNodeParameter: () => undefined }),
		);
		expect(results.map((result) => result.name)).toContain('NDA');

		const [updated] = await run({
			resource: 'template',
			operation: 'update',
			templateId: { mode: 'id', value: '3' },
			updateFields: { title: 'Mutual NDA', folderId: 'root' },
		});
		expect(updated).toMatchObject({ id: 3, title: 'Mutual NDA' });
		const [copy] = await run({
			resource: 'template',
			operation: 'duplicate',
			templateId: { mode: 'id', value: '3' },
		});
		expect(copy).toMatchObject({ id: 4, title: 'Mutual NDA (copy)' });
		expect(
			(
				await run({
					resource: 'template',
					operation: 'delete',
					templateId: { mode: 'id', value: '4' },
				})
			)[0],
		).toMatchObject({ id: 4, deleted: true });
	});
});
