import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { create, createDescription } from './create';
import { get, getDescription } from './get';
import { getManyDescription, searchRecords } from './getMany';

export const bookmarkOperations: Record<string, ItemOperation> = {
	create,
	get,
	getMany: searchRecords,
	search: searchRecords,
};

export const bookmarkDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bookmark'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a bookmark',
				description: 'Store a link or text record with tags and notes (the ingest tool)',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a bookmark',
				description: 'Get one record with its complete content and metadata',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many bookmarks',
				description: 'List records, newest first, optionally filtered by keyword, tag or list',
			},
			{
				name: 'Search',
				value: 'search',
				action: 'Search bookmarks',
				description: 'Search records by keyword or phrase, including notes and OCR transcripts',
			},
		],
		default: 'search',
	},
	...createDescription,
	...getDescription,
	...getManyDescription,
];
