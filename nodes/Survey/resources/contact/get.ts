import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';
import { surveyCapability } from '../../transport';
import { contactsOutput } from './output';

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const contactId = requiredId(this, itemIndex, 'contactId', 'Contact ID');
	const contacts = await surveyCapability(this, 'contacts', 'Contact → Get', itemIndex);
	return contactsOutput(this, [await contacts.get(this, contactId, itemIndex)], itemIndex)[0];
}
