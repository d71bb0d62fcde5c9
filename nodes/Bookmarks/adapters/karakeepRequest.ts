/* Karakeep's REST API v1 as every part of the Karakeep adapter calls it: its errors read in its own shapes, its rate limit. */

import type { IDataObject } from 'n8n-workflow';

import { type RatePolicy, waitInMessage } from '../../shared/rateBudget';
import type { RequestContext, ServiceRequest } from '../../shared/request';
import { serviceAnswer, serviceRequest } from '../../shared/request';
import { karakeepError } from './karakeepShapes';

export const KARAKEEP_SERVICE = 'Karakeep server';

/**
 * Karakeep limits only when its server sets RATE_LIMITING_ENABLED, per route and user (3,000 a minute,
 * packages/trpc/index.ts), and says the wait in its 429's message (packages/api/middlewares/rateLimit.ts);
 * its webhooks wait WEBHOOK_TIMEOUT_SEC, 5 s unless set.
 */
export const KARAKEEP_RATE: RatePolicy = { windowMs: 60_000, windows: 'sliding', senderWaitMs: 5_000, reopensIn: waitInMessage(/try again in (\d+) seconds/i) };
const withErrors = (req: ServiceRequest): ServiceRequest => ({ ...req, readError: karakeepError, rate: KARAKEEP_RATE });

export const request = async <T = IDataObject>(ctx: RequestContext, req: ServiceRequest) =>
	await serviceRequest<T>(ctx, 'bookmarkApi', KARAKEEP_SERVICE, withErrors(req));

export const answer = async (ctx: RequestContext, req: ServiceRequest) =>
	await serviceAnswer<unknown>(ctx, 'bookmarkApi', KARAKEEP_SERVICE, withErrors(req));

