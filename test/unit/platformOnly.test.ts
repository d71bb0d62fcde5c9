/**
 * Issue 43 item 6: one rule for what only one platform's API has, in the three nodes alike
 * (nodes/shared/platformOnly.ts). Its name in n8n's nodes panel (the operation's `action`) and its
 * description in the operation list end with "(Documenso)", "(Karakeep)" or "(Formbricks)"; a
 * resource whose every operation is the platform's says so in the resource list; and right below
 * the operation the editor shows a notice that starts "<platform> only". Visibility is resolved
 * with n8n-workflow's own NodeHelpers, as the editor resolves it, on both node versions.
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { NodeHelpers, NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { executeContext } from './helpers/context';

/** The operations each platform alone has: those whose code asks the adapter for a capability only its API has. */
const PLATFORM_ONLY: Array<[string, string, INodeType, Record<string, string[]>]> = [
	[
		'Signing',
		'Documenso',
		new Signing(),
		{
			attachment: ['add', 'getMany', 'remove'],
			document: ['createFromFile', 'delete', 'duplicate', 'update'],
			field: ['add', 'get', 'remove', 'update'],
			file: ['getMany', 'remove', 'update'],
			folder: ['create', 'delete', 'getMany', 'update'],
			recipient: ['add', 'get', 'rejectOnBehalf', 'remove', 'update'],
			template: ['createFromFile', 'delete', 'duplicate', 'update'],
		},
	],
	[
		'Bookmarks',
		'Karakeep',
		new Bookmarks(),
		{
			asset: ['attach', 'detach', 'download', 'replace'],
			backup: ['create', 'delete', 'download', 'getMany'],
			bookmark: ['checkUrl', 'createFromFile', 'getContent', 'summarize'],
			feed: ['create', 'delete', 'fetchNow', 'getMany', 'update'],
			highlight: ['create', 'delete', 'get', 'getMany', 'update'],
			list: ['get'],
			tag: ['create', 'delete', 'get', 'rename'],
			user: ['getStats'],
		},
	],
	[
		'Survey',
		'Formbricks',
		new Survey(),
		{
			contact: ['create', 'createMany', 'delete', 'get', 'getMany'],
			contactAttributeKey: ['create', 'getMany'],
			response: ['create', 'update'],
			survey: [
				'archive',
				'complete',
				'create',
				'delete',
				'duplicate',
				'getPersonalLink',
				'getSingleUseLinks',
				'pause',
				'publish',
				'restore',
				'update',
				'validate',
			],
		},
	],
];

const MARK = / \((Documenso|Karakeep|Formbricks)\)$/;

function shown(nodeType: INodeType, typeVersion: number, values: INodeParameters): INodeProperties[] {
	const { description } = nodeType;
	const node = { typeVersion, parameters: values } as unknown as INode;
	const resolved = NodeHelpers.getNodeParameters(description.properties, values, true, false, node, description) ?? {};
	return description.properties.filter((property) => NodeHelpers.displayParameter(resolved, property, node, description));
}

const resourcesOf = (node: INodeType) =>
	node.description.properties.find((property) => property.name === 'resource')!.options as INodePropertyOptions[];

const operationsOf = (node: INodeType, resource: string) =>
	node.description.properties.find(
		(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource),
	)!.options as INodePropertyOptions[];

describe.each(PLATFORM_ONLY)('%s: what only %s has', (_, platform, node, only) => {
	const mark = ` (${platform})`;
	const resources = resourcesOf(node).map((resource) => String(resource.value));

	it('every operation: marked in the nodes panel and the operation list exactly when only the platform has it', () => {
		const marks = resources.flatMap((resource) =>
			operationsOf(node, resource).map((operation) => {
				const platformOnly = (only[resource] ?? []).includes(String(operation.value));
				return {
					operation: `${resource}:${String(operation.value)}`,
					action: operation.action?.endsWith(mark) ? 'marked' : 'unmarked',
					description: operation.description?.endsWith(mark) ? 'marked' : 'unmarked',
					expected: platformOnly ? 'marked' : 'unmarked',
				};
			}),
		);
		expect(marks.filter((entry) => entry.action !== entry.expected || entry.description !== entry.expected)).toEqual([]);
		// Nothing is marked with another platform's name, nor twice.
		for (const resource of resources) {
			for (const operation of operationsOf(node, resource)) {
				for (const text of [operation.action ?? '', operation.description ?? '']) {
					expect(text).not.toMatch(/\((Documenso|Karakeep|Formbricks)\).*\((Documenso|Karakeep|Formbricks)\)$/);
				}
				if (!(only[resource] ?? []).includes(String(operation.value))) expect(operation.action).not.toMatch(MARK);
			}
		}
	});

	it('the resource list marks a resource whose every operation is the platform’s, and only those', () => {
		const listed = resourcesOf(node).map((resource) => [resource.value, resource.description?.endsWith(mark) ?? false]);
		const expected = resources.map((resource) => [
			resource,
			operationsOf(node, resource).every((operation) => (only[resource] ?? []).includes(String(operation.value))),
		]);
		expect(listed).toEqual(expected);
	});

	it.each([1, 2])('version %i: right below each of its operations, a notice that starts "<platform> only"', (version) => {
		const below = Object.entries(only).flatMap(([resource, operations]) =>
			operations.map((operation) => {
				const parameters = shown(node, version, { resource, operation });
				const next = parameters[parameters.findIndex((parameter) => parameter.name === 'operation') + 1];
				return [`${resource}:${operation}`, next?.type, next?.displayName.startsWith(`${platform} only`)];
			}),
		);
		expect(below).toEqual(Object.entries(only).flatMap(([resource, operations]) => operations.map((operation) => [`${resource}:${operation}`, 'notice', true])));
	});

	it('no operation another API has shows such a notice', () => {
		const noticed = resources.flatMap((resource) =>
			operationsOf(node, resource)
				.filter((operation) => !(only[resource] ?? []).includes(String(operation.value)))
				.filter((operation) =>
					shown(node, 2, { resource, operation: operation.value as string }).some(
						(parameter) => parameter.type === 'notice' && /^(Documenso|Karakeep|Formbricks) only/.test(parameter.displayName),
					),
				)
				.map((operation) => `${resource}:${String(operation.value)}`),
		);
		expect(noticed).toEqual([]);
	});
});

// The panel's names are what the rule promises: a platform-only operation on the documented API
// fails at once with the shared error naming the platform (as the node's notice says).
describe('the marked operations are the ones the documented API refuses at once', () => {
	const credentials = {
		signingApi: { baseUrl: 'http://127.0.0.1:9', apiToken: 'token' },
		bookmarkApi: { baseUrl: 'http://127.0.0.1:9', apiKey: 'key' },
		surveyApi: { baseUrl: 'http://127.0.0.1:9', apiKey: 'key' },
	};
	it.each([
		['Signing', 'Documenso', new Signing(), { resource: 'folder', operation: 'getMany' }],
		['Signing', 'Documenso', new Signing(), { resource: 'recipient', operation: 'get', documentId: 'd1', recipientId: '1' }],
		['Survey', 'Formbricks', new Survey(), { resource: 'contact', operation: 'getMany', returnAll: true }],
		['Bookmarks', 'Karakeep', new Bookmarks(), { resource: 'tag', operation: 'create', name: 'new' }],
	])('%s, an operation only %s has', async (_, platform, node, parameters) => {
		const { context, requests } = executeContext({ parameters, credentials });
		const error = await node.execute!.call(context).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(new RegExp(`is available with the ${platform} API`));
		expect(requests).toEqual([]);
	});
});
