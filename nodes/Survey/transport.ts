import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapConcurrently, type RequestPacer } from '../shared/concurrency';
import type { RequestContext } from '../shared/request';
import type { ResponseDateFilter, ResponsePage, SurveyAdapter } from './adapters';
import { surveyAdapter, surveyApis } from './adapters';

export type { ResponseDateFilter } from './adapters';

export const RESPONSES_DEFAULT_LIMIT = 50;
/**
 * Pages in flight at most. The service's limit counts requests a minute, not requests at once,
 * so more in flight costs no more of it; when it answers 429, fewer are kept in flight.
 */
export const DEFAULT_MAX_CONCURRENCY = 16;

/**
 * The survey service's operations, through the adapter of the API the credential chose
 * (adapters/): operations call these and get the documented shapes back, whichever API answers.
 */

/**
 * A capability only some survey APIs have (contacts, personal links…), or, on an API without it,
 * the error saying which API has it, before anything is sent.
 */
export async function surveyCapability<
	Key extends 'contacts' | 'personalLinks' | 'singleUseLinks' | 'responseWrites' | 'surveyWrites',
>(
	ctx: IExecuteFunctions,
	key: Key,
	operation: string,
	itemIndex: number,
): Promise<NonNullable<SurveyAdapter[Key]>> {
	return surveyApis.capability(ctx, await surveyAdapter(ctx, itemIndex), key, operation, itemIndex);
}

/** Every survey, published and draft. */
export async function listSurveys(ctx: RequestContext, itemIndex?: number): Promise<IDataObject[]> {
	return await (await surveyAdapter(ctx, itemIndex)).listSurveys(ctx, itemIndex);
}

/** The surveys with their response counts; an API that lists none has them counted, with more requests. */
export async function withResponseCounts(
	ctx: RequestContext,
	surveys: IDataObject[],
	itemIndex?: number,
): Promise<IDataObject[]> {
	return await (await surveyAdapter(ctx, itemIndex)).withResponseCounts(ctx, surveys, itemIndex);
}

export async function getSurvey(ctx: RequestContext, surveyId: string, itemIndex?: number): Promise<IDataObject> {
	return await (await surveyAdapter(ctx, itemIndex)).getSurvey(ctx, surveyId, itemIndex);
}

export async function getResponse(ctx: RequestContext, responseId: string, itemIndex?: number): Promise<IDataObject> {
	return await (await surveyAdapter(ctx, itemIndex)).getResponse(ctx, responseId, itemIndex);
}

/** Erases a response; `alreadyGone` when the service no longer has it (see `deleteUnlessGone`). */
export async function deleteResponse(
	ctx: IExecuteFunctions,
	responseId: string,
	itemIndex: number,
): Promise<{ erased: IDataObject; alreadyGone: boolean }> {
	return await (await surveyAdapter(ctx, itemIndex)).deleteResponse(ctx, responseId, itemIndex);
}

export interface ResponseQuery {
	surveyId: string;
	/** Undefined for all responses. */
	limit?: number;
	offset?: number;
	dateFilter?: ResponseDateFilter;
	maxConcurrency?: number;
	itemIndex?: number;
}

/** Reads of the whole range before giving up when the responses keep changing under the read. */
export const MAX_READ_ATTEMPTS = 3;

/**
 * Receives the responses of one read, page by page as they come (not in order; `offset` tells
 * where a page belongs), and is reset before a re-read.
 */
export interface ResponseSink {
	reset(): void;
	add(responses: IDataObject[], offset: number): void;
}

/** One page of the range, as the adapter reads it. */
type PageReader = (skip: number, limit: number, pacer?: RequestPacer) => Promise<ResponsePage>;

/**
 * One read of the range. Pages after the first start one response early, so that each page
 * must begin with the response the previous page ended with: a response added or removed
 * before a page boundary while the pages are read shifts that boundary, which is seen here,
 * as is a changed total. Returns false when the data changed under the read.
 */
