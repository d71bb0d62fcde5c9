import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput } from '../../../shared/validation';
import { consentTo } from '../../personalData';
import { checkedUploadRecipient, uploadRecipientValues } from '../document/uploadRecipients';
import type { RecipientOutput } from './recipientsOf';
import { recipientForOutput, recipientsOf } from './recipientsOf';

export const updateDescription: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['recipient'], operation: ['update'] } },
		options: uploadRecipientValues.map((property) => ({ ...property, required: false })),
	},
];

/** Changes a recipient who has not signed yet. */
export async function update(this: IExecuteFunctions, itemIndex: number): RecipientOutput {
	requireToolConsent(this, itemIndex, consentTo('Changing the recipients of documents'));
	const { recipients, recipientId } = await recipientsOf(this, itemIndex, 'Update');
	const id = recipientId();
	const given = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const changes = checkedUploadRecipient(
		this,
		itemIndex,
		given,
		(field) => `Update Fields › ${field ?? 'Recipient'}`,
		true,
	);
	if (Object.keys(changes).length === 0)
		throw invalidInput(this, itemIndex, 'Update Fields', 'add at least one field to change');
	return recipientForOutput(this, await recipients.update(this, id, changes, itemIndex));
}
