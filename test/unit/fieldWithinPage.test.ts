/**
 * Issue 42 (Smaller): a field at a position ends on its page. X + Width and Y + Height over 100
 * (percent of the page) are refused before any request, naming the field and the item, in Create
 * From File (document and template), Field → Add and Field → Update.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { executeContext, inputBinary, type Parameters } from './helpers/context';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const node = new Signing();

/** The first item's error; every request is refused, so an error that comes from one says so. */
async function errorOf(parameters: Parameters): Promise<string> {
	const { context } = executeContext({
		parameters,
		continueOnFail: true,
		items: [{}, {}],
		binaries: [{ data: inputBinary(PDF, 'agreement.pdf', 'application/pdf') }, { data: inputBinary(PDF, 'agreement.pdf', 'application/pdf') }],
		credentials: { signingApi: { api: 'documenso', baseUrl: 'http://127.0.0.1:9', apiToken: 'api_token' } },
	});
	context.helpers.httpRequestWithAuthentication = async () => ({ statusCode: 418, headers: {}, body: { message: 'a request was sent' } });
	const [items] = (await node.execute.call(context)) as INodeExecutionData[][];
	return String(items[1].json.error);
}

const upload = (resource: 'document' | 'template', field: Record<string, unknown>): Parameters => ({
	resource,
	operation: 'createFromFile',
	binaryPropertyName: 'data',
	title: 'Agreement',
	uploadRecipientsInput: 'json',
	uploadRecipientsJson: '[{"name":"Ada","email":"ada@example.org","role":"SIGNER"}]',
	uploadFieldsInput: 'fields',
	uploadFields: { field: [{ recipient: '1', type: 'SIGNATURE', placement: 'position', page: 1, x: 10, y: 10, width: 20, height: 5 }, { recipient: '1', type: 'NAME', placement: 'position', page: 1, ...field }] },
	distribute: false,
});

it.each(['document', 'template'] as const)('Create From File (%s): a field past the right or bottom edge is refused naming it and the item', async (resource) => {
	expect(await errorOf(upload(resource, { x: 85, y: 10, width: 20, height: 5 }))).toBe(
		'Fields › Width (%) (field 2): X (%) 85 + Width (%) 20 is 105: the field runs past the page’s right edge (at most 100) [item 1]',
	);
	expect(await errorOf(upload(resource, { x: 10, y: 96, width: 20, height: 5 }))).toBe(
		'Fields › Height (%) (field 2): Y (%) 96 + Height (%) 5 is 101: the field runs past the page’s bottom edge (at most 100) [item 1]',
	);
	// Up to the edge is on the page: the upload's request is the first thing that fails.
	expect(await errorOf(upload(resource, { x: 80, y: 95, width: 20, height: 5 }))).toContain('a request was sent');
});

it('Field → Add and Field → Update refuse a field past the page', async () => {
	expect(
		await errorOf({ resource: 'field', operation: 'add', documentId: '1001', recipient: 'ada@example.org', type: 'TEXT', placement: 'position', page: 1, x: 90, y: 10, width: 20, height: 5, label: 'Note' }),
	).toBe('Width (%): X (%) 90 + Width (%) 20 is 110: the field runs past the page’s right edge (at most 100) [item 1]');
	expect(await errorOf({ resource: 'field', operation: 'update', fieldId: '7', updateFields: { y: 99, height: 5 } })).toBe(
		'Update Fields › Height (%): Y (%) 99 + Height (%) 5 is 104: the field runs past the page’s bottom edge (at most 100) [item 1]',
	);
});
