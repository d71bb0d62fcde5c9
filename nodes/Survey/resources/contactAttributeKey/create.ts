import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredString } from '../../../shared/validation';
import { surveyCapability } from '../../transport';
import { CONTACT_CONSENT } from '../contact/consent';

export async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, CONTACT_CONSENT);
	const key = requiredString(this, itemIndex, 'key', 'Key');
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const text = (name: string) => (String(fields[name] ?? '').trim() === '' ? undefined : String(fields[name]).trim());
	const contacts = await surveyCapability(this, 'contacts', 'Contact Attribute Key → Create', itemIndex);
	return await contacts.createAttributeKey(
		this,
		{ key, name: text('name'), description: text('description'), dataType: text('dataType') },
		itemIndex,
	);
}
