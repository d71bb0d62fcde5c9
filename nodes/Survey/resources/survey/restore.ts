import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { surveyCapability } from '../../transport';
import { readSurveyId } from '../surveyLocator';

/** Brings an archived survey back into the lists, as it was. */
export async function restore(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const surveyId = readSurveyId(this, itemIndex);
	const writes = await surveyCapability(this, 'surveyWrites', 'Survey → Restore', itemIndex);
	return await writes.lifecycle(this, surveyId, 'restore', itemIndex);
}
