import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ifAlreadyGoneParameter, settleGone } from '../../../shared/alreadyGone';
import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredId } from '../../../shared/validation';
import { consentTo } from '../../personalData';
import { bookmarkAdapter } from '../../adapters';
import { recordLocator } from '../locators';

const show = { resource: ['bookmark'], operation: ['delete'] };

export const deleteDescription: INodeProperties[] = [
	recordLocator(
		show,
		'The record to delete for good (to keep it out of sight instead, archive it with Update)',
	),
	ifAlreadyGoneParameter(show, 'deleted'),
];

export async function deleteRecord(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Deleting bookmarks'));
	const recordId = requiredId(this, itemIndex, 'recordId', 'Bookmark');
	const adapter = await bookmarkAdapter(this, itemIndex);
	const alreadyGone = settleGone(this, itemIndex, await adapter.deleteRecord(this, recordId, itemIndex));
	return { deleted: true, id: recordId, alreadyGone };
}
