import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput } from '../../../shared/validation';
import { requireToolConsent } from '../../../shared/toolConsent';
import { signingAdapter } from '../../adapters';
import { consentTo } from '../../personalData';
import { readDocumentId } from './documentId';

const show = { resource: ['document'], operation: ['resend'] };

export const resendDescription: INodeProperties[] = [
	{
		displayName: 'Remind',
		name: 'remind',
		type: 'options',
		default: 'allPending',
		options: [
			{
				name: 'All Pending Signers',
				value: 'allPending',
				description: 'Every signer and approver who has not signed yet',
			},
			{
				name: 'Chosen Recipients',
				value: 'chosen',
				description: 'Only the recipients given below',
			},
		],
		displayOptions: { show },
	},
	{
		displayName: 'Recipient IDs',
		name: 'recipientIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'rcp_…, rcp_… (Documenso: 101, 102)',
		description:
			'Recipients to remind, separated by commas (or an expression giving an array): the recipientId of each, from Get or the event payload. Each is reminded once, however often it is given. None of them may have signed already.',
		displayOptions: { show: { ...show, remind: ['chosen'] } },
	},
];

/**
 * The recipient IDs, each once: IDs joined from several items often repeat one, and the
 * service would remind that person once per repetition.
 */
function readRecipientIds(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const value = ctx.getNodeParameter('recipientIds', itemIndex, '') as unknown;
	const ids = (Array.isArray(value) ? value.map(String) : String(value ?? '').split(','))
		.map((id) => id.trim())
		.filter((id) => id !== '');
	if (ids.length === 0)
		throw invalidInput(ctx, itemIndex, 'Recipient IDs', 'give at least one recipient ID');
	return [...new Set(ids)];
}

/** Sends the invitation again; the answer lists whom it reached. */
export async function resend(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Sending reminders'));
	const documentId = readDocumentId(this, itemIndex);
	const chosen = this.getNodeParameter('remind', itemIndex, 'allPending') === 'chosen';
	const recipientIds = chosen ? readRecipientIds(this, itemIndex) : 'allPending';
	const adapter = await signingAdapter(this, itemIndex);
	const answer = await adapter.resend(this, documentId, recipientIds, itemIndex);
	return { documentId: adapter.outputId(documentId), ...answer };
}
