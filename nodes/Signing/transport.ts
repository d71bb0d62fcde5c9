import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FetchNumberedPage } from '../shared/paging';
import { readNumberedPages } from '../shared/paging';
import { CONTRACT_RATE_POLICY, type RatePolicy } from '../shared/rateBudget';
import type { RequestContext, ServiceAnswer, ServiceErrorReader, ServiceRequest } from '../shared/request';
import { serviceAnswer, serviceRequest } from '../shared/request';

/** How one signing API is reached: the Signing API credential, the API's name in errors, its error shape, its rate limit. */
export interface SigningTransport {
	request<T = IDataObject>(ctx: RequestContext, request: ServiceRequest): Promise<T>;
	/** The whole answer, with whether the request had to be repeated (see `serviceAnswer`). */
	answer<T = IDataObject>(ctx: RequestContext, request: ServiceRequest): Promise<ServiceAnswer<T>>;
}

export function signingTransport(
	serviceName: string,
	readError?: ServiceErrorReader,
	rate: RatePolicy = CONTRACT_RATE_POLICY,
): SigningTransport {
	const withReader = (request: ServiceRequest): ServiceRequest => ({ rate, ...(readError && { readError }), ...request });
	return {
		request: async <T = IDataObject>(ctx: RequestContext, request: ServiceRequest) =>
			await serviceRequest<T>(ctx, 'signingApi', serviceName, withReader(request)),
		answer: async <T = IDataObject>(ctx: RequestContext, request: ServiceRequest) =>
			await serviceAnswer<T>(ctx, 'signingApi', serviceName, withReader(request)),
	};
}

/**
 * Reads a numbered list of a signing API (templates, documents), newest first, until `limit`
 * records (all when undefined): each record exactly once, also when records are added or leave a
 * filter while the pages are read (see `readNumberedPages`).
 */
export async function signingPages(
	ctx: RequestContext,
	fetchPage: FetchNumberedPage<IDataObject>,
	what: 'templates' | 'documents',
	options: { maxPerPage: number; limit?: number; itemIndex?: number },
): Promise<IDataObject[]> {
	const records = await readNumberedPages(fetchPage, {
		maxPerPage: options.maxPerPage,
		limit: options.limit,
		idOf: (record) => record.id,
	});
	if (records) return records;
	throw new NodeOperationError(ctx.getNode(), `The ${what} kept changing while they were read (3 attempts)`, {
		itemIndex: options.itemIndex,
		description:
			'So many records were added or left the filter between two pages, in every read, that no complete, duplicate-free list could be returned. Run the node again, or narrow the read with a filter.',
	});
}
