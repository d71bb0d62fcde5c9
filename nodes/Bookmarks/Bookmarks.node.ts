import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { runForEachItem } from '../shared/execute';
import { bookmarkDescription, bookmarkOperations } from './resources/bookmark';
import { listDescription, listOperations, searchLists } from './resources/list';

const operationsByResource = { bookmark: bookmarkOperations, list: listOperations };

export class Bookmarks implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bookmarks',
		name: 'bookmarks',
		icon: { light: 'file:bookmarks.svg', dark: 'file:bookmarks.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Store, search and read bookmark records: links, notes and OCR text',
		defaults: { name: 'Bookmarks' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'bookmarkApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Bookmark', value: 'bookmark' },
					{ name: 'List', value: 'list' },
				],
				default: 'bookmark',
			},
			...bookmarkDescription,
			...listDescription,
		],
	};

	methods = { listSearch: { searchLists } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resource = this.getNodeParameter('resource', 0) as keyof typeof operationsByResource;
		const operation = this.getNodeParameter('operation', 0) as string;
		const run = operationsByResource[resource]?.[operation];
		if (!run) {
			throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported for "${resource}"`);
		}
		return await runForEachItem(this, run);
	}
}
