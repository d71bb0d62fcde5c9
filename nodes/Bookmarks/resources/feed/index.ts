import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ifAlreadyGoneParameter, settleGone } from '../../../shared/alreadyGone';
import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/execute';
import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput, isHttpUrl, requiredId, requiredString } from '../../../shared/validation';
import { bookmarkAdapter, bookmarkApis, type FeedFields, type Feeds } from '../../adapters';
import { bookmarksPersonalDataOption, consentTo } from '../../personalData';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

/**
 * RSS subscriptions (Karakeep): Karakeep reads each enabled feed on its own schedule and saves new
 * entries as link records; Fetch Now asks it to read one at once.
 */

const FEEDS_DEFAULT_LIMIT = 50;
/** zNewFeedSchema, packages/shared/types/feeds.ts. */
const MAX_NAME_LENGTH = 100;
const MAX_URL_LENGTH = 2000;

const show = (...operation: string[]) => ({ resource: ['feed'], operation });

const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: `The feed’s name in Karakeep, up to ${MAX_NAME_LENGTH} characters`,
};
const urlField: INodeProperties = {
	displayName: 'Feed URL',
	name: 'url',
	type: 'string',
	default: '',
	placeholder: 'https://example.org/feed.xml',
	description: 'The address of the RSS or Atom feed',
};
const enabledField: INodeProperties = {
	displayName: 'Enabled',
	name: 'enabled',
	type: 'boolean',
	default: true,
	description: 'Whether Karakeep reads the feed on its schedule',
};
const importTagsField: INodeProperties = {
	displayName: 'Import Tags',
	name: 'importTags',
	type: 'boolean',
	default: false,
	description: 'Whether the entries’ categories become tags of the records saved',
};

export const feedDescription: INodeProperties[] = [
	withPlatformOnly('Karakeep', ['create', 'delete', 'fetchNow', 'getMany', 'update'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['feed'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a feed',
				description: 'Subscribe to an RSS feed: its new entries are saved as records (Karakeep)',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a feed',
				description: 'Unsubscribe; the records saved from it stay (Karakeep)',
			},
			{
				name: 'Fetch Now',
				value: 'fetchNow',
				action: 'Fetch a feed now',
				description:
					'Have Karakeep read the feed at once instead of waiting for its schedule (Karakeep)',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many feeds',
				description: 'Get the RSS subscriptions with when each was last read (Karakeep)',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a feed',
				description: 'Rename, re-address, enable or disable a feed (Karakeep)',
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices('Karakeep', 'feed', {
		create: '',
		delete: '',
		fetchNow: '',
		getMany: '',
		update: '',
	}),
	{ ...nameField, required: true, displayOptions: { show: show('create') } },
	{ ...urlField, required: true, displayOptions: { show: show('create') } },
	{
		displayName: 'Feed ID',
		name: 'feedId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID of a feed, as Feed → Create or Get Many return it',
		displayOptions: { show: show('update', 'delete', 'fetchNow') },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: show('create') },
		options: [enabledField, importTagsField],
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: show('update') },
		description: 'Only the fields added here are changed',
		options: [enabledField, { ...urlField, default: '' }, importTagsField, nameField],
	},
	ifAlreadyGoneParameter(show('delete'), 'deleted'),
	...returnAllAndLimit(show('getMany'), FEEDS_DEFAULT_LIMIT),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: show('create', 'getMany', 'update') },
		options: [bookmarksPersonalDataOption],
	},
];

const feedsOf = async (
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: string,
): Promise<Feeds> =>
	bookmarkApis.capability(
		ctx,
		await bookmarkAdapter(ctx, itemIndex),
		'feeds',
		`Feed → ${operation}`,
		itemIndex,
	);

function checkedName(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string {
	const name = String(value ?? '').trim();
	if (name === '') throw invalidInput(ctx, itemIndex, 'Name', 'it is empty');
	if (name.length > MAX_NAME_LENGTH)
		throw invalidInput(
			ctx,
			itemIndex,
			'Name',
			`it is ${name.length} characters long; Karakeep takes up to ${MAX_NAME_LENGTH}`,
		);
	return name;
}

function checkedUrl(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string {
	const url = String(value ?? '').trim();
	if (!isHttpUrl(url))
		throw invalidInput(ctx, itemIndex, 'Feed URL', `"${url}" is not an http(s) URL`);
	if (url.length > MAX_URL_LENGTH)
		throw invalidInput(
			ctx,
			itemIndex,
			'Feed URL',
			`it is ${url.length} characters long; Karakeep takes up to ${MAX_URL_LENGTH}`,
		);
	return url;
}

async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const name = checkedName(this, itemIndex, requiredString(this, itemIndex, 'name', 'Name'));
	const url = checkedUrl(this, itemIndex, requiredString(this, itemIndex, 'url', 'Feed URL'));
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const fields = {
		name,
		url,
		enabled: extra.enabled !== false,
		importTags: extra.importTags === true,
	};
	return await (await feedsOf(this, itemIndex, 'Create')).create(this, fields, itemIndex);
}

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit(this, itemIndex, FEEDS_DEFAULT_LIMIT);
	const found = await (await feedsOf(this, itemIndex, 'Get Many')).list(this, itemIndex);
	return limit === undefined ? found : found.slice(0, limit);
}

async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = requiredId(this, itemIndex, 'feedId', 'Feed ID');
	const given = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const fields: FeedFields = {};
	if (given.name !== undefined) fields.name = checkedName(this, itemIndex, given.name);
	if (given.url !== undefined) fields.url = checkedUrl(this, itemIndex, given.url);
	if (given.enabled !== undefined) fields.enabled = given.enabled === true;
	if (given.importTags !== undefined) fields.importTags = given.importTags === true;
	if (Object.keys(fields).length === 0) {
		throw invalidInput(
			this,
			itemIndex,
			'Update Fields',
			'add Enabled, Feed URL, Import Tags or Name',
		);
	}
	return await (await feedsOf(this, itemIndex, 'Update')).update(this, id, fields, itemIndex);
}

/** Output: `{ deleted: true, id, alreadyGone }`. */
async function deleteFeed(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Deleting feeds'));
	const id = requiredId(this, itemIndex, 'feedId', 'Feed ID');
	const answer = await (await feedsOf(this, itemIndex, 'Delete')).delete(this, id, itemIndex);
	return { deleted: true, id, alreadyGone: settleGone(this, itemIndex, answer) };
}

/** Output: `{ fetchRequested: true, id }`: Karakeep reads the feed in the background. */
async function fetchNow(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = requiredId(this, itemIndex, 'feedId', 'Feed ID');
	await (await feedsOf(this, itemIndex, 'Fetch Now')).fetchNow(this, id, itemIndex);
	return { fetchRequested: true, id };
}

export const feedOperations: Record<string, ItemOperation> = {
	create,
	delete: deleteFeed,
	fetchNow,
	getMany,
	update,
};
