import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredId } from '../../../shared/validation';
import { consentTo } from '../../personalData';
import { bookmarkRequest, recordPath } from '../../transport';
import { recordLocator } from '../locators';

export const deleteDescription: INodeProperties[] = [
	recordLocator(
		{ resource: ['bookmark'], operation: ['delete'] },
		'The record to delete for good (to keep it out of sight instead, archive it with Update)',
	),
];

export async function deleteRecord(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Deleting bookmarks'));
	const recordId = requiredId(this, itemIndex, 'recordId', 'Bookmark');
	await bookmarkRequest(this, { method: 'DELETE', path: recordPath(recordId), itemIndex });
	return { deleted: true, id: recordId };
}
