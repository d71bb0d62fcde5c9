import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { givesOneShape } from '../../../shared/simplify';
import type { ToolConsent } from '../../../shared/toolConsent';
import { requireToolConsent, toolConsentProperty } from '../../../shared/toolConsent';
import { requiredId } from '../../../shared/validation';
import { deleteResponse } from '../../transport';

/** An agent may not erase by default: as a tool Delete refuses unless "Allow as AI Agent Tool" is on. */
const DELETE_CONSENT: ToolConsent = { name: 'allowDeleteAsTool', action: 'Deleting responses' };

export const deleteConsentProperty = toolConsentProperty(
	DELETE_CONSENT,
	{ resource: ['response'], operation: ['delete'] },
	'Whether an AI agent may erase responses when this node is its tool. Off: as a tool, Delete refuses and nothing is erased.',
);

/**
 * Erases a response (an applicant's request to be forgotten). The output names the erased
 * response without its answers, so that no personal data outlives the erasure in the execution log.
 */
export async function deleteOne(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, DELETE_CONSENT);
	const responseId = requiredId(this, itemIndex, 'responseId', 'Response ID');
	const { erased, alreadyGone } = await deleteResponse(this, responseId, itemIndex);
	// Version 2 names the response as every other operation does (the one shape of issue 28).
	return {
		deleted: true,
		[givesOneShape(this) ? 'responseId' : 'id']: erased.id ?? responseId,
		surveyId: erased.surveyId ?? null,
		createdAt: erased.createdAt ?? null,
		updatedAt: erased.updatedAt ?? null,
		finished: erased.finished ?? null,
		alreadyGone,
	};
}
