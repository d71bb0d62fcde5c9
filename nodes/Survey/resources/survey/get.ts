import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getSurvey } from '../../transport';
import { readSurveyId, surveyLocator } from '../surveyLocator';

export const getDescription: INodeProperties[] = [
	surveyLocator({ resource: ['survey'], operation: ['get'] }),
];

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await getSurvey(this, readSurveyId(this, itemIndex), itemIndex);
}
