/**
 * Issue 23's defects of the Signing node, each reproduced against the sandbox: a person
 * reminded twice, documents missed while paging, downloads, file names, prefill values.
 */
import { createHash } from 'node:crypto';

import type { IDataObject, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { SEED_TEMPLATE_FIELDS } from '../sandbox/seed';
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

	describe('Document → Get Many with a Status filter', () => {
		/** `count` pending documents, newest first. */
		const pendingDocuments = async (count: number) => {
			const ids: string[] = [];
			for (let index = 0; index < count; index++) {
				ids.unshift(String((await generate({ title: `Pending ${index}` })).documentId));
			}
			return ids;
		};
		const complete = async (documentId: string) =>
			await control.call('POST', `/documents/${documentId}/complete`);
		const pendingAll = {
			resource: 'document',
			operation: 'getMany',
			returnAll: true,
			filters: { status: 'PENDING' },
		};
		const isLaterPage = (request: IHttpRequestOptions) =>
			request.url.endsWith('/api/v2/documents') && Number(request.qs?.page) > 1;

		it('returns every pending document once when the newest completes after page 1 (regression: 104 of 105, one missing)', async () => {
			const ids = await pendingDocuments(105);
			let completed = false;
			const out = await run(pendingAll, {
				onRequest: async (request) => {
					if (isLaterPage(request) && !completed) {
						completed = true;
						await complete(ids[0]);
					}
				},
			});
			const read = out.map((item) => String(item.json.id));
			expect(new Set(read).size).toBe(read.length);
			// Each document still pending is there, once; the one read before it completed may be too.
			expect(read).toEqual(expect.arrayContaining(ids.slice(1)));
			expect(read.filter((id) => !ids.includes(id))).toEqual([]);
		});

		it('returns each document once when new ones arrive while reading', async () => {
			const ids = await pendingDocuments(105);
			let added = 0;
			const out = await run(pendingAll, {
				onRequest: async (request) => {
					if (isLaterPage(request) && added++ === 0) {
						for (let index = 0; index < 3; index++) await generate({ title: `New ${index}` });
					}
				},
			});
			const read = out.map((item) => String(item.json.id));
			expect(new Set(read).size).toBe(read.length);
			expect(read).toEqual(expect.arrayContaining(ids));
		});

		it('fails clearly after 3 reads when the list keeps changing too much between pages', async () => {
			const ids = await pendingDocuments(150);
			let next = 0;
			const error = await run(pendingAll, {
				onRequest: async (request) => {
					if (!isLaterPage(request)) return;
					for (let index = 0; index < 15; index++) await complete(ids[next++]);
				},
			}).catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as Error).message).toBe(
				'The documents kept changing while they were read (3 attempts)',
			);
		});
	});

	describe('Download', () => {
		const completed = async (title?: string) => {
			const created = await generate(title === undefined ? {} : { title });
			await control.call('POST', `/documents/${String(created.documentId)}/complete`);
			return String(created.documentId);
		};
		const download = (documentId: string, extra: Parameters = {}): Parameters => ({
			resource: 'document',
			operation: 'download',
			documentId,
			...extra,
		});
		const served = async (documentId: string) =>
			Buffer.from(
				await (
					await fetch(`${sandbox.signing.url}/api/v2/documents/${documentId}/download`, {
						headers: { authorization: `Bearer ${sandbox.signing.apiKey}` },
					})
				).arrayBuffer(),
			);

		it('carries the service’s message when the file request fails (regression: a JSON dump of a Buffer)', async () => {
			const documentId = await completed();
			const error = (await run(download(documentId), {
				onRequest: async (request) => {
					if (request.url.endsWith('/download')) await control.failNext(1, 500);
				},
			}).catch((caught: unknown) => caught)) as Error;
			expect(error.message).toBe('The signing service answered 500: Simulated fault 500');
			expect(JSON.stringify(error)).not.toMatch(/Buffer|"data":\[/);
		});

		it('hands n8n the file as a stream, not held whole in memory (regression: a Buffer of the whole file)', async () => {
			const documentId = await completed();
			await control.call('PUT', `/documents/${documentId}/pdf-padding`, { bytes: 3 * 1024 * 1024 });
			const { context } = executeContext({
				parameters: download(documentId),
				credentials: {
					signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
				},
			});
			const prepare = context.helpers.prepareBinaryData;
			const handed: unknown[] = [];
			context.helpers.prepareBinaryData = async (data, ...rest) => {
				handed.push(data);
				return await prepare(data, ...rest);
			};
			const [item] = (await node.execute.call(context))[0];
			expect(handed).toHaveLength(1);
			expect(Buffer.isBuffer(handed[0])).toBe(false);
			expect(typeof (handed[0] as AsyncIterable<unknown>)[Symbol.asyncIterator]).toBe('function');
			const bytes = await served(documentId);
			expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024);
			expect(Buffer.from(item.binary!.data.data, 'base64').equals(bytes)).toBe(true);
			expect(item.json).toMatchObject({
				fileSize: bytes.length,
				sha256: createHash('sha256').update(bytes).digest('hex'),
			});
		});

		it('as a tool asks only what the file is (HEAD), never downloads it (regression: downloaded it for size and hash)', async () => {
			const documentId = await completed();
			await control.clearRequests();
			const [item] = await run(download(documentId), { tool: true });
			const fileRequests = (await control.requests()).filter((request) =>
				request.path.endsWith('/download'),
			);
			expect(fileRequests.map((request) => request.method)).toEqual(['HEAD']);
			expect(item.binary).toBeUndefined();
			expect(item.json.fileSize).toBe((await served(documentId)).length);
			expect(item.json).not.toHaveProperty('sha256');
		});

		it('makes a file name of at most 255 bytes without control or direction characters (regression: the title as it was)', async () => {
			const long = await completed('Résumé '.repeat(60));
			const [longItem] = await run(download(long));
			const longName = String(longItem.json.fileName);
			expect(Buffer.byteLength(longName, 'utf8')).toBeLessThanOrEqual(255);
			expect(longName.endsWith('.pdf')).toBe(true);
			expect(longName.startsWith('Résumé Résumé')).toBe(true);
			expect(longItem.binary!.data.fileName).toBe(longName);

			const tricky = await completed('Invoice\u202Efdp.exe\u0007 \u2066final\u2069\nv2');
			const [trickyItem] = await run(download(tricky));
			expect(trickyItem.json.fileName).toBe('Invoicefdp.exe final v2.pdf');
		});
	});

	describe('Prefill values from expressions', () => {
		const fields = SEED_TEMPLATE_FIELDS.residency;
		/** Generates with one prefill field; the value as the service received it, or the error. */
		const prefill = async (id: string, value: unknown, timezone = 'UTC') => {
			await control.clearRequests();
			const error = await run(
				{
					resource: 'document',
					operation: 'generateFromTemplate',
					templateId: { __rl: true, mode: 'list', value: SEED.residencyTemplateId },
					title: 'Prefilled',
					recipientsInput: 'fields',
					recipients: { recipient: [ada] },
					prefillFields: { field: [{ id, value }] },
				},
				{ timezone },
			).then(
				() => undefined,
				(caught: Error) => caught,
			);
			if (error) return error;
			const [request] = await apiRequests('POST', '/generate-document');
			return ((request.body as IDataObject).prefillFields as IDataObject[])[0].value;
		};

		it('takes a JavaScript Date or a DateTime for a date field, as its day in the workflow’s time zone (regression: "needs a value")', async () => {
			const instant = Date.UTC(2027, 0, 3, 23, 30);
			const dateTime = {
				isLuxonDateTime: true,
				isValid: true,
				toMillis: () => instant,
				toISO: () => '',
			};
			expect(await prefill(fields.startDate, new Date(instant))).toBe('2027-01-03');
			expect(await prefill(fields.startDate, new Date(instant), 'Europe/Berlin')).toBe(
				'2027-01-04',
			);
			expect(await prefill(fields.startDate, dateTime, 'Europe/Berlin')).toBe('2027-01-04');
			// n8n 2.x turns {{ $now }} in a text field into ISO text with its offset.
			expect(
				await prefill(fields.startDate, '2027-01-04T11:23:43.899+14:00', 'Pacific/Kiritimati'),
			).toBe('2027-01-04');
			expect(await prefill(fields.startDate, '2027-01-03T23:30:00.000Z', 'Europe/Berlin')).toBe(
				'2027-01-04',
			);
			expect(await prefill(fields.startDate, '2027-01-04T10:00:00', 'Europe/Berlin')).toBe(
				'2027-01-04',
			);
			const impossible = await prefill(fields.startDate, '2027-02-30T10:00');
			expect((impossible as Error).message).toBe(
				'Prefill Fields › Start date: February 30, 2027 does not exist',
			);
		});

		it('writes a large number out in full (regression: 1e21 "is not a number")', async () => {
			expect(await prefill(fields.stipend, 1e21)).toBe('1000000000000000000000');
			expect(await prefill(fields.stipend, 2500.5)).toBe('2500.5');
			expect(await prefill(fields.stipend, '1e3')).toBe('1000');
		});

		it('names the type it got instead of "needs a value"', async () => {
			const cases: Array<[string, unknown, string]> = [
				[
					fields.stipend,
					{ amount: 5 },
					'Prefill Fields › Monthly stipend (EUR): got an object; give a number value',
				],
				[fields.projectTitle, ['a', 'b'], 'Prefill Fields › Project title: got a list; give text'],
				[
					fields.housing,
					new Date(),
					'Prefill Fields › Housing included: got a JavaScript Date, but this is a checkbox field',
				],
				[
					fields.stipend,
					Number.POSITIVE_INFINITY,
					'Prefill Fields › Monthly stipend (EUR): Infinity is not a finite number',
				],
				[fields.startDate, '', 'Prefill Fields › Start date: needs a value'],
			];
			for (const [id, value, message] of cases) {
				const error = await prefill(id, value);
				expect(error).toBeInstanceOf(NodeOperationError);
				expect((error as Error).message).toBe(message);
			}
		});
	});
});
