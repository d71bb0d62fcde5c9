import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runsAsTool } from '../../../shared/privacy';
import { givesOneShape } from '../../../shared/simplify';
import { requiredId } from '../../../shared/validation';
import { deleteResponse } from '../../transport';

/**
 * Erases a response (an applicant's request to be forgotten). An agent may not erase by
 * default: as a tool this refuses unless "Allow as AI Agent Tool" is switched on in the node,
 * a setting only the workflow's author can change. The output names the erased response
 * without its answers, so that no personal data outlives the erasure in the execution log.
 */
export async function deleteOne(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	if (runsAsTool(this) && this.getNodeParameter('allowDeleteAsTool', itemIndex, false) !== true) {
		throw new NodeOperationError(
			this.getNode(),
			'Deleting responses is not allowed for an AI agent',
			{
				itemIndex,
				description:
					'Erasing data is switched off when this node runs as a tool. To let an agent erase responses, switch on "Allow as AI Agent Tool" in the node.',
			},
		);
	}
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
