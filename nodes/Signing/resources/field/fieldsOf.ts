import type { IExecuteFunctions } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';
import type { SigningFields } from '../../adapters';
import { signingAdapter, signingApis } from '../../adapters';

/** The adapter's fields, or the error that the credential's API has none; the field ID when the operation takes one. */
export async function fieldsOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: string,
): Promise<{ fields: SigningFields; fieldId: () => string }> {
	const adapter = await signingAdapter(ctx, itemIndex);
	return {
		fields: signingApis.capability(ctx, adapter, 'fields', `Field → ${operation}`, itemIndex),
		fieldId: () => requiredId(ctx, itemIndex, 'fieldId', 'Field ID'),
	};
}
