import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { surveyCapability } from '../../transport';
import { readSurveyId } from '../surveyLocator';
import { SURVEY_CONSENT } from './consent';

/** Sets a survey's status (Publish, Pause, Complete): the survey as it is afterwards. */
export async function changeStatus(
	ctx: IExecuteFunctions,
	itemIndex: number,
	status: 'inProgress' | 'paused' | 'completed',
	operation: string,
): Promise<IDataObject> {
	requireToolConsent(ctx, itemIndex, SURVEY_CONSENT);
	const surveyId = readSurveyId(ctx, itemIndex);
	const writes = await surveyCapability(ctx, 'surveyWrites', operation, itemIndex);
	return await writes.update(ctx, surveyId, { status }, itemIndex);
}
