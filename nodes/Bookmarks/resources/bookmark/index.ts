import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { checkUrl, checkUrlDescription } from './checkUrl';
import { create, createDescription } from './create';
import { deleteDescription, deleteRecord } from './delete';
import { CREATE_FROM_FILE_NOTICE, createFromFile, createFromFileDescription } from './createFromFile';
import { get, getDescription } from './get';
import { GET_CONTENT_NOTICE, getContent, getContentDescription } from './getContent';
import { getManyDescription, searchRecords } from './getMany';
import { addToList, listMembershipDescription, removeFromList } from './listMembership';
import { addTags, removeTags, tagsDescription } from './tags';
import { summarize, summarizeDescription } from './summarize';
import { update, updateDescription } from './update';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

export const bookmarkOperations: Record<string, ItemOperation> = {
	addTags,
	addToList,
	checkUrl,
	create,
	createFromFile,
	delete: deleteRecord,
	get,
	getContent,
	getMany: searchRecords,
	removeFromList,
	removeTags,
	search: searchRecords,
	summarize,
	update,
};

export const bookmarkDescription: INodeProperties[] = [
	withPlatformOnly('Karakeep', ['checkUrl', 'createFromFile', 'getContent', 'summarize'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bookmark'] } },
		options: [
			{
				name: 'Add Tags',
				value: 'addTags',
				action: 'Add tags to a bookmark',
				description: 'Attach tags to a record by name, creating tags that do not exist yet',
			},
			{
				name: 'Add to List',
				value: 'addToList',
				action: 'Add a bookmark to a list',
				description: 'File a record in a list; a record already in the list stays there',
			},
			{
				name: 'Check URL',
				value: 'checkUrl',
				action: 'Check whether a URL is saved',
				description: 'Whether a link is saved already, and as which record, without saving it (Karakeep)',
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create a bookmark',
				description: 'Store a link or text record with tags and notes (the ingest tool)',
			},
			{
				name: 'Create From File',
				value: 'createFromFile',
				action: 'Create a bookmark from a file',
				description:
					'Store an input file (PDF or image) as a record of its own, searchable by its extracted text, with tags and notes',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a bookmark',
				description: 'Delete a record for good; outputs deleted: true and the record’s ID',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a bookmark',
				description: 'Get one record by ID with its complete content and metadata',
			},
			{
				name: 'Get Content',
				value: 'getContent',
				action: 'Get the readable content of a bookmark',
				description:
					'Get a record’s readable text: a page’s article, a note’s text, a file’s extracted text, as markdown or plain text',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many bookmarks',
				description:
					'List records, newest first, optionally filtered by keyword, tag, list, archived or favourited',
			},
			{
				name: 'Remove From List',
				value: 'removeFromList',
				action: 'Remove a bookmark from a list',
				description: 'Take a record out of a list; the record itself stays',
			},
			{
				name: 'Remove Tags',
				value: 'removeTags',
				action: 'Remove tags from a bookmark',
				description: 'Detach tags from a record by name; outputs the tags it had',
			},
			{
				name: 'Search',
				value: 'search',
				action: 'Search bookmarks',
				description: 'Search records by keyword or phrase, including notes and OCR transcripts',
			},
			{
				name: 'Summarize',
				value: 'summarize',
				action: 'Summarize a bookmark',
				description: 'Have Karakeep’s AI summarize a link record’s page and store the summary on it (Karakeep)',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a bookmark',
				description:
					'Change a record’s title or note, archive or unarchive it, favourite or unfavourite it; on Karakeep also its summary, URL, page details, text and time',
			},
		],
		default: 'search',
	}),
	...platformOnlyNotices('Karakeep', 'bookmark', {
		checkUrl: '',
		createFromFile: CREATE_FROM_FILE_NOTICE,
		getContent: GET_CONTENT_NOTICE,
		summarize: '',
	}),
	...checkUrlDescription,
	...createDescription,
	...createFromFileDescription,
	...getDescription,
	...getContentDescription,
	...getManyDescription,
	...summarizeDescription,
	...updateDescription,
	...deleteDescription,
	...tagsDescription,
	...listMembershipDescription,
];
