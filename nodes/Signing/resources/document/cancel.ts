import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { signingAdapter } from '../../adapters';
import {
	acceptAlreadyGone,
	ifAlreadyGoneParameter,
	readIfAlreadyGone,
} from '../../../shared/alreadyGone';
import { requireToolConsent } from '../../../shared/toolConsent';
import { consentTo } from '../../personalData';
import { readDocumentId } from './documentId';
import { simplifyCancelled, wantsSimplified } from './simplify';

export const cancelDescription: INodeProperties[] = [
	ifAlreadyGoneParameter({ resource: ['document'], operation: ['cancel'] }, 'cancelled'),
];

/** Cancels a document that can still be signed. A completed one stays: signed records are never deleted. */
export async function cancel(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Cancelling documents'));
	const documentId = readDocumentId(this, itemIndex);
	const adapter = await signingAdapter(this, itemIndex);
	const outcome = await adapter.cancel(this, documentId, itemIndex);
	const shaped = (result: IDataObject) =>
		wantsSimplified(this, itemIndex) ? simplifyCancelled(result) : result;
	if ('cancelled' in outcome) return shaped({ ...outcome.cancelled, alreadyGone: false });
	const { status, repeated } = outcome.refused;
	const refusal = (reason: string) =>
		new NodeOperationError(this.getNode(), `Document ${documentId} cannot be cancelled: ${reason}`, {
			itemIndex,
			description: adapter.cancellable.hint,
		});
	if (status === 'CANCELLED') {
		acceptAlreadyGone({ repeated }, readIfAlreadyGone(this, itemIndex), refusal('it is cancelled already'));
		return shaped({ id: adapter.outputId(documentId), status, alreadyGone: true });
	}
	throw refusal(
		status === 'COMPLETED'
			? 'it is completed: every party has signed, and a signed document is never deleted through the API'
			: status === 'DRAFT'
				? 'it is a draft'
				: `it is ${status.toLowerCase()} already`,
	);
}
