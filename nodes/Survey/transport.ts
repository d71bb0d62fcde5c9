import type { IDataObject } from 'n8n-workflow';

import type { RequestContext, ServiceRequest } from '../shared/request';
import { serviceRequest } from '../shared/request';

export const RESPONSES_MAX_PAGE_SIZE = 250;
export const RESPONSES_DEFAULT_LIMIT = 50;
/** The service allows 100 requests a minute per key; a few pages in flight stay well within it. */
export const DEFAULT_MAX_CONCURRENCY = 4;

export async function surveyRequest<T = IDataObject>(ctx: RequestContext, request: ServiceRequest): Promise<T> {
	return await serviceRequest<T>(ctx, 'surveyApi', 'survey service', request);
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

async function fetchResponsePage(
	ctx: RequestContext,
	surveyId: string,
	offset: number,
	limit: number,
	itemIndex?: number,
): Promise<ResponsePage> {
	return await surveyRequest<ResponsePage>(ctx, {
		method: 'GET',
		path: `/api/v1/management/surveys/${encodeURIComponent(surveyId)}/responses`,
		qs: { limit, offset },
		itemIndex,
	});
}

/** Runs the tasks with at most `concurrency` in flight; results keep the tasks' order. */
export async function mapConcurrently<T>(tasks: Array<() => Promise<T>>, concurrency: number): Promise<T[]> {
	const results = new Array<T>(tasks.length);
	let next = 0;
	const worker = async () => {
		while (next < tasks.length) {
			const index = next++;
			results[index] = await tasks[index]();
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, tasks.length)) }, worker));
	return results;
}

export interface ResponseQuery {
	surveyId: string;
	/** Undefined for all responses. */
	limit?: number;
	offset?: number;
	maxConcurrency?: number;
	itemIndex?: number;
}

/**
 * Responses of a survey in the service's order (oldest first). The first page tells the
 * total; the remaining pages are then fetched concurrently, each at its own offset.
 */
export async function fetchResponses(ctx: RequestContext, query: ResponseQuery): Promise<IDataObject[]> {
	const start = query.offset ?? 0;
	const firstSize = Math.min(query.limit ?? RESPONSES_MAX_PAGE_SIZE, RESPONSES_MAX_PAGE_SIZE);
	const first = await fetchResponsePage(ctx, query.surveyId, start, firstSize, query.itemIndex);
	const available = Math.max(0, first.meta.total - start);
	const wanted = Math.min(query.limit ?? available, available);

	const tasks: Array<() => Promise<IDataObject[]>> = [];
	for (let offset = start + first.data.length; offset < start + wanted; offset += RESPONSES_MAX_PAGE_SIZE) {
		const size = Math.min(RESPONSES_MAX_PAGE_SIZE, start + wanted - offset);
		tasks.push(async () => (await fetchResponsePage(ctx, query.surveyId, offset, size, query.itemIndex)).data);
	}
	const rest = await mapConcurrently(tasks, query.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
	return [first.data, ...rest].flat().slice(0, wanted);
}
