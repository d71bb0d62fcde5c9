import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readIntegerOption, readLimit } from '../../../shared/descriptions';
import { invalidInput } from '../../../shared/validation';
import type { ResponseDateFilter } from '../../transport';
import { fetchResponses, RESPONSES_DEFAULT_LIMIT } from '../../transport';
import { maxConcurrencyOption, offsetOption } from './options';
import { readSurveyId } from '../surveyLocator';
import { readOnlyNew } from './onlyNew';
import { responsesOutput } from './output';
import { commitWatermark, newResponsesQuery, recordWatermark } from './watermark';

const DATE_FILTERS = {
	createdAfter: { field: 'createdAt', bound: 'startDate', label: 'Created After' },
	createdBefore: { field: 'createdAt', bound: 'endDate', label: 'Created Before' },
	updatedAfter: { field: 'updatedAt', bound: 'startDate', label: 'Updated After' },
	updatedBefore: { field: 'updatedAt', bound: 'endDate', label: 'Updated Before' },
} as const;

/** A date alone stays a date (midnight UTC for the service); a time without a zone is read as UTC. */
function serviceTime(
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	value: string,
): string {
	const text = value.trim();
	if (/^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text))) return text;
	const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`;
	const time = Date.parse(zoned);
	if (Number.isNaN(time))
		throw invalidInput(ctx, itemIndex, label, `"${value}" is not a date or time`);
	return new Date(time).toISOString();
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
		filter[bound] = serviceTime(ctx, itemIndex, label, String(value));
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
		if (advanceRightAway) commitWatermark(this);
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
