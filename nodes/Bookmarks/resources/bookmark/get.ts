import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';
import { bookmarkRequest } from '../../transport';

export const getDescription: INodeProperties[] = [
	{
		displayName: 'Record ID',
		name: 'recordId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'bm_…',
		description: 'ID of the record to read in full: title, notes, tags, lists, URL, description and OCR text',
		displayOptions: { show: { resource: ['bookmark'], operation: ['get'] } },
	},
];

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const recordId = requiredId(this, itemIndex, 'recordId', 'Record ID');
	return await bookmarkRequest(this, {
		method: 'GET',
		path: `/api/v1/bookmarks/${encodeURIComponent(recordId)}`,
		itemIndex,
	});
}
