import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { deleteUnlessGone, ifAlreadyGoneParameter } from '../../../shared/alreadyGone';
import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredId } from '../../../shared/validation';
import { consentTo } from '../../personalData';
import { bookmarkAnswer, recordPath } from '../../transport';
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
	const { alreadyGone } = await deleteUnlessGone(this, itemIndex, bookmarkAnswer.bind(null, this), {
		method: 'DELETE',
		path: recordPath(recordId),
	});
	return { deleted: true, id: recordId, alreadyGone };
}
