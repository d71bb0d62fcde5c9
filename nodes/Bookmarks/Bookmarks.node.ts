import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeWithPersonalData } from '../shared/privacy';
import { bookmarkApis } from './adapters';
import { bookmarkApiTest } from './credentialTest';
import {
	bookmarksPersonalDataOptions,
	bookmarksPrivacy,
	bookmarksToolConsentProperty,
} from './personalData';
import { bookmarkDescription, bookmarkOperations } from './resources/bookmark';
import { listDescription, listOperations } from './resources/list';
import { searchBookmarks, searchLists } from './resources/locators';
import { tagDescription, tagOperations } from './resources/tag';
import { readmeSection } from '../shared/docs';
import { BOOKMARKS_DESCRIPTION } from '../shared/nodeDescriptions';
import { NODE_VERSIONS, ONE_SHAPE_VERSION } from '../shared/simplify';

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
		version: NODE_VERSIONS,
		defaultVersion: ONE_SHAPE_VERSION,
		// What the operation does, as a person reads it (issue 18: never the code names).
		subtitle:
			'={{ ({ "bookmark:addTags": "Add tags to bookmark", "bookmark:addToList": "Add bookmark to list", "bookmark:create": "Create bookmark", "bookmark:delete": "Delete bookmark", "bookmark:get": "Get bookmark", "bookmark:getMany": "Get many bookmarks", "bookmark:removeFromList": "Remove bookmark from list", "bookmark:removeTags": "Remove tags from bookmark", "bookmark:search": "Search bookmarks", "bookmark:update": "Update bookmark", "list:create": "Create list", "list:delete": "Delete list", "list:getMany": "Get many lists", "list:update": "Update list", "tag:getMany": "Get many tags" })[$parameter["resource"] + ":" + $parameter["operation"]] || "" }}',
		description: BOOKMARKS_DESCRIPTION,
		documentationUrl: readmeSection('bookmarks'),
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
					{ name: 'Tag', value: 'tag' },
				],
				default: 'bookmark',
			},
			...bookmarkDescription,
			...listDescription,
			...tagDescription,
			bookmarksToolConsentProperty,
			...bookmarksPersonalDataOptions,
		],
	};

	methods = { credentialTest: { bookmarkApiTest }, listSearch: { searchBookmarks, searchLists } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeWithPersonalData(this, operationsByResource, bookmarksPrivacy, bookmarkApis.explainError);
	}
}
