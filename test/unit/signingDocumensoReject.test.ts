/**
 * Issue 41: Recipient → Reject on Behalf on Documenso, against the Documenso flavour of the signing
 * sandbox: POST /envelope/recipient/{recipientId}/reject (packages/trpc/server/envelope-router/
 * envelope-recipients/reject-envelope-recipient-on-behalf-of.ts, v2.17.0), whose rules are
 * reject-document-on-behalf-of.ts's: a pending document, a recipient who has not acted. Every request
 * is parsed again with the SDK's schemas after each test.
 */
import type { IDataObject } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { startSandbox } from '../sandbox';
import { textPdf } from '../sandbox/signingPdf';
import { executeContext, type Parameters } from './helpers/context';
import { documensoForEachTest } from './helpers/documenso';

jest.setTimeout(60_000);

const PDF = textPdf([['Agreement', 'Resident: [[sign-ada]]']]);
const REJECT = /^\/api\/v2\/envelope\/recipient\/\d+\/reject$/;

describe('Recipient → Reject on Behalf on Documenso', () => {
	const documenso = documensoForEachTest();
	const node = new Signing();

	const run = async (
		parameters: Parameters,
		options: { tool?: boolean } = {},
	): Promise<IDataObject[]> => {
		const { context } = executeContext({
			parameters,
			binaries: [
				{ data: { data: PDF.toString('base64'), mimeType: 'application/pdf', fileName: 'agreement.pdf' } },
			],
			credentials: documenso.credentials(),
			tool: options.tool,
		});
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	/** A document for Ada with her signature at [[sign-ada]], sent (pending) or kept as a draft. */
	const document = async (distribute: boolean) =>
		(
			await run({
				resource: 'document',
				operation: 'createFromFile',
				binaryPropertyName: 'data',
				uploadRecipients: { recipient: [{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' }] },
				uploadFields: {
					field: [{ recipient: '1', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-ada]]' }],
				},
				distribute,
			})
		)[0];
	const rejectPosts = async () =>
		(await documenso.requests()).filter((request) => request.method === 'POST' && REJECT.test(request.path));
	const reject = (recipientId: string, rejectionReason = 'Declined by phone') => ({
		resource: 'recipient',
		operation: 'rejectOnBehalf',
		recipientId,
		rejectionReason,
	});

	it('records the rejection: the recipient is rejected with the reason, the document ends rejected', async () => {
		const sent = await document(true);
		const [rejected] = await run(reject('101', 'Declined by phone on 3 March'));
		expect(rejected).toMatchObject({
			recipientId: 101,
			documentId: sent.id,
			envelopeId: sent.envelopeId,
			email: 'ada@example.org',
			signingStatus: 'REJECTED',
			rejectionReason: 'Declined by phone on 3 March',
		});
		const posts = await rejectPosts();
		expect(posts.map((request) => [request.path, request.body])).toEqual([
			['/api/v2/envelope/recipient/101/reject', { envelopeId: sent.envelopeId, reason: 'Declined by phone on 3 March' }],
		]);
		const [after] = await run({ resource: 'document', operation: 'get', documentId: String(sent.id) });
		expect(after.status).toBe('REJECTED');
	});

	it('refuses before the request a draft, a recipient who answered already, and an empty reason', async () => {
		const draft = await document(false);
		await expect(run(reject('101'))).rejects.toThrow(
			`Document ${String(draft.id)} is draft: only a pending document can be rejected on a recipient's behalf`,
		);
		await expect(run(reject('101', '  '))).rejects.toThrow('Reason');
		expect(await rejectPosts()).toEqual([]);

		await run({ resource: 'document', operation: 'send', documentId: String(draft.id) });
		await run(reject('101'));
		await documenso.clearRequests();
		await expect(run(reject('101'))).rejects.toThrow(/is rejected: only a pending document/);
		expect(await rejectPosts()).toEqual([]);
	});

	it('as a tool: refused without Allow as AI Agent Tool; with it, the recipient comes redacted', async () => {
		await document(true);
		await expect(run(reject('101'), { tool: true })).rejects.toThrow(
			'Rejecting documents on behalf of their recipients is not allowed for an AI agent',
		);
		expect(await rejectPosts()).toEqual([]);
		const [rejected] = await run({ ...reject('101'), allowAsTool: true }, { tool: true });
		expect(rejected.signingStatus).toBe('REJECTED');
		expect(JSON.stringify(rejected)).not.toContain('ada@example.org');
		expect(JSON.stringify(rejected)).not.toContain('Ada Lovelace');
		expect(rejected.signingUrl).toBeUndefined();
	});
});

describe('Recipient → Reject on Behalf on the documented API', () => {
	it('fails at once with the shared message', async () => {
		const sandbox = await startSandbox();
		try {
			const { context } = executeContext({
				parameters: { resource: 'recipient', operation: 'rejectOnBehalf', recipientId: '1', rejectionReason: 'No' },
				credentials: { signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey } },
			});
			await expect(new Signing().execute.call(context)).rejects.toThrow(
				'Recipient → Reject on Behalf is available with the Documenso API; this credential uses the documented API',
			);
		} finally {
			await sandbox.stop();
		}
	});
});
