import type { IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { consentTo } from '../../personalData';
import type { RecipientOutput } from './recipientsOf';
import { recipientsOf } from './recipientsOf';

/** Removes a recipient who has not acted, with their fields. */
export async function remove(this: IExecuteFunctions, itemIndex: number): RecipientOutput {
	requireToolConsent(this, itemIndex, consentTo('Changing the recipients of documents'));
	const { recipients, recipientId } = await recipientsOf(this, itemIndex, 'Remove');
	return await recipients.remove(this, recipientId(), itemIndex);
}
