import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ifAlreadyGoneParameter, settleGone } from '../../../shared/alreadyGone';
import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredId, requiredString } from '../../../shared/validation';
import { bookmarkAdapter, bookmarkApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { tagLocator } from '../locators';
import { changeReadBack } from '../readBack';

/** Tag → Create, Get, Rename, Delete: tags managed one by one, where the API has them (Karakeep). */

const show = (operation: string) => ({ resource: ['tag'], operation: [operation] });

export const tagManagementDescription: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'to-review',
		description: 'Name of the new tag. Karakeep trims it and drops a leading #; a name another tag has is refused.',
		displayOptions: { show: show('create') },
	},
	tagLocator({ resource: ['tag'], operation: ['get', 'rename', 'delete'] }, 'The tag'),
	{
		displayName: 'New Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description:
			'The tag’s new name, on every record that carries it. A name another tag has is refused: remove one of the two tags first.',
		displayOptions: { show: show('rename') },
	},
	ifAlreadyGoneParameter(show('delete'), 'deleted'),
];

const tags = async (ctx: IExecuteFunctions, itemIndex: number, operation: string) =>
	bookmarkApis.capability(ctx, await bookmarkAdapter(ctx, itemIndex), 'tags', `Tag → ${operation}`, itemIndex);

async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const name = requiredString(this, itemIndex, 'name', 'Name');
	return await (await tags(this, itemIndex, 'Create')).create(this, name, itemIndex);
}

async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const tagId = requiredId(this, itemIndex, 'tagId', 'Tag');
	return await (await tags(this, itemIndex, 'Get')).get(this, tagId, itemIndex);
}

async function rename(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const tagId = requiredId(this, itemIndex, 'tagId', 'Tag');
	const name = requiredString(this, itemIndex, 'name', 'New Name');
	const management = await tags(this, itemIndex, 'Rename');
	return await changeReadBack(this, itemIndex, `Tag ${tagId}`, 'Tag → Get', async () => await management.rename(this, tagId, name, itemIndex));
}

/** Output: `{ deleted: true, id, alreadyGone }`; the tag's records stay, without it. */
async function deleteTag(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Deleting tags'));
	const tagId = requiredId(this, itemIndex, 'tagId', 'Tag');
	const answer = await (await tags(this, itemIndex, 'Delete')).delete(this, tagId, itemIndex);
	return { deleted: true, id: tagId, alreadyGone: settleGone(this, itemIndex, answer) };
}

export const tagManagementOperations = { create, delete: deleteTag, get, rename };
