import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { checkPathId, invalidInput } from '../../shared/validation';
import { listSurveys } from '../transport';

export function surveyLocator(show: IDataObject): INodeProperties {
	return {
		displayName: 'Survey',
		name: 'surveyId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: 'The survey, picked from the list or given by ID',
		displayOptions: { show: show as Record<string, string[]> },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a survey...',
				typeOptions: { searchListMethod: 'searchSurveys', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'srv_…',
			},
		],
	};
}

export function readSurveyId(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = ctx.getNodeParameter('surveyId', itemIndex, '', { extractValue: true }) as unknown;
	const id = String(value ?? '').trim();
	if (id === '') throw invalidInput(ctx, itemIndex, 'Survey', 'pick a survey or give its ID');
	return checkPathId(ctx, itemIndex, id, 'Survey');
}

/** Human labels for the service's survey statuses, for pickers ("In progress", not "inProgress"). */
const STATUS_LABELS: Record<string, string> = {
	completed: 'Completed',
	draft: 'Draft',
	inProgress: 'In progress',
	paused: 'Paused',
	scheduled: 'Scheduled',
};

export function surveyLabel(survey: IDataObject): string {
	const status = String(survey.status ?? '');
	return `${String(survey.name)} (${STATUS_LABELS[status] ?? status})`;
}

export async function searchSurveys(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const surveys = await listSurveys(this);
	const needle = filter?.toLowerCase() ?? '';
	return {
		results: surveys
			.filter((survey) => String(survey.name).toLowerCase().includes(needle))
			.map((survey) => ({ name: surveyLabel(survey), value: String(survey.id) })),
	};
}
