import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { consentTo } from '../../personalData';
import { fieldsOf } from './fieldsOf';

/** Removes a field not filled in yet. */
export async function remove(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Changing the fields of documents'));
	const { fields, fieldId } = await fieldsOf(this, itemIndex, 'Remove');
	return await fields.remove(this, fieldId(), itemIndex);
}
