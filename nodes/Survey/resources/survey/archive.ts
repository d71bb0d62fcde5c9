import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { surveyCapability } from '../../transport';
import { readSurveyId } from '../surveyLocator';
import { SURVEY_CONSENT } from './consent';

/** Archives a survey: kept with its responses, out of the survey lists, until restored. */
export async function archive(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, SURVEY_CONSENT);
	const surveyId = readSurveyId(this, itemIndex);
	const writes = await surveyCapability(this, 'surveyWrites', 'Survey → Archive', itemIndex);
	return await writes.lifecycle(this, surveyId, 'archive', itemIndex);
}
