/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
// The SDK publishes these paths through package "exports", which the lint resolver does not read.
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { N8nInstance, PACKAGE_NAME } from '../harness/n8n';
import { callMcpTool } from '../harness/mcp';
import {
	activateWorkflow,
	CredentialRefs,
	deactivateWorkflow,
	importWorkflow,
	listExecutions,
	MCP_TOKEN,
	nodeOutput,
	Stack,
	startStack,
	waitUntil,
	WorkflowFile,
} from '../harness/provision';
import { Sandbox, SEED } from '../sandbox';
import { sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(300_000);

const CURATOR_TOOLS = [
	'add_to_list',
	'archive_bookmark',
	'favourite_bookmark',
	'find_bookmarks',
	'list_lists',
	'remove_from_list',
	'tag_bookmark',
	'untag_bookmark',
];

describe('a bookmark record’s whole life in a real n8n', () => {
	let stack: Stack;
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let credentials: CredentialRefs;
	const bookmarkApi = async (method: string, route: string) =>
		await fetch(`${sandbox.bookmark.url}${route}`, {
			method,
			headers: { authorization: `Bearer ${sandbox.bookmark.apiKey}` },
		});
	const getRecord = async (id: string) =>
		(await (await bookmarkApi('GET', `/api/v1/bookmarks/${id}`)).json()) as Record<string, unknown>;

	beforeAll(async () => {
		stack = await startStack();
		({ sandbox, n8n, credentials } = stack);
	});
	afterAll(async () => await stack?.stop());

	it('a workflow creates a list, then updates, tags, lists, archives, reads and deletes a record', async () => {
		const node = (name: string, x: number, parameters: Record<string, unknown>) => ({
			name,
			type: `${PACKAGE_NAME}.bookmarks`,
			typeVersion: 1,
			position: [x, 0],
			parameters,
			credentials: { bookmarkApi: credentials.bookmarkApi },
		});
		const record = { __rl: true, mode: 'id', value: "={{ $('Create').item.json.id }}" };
		const list = { __rl: true, mode: 'id', value: "={{ $('Create List').item.json.id }}" };
		const steps = [
			node('Create List', 200, {
				resource: 'list',
				operation: 'create',
				name: 'E2E shortlist',
				additionalFields: { icon: '⭐' },
			}),
			node('Create', 400, {
				resource: 'bookmark',
				operation: 'create',
				type: 'link',
				url: '={{ $("Webhook").item.json.body.url }}',
				title: 'E2E lifecycle',
				tags: 'e2e',
				notes: 'First note',
			}),
			node('Update', 600, {
				resource: 'bookmark',
				operation: 'update',
				recordId: record,
				updateFields: { title: 'E2E lifecycle, edited', favourited: true },
			}),
			node('Add Tags', 800, {
				resource: 'bookmark',
				operation: 'addTags',
				recordId: record,
				tags: 'shortlist, n8n',
			}),
			node('Add to List', 1000, {
				resource: 'bookmark',
				operation: 'addToList',
				recordId: record,
				listId: list,
			}),
			node('Archive', 1200, {
				resource: 'bookmark',
				operation: 'update',
				recordId: record,
				updateFields: { archived: true },
			}),
			node('Get', 1400, {
				resource: 'bookmark',
				operation: 'get',
				recordId: record,
				options: { simplify: true },
			}),
			node('Remove Tags', 1600, {
				resource: 'bookmark',
				operation: 'removeTags',
				recordId: record,
				tags: 'n8n',
			}),
			node('Remove from List', 1800, {
				resource: 'bookmark',
				operation: 'removeFromList',
				recordId: record,
				listId: list,
			}),
			node('Delete', 2000, { resource: 'bookmark', operation: 'delete', recordId: record }),
			node('Delete List', 2200, { resource: 'list', operation: 'delete', listId: list }),
		];
		const names = ['Webhook', ...steps.map((step) => step.name)];
		const workflow = await importWorkflow(
			n8n,
			{
				name: 'E2E bookmark lifecycle',
				nodes: [
					{
						name: 'Webhook',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						position: [0, 0],
						webhookId: 'e2e-bookmark-lifecycle',
						parameters: {
							httpMethod: 'POST',
							path: 'e2e-bookmark-lifecycle',
							responseMode: 'lastNode',
							options: {},
						},
					},
					...steps,
				],
				connections: Object.fromEntries(
					names
						.slice(0, -1)
						.map((name, index) => [
							name,
							{ main: [[{ node: names[index + 1], type: 'main', index: 0 }]] },
						]),
				),
			},
			credentials,
		);
		await activateWorkflow(n8n, workflow.id);
		const control = sandboxControl(sandbox, 'bookmark');
		await control.clearRequests();
		const response = await waitUntil('the webhook', async () => {
			const answer = await fetch(`${n8n.baseUrl}/webhook/e2e-bookmark-lifecycle`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ url: 'https://example.org/e2e/lifecycle' }),
			});
			return answer.status === 404 ? undefined : answer;
		});
		expect(response.status).toBe(200);
		const [execution] = await waitUntil('the execution', async () => {
			const executions = await listExecutions(n8n, workflow.id, true);
			return executions.length ? executions : undefined;
		});
		expect(execution.status).toBe('success');
		const created = nodeOutput(execution, 'Create')[0];
		const listId = String(nodeOutput(execution, 'Create List')[0].id);
		const id = String(created.id);
		expect(nodeOutput(execution, 'Get')).toEqual([
			{
				id,
				type: 'link',
				title: 'E2E lifecycle, edited',
				url: 'https://example.org/e2e/lifecycle',
				text: null,
				note: 'First note',
				tags: ['e2e', 'shortlist', 'n8n'],
				lists: [{ id: listId, name: 'E2E shortlist' }],
				archived: true,
				favourited: true,
				createdAt: created.createdAt,
				modifiedAt: expect.any(String),
			},
		]);
		expect(nodeOutput(execution, 'Remove Tags')).toEqual([
			{ id, detached: [{ id: expect.any(String), name: 'n8n' }] },
		]);
		expect(nodeOutput(execution, 'Delete')).toEqual([{ deleted: true, id, alreadyGone: false }]);
		expect(await response.json()).toEqual({ deleted: true, id: listId, alreadyGone: false });

		const requests = (await control.requests()).map((r) => [r.method, r.path, r.status, r.rawBody]);
		expect(requests).toEqual([
			['POST', '/api/v1/lists', 201, JSON.stringify({ name: 'E2E shortlist', icon: '⭐' })],
			['POST', '/api/v1/bookmarks', 201, expect.any(String)],
			[
				'PATCH',
				`/api/v1/bookmarks/${id}`,
				200,
				JSON.stringify({ title: 'E2E lifecycle, edited', favourited: true }),
			],
			['POST', `/api/v1/bookmarks/${id}/tags`, 200, JSON.stringify({ tags: ['shortlist', 'n8n'] })],
			['PUT', `/api/v1/lists/${listId}/bookmarks/${id}`, 204, ''],
			['PATCH', `/api/v1/bookmarks/${id}`, 200, JSON.stringify({ archived: true })],
			['GET', `/api/v1/bookmarks/${id}`, 200, ''],
			['GET', '/api/v1/lists', 200, ''],
			// DELETE with a JSON body, as n8n's own HTTP client sends it.
			['DELETE', `/api/v1/bookmarks/${id}/tags`, 200, JSON.stringify({ tags: ['n8n'] })],
			['DELETE', `/api/v1/lists/${listId}/bookmarks/${id}`, 204, ''],
			['DELETE', `/api/v1/bookmarks/${id}`, 204, ''],
			['DELETE', `/api/v1/lists/${listId}`, 204, ''],
		]);
		expect((await bookmarkApi('GET', `/api/v1/bookmarks/${id}`)).status).toBe(404);
	});

	it('the Bookmarks Trigger reads as n8n’s own polling triggers do', async () => {
		const response = await fetch(`${n8n.baseUrl}/types/nodes.json`, {
			headers: { cookie: n8n.ownerCookie },
		});
		const types = (await response.json()) as Array<{
			name: string;
			properties: Array<{
				name: string;
				displayName: string;
				options?: Array<{ value: string; action?: string }>;
			}>;
		}>;
		const trigger = types.find((type) => type.name === `${PACKAGE_NAME}.bookmarksTrigger`)!;
		const names = trigger.properties.map((property) => property.name);
		// n8n puts Poll Times first; the notice under it points up at it.
		expect(names.slice(0, 2)).toEqual(['pollTimes', 'notice']);
		expect(trigger.properties[1].displayName).toMatch(/Poll Times above/);
		expect(trigger.properties[1].displayName).not.toMatch(/below/);
		// The nodes panel lists a trigger's events from its "Trigger On" options, by their action.
		const triggerOn = trigger.properties.find((property) => property.displayName === 'Trigger On')!;
		expect(triggerOn.options?.map((option) => option.action)).toEqual([
			'On bookmark archived, favourited, tagged, listed or highlighted',
			'On bookmark changed',
			'On new bookmark',
		]);
	});

	it('the Bookmarks Trigger, active, on Changed Records starts one execution with the records changed', async () => {
		const workflow = await importWorkflow(
			n8n,
			{
				name: 'E2E bookmarks trigger, changed records',
				nodes: [
					{
						name: 'Bookmarks Trigger',
						type: `${PACKAGE_NAME}.bookmarksTrigger`,
						typeVersion: 1,
						position: [0, 0],
						parameters: {
							pollTimes: { item: [{ mode: 'everyMinute' }] },
							watch: 'changedRecords',
							filters: {},
						},
						credentials: { bookmarkApi: credentials.bookmarkApi },
					},
				],
				connections: {},
			},
			credentials,
		);
		const control = sandboxControl(sandbox, 'bookmark');
		await control.clearRequests();
		await activateWorkflow(n8n, workflow.id);
		await waitUntil(
			'the first poll',
			async () =>
				(await control.requests()).some(
					(r) => r.path === '/api/v1/bookmarks' && r.query.sortBy === 'modifiedAt',
				),
			60_000,
		);
		const changed = ['bm_seed_grace_portfolio', 'bm_seed_studio_visit'];
		for (const id of changed) {
			const answer = await fetch(`${sandbox.bookmark.url}/api/v1/bookmarks/${id}`, {
				method: 'PATCH',
				headers: {
					authorization: `Bearer ${sandbox.bookmark.apiKey}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ favourited: true }),
			});
			expect(answer.status).toBe(200);
		}
		const [execution] = await waitUntil(
			'an execution of the polling trigger',
			async () => {
				const executions = await listExecutions(n8n, workflow.id, true);
				return executions.length ? executions : undefined;
			},
			130_000,
			2_000,
		);
		expect(nodeOutput(execution, 'Bookmarks Trigger').map((item) => item.id)).toEqual(changed);
		await deactivateWorkflow(n8n, workflow.id);
	});

	describe('Bookmark curator tools over MCP, with a bearer token', () => {
		let client: Client;
		let mcpUrl: URL;

		beforeAll(async () => {
			const file = path.join(__dirname, '../../workflows/bookmark-curator-tools.json');
			const workflow = await importWorkflow(
				n8n,
				JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile,
				credentials,
				file,
			);
			await activateWorkflow(n8n, workflow.id);
			mcpUrl = new URL(`${n8n.baseUrl}/mcp/bookmark-curator`);
			client = new Client({ name: 'e2e-curator', version: '1.0.0' });
			await waitUntil('the MCP endpoint', async () => {
				const answer = await fetch(mcpUrl, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}',
				});
				return answer.status !== 404;
			});
			await client.connect(
				new StreamableHTTPClientTransport(mcpUrl, {
					requestInit: { headers: { authorization: `Bearer ${MCP_TOKEN}` } },
				}),
			);
		});
		afterAll(async () => await client?.close());

		const call = async (name: string, args: Record<string, unknown>) => {
			const { text, isError } = await callMcpTool(client, name, args);
			expect({ name, isError, text }).toEqual({
				name,
				isError: false,
				text,
			});
			return [JSON.parse(text) as unknown].flat(2) as Array<Record<string, unknown>>;
		};

		it('refuses a client without the token or with a wrong one (403, n8n’s answer for bearer auth)', async () => {
			const refused: Array<[Record<string, string>, number]> = [
				[{}, 403],
				[{ authorization: 'Bearer wrong-token' }, 403],
				[{ authorization: MCP_TOKEN }, 403],
			];
			for (const [headers, status] of refused) {
				const answer = await fetch(mcpUrl, {
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						accept: 'application/json, text/event-stream',
						...headers,
					},
					body: JSON.stringify({
						jsonrpc: '2.0',
						id: 1,
						method: 'initialize',
						params: {
							protocolVersion: '2025-03-26',
							capabilities: {},
							clientInfo: { name: 'x', version: '1' },
						},
					}),
				});
				expect(answer.status).toBe(status);
			}
		});

		it('lists the curator tools, each with a description an agent can act on', async () => {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual(CURATOR_TOOLS);
			for (const tool of tools) expect((tool.description ?? '').length).toBeGreaterThan(60);
		});

		it('finds, tags, lists, archives and favourites records, and undoes it', async () => {
			const found = await call('find_bookmarks', { query: 'attunement' });
			expect(found.map((record) => record.id)).toEqual(['bm_seed_on_attunement']);
			expect(found[0]).not.toHaveProperty('content');
			const id = String(found[0].id);

			const lists = await call('list_lists', {});
			expect(lists.map((l) => l.id)).toEqual([SEED.applicationsListId, SEED.readingListId]);

			expect(await call('tag_bookmark', { recordId: id, tags: 'shortlist, mcp' })).toEqual([
				{
					id,
					attached: [
						{ id: expect.any(String), name: 'shortlist' },
						{ id: expect.any(String), name: 'mcp' },
					],
				},
			]);
			expect(await call('add_to_list', { recordId: id, listId: SEED.applicationsListId })).toEqual([
				{ recordId: id, listId: SEED.applicationsListId, added: true },
			]);
			expect((await call('archive_bookmark', { recordId: id, archived: true }))[0]).toMatchObject({
				archived: true,
			});
			expect(
				(await call('favourite_bookmark', { recordId: id, favourited: false }))[0],
			).toMatchObject({
				favourited: false,
			});
			expect(await getRecord(id)).toMatchObject({
				archived: true,
				favourited: false,
				listIds: [SEED.readingListId, SEED.applicationsListId],
				tags: expect.arrayContaining([expect.objectContaining({ name: 'shortlist' })]),
			});

			await call('untag_bookmark', { recordId: id, tags: 'shortlist, mcp' });
			await call('remove_from_list', { recordId: id, listId: SEED.applicationsListId });
			await call('archive_bookmark', { recordId: id, archived: false });
			const after = await getRecord(id);
			expect(after).toMatchObject({ archived: false, listIds: [SEED.readingListId] });
			expect((after.tags as Array<{ name: string }>).map((t) => t.name)).toEqual([
				'reading',
				'essay',
			]);
		});
	});
});
