import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { surveyCapability } from '../../transport';
import { readSurveyId } from '../surveyLocator';
import { SURVEY_CONSENT } from './consent';

/** Deletes a survey; Formbricks deletes its responses and displays with it. */
export async function deleteSurvey(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, SURVEY_CONSENT);
	const surveyId = readSurveyId(this, itemIndex);
	const writes = await surveyCapability(this, 'surveyWrites', 'Survey → Delete', itemIndex);
	const deleted = await writes.delete(this, surveyId, itemIndex);
	return { deleted: true, surveyId, name: deleted.name ?? null };
}
