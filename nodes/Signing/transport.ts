import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readNumberedPages } from '../shared/paging';
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
 * until `limit` records (all when undefined): each record exactly once, also when records
 * are added or leave a filter while the pages are read (see `readNumberedPages`).
 */
export async function signingPages(
	ctx: RequestContext,
	request: { path: string; qs?: IDataObject; itemIndex?: number },
	limit?: number,
): Promise<IDataObject[]> {
	const records = await readNumberedPages(
		async (page, perPage) =>
			(
				await signingRequest<Page>(ctx, {
					method: 'GET',
					path: request.path,
					qs: { ...request.qs, page, perPage },
					itemIndex: request.itemIndex,
				})
			).data,
		{ maxPerPage: MAX_PER_PAGE, limit, idOf: (record) => record.id },
	);
	if (records) return records;
	throw new NodeOperationError(
		ctx.getNode(),
		`The ${request.path.endsWith('/templates') ? 'templates' : 'documents'} kept changing while they were read (3 attempts)`,
		{
			itemIndex: request.itemIndex,
			description:
				'So many records were added or left the filter between two pages, in every read, that no complete, duplicate-free list could be returned. Run the node again, or narrow the read with a filter.',
		},
	);
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
