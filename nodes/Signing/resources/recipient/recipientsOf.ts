import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';
import type { SigningRecipients } from '../../adapters';
import { signingAdapter, signingApis } from '../../adapters';
import { forOutput } from '../document/signingUrls';

/** The adapter's recipients, or the error that the credential's API has none; the recipient ID when the operation takes one. */
export async function recipientsOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: string,
): Promise<{ recipients: SigningRecipients; recipientId: () => string }> {
	const adapter = await signingAdapter(ctx, itemIndex);
	return {
		recipients: signingApis.capability(
			ctx,
			adapter,
			'recipients',
			`Recipient → ${operation}`,
			itemIndex,
		),
		recipientId: () => requiredId(ctx, itemIndex, 'recipientId', 'Recipient ID'),
	};
}

export type RecipientOutput = Promise<IDataObject>;

/** A recipient for the output: without their signing link when the node runs as an agent's tool. */
export const recipientForOutput = (ctx: IExecuteFunctions, recipient: IDataObject): IDataObject =>
	(forOutput(ctx, { recipients: [recipient] }).recipients as IDataObject[])[0];
