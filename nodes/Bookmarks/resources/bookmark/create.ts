import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput, isHttpUrl, requiredString } from '../../../shared/validation';
import { bookmarkRequest } from '../../transport';

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
			'URL of the article or media to store. If this exact URL is already stored, the existing record is returned with alreadyExists set to true.',
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
];

/** Tags from a comma-separated string or an array (as an expression may give), trimmed, without duplicates. */
export function parseTags(value: unknown): string[] {
	const parts = Array.isArray(value) ? value.map(String) : String(value ?? '').split(',');
	return [...new Set(parts.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}

export async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const type = this.getNodeParameter('type', itemIndex, 'link') as string;
	const body: IDataObject = { type };
	if (type === 'link') {
		const url = requiredString(this, itemIndex, 'url', 'URL');
		if (!isHttpUrl(url)) throw invalidInput(this, itemIndex, 'URL', `"${url}" is not an http(s) URL`);
		body.url = url;
	} else {
		body.text = requiredString(this, itemIndex, 'text', 'Text');
	}
	const title = String(this.getNodeParameter('title', itemIndex, '') ?? '').trim();
	if (title) body.title = title;
	const tags = parseTags(this.getNodeParameter('tags', itemIndex, ''));
	if (tags.length) body.tags = tags;
	const notes = String(this.getNodeParameter('notes', itemIndex, '') ?? '').trim();
	if (notes) body.note = notes;

	const record = await bookmarkRequest(this, { method: 'POST', path: '/api/v1/bookmarks', body, itemIndex });
	return { ...record, alreadyExists: record.alreadyExists === true };
}
