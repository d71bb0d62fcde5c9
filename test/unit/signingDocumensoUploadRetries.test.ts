/**
 * Issue 41 (Create From File on Documenso, *External ID* with *Return It*): a retry finishes the
 * draft a failed run left before sending it (a lost upload answer, a failed read-back), two runs
 * at once end with one document, and issue 42: a document someone moved to a folder is found.
 */
import type {
	IBinaryData,
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
	NodeOperationError,
} from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { textPdf } from '../sandbox/signingPdf';
import { executeContext, type Parameters } from './helpers/context';
import { documensoForEachTest } from './helpers/documenso';

jest.setTimeout(60_000);

const AGREEMENT = textPdf([
	['Residency agreement', 'Signed for the resident: [[sign-ada]]', 'Name: [[name-ada]] Date: [[date-ada]]'],
	['Page two', 'Signed for the programme: [[sign-grace]]'],
]);
const inMemory = (bytes: Buffer): IBinaryData => ({
	data: bytes.toString('base64'),
	mimeType: 'application/pdf',
	fileName: 'agreement.pdf',
});

describe('Create From File on Documenso: Return It after failures, and at the same time', () => {
	const documenso = documensoForEachTest();
	const node = new Signing();

	const run = async (
		parameters: Parameters,
		onRequest?: (request: IHttpRequestOptions) => Promise<void>,
	): Promise<INodeExecutionData[]> => {
		const { context } = executeContext({
			parameters,
			binaries: [{ data: inMemory(AGREEMENT) }],
			credentials: documenso.credentials(),
			onRequest,
		});
		return (await node.execute.call(context))[0];
	};
	const upload = (fields: IDataObject[], externalId: string, overrides: Parameters = {}): Parameters => ({
		resource: 'document',
		operation: 'createFromFile',
		binaryPropertyName: 'data',
		title: 'Residency agreement',
		uploadRecipientsInput: 'fields',
		uploadRecipients: {
			recipient: [
				{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER', signingOrder: 0 },
				{ name: 'Grace Hopper', email: 'grace@example.org', role: 'SIGNER', signingOrder: 0 },
			],
		},
		uploadFieldsInput: 'fields',
		uploadFields: { field: fields },
		distribute: true,
		options: { externalId, ifExists: 'return' },
		...overrides,
	});
	const documents = async () =>
		(await documenso.control<{ documents: IDataObject[] }>('/documents', 'GET')).documents;
	const fieldTypes = (document: IDataObject) =>
		((document.fields as IDataObject[]) ?? []).map((field) => field.type).sort();
	const paths = async () => (await documenso.requests()).map((request) => `${request.method} ${request.path}`);

	it('a lost upload answer: the retry adds the fields at a text the draft lacks, then sends it', async () => {
		const parameters = upload(
			[
				{ recipient: '1', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-ada]]' },
				{ recipient: '2', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-grace]]' },
			],
			'application-lost-upload',
		);
		// Documenso stores the upload; its answer never arrives.
		await documenso.control('/faults', 'PUT', { status: 504, count: 1, path: '/envelope/create', afterHandling: true });
		await expect(run(parameters)).rejects.toThrow();
		expect((await documents()).map((document) => [document.status, fieldTypes(document)])).toEqual([['DRAFT', []]]);

		await documenso.clearRequests();
		const [item] = await run(parameters);
		expect(item.json).toMatchObject({ status: 'PENDING', alreadyExisted: true });
		const [document] = await documents();
		expect(await documents()).toHaveLength(1);
		expect(document.status).toBe('PENDING');
		expect(fieldTypes(document)).toEqual(['SIGNATURE', 'SIGNATURE']);
		const sent = await paths();
		expect(sent.indexOf('POST /api/v2/envelope/field/create-many')).toBeLessThan(sent.indexOf('POST /api/v2/envelope/distribute'));
		expect(sent.indexOf('POST /api/v2/envelope/field/create-many')).toBeGreaterThan(-1);
	});

	it('a failed read-back: the retry never sends the draft without its name and date fields', async () => {
		const parameters = upload(
			[
				{ recipient: '1', type: 'SIGNATURE', placement: 'position', page: 1, x: 10, y: 70, width: 30, height: 8 },
				{ recipient: '2', type: 'SIGNATURE', placement: 'position', page: 2, x: 10, y: 70, width: 30, height: 8 },
				{ recipient: '1', type: 'NAME', placement: 'text', placeholder: '[[name-ada]]' },
				{ recipient: '1', type: 'DATE', placement: 'text', placeholder: '[[date-ada]]' },
			],
			'application-read-back',
		);
		let failed = false;
		const failFirstRead = async (request: IHttpRequestOptions) => {
			const path = new URL(request.url).pathname;
			if (!failed && request.method === 'GET' && /\/envelope\/envelope_\w+$/.test(path)) {
				failed = true;
				await documenso.control('/faults', 'PUT', { status: 403, count: 1, path });
			}
		};
		await expect(run(parameters, failFirstRead)).rejects.toThrow();
		expect((await documents()).map((document) => [document.status, fieldTypes(document)])).toEqual([['DRAFT', ['SIGNATURE', 'SIGNATURE']]]);

		const [item] = await run(parameters);
		expect(item.json).toMatchObject({ status: 'PENDING', alreadyExisted: true });
		const [document] = await documents();
		expect(fieldTypes(document)).toEqual(['DATE', 'NAME', 'SIGNATURE', 'SIGNATURE']);
		expect(document.status).toBe('PENDING');
	});

	it('a draft that cannot be finished is not sent, and the error says so', async () => {
		const parameters = upload(
			[
				{ recipient: '1', type: 'SIGNATURE', placement: 'position', page: 1, x: 10, y: 70, width: 30, height: 8 },
				{ recipient: '2', type: 'SIGNATURE', placement: 'position', page: 2, x: 10, y: 70, width: 30, height: 8 },
				{ recipient: '1', type: 'NAME', placement: 'text', placeholder: '[[name-ada]]' },
			],
			'application-unfinishable',
		);
		await documenso.control('/faults', 'PUT', { status: 504, count: 1, path: '/envelope/create', afterHandling: true });
		await expect(run(parameters)).rejects.toThrow();
		// The retry's fields cannot be made (Documenso refuses them once).
		await documenso.control('/faults', 'PUT', { status: 500, count: 1, path: '/envelope/field/create-many' });
		const error = (await run(parameters).catch((caught: Error) => caught)) as NodeOperationError;
		expect(error.description).toMatch(/is a draft a failed run left without its fields at a text \(Fields \(field 3\)\); adding them failed, so it was not sent/);
		expect((await documents()).map((document) => document.status)).toEqual(['DRAFT']);
		expect(await paths()).not.toContain('POST /api/v2/envelope/distribute');
		await documenso.clearRequests();
	});

	it('two runs at once with the same External ID make one document, sent once', async () => {
		const parameters = upload(
			[
				{ recipient: '1', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-ada]]' },
				{ recipient: '2', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-grace]]' },
			],
			'application-twice',
		);
		// Both runs look the External ID up before either uploads (a form submitted twice).
		let waiting = 0;
		let release: () => void = () => undefined;
		const bothLookedUp = new Promise<void>((resolve) => (release = resolve));
		const together = async (request: IHttpRequestOptions) => {
			if (!new URL(request.url).pathname.endsWith('/envelope/create')) return;
			if (++waiting === 2) release();
			await bothLookedUp;
		};
		const [first, second] = await Promise.all([run(parameters, together), run(parameters, together)]);
		const kept = await documents();
		expect(kept).toHaveLength(1);
		expect(kept[0].status).toBe('PENDING');
		expect(fieldTypes(kept[0])).toEqual(['SIGNATURE', 'SIGNATURE']);
		const results = [first[0].json, second[0].json];
		expect(results.map((result) => result.id)).toEqual([kept[0].id, kept[0].id]);
		expect(results.map((result) => result.alreadyExisted).sort()).toEqual([false, true]);
		const sent = await paths();
		expect(sent.filter((line) => line === 'POST /api/v2/envelope/create')).toHaveLength(2);
		expect(sent.filter((line) => line === 'POST /api/v2/envelope/delete')).toHaveLength(1);
		expect(sent.filter((line) => line === 'POST /api/v2/envelope/distribute')).toHaveLength(1);
	});

	it('Return It finds a document someone moved to another folder, and uploads nothing', async () => {
		const parameters = upload(
			[{ recipient: '1', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-ada]]' }, { recipient: '2', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-grace]]' }],
			'application-moved',
		);
		const [made] = await run(parameters);
		const folder = await fetch(`${documenso.credentials().signingApi.baseUrl as string}api/v2/folder/create`, {
			method: 'POST',
			headers: { authorization: String(documenso.credentials().signingApi.apiToken), 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'Filed', type: 'DOCUMENT' }),
		}).then(async (response) => (await response.json()) as { id: string });
		await fetch(`${documenso.credentials().signingApi.baseUrl as string}api/v2/envelope/update`, {
			method: 'POST',
			headers: { authorization: String(documenso.credentials().signingApi.apiToken), 'content-type': 'application/json' },
			body: JSON.stringify({ envelopeId: made.json.envelopeId, data: { folderId: folder.id } }),
		});
		expect((await documents()).map((document) => document.folderId)).toEqual([folder.id]);

		await documenso.clearRequests();
		const [again] = await run(parameters);
		expect(again.json).toMatchObject({ envelopeId: made.json.envelopeId, alreadyExisted: true });
		expect(await paths()).not.toContain('POST /api/v2/envelope/create');
		expect(await documents()).toHaveLength(1);
	});
});
