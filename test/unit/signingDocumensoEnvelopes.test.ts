/**
 * Issue 41: the Signing node on Documenso's envelope API only. The flavour runs as Documenso after
 * 1 March 2027 (every `/api/v2/document…` and `/api/v2/template…` route answers as an unknown route
 * does), and as a Documenso older than the envelope API. IDs are taken as numbers (what workflows
 * saved before hold) and as `envelope_…` ids, and an envelope of the other kind is refused before
 * anything is done with it; no signing token leaves a template's output.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { signingApiTest } from '../../nodes/Signing/credentialTest';
import { credentialTestContext, executeContext, type Parameters } from './helpers/context';
import { DOCUMENSO_SEED, documensoForEachTest } from './helpers/documenso';

jest.setTimeout(60_000);

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const director = { name: 'Grace Hopper', email: 'director@example.org' };

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

function runner(documenso: ReturnType<typeof documensoForEachTest>) {
	const node = new Signing();
	const run = async (
		parameters: Parameters,
		options: { tool?: boolean } = {},
	): Promise<INodeExecutionData[]> => {
		const { context } = executeContext({
			parameters,
			credentials: documenso.credentials(),
			node: { typeVersion: 1 },
			tool: options.tool,
		});
		return (await node.execute.call(context))[0];
	};
	const json = async (parameters: Parameters, options: { tool?: boolean } = {}) =>
		(await run(parameters, options)).map((item) => item.json);
	return { run, json };
}

describe('Signing on Documenso after 1 March 2027 (envelope routes only)', () => {
	const documenso = documensoForEachTest('after-march-2027');
	const { run, json } = runner(documenso);

	/** GET on the flavour with the credential's token, as Documenso answers it. */
	const documensoGet = async (path: string) => {
		const response = await fetch(`${documenso.sandbox.signing.url}${path}`, {
			headers: { authorization: `Bearer ${documenso.sandbox.signing.apiKey}` },
		});
		return { status: response.status, body: (await response.json()) as IDataObject };
	};

	it('the deprecated document and template routes answer 404 as routes Documenso does not have', async () => {
		for (const path of [
			'/api/v2/document',
			'/api/v2/document/1001',
			'/api/v2/template',
			'/api/v2/template/1',
		]) {
			expect(await documensoGet(path)).toEqual({
				status: 404,
				body: {
					message: 'Not found',
					code: 'NOT_FOUND',
					data: { code: 'NOT_FOUND', httpStatus: 404 },
				},
			});
		}
		expect((await documensoGet('/api/v2/envelope?type=TEMPLATE')).status).toBe(200);
		await documenso.clearRequests();
	});

	it('a document is found by its number and by its envelope ID, with the same output', async () => {
		const [made] = await json(generate());
		expect(made).toMatchObject({
			documentId: DOCUMENSO_SEED.firstDocumentId,
			envelopeId: expect.stringMatching(/^envelope_/),
		});
		const [byNumber] = await json({
			resource: 'document',
			operation: 'get',
			documentId: String(made.documentId),
		});
		const [byEnvelope] = await json({
			resource: 'document',
			operation: 'get',
			documentId: String(made.envelopeId),
		});
		expect(byEnvelope).toEqual(byNumber);
		expect(byNumber).toMatchObject({
			id: made.documentId,
			envelopeId: made.envelopeId,
			status: 'PENDING',
		});
		// The number goes through envelope/get-many (documentId), the envelope ID through envelope/{id}.
		const reads = (await documenso.requests()).filter((request) =>
			request.path.startsWith('/api/v2/envelope'),
		);
		expect(
			reads.some(
				(request) =>
					request.path === '/api/v2/envelope/get-many' &&
					(request.body as IDataObject).ids !== undefined,
			),
		).toBe(true);
		expect(
			reads.some((request) => request.path === `/api/v2/envelope/${String(made.envelopeId)}`),
		).toBe(true);
	});

	it('a template is used by its envelope ID as by its number', async () => {
		const [template] = await json({
			resource: 'template',
			operation: 'get',
			templateId: { mode: 'id', value: String(DOCUMENSO_SEED.residencyTemplateId) },
		});
		const [made] = await json(
			generate({ templateId: { mode: 'id', value: String(template.envelopeId) } }),
		);
		expect(made).toMatchObject({
			templateId: DOCUMENSO_SEED.residencyTemplateId,
			status: 'PENDING',
		});
	});

	describe('an envelope of the other kind is refused before anything is done with it', () => {
		const pendingDocument = async () => (await json(generate()))[0];

		it.each(['delete', 'update', 'duplicate'])(
			'Template → %s with a document’s envelope ID',
			async (operation) => {
				const document = await pendingDocument();
				await documenso.clearRequests();
				await expect(
					run({
						resource: 'template',
						operation,
						templateId: { mode: 'id', value: String(document.envelopeId) },
						updateFields: { title: 'Renamed' },
					}),
				).rejects.toThrow(`Template: ${String(document.envelopeId)} is a document, not a template`);
				const writes = (await documenso.requests()).filter((request) => request.method === 'POST');
				expect(writes).toEqual([]);
				const [after] = await json({
					resource: 'document',
					operation: 'get',
					documentId: String(document.documentId),
				});
				expect(after).toMatchObject({
					status: 'PENDING',
					title: 'Residency agreement – Ada Lovelace',
				});
			},
		);

		it('Document → Delete, Get and Send with a template’s envelope ID', async () => {
			const [template] = await json({
				resource: 'template',
				operation: 'get',
				templateId: { mode: 'id', value: String(DOCUMENSO_SEED.ndaTemplateId) },
			});
			await documenso.clearRequests();
			for (const operation of ['delete', 'get', 'send']) {
				await expect(
					run({ resource: 'document', operation, documentId: String(template.envelopeId) }),
				).rejects.toThrow(
					`Document ID: ${String(template.envelopeId)} is a template, not a document`,
				);
			}
			expect((await documenso.requests()).filter((request) => request.method === 'POST')).toEqual(
				[],
			);
			const [still] = await json({
				resource: 'template',
				operation: 'get',
				templateId: { mode: 'id', value: String(DOCUMENSO_SEED.ndaTemplateId) },
			});
			expect(still.title).toBe(template.title);
		});
	});

	it('no signing token leaves a template’s output, as a tool or not, from Get or Get Many', async () => {
		// Documenso gives every template slot a token, as it gives a recipient's (its signing link's secret).
		const { body } = await documensoGet('/api/v2/envelope?type=TEMPLATE&perPage=100');
		const tokens = (body.data as IDataObject[]).flatMap((template) =>
			(template.recipients as IDataObject[]).map((recipient) => String(recipient.token)),
		);
		expect(tokens.length).toBeGreaterThan(0);
		const outputs = [
			...(await json({
				resource: 'template',
				operation: 'get',
				templateId: { mode: 'id', value: '1' },
			})),
			...(await json(
				{ resource: 'template', operation: 'get', templateId: { mode: 'id', value: '1' } },
				{ tool: true },
			)),
			...(await json({ resource: 'template', operation: 'getMany', returnAll: true })),
		];
		const text = JSON.stringify(outputs);
		for (const token of tokens) expect(text).not.toContain(token);
		expect(text).not.toMatch(/"token"/);
	});
});

describe('Signing on a Documenso older than the envelope API', () => {
	const documenso = documensoForEachTest('before-envelopes');
	const { run } = runner(documenso);

	it('an operation is refused naming the minimum Documenso version', async () => {
		const failure = run({ resource: 'document', operation: 'get', documentId: '1001' });
		await expect(failure).rejects.toThrow(NodeApiError);
		await expect(failure).rejects.toThrow(
			/older than the envelope API .* it needs Documenso 2\.4 or later/,
		);
		const templates = run({ resource: 'template', operation: 'getMany', returnAll: true });
		await expect(templates).rejects.toThrow(/needs Documenso 2\.4 or later/);
	});

	it('"Test credential" says so', async () => {
		const { signingApi } = documenso.credentials();
		const result = await signingApiTest.call(credentialTestContext(), {
			id: 'c',
			name: 'c',
			type: 'signingApi',
			data: signingApi,
		} as never);
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^This Documenso server is older than the envelope API \(\/api\/v2\/envelope\) the Signing node uses: it needs Documenso 2\.4 or later/,
			),
		});
	});
});
