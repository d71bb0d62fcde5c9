import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';
import { surveyRequest } from '../../transport';
import { responsesOutput } from './output';

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const responseId = requiredId(this, itemIndex, 'responseId', 'Response ID');
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const { data } = await surveyRequest<{ data: IDataObject }>(this, {
		method: 'GET',
		path: `/api/v1/management/responses/${encodeURIComponent(responseId)}`,
		itemIndex,
	});
	return await responsesOutput(this, [data], options, itemIndex);
}
