import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readIntegerOption, readLimit } from '../../../shared/descriptions';
import { parseMoment, workflowTimeZone } from '../../../shared/dates';
import { invalidInput } from '../../../shared/validation';
import type { ResponseDateFilter } from '../../transport';
import { fetchResponses, RESPONSES_DEFAULT_LIMIT } from '../../transport';
import { maxConcurrencyOption, offsetOption } from './options';
import { readSurveyId } from '../surveyLocator';
import { readOnlyNew } from './onlyNew';
import { responsesOutput } from './output';
import { commitOwnMark, newResponsesQuery, recordWatermark } from './watermark';

const DATE_FILTERS = {
	createdAfter: { field: 'createdAt', bound: 'startDate', label: 'Created After' },
	createdBefore: { field: 'createdAt', bound: 'endDate', label: 'Created Before' },
	updatedAfter: { field: 'updatedAt', bound: 'startDate', label: 'Updated After' },
	updatedBefore: { field: 'updatedAt', bound: 'endDate', label: 'Updated Before' },
} as const;

/**
 * The service's bound for a Created/Updated filter: an exact instant. A date alone is its
 * first instant and a time without a zone is read in the workflow's time zone, as n8n's own
 * nodes read them; a date that does not exist is refused, naming the filter.
 */
function serviceTime(
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	value: unknown,
): string {
	const moment = parseMoment(value, workflowTimeZone(ctx));
	if (moment.kind === 'problem') throw invalidInput(ctx, itemIndex, label, moment.problem);
	return moment.iso;
}

/** The contract's startDate/endDate/filterDateField from the Created/Updated After/Before filters. */
export function dateFilterOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	filters: IDataObject,
): ResponseDateFilter {
	const filter: ResponseDateFilter = {};
	for (const [name, { field, bound, label }] of Object.entries(DATE_FILTERS)) {
		const value = filters[name];
		if (value === undefined || value === null || value === '') continue;
		if (filter.filterDateField !== undefined && filter.filterDateField !== field) {
			throw invalidInput(
				ctx,
				itemIndex,
				label,
				'the service filters on one date at a time: use the Created filters or the Updated filters, not both',
			);
		}
		filter.filterDateField = field;
		filter[bound] = serviceTime(ctx, itemIndex, label, value);
	}
	return filter;
}

export async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const surveyId = readSurveyId(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const dateFilter = dateFilterOf(this, itemIndex, filters);
	const maxConcurrency = readIntegerOption(this, itemIndex, options, maxConcurrencyOption);

	const { onlyNew, advanceRightAway } = readOnlyNew(this, itemIndex, options);
	if (onlyNew) {
		if (dateFilter.filterDateField !== undefined) {
			throw invalidInput(
				this,
				itemIndex,
				'Only New Since Last Run',
				'it reads by update time from the last run on; leave the date filters out',
			);
		}
		const read = newResponsesQuery(this, surveyId);
		const responses = read.keep(
			await fetchResponses(this, {
				surveyId,
				dateFilter: read.dateFilter,
				maxConcurrency,
				itemIndex,
			}),
		);
		recordWatermark(this, surveyId, responses);
		if (advanceRightAway) commitOwnMark(this, surveyId);
		return await responsesOutput(this, responses, options, itemIndex);
	}

	const responses = await fetchResponses(this, {
		surveyId,
		limit: readLimit(this, itemIndex, RESPONSES_DEFAULT_LIMIT),
		offset: readIntegerOption(this, itemIndex, options, offsetOption),
		dateFilter,
		maxConcurrency,
		itemIndex,
	});
	return await responsesOutput(this, responses, options, itemIndex);
}
