import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredId } from '../../../shared/validation';
import { bookmarkAdapter, bookmarkApis } from '../../adapters';
import { bookmarksPersonalDataOption, consentTo } from '../../personalData';
import { recordLocator } from '../locators';

const show = { resource: ['bookmark'], operation: ['summarize'] };

export const summarizeDescription: INodeProperties[] = [
	recordLocator(show, 'The link record to summarize: Karakeep’s AI reads its page and stores the summary on it'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [bookmarksPersonalDataOption],
	},
];

/**
 * Karakeep's AI summary of a link record, stored on the record (it replaces one there): `{ recordId,
 * summary }`. It spends the server's AI and changes the record, so an agent does it only with the
 * author's consent, as it deletes.
 */
export async function summarize(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Summarizing bookmarks'));
	const recordId = requiredId(this, itemIndex, 'recordId', 'Bookmark');
	const adapter = await bookmarkAdapter(this, itemIndex);
	const summaries = bookmarkApis.capability(this, adapter, 'summaries', 'Bookmark → Summarize', itemIndex);
	const summary = await summaries.summarize(this, recordId, itemIndex);
	return { recordId, summary };
}
