import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	acceptAlreadyGone,
	ifAlreadyGoneParameter,
	readIfAlreadyGone,
} from '../../../shared/alreadyGone';
import { requireToolConsent } from '../../../shared/toolConsent';
import { consentTo } from '../../personalData';
import { signingAnswer, signingRequest } from '../../transport';
import { documentPath, readDocumentId } from './documentId';
import { simplifyCancelled, wantsSimplified } from './simplify';

export const cancelDescription: INodeProperties[] = [
	ifAlreadyGoneParameter({ resource: ['document'], operation: ['cancel'] }, 'cancelled'),
];

/** Cancels a draft or pending document. A completed one stays: signed records are never deleted. */
export async function cancel(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Cancelling documents'));
	const documentId = readDocumentId(this, itemIndex);
	const answer = await signingAnswer<IDataObject>(this, {
		method: 'DELETE',
		path: documentPath(documentId),
		itemIndex,
		acceptStatuses: [409],
	});
	const shaped = (result: IDataObject) =>
		wantsSimplified(this, itemIndex) ? simplifyCancelled(result) : result;
	if (!answer.error) return shaped({ ...answer.body, alreadyGone: false });
	// 409: the document is not a draft or pending; its status says why.
	const { status } = await signingRequest(this, {
		method: 'GET',
		path: documentPath(documentId),
		itemIndex,
	});
	const refusal = (reason: string) =>
		new NodeOperationError(this.getNode(), `Document ${documentId} cannot be cancelled: ${reason}`, {
			itemIndex,
			description: 'Only a draft or a pending document can be cancelled.',
		});
	if (status === 'CANCELLED') {
		acceptAlreadyGone(answer, readIfAlreadyGone(this, itemIndex), refusal('it is cancelled already'));
		return shaped({ id: documentId, status, alreadyGone: true });
	}
	throw refusal(
		status === 'COMPLETED'
			? 'it is completed: every party has signed, and a signed document is never deleted through the API'
			: `it is ${String(status).toLowerCase()} already`,
	);
}
