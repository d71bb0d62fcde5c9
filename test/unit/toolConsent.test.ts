import type { IDataObject, INodeExecutionData, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { type Sandbox, SEED, startSandbox } from '../sandbox';
import { executeContext, type Parameters } from './helpers/context';
import { sandboxControl, type ServiceName } from './helpers/sandbox';

jest.setTimeout(60_000);

/*
 * Issue 23 §1: every operation that deletes, cancels or e-mails people refuses to act for an
 * agent unless the workflow's author switched on "Allow as AI Agent Tool"; nothing is sent then.
 */

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const recipients = [{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' }];
const generate = (extra: Parameters = {}): Parameters => ({
	resource: 'document',
	operation: 'generateFromTemplate',
	templateId: byId(SEED.residencyTemplateId),
	title: 'Residency agreement',
	recipientsInput: 'json',
	recipientsJson: recipients,
	...extra,
});

interface Case {
	name: string;
	node: INodeType;
	type: string;
	service: ServiceName;
	/** The switch's parameter. */
	consent: string;
	parameters: (ids: Record<string, string>) => Parameters;
}

const CASES: Case[] = [
	{
		name: 'Signing: Document → Send',
		node: new Signing(),
		type: 'signing',
		service: 'signing',
		consent: 'allowAsTool',
		parameters: (ids) => ({ resource: 'document', operation: 'send', documentId: ids.draft }),
	},
	{
		name: 'Signing: Document → Resend',
		node: new Signing(),
		type: 'signing',
		service: 'signing',
		consent: 'allowAsTool',
		parameters: (ids) => ({ resource: 'document', operation: 'resend', documentId: ids.pending }),
	},
	{
		name: 'Signing: Document → Cancel',
		node: new Signing(),
		type: 'signing',
		service: 'signing',
		consent: 'allowAsTool',
		parameters: (ids) => ({ resource: 'document', operation: 'cancel', documentId: ids.pending }),
	},
	{
		name: 'Signing: Document → Generate From Template with Send Now',
		node: new Signing(),
		type: 'signing',
		service: 'signing',
		consent: 'allowAsTool',
		parameters: () => generate(),
	},
	{
		name: 'Bookmarks: Bookmark → Delete',
		node: new Bookmarks(),
		type: 'bookmarks',
		service: 'bookmark',
		consent: 'allowAsTool',
		parameters: () => ({ resource: 'bookmark', operation: 'delete', recordId: byId(SEED.adaPortfolioBookmarkId) }),
	},
	{
		name: 'Bookmarks: List → Delete',
		node: new Bookmarks(),
		type: 'bookmarks',
		service: 'bookmark',
		consent: 'allowAsTool',
		parameters: () => ({ resource: 'list', operation: 'delete', listId: byId(SEED.readingListId) }),
	},
	{
		name: 'Survey: Response → Delete',
		node: new Survey(),
		type: 'survey',
		service: 'survey',
		consent: 'allowDeleteAsTool',
		parameters: () => ({ resource: 'response', operation: 'delete', responseId: SEED.adaResponseId }),
	},
];

describe('destructive operations as tools need the author’s consent', () => {
	let sandbox: Sandbox;
	const ids: Record<string, string> = {};
	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
	});
	afterAll(async () => await sandbox?.stop());

	const run = async (node: INodeType, type: string, parameters: Parameters, asTool: boolean) => {
		const { context } = executeContext({
			parameters,
			credentials: {
				signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
				bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey },
				surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey },
			},
			node: asTool ? { type: `n8n-nodes-sign-survey-bookmark.${type}Tool` } : undefined,
		});
		const [output] = (await node.execute!.call(context)) as INodeExecutionData[][];
		return output.map((item) => item.json);
	};

	beforeEach(async () => {
		for (const service of ['signing', 'bookmark', 'survey'] as const) {
			await sandboxControl(sandbox, service).reset();
		}
		const signing = new Signing();
		ids.draft = String((await run(signing, 'signing', generate({ distribute: false }), false))[0].documentId);
		ids.pending = String((await run(signing, 'signing', generate(), false))[0].documentId);
		for (const service of ['signing', 'bookmark', 'survey'] as const) {
			await sandboxControl(sandbox, service).clearRequests();
		}
	});

	it.each(CASES.map((entry) => [entry.name, entry] as const))(
		'%s refuses as a tool without the switch, and sends nothing',
		async (_name, entry) => {
			const error = await run(entry.node, entry.type, entry.parameters(ids), true).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toMatch(/is not allowed for an AI agent$/);
			expect(error.description).toContain('Allow as AI Agent Tool');
			expect(await sandboxControl(sandbox, entry.service).requests()).toEqual([]);
		},
	);

	it.each(CASES.map((entry) => [entry.name, entry] as const))(
		'%s acts as a tool with the switch on',
		async (_name, entry) => {
			const parameters = entry.parameters(ids);
			const asTool = await run(entry.node, entry.type, { ...parameters, [entry.consent]: true }, true);
			expect(asTool).toHaveLength(1);
			expect(asTool[0].error).toBeUndefined();
		},
	);

	it('lets an agent create a draft without the switch: Send Now off e-mails no one', async () => {
		const [draft] = await run(new Signing(), 'signing', generate({ distribute: false }), true);
		expect(draft.status).toBe('DRAFT');
	});

	it.each([
		['Signing', new Signing(), 'allowAsTool', ['add', 'cancel', 'create', 'createFromFile', 'delete', 'duplicate', 'generateFromTemplate', 'rejectOnBehalf', 'remove', 'resend', 'send', 'update']],
		['Bookmarks', new Bookmarks(), 'allowAsTool', ['delete', 'detach', 'replace', 'summarize']],
		['Survey', new Survey(), 'allowDeleteAsTool', ['delete']],
	] as const)('%s shows the switch, off by default, on those operations', (_node, node, name, operations) => {
		const property = node.description.properties.find((entry) => entry.name === name) as INodeProperties;
		expect(property).toMatchObject({ displayName: 'Allow as AI Agent Tool', type: 'boolean', default: false });
		expect([...((property.displayOptions?.show as IDataObject).operation as string[])].sort()).toEqual(operations);
	});
});
