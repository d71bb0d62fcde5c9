import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { invalidInput, isHttpUrl, requiredString } from '../../../shared/validation';
import { bookmarksPersonalDataOption } from '../../personalData';
import { bookmarkAdapter, type NewRecord } from '../../adapters';
import { shapeWrite, simplifyBookmarksParameter } from './simplify';
import { readTagsToSend, TAGS_HINT } from './tagList';
import { updateExisting } from './updateExisting';

const show = { resource: ['bookmark'], operation: ['create'] };

/** The Tags and Notes of a new record (Create, Create From File). */
export const tagsAndNotes = (shownFor: IDataObject, tagsExample: string): INodeProperties[] => [
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		default: '',
		placeholder: tagsExample,
		description: 'Tags to attach to the record (at most 50)',
		hint: TAGS_HINT,
		displayOptions: { show: shownFor as never },
	},
	{
		displayName: 'Notes',
		name: 'notes',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'Free-text notes stored with the record; they are searchable',
		displayOptions: { show: shownFor as never },
	},
];

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
	...tagsAndNotes(show, 'residency, portfolio'),
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
			bookmarksPersonalDataOption,
		],
	},
];

export async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body = createBody(this, itemIndex);
	return await shapeWrite(this, itemIndex, async () => await storeRecord(this, itemIndex, body));
}

/** The request body from the parameters, checked before anything is sent. */
function createBody(ctx: IExecuteFunctions, itemIndex: number): NewRecord {
	const type = ctx.getNodeParameter('type', itemIndex, 'link') === 'text' ? 'text' : 'link';
	const body: NewRecord = { type };
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
	// With If URL Exists → Update It the tags go to the service's tag request.
	const tags = readTagsToSend(ctx, itemIndex);
	if (tags.length) body.tags = tags;
	const notes = String(ctx.getNodeParameter('notes', itemIndex, '') ?? '').trim();
	if (notes) body.note = notes;
	return body;
}

async function storeRecord(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: NewRecord,
): Promise<IDataObject> {
	const type = body.type;
	const adapter = await bookmarkAdapter(ctx, itemIndex);
	const record = await adapter.createRecord(ctx, body, itemIndex);
	if (record.alreadyExists !== true) return record;

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
