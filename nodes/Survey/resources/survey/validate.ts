import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { surveyCapability } from '../../transport';
import { readDefinition } from './definition';

/** Formbricks' verdict on a survey definition, nothing created: `valid` and, where not, `invalid_params`. */
export async function validate(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const writes = await surveyCapability(this, 'surveyWrites', 'Survey → Validate', itemIndex);
	return await writes.validate(this, readDefinition(this, itemIndex), itemIndex);
}
