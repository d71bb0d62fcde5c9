import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { fieldsOf } from './fieldsOf';

/** One field: its type, recipient, page and place, and whether it is filled in. */
export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const { fields, fieldId } = await fieldsOf(this, itemIndex, 'Get');
	return await fields.get(this, fieldId(), itemIndex);
}
