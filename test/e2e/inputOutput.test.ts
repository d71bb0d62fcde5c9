/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 23's input and output fixes in a real n8n (2.41.1, and 1.123.81 with N8N_VERSION), the
 * package installed from its tarball, binary data kept on disk (`filesystem`) on both: a large
 * PDF streamed into n8n's binary store, a failed download's message, `{{ $now }}` and `1e21` as
 * prefill values, date filters in the workflow's time zone, and the erasure sample's Delete
 * step run a second time.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { PACKAGE_NAME } from '../harness/n8n';
import { PROJECT_ROOT } from '../harness/paths';
import {
	activateWorkflow,
	E2E_SANDBOX_OPTIONS,
	type ExecutionSummary,
	importWorkflow,
	listExecutions,
	nodeOutput,
	type Stack,
	startStack,
	waitUntil,
	type WorkflowFile,
} from '../harness/provision';
import { SEED } from '../sandbox';
import { SEED_TEMPLATE_FIELDS } from '../sandbox/seed';
import { sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(600_000);

interface BinaryEntry {
	id?: string;
	data: string;
	fileName?: string;
	mimeType: string;
	bytes?: number;
}
type RunData = Record<
	string,
	Array<{
		data?: {
			main: Array<Array<{ json: Record<string, unknown>; binary?: Record<string, BinaryEntry> }>>;
		};
	}>
>;

describe('input and output in a real n8n, binary data on disk', () => {
	let stack: Stack;
	const signing = () => sandboxControl(stack.sandbox, 'signing');
	const survey = () => sandboxControl(stack.sandbox, 'survey');

	beforeAll(async () => {
		stack = await startStack(E2E_SANDBOX_OPTIONS, { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' });
	});
	afterAll(async () => await stack?.stop());

	/**
	 * Imports and activates Webhook → one node of ours, and returns a function that calls the
	 * webhook and gives back the finished execution (with its data).
	 */
	const webhookFlow = async (
		name: string,
		node: {
			type: string;
			parameters: Record<string, unknown>;
			credential: 'signingApi' | 'surveyApi';
		},
		settings: Record<string, unknown> = {},
	) => {
		const workflow: WorkflowFile = {
			name: `E2E ${name}`,
			nodes: [
				{
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: `e2e-io-${name}`,
					parameters: { httpMethod: 'POST', path: `e2e-io-${name}`, responseMode: 'onReceived' },
				},
				{
					name: 'Step',
					type: `${PACKAGE_NAME}.${node.type}`,
					typeVersion: 1,
					position: [200, 0],
					parameters: node.parameters,
					credentials: { [node.credential]: stack.credentials[node.credential] },
				},
			],
			connections: { Webhook: { main: [[{ node: 'Step', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1', ...settings },
		};
		const imported = await importWorkflow(stack.n8n, workflow, stack.credentials);
		await activateWorkflow(stack.n8n, imported.id);
		return async (body: unknown): Promise<ExecutionSummary> => {
			const before = (await listExecutions(stack.n8n, imported.id)).length;
			await waitUntil(`the ${name} webhook`, async () => {
				const answer = await fetch(`${stack.n8n.baseUrl}/webhook/e2e-io-${name}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				});
				return answer.status === 404 ? undefined : answer;
			});
			const executions = await waitUntil(
				`the ${name} execution`,
				async () => {
					const done = await listExecutions(stack.n8n, imported.id, true);
					return done.length > before ? done : undefined;
				},
				120_000,
			);
			return executions[0];
		};
	};
	const generateDocument = async (title: string) => {
		const answer = await fetch(
			`${stack.sandbox.signing.url}/api/v2/templates/${SEED.residencyTemplateId}/generate-document`,
			{
				method: 'POST',
				headers: {
					authorization: `Bearer ${stack.sandbox.signing.apiKey}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({
					title,
					recipients: [{ name: 'Ada', email: 'ada@example.org', role: 'SIGNER' }],
				}),
			},
		);
		return ((await answer.json()) as { documentId: string }).documentId;
	};

	describe('Signing → Download', () => {
		let download: Awaited<ReturnType<typeof webhookFlow>>;
		beforeAll(async () => {
			download = await webhookFlow('download', {
				type: 'signing',
				credential: 'signingApi',
				parameters: {
					resource: 'document',
					operation: 'download',
					documentId: '={{ $json.body.documentId }}',
					version: 'original',
				},
			});
		});

		it('streams a large PDF into n8n’s binary store on disk, byte for byte, with its size and checksum', async () => {
			const documentId = await generateDocument('Large agreement');
			await signing().call('PUT', `/documents/${documentId}/pdf-padding`, {
				bytes: 24 * 1024 * 1024,
			});
			const served = Buffer.from(
				await (
					await fetch(
						`${stack.sandbox.signing.url}/api/v2/documents/${documentId}/download?version=original`,
						{
							headers: { authorization: `Bearer ${stack.sandbox.signing.apiKey}` },
						},
					)
				).arrayBuffer(),
			);
			const execution = await download({ documentId });
			expect(execution.status).toBe('success');
			const [item] = (execution.data!.resultData.runData as unknown as RunData).Step[0].data!
				.main[0];
			expect(item.json).toMatchObject({
				documentId,
				fileName: 'Large agreement.pdf',
				fileSize: served.length,
				sha256: createHash('sha256').update(served).digest('hex'),
			});
			const binary = item.binary!.data;
			expect(binary.id).toMatch(/^filesystem/);
			expect(binary.fileName).toBe('Large agreement.pdf');
			const stored = await fetch(
				`${stack.n8n.baseUrl}/rest/binary-data?id=${encodeURIComponent(binary.id!)}&action=download`,
				{ headers: { cookie: stack.n8n.ownerCookie, 'browser-id': 'e2e' } },
			);
			expect(stored.status).toBe(200);
			expect(Buffer.from(await stored.arrayBuffer()).equals(served)).toBe(true);
		});

		it('a failed download carries the service’s message, not a dump of bytes', async () => {
			const documentId = await generateDocument('Unlucky agreement');
			await signing().failNext(1, 500, { path: '/download' });
			const execution = await download({ documentId });
			expect(execution.status).toBe('error');
			expect(execution.data!.resultData.error!.message).toBe(
				'The signing service answered 500: Simulated fault 500',
			);
			expect(JSON.stringify(execution.data!.resultData.error)).not.toMatch(/"type":"Buffer"/);
		});
	});

	it('Generate takes {{ $now }} for a date field (its day in the workflow’s time zone) and 1e21 for a number', async () => {
		const fields = SEED_TEMPLATE_FIELDS.residency;
		// Kiritimati is 14 hours ahead of UTC: its date differs from UTC's for 14 hours a day.
		const zone = 'Pacific/Kiritimati';
		const generate = await webhookFlow(
			'prefill',
			{
				type: 'signing',
				credential: 'signingApi',
				parameters: {
					resource: 'document',
					operation: 'generateFromTemplate',
					templateId: { __rl: true, mode: 'id', value: SEED.residencyTemplateId },
					title: 'Prefilled from expressions',
					recipientsInput: 'fields',
					recipients: { recipient: [{ name: 'Ada', email: 'ada@example.org', role: 'SIGNER' }] },
					prefillInput: 'fields',
					prefillFields: {
						field: [
							{ id: fields.startDate, value: '={{ $now }}' },
							{ id: fields.stipend, value: '={{ 1e21 }}' },
						],
					},
				},
			},
			{ timezone: zone },
		);
		await signing().clearRequests();
		const dayBefore = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
		const execution = await generate({});
		const dayAfter = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
		expect(execution.status).toBe('success');
		const [request] = (await signing().requests()).filter((r) =>
			r.path.endsWith('/generate-document'),
		);
		const values = Object.fromEntries(
			(request.body as { prefillFields: Array<{ id: string; value: string }> }).prefillFields.map(
				(field) => [field.id, field.value],
			),
		);
		expect([dayBefore, dayAfter]).toContain(values[fields.startDate]);
		expect(values[fields.stipend]).toBe('1000000000000000000000');
	});

	it('Response date filters read a zone-less date in the workflow’s time zone and refuse one that does not exist', async () => {
		const getMany = await webhookFlow(
			'filters',
			{
				type: 'survey',
				credential: 'surveyApi',
				parameters: {
					resource: 'response',
					operation: 'getMany',
					surveyId: { __rl: true, mode: 'id', value: SEED.residencySurveyId },
					returnAll: true,
					filters: { createdAfter: '={{ $json.body.after }}' },
					options: {},
				},
			},
			{ timezone: 'Europe/Berlin' },
		);
		await survey().clearRequests();
		expect((await getMany({ after: '2026-10-06T00:00:00' })).status).toBe('success');
		const [request] = await survey().requests();
		expect(request.query).toMatchObject({ startDate: '2026-10-05T22:00:00.000Z' });

		const refused = await getMany({ after: '2026-02-30' });
		expect(refused.status).toBe('error');
		expect(refused.data!.resultData.error!.message).toBe(
			'Created After: February 30, 2026 does not exist',
		);
	});

	it('the erasure sample’s Delete step, run a second time on the same response, succeeds with alreadyGone', async () => {
		const sample = JSON.parse(
			readFileSync(path.join(PROJECT_ROOT, 'workflows', 'erasure-request.json'), 'utf8'),
		) as WorkflowFile;
		const shipped = sample.nodes.find((node) => node.name === 'Delete Response')!;
		const erase = await webhookFlow('erase', {
			type: 'survey',
			credential: 'surveyApi',
			parameters: {
				...(shipped.parameters as Record<string, unknown>),
				responseId: '={{ $json.body.responseId }}',
			},
		});
		const created = await survey().call<{ data: { id: string } }>(
			'POST',
			`/surveys/${SEED.residencySurveyId}/responses`,
			{ data: { fullName: 'Twice Erased', email: 'twice@example.org' } },
		);
		const first = await erase({ responseId: created.data.id });
		const second = await erase({ responseId: created.data.id });
		expect(first.status).toBe('success');
		expect(nodeOutput(first, 'Step')).toEqual([
			expect.objectContaining({ deleted: true, id: created.data.id, alreadyGone: false }),
		]);
		expect(second.status).toBe('success');
		expect(nodeOutput(second, 'Step')).toEqual([
			expect.objectContaining({ deleted: true, id: created.data.id, alreadyGone: true }),
		]);
	});
});
