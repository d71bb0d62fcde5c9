import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { signingRequest } from '../../transport';
import { documentPath, readDocumentId } from './documentId';
import { simplifyCancelled, wantsSimplified } from './simplify';

/** Cancels a draft or pending document. A completed one stays: signed records are never deleted. */
export async function cancel(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const documentId = readDocumentId(this, itemIndex);
	const answer = await signingRequest<IDataObject | undefined>(this, {
		method: 'DELETE',
		path: documentPath(documentId),
		itemIndex,
		acceptStatuses: [409],
	});
	if (answer === undefined) {
		const { status } = await signingRequest(this, {
			method: 'GET',
			path: documentPath(documentId),
			itemIndex,
		});
		const reason =
			status === 'COMPLETED'
				? 'it is completed: every party has signed, and a signed document is never deleted through the API'
				: `it is ${String(status).toLowerCase()} already`;
		throw new NodeOperationError(
			this.getNode(),
			`Document ${documentId} cannot be cancelled: ${reason}`,
			{
				itemIndex,
				description: 'Only a draft or a pending document can be cancelled.',
			},
		);
	}
	return wantsSimplified(this, itemIndex) ? simplifyCancelled(answer) : answer;
}
