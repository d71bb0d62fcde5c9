import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeOperation } from '../shared/execute';
import { bookmarkDescription, bookmarkOperations } from './resources/bookmark';
import { listDescription, listOperations } from './resources/list';
import { searchBookmarks, searchLists } from './resources/locators';
import { tagDescription, tagOperations } from './resources/tag';

const operationsByResource = {
	bookmark: bookmarkOperations,
	list: listOperations,
	tag: tagOperations,
};

export class Bookmarks implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bookmarks',
		name: 'bookmarks',
		icon: { light: 'file:bookmarks.svg', dark: 'file:bookmarks.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Store, search, organise and delete bookmark records: links, notes and OCR text, tags and lists',
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
					{ name: 'Tag', value: 'tag' },
				],
				default: 'bookmark',
			},
			...bookmarkDescription,
			...listDescription,
			...tagDescription,
		],
	};

	methods = { listSearch: { searchBookmarks, searchLists } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, operationsByResource);
	}
}
