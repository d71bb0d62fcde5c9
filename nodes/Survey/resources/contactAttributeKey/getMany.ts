import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readLimit } from '../../../shared/descriptions';
import { surveyCapability } from '../../transport';

/** The workspace's attribute keys (Formbricks lists them all at once). */
export async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit(this, itemIndex, 50);
	const contacts = await surveyCapability(this, 'contacts', 'Contact Attribute Key → Get Many', itemIndex);
	const keys = await contacts.attributeKeys(this, itemIndex);
	return limit === undefined ? keys : keys.slice(0, limit);
}
