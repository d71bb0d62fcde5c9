import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readLimit } from '../../../shared/descriptions';
import { surveyCapability } from '../../transport';
import { contactsOutput } from './output';

/** Every contact of the workspace (Formbricks lists them all at once), filtered by e-mail here. */
export async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const email = String(filters.email ?? '').trim().toLowerCase();
	const limit = readLimit(this, itemIndex, 50);
	const contacts = await surveyCapability(this, 'contacts', 'Contact → Get Many', itemIndex);
	const found = (await contacts.list(this, itemIndex)).filter(
		(contact) => email === '' || String(contact.attributes.email ?? '').toLowerCase() === email,
	);
	return contactsOutput(this, limit === undefined ? found : found.slice(0, limit), itemIndex);
}
