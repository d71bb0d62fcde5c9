import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { invalidInput, isHttpUrl, requiredString } from '../../../shared/validation';
import { bookmarkRequest, recordPath } from '../../transport';
import { shapeWrite, simplifyBookmarksParameter } from './simplify';

const show = { resource: ['bookmark'], operation: ['create'] };

export const createDescription: INodeProperties[] = [
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'link',
		options: [
			{ name: 'Link', value: 'link', description: 'A web page, article or media URL' },
			{ name: 'Text', value: 'text', description: 'A note without a URL' },
		],
		displayOptions: { show },
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.org/article',
		description:
			'URL of the article or media to store. What happens when this exact URL is already stored is set by the option If URL Exists.',
		displayOptions: { show: { ...show, type: ['link'] } },
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		description: 'Content of the text record',
		displayOptions: { show: { ...show, type: ['text'] } },
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		description: 'Title of the record; the service derives one from the page when left empty',
		displayOptions: { show },
	},
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		default: '',
		placeholder: 'residency, portfolio',
		description: 'Comma-separated tags to attach to the record',
		displayOptions: { show },
	},
	{
		displayName: 'Notes',
		name: 'notes',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'Free-text notes stored with the record; they are searchable',
		displayOptions: { show },
	},
	simplifyBookmarksParameter(['create']),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { ...show, type: ['link'] } },
		options: [
			{
				displayName: 'If URL Exists',
				name: 'ifUrlExists',
				type: 'options',
				default: 'returnExisting',
				description: 'What to do when this exact URL is already stored',
				options: [
					{
						name: 'Fail',
						value: 'fail',
						description: 'Stop with an error that names the existing record',
					},
					{
						name: 'Return Existing',
						value: 'returnExisting',
						description: 'Return the stored record unchanged, with alreadyExists set to true',
					},
					{
						name: 'Update It',
						value: 'update',
						description:
							'Apply the Title and Notes given here to the stored record and attach the Tags given here (tags it has stay)',
					},
				],
			},
		],
	},
];

/** Tags from a comma-separated string or an array (as an expression may give), trimmed, without duplicates. */
export function parseTags(value: unknown): string[] {
	const parts = Array.isArray(value) ? value.map(String) : String(value ?? '').split(',');
	return [...new Set(parts.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}

export async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body = createBody(this, itemIndex);
	return await shapeWrite(this, itemIndex, async () => await storeRecord(this, itemIndex, body));
}

/** The request body from the parameters, checked before anything is sent. */
function createBody(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const type = ctx.getNodeParameter('type', itemIndex, 'link') as string;
	const body: IDataObject = { type };
	if (type === 'link') {
		const url = requiredString(ctx, itemIndex, 'url', 'URL');
		if (!isHttpUrl(url))
			throw invalidInput(ctx, itemIndex, 'URL', `"${url}" is not an http(s) URL`);
		body.url = url;
	} else {
		body.text = requiredString(ctx, itemIndex, 'text', 'Text');
	}
	const title = String(ctx.getNodeParameter('title', itemIndex, '') ?? '').trim();
	if (title) body.title = title;
	const tags = parseTags(ctx.getNodeParameter('tags', itemIndex, ''));
	if (tags.length) body.tags = tags;
	const notes = String(ctx.getNodeParameter('notes', itemIndex, '') ?? '').trim();
	if (notes) body.note = notes;
	return body;
}

async function storeRecord(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
): Promise<IDataObject> {
	const type = body.type;
	const record = await bookmarkRequest(ctx, {
		method: 'POST',
		path: '/api/v1/bookmarks',
		body,
		itemIndex,
	});
	if (record.alreadyExists !== true) return { ...record, alreadyExists: false };

	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const ifUrlExists =
		type === 'link' ? (options.ifUrlExists ?? 'returnExisting') : 'returnExisting';
	if (ifUrlExists === 'fail') {
		throw new NodeOperationError(
			ctx.getNode(),
			`The URL is already stored as record ${String(record.id)}`,
			{
				itemIndex,
				description:
					'Set the option If URL Exists to Return Existing or Update It to go on instead',
			},
		);
	}
	if (ifUrlExists === 'update')
		return await updateExisting(ctx, itemIndex, String(record.id), body, record);
	return { ...record, alreadyExists: true };
}

/** Applies the given title, note and tags to a record found by its URL, and returns it as it is now. */
async function updateExisting(
	ctx: IExecuteFunctions,
	itemIndex: number,
	recordId: string,
	body: IDataObject,
	existing: IDataObject,
): Promise<IDataObject> {
	let record: IDataObject = existing;
	const changes: IDataObject = {};
	if (body.title !== undefined) changes.title = body.title;
	if (body.note !== undefined) changes.note = body.note;
	if (Object.keys(changes).length) {
		record = await bookmarkRequest(ctx, {
			method: 'PATCH',
			path: recordPath(recordId),
			body: changes,
			itemIndex,
		});
	}
	if (body.tags !== undefined) {
		await bookmarkRequest(ctx, {
			method: 'POST',
			path: recordPath(recordId, '/tags'),
			body: { tags: body.tags },
			itemIndex,
		});
		record = await bookmarkRequest(ctx, { method: 'GET', path: recordPath(recordId), itemIndex });
	}
	return { ...record, alreadyExists: true };
}
