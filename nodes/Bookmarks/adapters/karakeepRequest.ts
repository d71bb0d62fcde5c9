import type { IDataObject } from 'n8n-workflow';

import type { RequestContext, ServiceRequest } from '../../shared/request';
import { serviceAnswer, serviceRequest } from '../../shared/request';
import { karakeepError } from './karakeepShapes';

/** Karakeep's REST API v1 as every part of the Karakeep adapter calls it: its errors read in its own shapes. */
export const KARAKEEP_SERVICE = 'Karakeep server';

const withErrors = (req: ServiceRequest): ServiceRequest => ({ ...req, readError: karakeepError });

export const request = async <T = IDataObject>(ctx: RequestContext, req: ServiceRequest) =>
	await serviceRequest<T>(ctx, 'bookmarkApi', KARAKEEP_SERVICE, withErrors(req));

export const answer = async (ctx: RequestContext, req: ServiceRequest) =>
	await serviceAnswer<unknown>(ctx, 'bookmarkApi', KARAKEEP_SERVICE, withErrors(req));

export const recordPath = (recordId: string, below = '') => `/api/v1/bookmarks/${encodeURIComponent(recordId)}${below}`;
export const listPath = (listId: string, below = '') => `/api/v1/lists/${encodeURIComponent(listId)}${below}`;
