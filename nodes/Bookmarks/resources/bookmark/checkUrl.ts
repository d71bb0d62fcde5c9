import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput, isHttpUrl, requiredString } from '../../../shared/validation';
import { bookmarkAdapter, bookmarkApis } from '../../adapters';

const show = { resource: ['bookmark'], operation: ['checkUrl'] };

export const checkUrlDescription: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.org/article',
		description: 'The link to look for. Karakeep ignores a #fragment and a trailing slash when it compares.',
		displayOptions: { show },
	},
];

/** Whether a link is saved already, without saving it: `{ url, saved, recordId }`. */
export async function checkUrl(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const url = requiredString(this, itemIndex, 'url', 'URL');
	if (!isHttpUrl(url)) throw invalidInput(this, itemIndex, 'URL', `"${url}" is not an http(s) URL`);
	const adapter = await bookmarkAdapter(this, itemIndex);
	const lookUp = bookmarkApis.capability(this, adapter, 'urlCheck', 'Bookmark → Check URL', itemIndex);
	const recordId = await lookUp.savedUnder(this, url, itemIndex);
	return { url, saved: recordId !== null, recordId };
}
