import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { surveyCapability } from '../../transport';
import { readSurveyId } from '../surveyLocator';

/** A new draft with the survey's questions, cards and settings, without its responses. */
export async function duplicate(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const surveyId = readSurveyId(this, itemIndex);
	const writes = await surveyCapability(this, 'surveyWrites', 'Survey → Duplicate', itemIndex);
	const copy = await writes.copyOf(this, surveyId, itemIndex);
	const newName = String(this.getNodeParameter('newName', itemIndex, '')).trim();
	return await writes.create(this, { ...copy, name: newName || `${String(copy.name)} (copy)`, status: 'draft' }, itemIndex);
}
