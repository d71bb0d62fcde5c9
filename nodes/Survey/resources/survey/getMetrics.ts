import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_CONCURRENCY, listSurveys, readResponses } from '../../transport';
import { readSurveyId, surveyLocator } from '../surveyLocator';
import { MetricsAccumulator } from './metrics';

const show = { resource: ['survey'], operation: ['getMetrics'] };

export const getMetricsDescription: INodeProperties[] = [
	{
		displayName: 'All Surveys',
		name: 'allSurveys',
		type: 'boolean',
		default: false,
		description:
			'Whether to return the metrics of every survey, one item each, instead of one survey',
		displayOptions: { show },
	},
	surveyLocator({ ...show, allSurveys: [false] }),
];

export async function getMetrics(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject[]> {
	const surveys = await listSurveys(this, itemIndex);
	const all = this.getNodeParameter('allSurveys', itemIndex, false) as boolean;
	let selected = surveys;
	if (!all) {
		const surveyId = readSurveyId(this, itemIndex);
		selected = surveys.filter((survey) => survey.id === surveyId);
		// Unknown to the list: let the responses endpoint answer (404 with the service's message).
		if (selected.length === 0) selected = [{ id: surveyId }];
	}
	const results: IDataObject[] = [];
	for (const survey of selected) {
		// Responses are counted page by page as they arrive and not kept.
		let metrics = new MetricsAccumulator();
		await readResponses(
			this,
			{ surveyId: String(survey.id), maxConcurrency: DEFAULT_MAX_CONCURRENCY, itemIndex },
			{
				reset: () => (metrics = new MetricsAccumulator()),
				add: (responses) => responses.forEach((response) => metrics.add(response)),
			},
		);
		results.push({
			surveyId: survey.id,
			name: survey.name ?? null,
			status: survey.status ?? null,
			type: survey.type ?? null,
			...metrics.result(),
		} as IDataObject);
	}
	return results;
}
