import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredId } from '../../../shared/validation';
import { consentTo } from '../../personalData';
import { checkedUploadRecipient, uploadRecipientValues } from '../document/uploadRecipients';
import type { RecipientOutput } from './recipientsOf';
import { recipientForOutput, recipientsOf } from './recipientsOf';

const show = { resource: ['recipient'], operation: ['add'] };

export const addDescription: INodeProperties[] = [
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1001',
		description: 'The document to add the recipient to: its number (documentId) or envelope_… ID',
		displayOptions: { show },
	},
	...uploadRecipientValues.map((property) => ({ ...property, displayOptions: { show } })),
];

/** Adds one recipient to a document that is not finished; on a pending document Documenso invites them once it is sent again. */
export async function add(this: IExecuteFunctions, itemIndex: number): RecipientOutput {
	requireToolConsent(this, itemIndex, consentTo('Changing the recipients of documents'));
	const { recipients } = await recipientsOf(this, itemIndex, 'Add');
	const documentId = requiredId(this, itemIndex, 'documentId', 'Document ID');
	const recipient = checkedUploadRecipient(
		this,
		itemIndex,
		{
			name: this.getNodeParameter('name', itemIndex, ''),
			email: this.getNodeParameter('email', itemIndex, ''),
			role: this.getNodeParameter('role', itemIndex, 'SIGNER'),
			signingOrder: this.getNodeParameter('signingOrder', itemIndex, 0),
		},
		(field) => field ?? 'Recipient',
	) as Required<Parameters<typeof recipients.add>[2]>;
	return recipientForOutput(this, await recipients.add(this, documentId, recipient, itemIndex));
}
