import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { surveyCapability } from '../../transport';
import { readDefinition } from './definition';

/** Creates a survey (a draft unless its JSON says otherwise), answered as Get answers it. */
export async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const writes = await surveyCapability(this, 'surveyWrites', 'Survey → Create', itemIndex);
	return await writes.create(this, readDefinition(this, itemIndex), itemIndex);
}
