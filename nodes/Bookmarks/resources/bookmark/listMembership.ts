import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';
import { bookmarkAdapter } from '../../adapters';
import { listLocator, recordLocator } from '../locators';

const show = { resource: ['bookmark'], operation: ['addToList', 'removeFromList'] };

export const listMembershipDescription: INodeProperties[] = [
	recordLocator(show, 'The record to add to the list or remove from it'),
	listLocator(show, 'The list; the record itself is not changed otherwise'),
];

async function changeMembership(
	ctx: IExecuteFunctions,
	itemIndex: number,
	change: 'add' | 'remove',
): Promise<{ recordId: string; listId: string }> {
	const recordId = requiredId(ctx, itemIndex, 'recordId', 'Bookmark');
	const listId = requiredId(ctx, itemIndex, 'listId', 'List');
	const adapter = await bookmarkAdapter(ctx, itemIndex);
	const answer = await adapter.changeMembership(ctx, listId, recordId, change, itemIndex);
	// A removal sent again after an answer that never came finds the record out of the list:
	// most likely the first attempt took it out. Any other "not in this list" is an error.
	if (answer.error && !answer.repeated) throw answer.error;
	return { recordId, listId };
}

/** Idempotent: adding a record that is already in the list succeeds. */
export async function addToList(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return { ...(await changeMembership(this, itemIndex, 'add')), added: true };
}

/** A record that is not in the list is an error (404 from the service), not a silent success. */
export async function removeFromList(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	return { ...(await changeMembership(this, itemIndex, 'remove')), removed: true };
}
