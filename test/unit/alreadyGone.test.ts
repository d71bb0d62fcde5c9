import type { IDataObject, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { type Sandbox, SEED, startSandbox } from '../sandbox';
import { executeContext, type Parameters } from './helpers/context';
import { type ServiceName, sandboxControl } from './helpers/sandbox';

jest.setTimeout(60_000);

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/**
 * Regression (issue 23): deleting or cancelling what is already gone (a second Bookmark, List or
 * Response Delete: 404; a second Cancel: "already cancelled") failed the item, so an erasure run
 * again failed its workflow. "If Already Deleted/Cancelled" now offers Succeed (`alreadyGone:
 * true`); Fail stays the default. A delete sent again after an answer that never came and then
 * finding the thing gone is a success either way.
 */
describe('deleting or cancelling what is already gone', () => {
	let sandbox: Sandbox;
	const control = (service: ServiceName) => sandboxControl(sandbox, service);

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => {
		for (const service of ['signing', 'bookmark', 'survey'] as const)
			await control(service).reset();
	});

	const run = async (node: INodeType, parameters: Parameters) => {
		const { context } = executeContext({
			parameters,
			credentials: {
				signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
				bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey },
				surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey },
			},
		});
		const output = (await node.execute!.call(context)) as INodeExecutionData[][];
		return output[0].map((item) => item.json);
	};
	/** Runs the operation twice: the first removes, the second meets what is gone. */
	const twice = async (node: INodeType, parameters: Parameters) => {
		const first = await run(node, parameters);
		const second = await run(node, parameters).catch((error: Error) => error);
		return { first, second };
	};

	const createList = async () =>
		(
			(await (
				await fetch(`${sandbox.bookmark.url}/api/v1/lists`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${sandbox.bookmark.apiKey}`,
						'content-type': 'application/json',
					},
					body: JSON.stringify({ name: 'Temporary' }),
				})
			).json()) as IDataObject
		).id as string;
	const pendingDocument = async () =>
		(
			await run(new Signing(), {
				resource: 'document',
				operation: 'generateFromTemplate',
				templateId: byId(SEED.residencyTemplateId),
				title: 'Cancelled twice',
				recipientsInput: 'fields',
				recipients: { recipient: [{ name: 'Ada', email: 'ada@example.org', role: 'SIGNER' }] },
			})
		)[0].documentId as string;

	type Case = {
		what: string;
		node: () => INodeType;
		parameters: () => Promise<Parameters>;
		gone: IDataObject;
	};
	const cases: Case[] = [
		{
			what: 'Bookmark → Delete',
			node: () => new Bookmarks(),
			parameters: async () => ({
				resource: 'bookmark',
				operation: 'delete',
				recordId: byId(SEED.adaPortfolioBookmarkId),
			}),
			gone: { deleted: true, id: SEED.adaPortfolioBookmarkId, alreadyGone: true },
		},
		{
			what: 'List → Delete',
			node: () => new Bookmarks(),
			parameters: async () => ({
				resource: 'list',
				operation: 'delete',
				listId: byId(await createList()),
			}),
			gone: { deleted: true, alreadyGone: true },
		},
		{
			what: 'Response → Delete',
			node: () => new Survey(),
			parameters: async () => ({
				resource: 'response',
				operation: 'delete',
				responseId: SEED.adaResponseId,
			}),
			gone: { deleted: true, id: SEED.adaResponseId, alreadyGone: true },
		},
		{
			what: 'Document → Cancel',
			node: () => new Signing(),
			parameters: async () => ({
				resource: 'document',
				operation: 'cancel',
				documentId: await pendingDocument(),
			}),
			gone: { status: 'CANCELLED', alreadyGone: true },
		},
	];

	it.each(cases)(
		'$what fails the second time by default, as before',
		async ({ node, parameters }) => {
			const { first, second } = await twice(node(), await parameters());
			expect(first[0].alreadyGone).toBe(false);
			expect(second).toBeInstanceOf(Error);
			expect((second as Error).message).toMatch(/404|cancelled already/);
		},
	);

	it.each(cases)(
		'$what with "Succeed" outputs alreadyGone: true the second time',
		async ({ node, parameters, gone }) => {
			const { first, second } = await twice(node(), {
				...(await parameters()),
				ifAlreadyGone: 'succeed',
			});
			expect(first[0].alreadyGone).toBe(false);
			expect(second).toEqual([expect.objectContaining(gone)]);
		},
	);

	it('a cancel that is refused for another reason still fails with "Succeed"', async () => {
		const documentId = await pendingDocument();
		await control('signing').call('POST', `/documents/${documentId}/complete`);
		const error = await run(new Signing(), {
			resource: 'document',
			operation: 'cancel',
			documentId,
			ifAlreadyGone: 'succeed',
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toContain('it is completed');
	});

	it('an ID that is not there at all fails with "Fail", naming the service’s 404', async () => {
		const error = await run(new Bookmarks(), {
			resource: 'bookmark',
			operation: 'delete',
			recordId: byId('bm_never_was'),
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('404');
	});

	// One real backoff (half a second) each: the node's own retry policy, not a test's sleep.
	it('a delete carried out before the gateway gave up is repeated and succeeds even with "Fail"', async () => {
		await control('bookmark').failNext(1, 504, { afterHandling: true });
		const output = await run(new Bookmarks(), {
			resource: 'bookmark',
			operation: 'delete',
			recordId: byId(SEED.adaPortfolioBookmarkId),
		});
		expect(output).toEqual([{ deleted: true, id: SEED.adaPortfolioBookmarkId, alreadyGone: true }]);
		expect((await control('bookmark').requests()).map((request) => request.status)).toEqual([
			504, 404,
		]);
	});

	it('Remove From List carried out before the connection broke is repeated and reports the removal', async () => {
		const membership = `/api/v1/lists/${SEED.applicationsListId}/bookmarks/${SEED.adaPortfolioBookmarkId}`;
		await fetch(`${sandbox.bookmark.url}${membership}`, {
			method: 'PUT',
			headers: { authorization: `Bearer ${sandbox.bookmark.apiKey}` },
		});
		await control('bookmark').clearRequests();
		await control('bookmark').failNext(1, 502, { afterHandling: true, drop: true });
		const output = await run(new Bookmarks(), {
			resource: 'bookmark',
			operation: 'removeFromList',
			recordId: byId(SEED.adaPortfolioBookmarkId),
			listId: byId(SEED.applicationsListId),
		});
		expect(output).toEqual([
			{ recordId: SEED.adaPortfolioBookmarkId, listId: SEED.applicationsListId, removed: true },
		]);
	});
});
