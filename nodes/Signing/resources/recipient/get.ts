import type { IExecuteFunctions } from 'n8n-workflow';

import type { RecipientOutput } from './recipientsOf';
import { recipientForOutput, recipientsOf } from './recipientsOf';

/** One recipient, with their signing status (and signing link, but not for an agent). */
export async function get(this: IExecuteFunctions, itemIndex: number): RecipientOutput {
	const { recipients, recipientId } = await recipientsOf(this, itemIndex, 'Get');
	return recipientForOutput(this, await recipients.get(this, recipientId(), itemIndex));
}
