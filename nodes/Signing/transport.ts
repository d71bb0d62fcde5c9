import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { RequestContext, ServiceAnswer, ServiceRequest } from '../shared/request';
import { serviceAnswer, serviceRequest } from '../shared/request';

export async function signingRequest<T = IDataObject>(
	ctx: RequestContext,
	request: ServiceRequest,
): Promise<T> {
	return await serviceRequest<T>(ctx, 'signingApi', 'signing service', request);
}

/** The whole answer, with whether the request had to be repeated (see `serviceAnswer`). */
export async function signingAnswer<T = IDataObject>(
	ctx: RequestContext,
	request: ServiceRequest,
): Promise<ServiceAnswer<T>> {
	return await serviceAnswer<T>(ctx, 'signingApi', 'signing service', request);
}

/** The service's largest page. */
const MAX_PER_PAGE = 100;

interface Page {
	data: IDataObject[];
	pagination: { page: number; perPage: number; total: number; totalPages: number };
}

/**
 * Reads a page/perPage list of the signing service (templates, documents), newest first,
 * until `limit` records (all when undefined). A record created while reading shifts the pages
 * by one: the one seen twice is kept once.
 */
export async function signingPages(
	ctx: RequestContext,
	request: { path: string; qs?: IDataObject; itemIndex?: number },
	limit?: number,
): Promise<IDataObject[]> {
	const perPage = limit === undefined ? MAX_PER_PAGE : Math.min(MAX_PER_PAGE, Math.max(1, limit));
	const records: IDataObject[] = [];
	const seen = new Set<unknown>();
	for (let page = 1; ; page++) {
		const answer = await signingRequest<Page>(ctx, {
			method: 'GET',
			path: request.path,
			qs: { ...request.qs, page, perPage },
			itemIndex: request.itemIndex,
		});
		for (const record of answer.data) {
			if (seen.has(record.id)) continue;
			seen.add(record.id);
			records.push(record);
			if (limit !== undefined && records.length >= limit) return records;
		}
		if (answer.data.length === 0 || page >= answer.pagination.totalPages) return records;
	}
}

/** A document, or the service's 404 as an API error pointing at the item. */
export async function getSigningDocument(
	ctx: IExecuteFunctions,
	documentId: string,
	itemIndex: number,
): Promise<IDataObject> {
	return await signingRequest(ctx, {
		method: 'GET',
		path: `/api/v2/documents/${encodeURIComponent(documentId)}`,
		itemIndex,
	});
}
