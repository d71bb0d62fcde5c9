import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requiredId } from '../../../shared/validation';
import { getResponse } from '../../transport';
import { responsesOutput } from './output';

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const responseId = requiredId(this, itemIndex, 'responseId', 'Response ID');
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const response = await getResponse(this, responseId, itemIndex);
	return await responsesOutput(this, [response], options, itemIndex);
}
