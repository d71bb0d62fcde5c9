import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { deleteUnlessGone } from '../shared/alreadyGone';
import { mapConcurrently, type RequestPacer } from '../shared/concurrency';
import type { RequestContext, ServiceAnswer, ServiceRequest } from '../shared/request';
import { credentialBaseUrl, serviceAnswer, serviceRequest } from '../shared/request';

export const RESPONSES_MAX_PAGE_SIZE = 250;
export const RESPONSES_DEFAULT_LIMIT = 50;
/**
 * Pages in flight at most. The service's limit counts requests a minute, not requests at once,
 * so more in flight costs no more of it; when it answers 429, fewer are kept in flight.
 */
export const DEFAULT_MAX_CONCURRENCY = 16;

export async function surveyRequest<T = IDataObject>(
	ctx: RequestContext,
	request: ServiceRequest,
): Promise<T> {
	return await serviceRequest<T>(ctx, 'surveyApi', 'survey service', request);
}

/** The whole answer, with whether the request had to be repeated (see `serviceAnswer`). */
export async function surveyAnswer<T = IDataObject>(
	ctx: RequestContext,
	request: ServiceRequest,
): Promise<ServiceAnswer<T>> {
	return await serviceAnswer<T>(ctx, 'surveyApi', 'survey service', request);
}

export async function listSurveys(ctx: RequestContext, itemIndex?: number): Promise<IDataObject[]> {
	const { data } = await surveyRequest<{ data: IDataObject[] }>(ctx, {
		method: 'GET',
		path: '/api/v1/management/surveys',
		itemIndex,
	});
	return data;
}

interface ResponsePage {
	data: IDataObject[];
	meta: { total: number; limit: number; offset: number };
}

/** The service's date filters (Part 2, section 6): inclusive ISO 8601 bounds on one date field. */
export interface ResponseDateFilter {
	startDate?: string;
	endDate?: string;
	filterDateField?: 'createdAt' | 'updatedAt';
}

export async function getSurvey(
	ctx: RequestContext,
	surveyId: string,
	itemIndex?: number,
): Promise<IDataObject> {
	const { data } = await surveyRequest<{ data: IDataObject }>(ctx, {
		method: 'GET',
		path: `/api/v1/management/surveys/${encodeURIComponent(surveyId)}`,
		itemIndex,
	});
	return data;
}

async function fetchResponsePage(
	ctx: RequestContext,
	query: ResponseQuery,
	offset: number,
	limit: number,
	baseUrl: string,
	pacer?: RequestPacer,
): Promise<ResponsePage> {
	const { startDate, endDate, filterDateField } = query.dateFilter ?? {};
	const dates: IDataObject = {};
	if (startDate !== undefined) dates.startDate = startDate;
	if (endDate !== undefined) dates.endDate = endDate;
	if (filterDateField !== undefined && (startDate !== undefined || endDate !== undefined)) {
		dates.filterDateField = filterDateField;
	}
	return await surveyRequest<ResponsePage>(ctx, {
		method: 'GET',
		path: `/api/v1/management/surveys/${encodeURIComponent(query.surveyId)}/responses`,
		qs: { limit, offset, ...dates },
		itemIndex: query.itemIndex,
		baseUrl,
		pacer,
	});
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

/**
 * One read of the range. Pages after the first start one response early, so that each page
 * must begin with the response the previous page ended with: a response added or removed
 * before a page boundary while the pages are read shifts that boundary, which is seen here,
 * as is a changed `meta.total`. Returns false when the data changed under the read.
 */
async function readRangeOnce(
	ctx: RequestContext,
	query: ResponseQuery,
	sink: ResponseSink,
): Promise<boolean> {
	const start = query.offset ?? 0;
	const firstSize = Math.min(query.limit ?? RESPONSES_MAX_PAGE_SIZE, RESPONSES_MAX_PAGE_SIZE);
	// Read once for all the pages: n8n reads a credential from its database every time.
	const baseUrl = await credentialBaseUrl(ctx, 'surveyApi', query.itemIndex);
	const first = await fetchResponsePage(ctx, query, start, firstSize, baseUrl);
	const total = first.meta.total;
	const available = Math.max(0, total - start);
	const wanted = Math.min(query.limit ?? available, available);
	if (wanted > 0 && first.data.length === 0) return false;
	sink.add(first.data.slice(0, wanted), start);

	const end = start + wanted;
	const pages: Array<{ offset: number; size: number }> = [];
	for (
		let offset = start + first.data.length;
		offset < end;
		offset += RESPONSES_MAX_PAGE_SIZE - 1
	) {
		pages.push({ offset, size: Math.min(RESPONSES_MAX_PAGE_SIZE - 1, end - offset) });
	}
	/** The first and last id of each page, the first page included, to check the boundaries. */
	const edges: Array<{ first?: unknown; last?: unknown }> = [
		{ last: first.data[first.data.length - 1]?.id },
	];
	let consistent = true;
	const tasks = pages.map(({ offset, size }, index) => async (pacer: RequestPacer) => {
		const page = await fetchResponsePage(ctx, query, offset - 1, size + 1, baseUrl, pacer);
		if (page.meta.total !== total || page.data.length !== size + 1) {
			consistent = false;
			return;
		}
		edges[index + 1] = { first: page.data[0].id, last: page.data[page.data.length - 1].id };
		if (consistent) sink.add(page.data.slice(1), offset);
	});
	await mapConcurrently(tasks, query.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
	if (!consistent) return false;
	for (let index = 1; index < edges.length; index++) {
		if (edges[index].first !== edges[index - 1].last) return false;
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
	for (let attempt = 1; attempt <= MAX_READ_ATTEMPTS; attempt++) {
		sink.reset();
		if (await readRangeOnce(ctx, query, sink)) return;
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

/** Erases a response; `alreadyGone` when the service no longer has it (see `deleteUnlessGone`). */
export async function deleteResponse(
	ctx: IExecuteFunctions,
	responseId: string,
	itemIndex: number,
): Promise<{ erased: IDataObject; alreadyGone: boolean }> {
	const { body, alreadyGone } = await deleteUnlessGone(ctx, itemIndex, surveyAnswer.bind(null, ctx), {
		method: 'DELETE',
		path: `/api/v1/management/responses/${encodeURIComponent(responseId)}`,
	});
	return { erased: (body as { data?: IDataObject } | undefined)?.data ?? {}, alreadyGone };
}
