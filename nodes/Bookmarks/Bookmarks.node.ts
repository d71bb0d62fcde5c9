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
import { assetDescription, assetOperations } from './resources/asset';
import { backupDescription, backupOperations } from './resources/backup';
import { bookmarkDescription, bookmarkOperations } from './resources/bookmark';
import { feedDescription, feedOperations } from './resources/feed';
import { highlightDescription, highlightOperations } from './resources/highlight';
import { listDescription, listOperations } from './resources/list';
import { searchBookmarks, searchLists, searchTags } from './resources/locators';
import { tagDescription, tagOperations } from './resources/tag';
import { userDescription, userOperations } from './resources/user';
import { docsSection } from '../shared/docs';
import { withPlatformOnly } from '../shared/platformOnly';
import { BOOKMARKS_DESCRIPTION } from '../shared/nodeDescriptions';
import { BOOKMARKS_NODE_VERSIONS, TAG_SHAPE_VERSION } from '../shared/simplify';

const operationsByResource = {
	asset: assetOperations,
	backup: backupOperations,
	bookmark: bookmarkOperations,
	feed: feedOperations,
	highlight: highlightOperations,
	list: listOperations,
	tag: tagOperations,
	user: userOperations,
};

/** What each operation does, as a person reads it (issue 18: never the code names), for the node's subtitle. */
const SUBTITLES: Record<string, string> = {
	'asset:attach': 'Attach file to bookmark',
	'asset:detach': 'Detach file from bookmark',
	'asset:download': 'Download file',
	'asset:replace': 'Replace file of bookmark',
	'backup:create': 'Create backup',
	'backup:delete': 'Delete backup',
	'backup:download': 'Download backup',
	'backup:getMany': 'Get many backups',
	'bookmark:addTags': 'Add tags to bookmark',
	'bookmark:addToList': 'Add bookmark to list',
	'bookmark:checkUrl': 'Check whether a URL is saved',
	'bookmark:create': 'Create bookmark',
	'bookmark:createFromFile': 'Create bookmark from file',
	'bookmark:delete': 'Delete bookmark',
	'bookmark:get': 'Get bookmark',
	'bookmark:getContent': 'Get bookmark content',
	'bookmark:getMany': 'Get many bookmarks',
	'bookmark:removeFromList': 'Remove bookmark from list',
	'bookmark:removeTags': 'Remove tags from bookmark',
	'bookmark:search': 'Search bookmarks',
	'bookmark:summarize': 'Summarize bookmark',
	'bookmark:update': 'Update bookmark',
	'feed:create': 'Create feed',
	'feed:delete': 'Delete feed',
	'feed:fetchNow': 'Fetch feed now',
	'feed:getMany': 'Get many feeds',
	'feed:update': 'Update feed',
	'highlight:create': 'Create highlight',
	'highlight:delete': 'Delete highlight',
	'highlight:get': 'Get highlight',
	'highlight:getMany': 'Get many highlights',
	'highlight:update': 'Update highlight',
	'list:create': 'Create list',
	'list:delete': 'Delete list',
	'list:get': 'Get list',
	'list:getMany': 'Get many lists',
	'list:update': 'Update list',
	'tag:create': 'Create tag',
	'tag:delete': 'Delete tag',
	'tag:get': 'Get tag',
	'tag:getMany': 'Get many tags',
	'tag:rename': 'Rename tag',
	'user:getStats': 'Get user stats',
};

export class Bookmarks implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bookmarks',
		name: 'bookmarks',
		icon: { light: 'file:bookmarks.svg', dark: 'file:bookmarks.dark.svg' },
		group: ['output'],
		version: BOOKMARKS_NODE_VERSIONS,
		defaultVersion: TAG_SHAPE_VERSION,
		subtitle: `={{ (${JSON.stringify(SUBTITLES)})[$parameter["resource"] + ":" + $parameter["operation"]] || "" }}`,
		description: BOOKMARKS_DESCRIPTION,
		documentationUrl: docsSection('bookmarks', 'bookmarks'),
		defaults: { name: 'Bookmarks' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'bookmarkApi', required: true, testedBy: 'bookmarkApiTest' }],
		properties: [
			withPlatformOnly('Karakeep', ['asset', 'backup', 'feed', 'highlight', 'user'], {
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Asset', value: 'asset', description: 'A stored file: download, attach, replace, detach' },
					{ name: 'Backup', value: 'backup', description: 'A zip archive of the whole account' },
					{ name: 'Bookmark', value: 'bookmark' },
					{ name: 'Feed', value: 'feed', description: 'An RSS subscription whose entries are saved as records' },
					{ name: 'Highlight', value: 'highlight', description: 'A marked passage of a record' },
					{ name: 'List', value: 'list' },
					{ name: 'Tag', value: 'tag' },
					{ name: 'User', value: 'user', description: 'The API key’s user' },
				],
				default: 'bookmark',
			}),
			...assetDescription,
			...backupDescription,
			...bookmarkDescription,
			...feedDescription,
			...highlightDescription,
			...listDescription,
			...tagDescription,
			...userDescription,
			bookmarksToolConsentProperty,
			...bookmarksPersonalDataOptions,
		],
	};

	methods = { credentialTest: { bookmarkApiTest }, listSearch: { searchBookmarks, searchLists, searchTags } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeWithPersonalData(this, operationsByResource, bookmarksPrivacy, bookmarkApis.explainError);
	}
}