async function readRangeOnce(
	ctx: RequestContext,
	adapter: SurveyAdapter,
	query: ResponseQuery,
	sink: ResponseSink,
): Promise<boolean> {
	const start = query.offset ?? 0;
	const pageSize = adapter.maxPageSize;
	const firstSize = Math.min(query.limit ?? pageSize, pageSize);
	const readPage: PageReader = async (skip, limit, pacer) =>
		await adapter.responsePage(ctx, {
			surveyId: query.surveyId,
			skip,
			limit,
			dateFilter: query.dateFilter,
			itemIndex: query.itemIndex,
			pacer,
		});
	const first = await readPage(start, firstSize);
	if (first.total === undefined) return await readWithoutTotal(readPage, query, sink, first, pageSize);
	const total = first.total;
	const available = Math.max(0, total - start);
	const wanted = Math.min(query.limit ?? available, available);
	if (wanted > 0 && first.responses.length === 0) return false;
	sink.add(first.responses.slice(0, wanted), start);

	const end = start + wanted;
	const pages: Array<{ offset: number; size: number }> = [];
	for (let offset = start + first.responses.length; offset < end; offset += pageSize - 1) {
		pages.push({ offset, size: Math.min(pageSize - 1, end - offset) });
	}
	/** The first and last id of each page, the first page included, to check the boundaries. */
	const edges: Array<{ first?: unknown; last?: unknown }> = [
		{ last: first.responses[first.responses.length - 1]?.id },
	];
	let consistent = true;
	const tasks = pages.map(({ offset, size }, index) => async (pacer: RequestPacer) => {
		const page = await readPage(offset - 1, size + 1, pacer);
		if (page.total !== total || page.responses.length !== size + 1) {
			consistent = false;
			return;
		}
		edges[index + 1] = { first: page.responses[0].id, last: page.responses[page.responses.length - 1].id };
		if (consistent) sink.add(page.responses.slice(1), offset);
	});
	await mapConcurrently(tasks, query.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
	if (!consistent) return false;
	for (let index = 1; index < edges.length; index++) {
		if (edges[index].first !== edges[index - 1].last) return false;
	}
	return true;
}

/**
 * The read of an API that tells no total (Formbricks): one page after another, each starting
 * with the last response of the page before, until a page comes back shorter than asked. A
 * response added or removed before the current page shows as a page that does not begin where
 * the last one ended; responses added at the end are read with the rest.
 */
async function readWithoutTotal(
	readPage: PageReader,
	query: ResponseQuery,
	sink: ResponseSink,
	first: ResponsePage,
	pageSize: number,
): Promise<boolean> {
	const start = query.offset ?? 0;
	const wanted = query.limit ?? Infinity;
	const firstResponses = first.responses.slice(0, wanted);
	sink.add(firstResponses, start);
	let read = firstResponses.length;
	let last = firstResponses[read - 1]?.id;
	let more = first.responses.length === Math.min(wanted, pageSize);
	while (more && read < wanted) {
		const size = Math.min(pageSize - 1, wanted - read);
		const page = await readPage(start + read - 1, size + 1);
		if (page.responses.length === 0 || page.responses[0].id !== last) return false;
		const fresh = page.responses.slice(1);
		sink.add(fresh, start + read);
		read += fresh.length;
		last = page.responses[page.responses.length - 1].id;
		more = page.responses.length === size + 1;
	}
	return true;
}

/**
 * Reads a range of a survey's responses into the sink: each response exactly once. When the
 * responses change during the read (added, removed), the range is read again, up to
 * MAX_READ_ATTEMPTS times, then it fails rather than return a mix of before and after.
 */
export async function readResponses(
	ctx: RequestContext,
	query: ResponseQuery,
	sink: ResponseSink,
): Promise<void> {
	const adapter = await surveyAdapter(ctx, query.itemIndex);
	for (let attempt = 1; attempt <= MAX_READ_ATTEMPTS; attempt++) {
		sink.reset();
		if (await readRangeOnce(ctx, adapter, query, sink)) return;
	}
	throw new NodeOperationError(
		ctx.getNode(),
		`The responses of survey "${query.surveyId}" kept changing while they were read (${MAX_READ_ATTEMPTS} attempts)`,
		{
			itemIndex: query.itemIndex,
			description:
				'Responses were added or removed between the pages of every read, so no complete, duplicate-free list could be returned. Run the node again, or narrow the read with a date filter.',
		},
	);
}

/** Responses of a survey in the service's order (oldest first), each exactly once. */
export async function fetchResponses(
	ctx: RequestContext,
	query: ResponseQuery,
): Promise<IDataObject[]> {
	let pages: Array<{ offset: number; responses: IDataObject[] }> = [];
	await readResponses(ctx, query, {
		reset: () => (pages = []),
		add: (responses, offset) => pages.push({ offset, responses }),
	});
	return pages.sort((a, b) => a.offset - b.offset).flatMap((page) => page.responses);
}
