/**
 * Issue 41: no operation reads a parameter that its displayOptions hide. n8n holds only the shown
 * parameters of a node (with their defaults) and n8n-core throws "Could not get parameter" for any
 * other read without a fallback, as Field → Add did in every real n8n. Every operation of every
 * action node runs here with exactly those parameters, once for each value of each choice it shows
 * (e.g. Placement: At a Text, At a Position), on both APIs, until its first request (which fails at
 * once: nothing is sent). The end-to-end sweep (test/e2e/everyOperation.test.ts) runs them all
 * through to the service in a real n8n.
 */
import type { IDataObject, INodeExecutionData, INodeProperties, INodeType, NodeParameterValueType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { operationsOf, shownParameters } from '../harness/operationSweep';
import { executeContext, inputBinary } from './helpers/context';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const NO_SERVICE = 'the test sends nothing';

const NODES: Array<{ node: INodeType; credential: string; apis: Array<IDataObject> }> = [
	{
		node: new Signing(),
		credential: 'signingApi',
		apis: [{ api: 'documented', apiToken: 'token' }, { api: 'documenso', apiToken: 'api_token' }],
	},
	{
		node: new Survey(),
		credential: 'surveyApi',
		apis: [{ api: 'documented', apiKey: 'key' }, { api: 'formbricks', apiKey: 'fbk_key' }],
	},
	{
		node: new Bookmarks(),
		credential: 'bookmarkApi',
		apis: [{ api: 'documented', apiKey: 'key' }, { api: 'karakeep', apiKey: 'ak1_key' }],
	},
];

/** Values that get an operation past its input checks to its first request. */
const GIVEN: Record<string, NodeParameterValueType> = {
	documentId: '1001',
	templateId: { __rl: true, mode: 'id', value: '1' },
	recordId: { __rl: true, mode: 'id', value: 'record-1' },
	listId: { __rl: true, mode: 'id', value: 'list-1' },
	tagId: { __rl: true, mode: 'id', value: 'tag-1' },
	surveyId: { __rl: true, mode: 'id', value: 'survey-1' },
	title: 'Title',
	name: 'Name',
	email: 'someone@example.org',
	recipient: 'someone@example.org',
	placeholder: '[[sign]]',
	width: 10,
	height: 5,
	label: 'Label',
	url: 'https://example.org/',
	tags: 'tag',
	query: 'query',
	text: 'text',
	endOffset: 4,
	key: 'key',
	recipientsJson: '[{"name":"Ada","email":"ada@example.org","role":"SIGNER"}]',
	uploadRecipientsJson: '[{"name":"Ada","email":"ada@example.org","role":"SIGNER"}]',
};
for (const name of ['attachmentId', 'fieldId', 'folderId', 'recipientId', 'responseId', 'contactId', 'assetId', 'highlightId', 'segmentId']) {
	GIVEN[name] = `${name}-1`;
}

/** The values of each choice (options or boolean) the operation shows at the top level. */
function choices(properties: INodeProperties[], shown: Record<string, unknown>) {
	return properties
		.filter((property) => property.name in shown && !['resource', 'operation'].includes(property.name))
		.flatMap((property) => {
			if (property.type === 'boolean') return [{ [property.name]: !property.default }];
			if (property.type !== 'options') return [];
			return ((property.options ?? []) as Array<{ value: NodeParameterValueType }>)
				.filter((option) => option.value !== property.default)
				.map((option) => ({ [property.name]: option.value }));
		});
}

const cases = NODES.flatMap(({ node, credential, apis }) =>
	operationsOf(node.description).flatMap((operation) =>
		apis.map((api) => [`${node.description.displayName} ${operation.resource} → ${operation.operation} (${String(api.api)})`, node, credential, api, operation] as const),
	),
);

it.each(cases)('%s reads only the parameters n8n holds for it', async (_name, node, credential, api, operation) => {
	const base: Record<string, NodeParameterValueType> = { ...operation };
	const first = shownParameters(node.description, base);
	for (const [name, value] of Object.entries(GIVEN)) if (name in first) base[name] = value;
	const unread: string[] = [];
	for (const choice of [{}, ...choices(node.description.properties, first)]) {
		const values = shownParameters(node.description, { ...base, ...choice });
		for (const [name, value] of Object.entries(GIVEN)) {
			if (!(name in values)) continue;
			const visible = NodeHelpers.getNodeParameters(node.description.properties, { ...values, [name]: value } as never, true, false, { typeVersion: 2, parameters: {} } as never, node.description) as IDataObject;
			if (name in visible) values[name] = value;
		}
		const { context } = executeContext({
			parameters: values as Record<string, unknown>,
			asN8n: true,
			continueOnFail: true,
			node: { typeVersion: 2 },
			binaries: [{ data: inputBinary(PDF, 'agreement.pdf', 'application/pdf') }],
			credentials: { [credential]: { ...api, baseUrl: 'http://127.0.0.1:9' } },
		});
		// Every request is refused at once (a 4xx is not repeated): the operation ends at its first one.
		context.helpers.httpRequestWithAuthentication = async () => ({ statusCode: 418, headers: {}, body: { message: NO_SERVICE } });
		let outcome: string;
		try {
			const output = (await node.execute!.call(context)) as INodeExecutionData[][];
			outcome = JSON.stringify(output?.[0]?.[0]?.json ?? {});
		} catch (error) {
			outcome = (error as Error).message;
		}
		if (/Could not get parameter/.test(outcome)) unread.push(`${JSON.stringify(choice)}: ${outcome}`);
	}
	expect(unread).toEqual([]);
});
