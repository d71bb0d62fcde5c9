import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeOperation } from '../shared/execute';
import { bookmarkApiTest } from './credentialTest';
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
		// What the operation does, as a person reads it (issue 18: never the code names).
		subtitle:
			'={{ ({ "bookmark:create": "Create bookmark", "bookmark:get": "Get bookmark", "bookmark:getMany": "Get many bookmarks", "bookmark:search": "Search bookmarks", "list:getMany": "Get many lists" })[$parameter["resource"] + ":" + $parameter["operation"]] || "" }}',
		description: 'Store, search and read bookmark records: links, notes and OCR text',
		defaults: { name: 'Bookmarks' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'bookmarkApi', required: true, testedBy: 'bookmarkApiTest' }],
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

	methods = { credentialTest: { bookmarkApiTest }, listSearch: { searchLists } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, operationsByResource);
	}
}
