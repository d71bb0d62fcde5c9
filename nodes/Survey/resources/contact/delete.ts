import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredId } from '../../../shared/validation';
import { surveyCapability } from '../../transport';
import { CONTACT_CONSENT } from './consent';

/** Deletes a contact (Formbricks deletes the contact's responses with it). */
export async function deleteContact(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, CONTACT_CONSENT);
	const contactId = requiredId(this, itemIndex, 'contactId', 'Contact ID');
	const contacts = await surveyCapability(this, 'contacts', 'Contact → Delete', itemIndex);
	const { alreadyGone } = await contacts.delete(this, contactId, itemIndex);
	return { deleted: true, contactId, alreadyGone };
}
