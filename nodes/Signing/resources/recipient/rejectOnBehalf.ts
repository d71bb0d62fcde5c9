import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredString } from '../../../shared/validation';
import { consentTo } from '../../personalData';
import type { RecipientOutput } from './recipientsOf';
import { recipientForOutput, recipientsOf } from './recipientsOf';

export const rejectOnBehalfDescription: INodeProperties[] = [
	{
		displayName: 'Reason',
		name: 'rejectionReason',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 2 },
		placeholder: 'e.g. Declined by phone on 3 March',
		description:
			'Why the recipient declined. Documenso e-mails it to the other recipients with the news that the document was cancelled, and keeps it in the audit log.',
		displayOptions: { show: { resource: ['recipient'], operation: ['rejectOnBehalf'] } },
	},
];

/** Records a rejection a recipient gave outside Documenso (by phone, by letter): the document ends rejected. */
export async function rejectOnBehalf(this: IExecuteFunctions, itemIndex: number): RecipientOutput {
	requireToolConsent(this, itemIndex, consentTo('Rejecting documents on behalf of their recipients'));
	const { recipients, recipientId } = await recipientsOf(this, itemIndex, 'Reject on Behalf');
	const id = recipientId();
	const reason = requiredString(this, itemIndex, 'rejectionReason', 'Reason');
	return recipientForOutput(this, await recipients.reject(this, id, reason, itemIndex));
}
