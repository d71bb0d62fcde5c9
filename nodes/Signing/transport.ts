import type { IDataObject } from 'n8n-workflow';

import type { RequestContext, ServiceRequest } from '../shared/request';
import { serviceRequest } from '../shared/request';

export async function signingRequest<T = IDataObject>(
	ctx: RequestContext,
	request: ServiceRequest,
): Promise<T> {
	return await serviceRequest<T>(ctx, 'signingApi', 'signing service', request);
}
