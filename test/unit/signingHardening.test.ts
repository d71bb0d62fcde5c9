/**
 * Issue 23's defects of the Signing node, each reproduced against the sandbox: a person
 * reminded twice, documents missed while paging, downloads, file names, prefill values.
 */
import type { IDataObject, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { type Sandbox, SEED, startSandbox } from '../sandbox';
import { type ExecuteOptions, executeContext, type Parameters } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(60_000);

const ada = { name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' };
const director = { name: 'Director', email: 'director@example.org', role: 'APPROVER' };

describe('Signing node: nothing sent twice, nothing missed, files and values as given', () => {
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;
	const node = new Signing();

	beforeAll(async () => {
		sandbox = await startSandbox();
		control = sandboxControl(sandbox, 'signing');
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => await control.reset());

	/** Runs the node; `onRequest` sees each request before it is sent (to change data between pages). */
	const run = async (
		parameters: Parameters,
		options: Partial<ExecuteOptions> & {
			onRequest?: (request: IHttpRequestOptions, count: number) => Promise<void>;
		} = {},
	): Promise<INodeExecutionData[]> => {
		const { onRequest, ...rest } = options;
		const { context } = executeContext({
			parameters,
			credentials: {
				signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
			},
			...rest,
		});
		if (onRequest) {
			const helpers = context.helpers as unknown as {
				httpRequestWithAuthentication: (
					type: string,
					request: IHttpRequestOptions,
				) => Promise<unknown>;
			};
			const send = helpers.httpRequestWithAuthentication;
			let count = 0;
			helpers.httpRequestWithAuthentication = async (type, request) => {
				await onRequest(request, ++count);
				return await send(type, request);
			};
		}
		return (await node.execute.call(context))[0];
	};
	const generate = async (overrides: Parameters = {}) =>
		(
			await run({
				resource: 'document',
				operation: 'generateFromTemplate',
				templateId: { __rl: true, mode: 'list', value: SEED.residencyTemplateId },
				title: 'Residency agreement – Ada Lovelace',
				recipientsInput: 'fields',
				recipients: { recipient: [ada, director] },
				...overrides,
			})
		)[0].json;
	const apiRequests = async (method: string, pathEnd: string) =>
		(await control.requests()).filter(
			(request) => request.method === method && request.path.endsWith(pathEnd),
		);

	describe('Resend', () => {
		it('reminds a recipient given twice once (regression: "rcp_X, rcp_X" reminded the same person twice)', async () => {
			const created = await generate();
			const [adaId, directorId] = (created.recipients as IDataObject[]).map(
				(recipient) => recipient.recipientId as string,
			);
			for (const recipientIds of [`${adaId}, ${adaId}`, [adaId, directorId, adaId]]) {
				await control.clearRequests();
				const [out] = await run({
					resource: 'document',
					operation: 'resend',
					documentId: created.documentId,
					remind: 'chosen',
					recipientIds,
				});
				const [request] = await apiRequests('POST', '/resend');
				const expected = Array.isArray(recipientIds) ? [adaId, directorId] : [adaId];
				expect(request.body).toEqual({ recipientIds: expected });
				expect(out.json.resent).toEqual(expected);
			}
			// The person is reminded once per run: two runs, two reminders, not four.
			const log = (await (
				await fetch(
					`${sandbox.signing.url}/api/v2/documents/${String(created.documentId)}/audit-log`,
					{ headers: { authorization: `Bearer ${sandbox.signing.apiKey}` } },
				)
			).json()) as { data: IDataObject[] };
			const reminders = log.data.filter((event) => event.type === 'INVITATION_RESENT');
			expect(reminders.filter((event) => event.recipientId === adaId)).toHaveLength(2);
		});
	});
});
