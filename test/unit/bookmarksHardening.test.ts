/**
 * Issue 23's defects of the Bookmarks node, each reproduced against the sandbox: a record left
 * half changed by Create → Update It, tags with a comma, records missed while paging.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { type Sandbox, SEED, startSandbox } from '../sandbox';
import { type ExecuteOptions, executeContext, type Parameters } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(60_000);

const ADA = SEED.adaPortfolioBookmarkId;

describe('Bookmarks node: nothing half done, tags as given, each record once', () => {
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;
	const node = new Bookmarks();

	beforeAll(async () => {
		sandbox = await startSandbox();
		control = sandboxControl(sandbox, 'bookmark');
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => await control.reset());

	type RunOptions = Partial<ExecuteOptions> & {
		onRequest?: (request: IHttpRequestOptions, count: number) => Promise<void>;
	};
	/** Runs the node; `onRequest` sees each request before it is sent. */
	const run = async (parameters: Parameters, options: RunOptions = {}) => {
		const { onRequest, ...rest } = options;
		const { context } = executeContext({
			parameters,
			credentials: {
				bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey },
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
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const failure = async (parameters: Parameters, options: RunOptions = {}) =>
		(await run(parameters, options).then(
			() => new Error('the node did not fail'),
			(error: Error) => error,
		)) as NodeApiError;
	const record = async (id: string) =>
		(await (
			await fetch(`${sandbox.bookmark.url}/api/v1/bookmarks/${id}`, {
				headers: { authorization: `Bearer ${sandbox.bookmark.apiKey}` },
			})
		).json()) as IDataObject;
	const tagNames = async (id: string) =>
		((await record(id)).tags as IDataObject[]).map((tag) => tag.name).sort();

	describe('Create → If URL Exists → Update It', () => {
		let url: string;
		let before: IDataObject;
		beforeEach(async () => {
			before = await record(ADA);
			url = (before.content as IDataObject).url as string;
		});
		const updateIt = (extra: Parameters = {}): Parameters => ({
			resource: 'bookmark',
			operation: 'create',
			type: 'link',
			url,
			title: 'New title',
			notes: 'New note',
			tags: 'shortlist, residency',
			options: { ifUrlExists: 'update' },
			...extra,
		});

		it('refuses more than 50 tags before anything is sent (regression: title and note were written, then the tags failed)', async () => {
			await control.clearRequests();
			const tags = Array.from({ length: 51 }, (_, index) => `tag${index}`).join(', ');
			const error = await failure(updateIt({ tags }));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe('Tags: 51 tags given; at most 50');
			expect(await control.requests()).toEqual([]);
			expect(await record(ADA)).toEqual(before);
		});

		it('attaches the tags first: when that fails, nothing is changed', async () => {
			const error = await failure(updateIt(), {
				onRequest: async (_request, count) => {
					if (count === 2) await control.failNext(1, 500);
				},
			});
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.description ?? '').not.toContain('changed');
			expect(await record(ADA)).toEqual(before);
		});

		it('when the title and note fail after the tags, the error says exactly what was changed', async () => {
			const error = await failure(updateIt(), {
				onRequest: async (_request, count) => {
					if (count === 3) await control.failNext(1, 500);
				},
			});
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.description).toContain(
				`Record ${ADA} was changed in part: the tags shortlist, residency were attached, but its title and note were not written.`,
			);
			const now = await record(ADA);
			expect(now.title).toBe(before.title);
			expect(await tagNames(ADA)).toEqual(expect.arrayContaining(['residency', 'shortlist']));
			// Run again, it completes.
			const [done] = await run(updateIt());
			expect(done).toMatchObject({
				id: ADA,
				title: 'New title',
				note: 'New note',
				alreadyExists: true,
			});
		});

		it('writes everything in two requests and returns the record as it is now', async () => {
			await control.clearRequests();
			const [out] = await run(updateIt());
			expect(out).toMatchObject({
				id: ADA,
				title: 'New title',
				note: 'New note',
				alreadyExists: true,
			});
			expect((out.tags as IDataObject[]).map((tag) => tag.name)).toEqual(
				expect.arrayContaining(['shortlist', 'residency']),
			);
			expect((await control.requests()).map((request) => request.method)).toEqual([
				'POST',
				'POST',
				'PATCH',
			]);
		});
	});

	describe('Tags given as text', () => {
		const addTags = (tags: unknown): Parameters => ({
			resource: 'bookmark',
			operation: 'addTags',
			recordId: { __rl: true, mode: 'id', value: ADA },
			tags,
		});

		it('takes a JSON array in text, so a tag may contain a comma (regression: "Smith, John" became two tags)', async () => {
			const [out] = await run(addTags('["Smith, John", " shortlist ", "Smith, John"]'));
			expect((out.attached as IDataObject[]).map((tag) => tag.name)).toEqual([
				'Smith, John',
				'shortlist',
			]);
			expect(await tagNames(ADA)).toEqual(expect.arrayContaining(['Smith, John', 'shortlist']));
			expect(await tagNames(ADA)).not.toContain('Smith');
		});

		it('still splits plain text on commas, and takes an array from an expression', async () => {
			const [text] = await run(addTags('alpha, beta ,alpha'));
			expect((text.attached as IDataObject[]).map((tag) => tag.name)).toEqual(['alpha', 'beta']);
			const [array] = await run(addTags(['Doe, Jane', 7]));
			expect((array.attached as IDataObject[]).map((tag) => tag.name)).toEqual(['Doe, Jane', '7']);
		});

		it('Create takes the same forms', async () => {
			const [created] = await run({
				resource: 'bookmark',
				operation: 'create',
				type: 'link',
				url: 'https://example.org/tags-with-commas',
				tags: '["Lovelace, Ada"]',
			});
			expect((created.tags as IDataObject[]).map((tag) => tag.name)).toEqual(['Lovelace, Ada']);
		});

		it('refuses broken JSON and values that are no names before sending', async () => {
			await control.clearRequests();
			const broken = await failure(addTags('["Smith, John", "shortlist"'));
			expect(broken.message).toBe(
				'Tags: looks like a JSON array but is not valid JSON (e.g. ["Smith, John", "shortlist"])',
			);
			const broken2 = await failure(addTags('["a", {"b": 1}]'));
			expect(broken2.message).toBe('Tags: tag 2 is an object, not a name');
			expect(await control.requests()).toEqual([]);
		});
	});

	describe('Get Many and Search follow a cursor that holds its place', () => {
		// Checked for issue 23: the contract's cursor is the sort key of the last record served
		// (Karakeep's list endpoint does the same), so records that leave the filter, are deleted
		// or are added while the pages are read shift nothing. Karakeep's separate search endpoint
		// pages by offset instead; an adapter for it must read as Signing's numbered pages do.
		it('returns every record that stays in the filter once, when others leave it or arrive between pages', async () => {
			const generated = await control.call<{ ids: string[] }>('POST', '/bookmarks/generate', {
				count: 150,
			});
			const all = (
				await run({
					resource: 'bookmark',
					operation: 'getMany',
					returnAll: true,
					filters: { archived: false },
				})
			).map((record) => String(record.id));
			const leaving = all.slice(0, 3);
			const out = await run(
				{
					resource: 'bookmark',
					operation: 'getMany',
					returnAll: true,
					filters: { archived: false },
				},
				{
					onRequest: async (request) => {
						if (request.qs?.cursor === undefined) return;
						for (const id of leaving.splice(0)) {
							await fetch(`${sandbox.bookmark.url}/api/v1/bookmarks/${id}`, {
								method: 'PATCH',
								headers: {
									authorization: `Bearer ${sandbox.bookmark.apiKey}`,
									'content-type': 'application/json',
								},
								body: JSON.stringify({ archived: true }),
							});
						}
						await control.call('POST', '/bookmarks/generate', { count: 2 });
					},
				},
			);
			const read = out.map((record) => String(record.id));
			expect(new Set(read).size).toBe(read.length);
			expect(read).toEqual(expect.arrayContaining(all.slice(3)));
			expect(generated.ids).toHaveLength(150);
		});
	});
});
