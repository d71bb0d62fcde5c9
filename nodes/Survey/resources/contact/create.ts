import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { surveyCapability } from '../../transport';
import { CONTACT_CONSENT } from './consent';
import { readContactAttributes } from './fields';
import { contactsOutput } from './output';

/** One new contact; attribute keys the workspace lacks are created first unless the option says no. */
export async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, CONTACT_CONSENT);
	const attributes = readContactAttributes(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const contacts = await surveyCapability(this, 'contacts', 'Contact → Create', itemIndex);
	const contact = await contacts.create(this, attributes, {
		createMissingKeys: options.createMissingKeys !== false,
		itemIndex,
	});
	return contactsOutput(this, [contact], itemIndex)[0];
}
