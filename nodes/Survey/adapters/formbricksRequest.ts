import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../shared/credentialTest';
import { perRun } from '../../shared/perRun';
import type { RatePolicy } from '../../shared/rateBudget';
import type { RequestContext, ServiceRequest } from '../../shared/request';
import { formbricksError, formbricksLicensedError } from './formbricksShapes';
import { managementV1 } from './managementV1';

/** How errors name the service. */
export const SERVICE = 'Formbricks server';

/**
 * Formbricks' management API v1 routes, and the one request function every Formbricks call goes
 * through. 100 requests a minute per key, counted in windows that begin on the minute of
 * Formbricks' clock, a 429 without `Retry-After` (apps/web/modules/core/rate-limit/rate-limit.ts,
 * rate-limit-configs.ts); its webhooks wait 5 s for the answer (process-response-pipeline-job.ts).
 */
export const FORMBRICKS_RATE: RatePolicy = { limit: 100, windowMs: 60_000, windows: 'fixed', senderWaitMs: 5_000 };
export const v1 = managementV1(SERVICE, formbricksError, FORMBRICKS_RATE);
export const request = v1.request;

/** A request to a route Formbricks' Enterprise licence gates (contacts, personal links): its 403 names the licence. */
export const licensedRequest = async <T = IDataObject>(ctx: RequestContext, options: ServiceRequest): Promise<T> =>
	await request<T>(ctx, { readError: formbricksLicensedError, ...options });

/**
 * The workspace the key works in (read once per run), which Formbricks' writes require: the credential's Workspace ID,
 * else the key's own workspace from `GET /api/v1/management/me` (`workspace.id` on Formbricks 5;
 * `id` on older servers, whose environments are accepted in its place).
 */
export async function workspaceIdOf(ctx: RequestContext, itemIndex?: number): Promise<string> {
	return await workspaceOfRun(ctx, 'workspaceId', async () => await readWorkspaceId(ctx, itemIndex));
}

const workspaceOfRun = perRun<string>();

async function readWorkspaceId(ctx: RequestContext, itemIndex?: number): Promise<string> {
	const credentials = await ctx.getCredentials('surveyApi', itemIndex);
	const given = String(credentials.workspaceId ?? '').trim();
	if (given !== '') return given;
	const me = await request<IDataObject>(ctx, { method: 'GET', path: '/api/v1/management/me', itemIndex });
	const workspace = isObject(me.workspace) ? me.workspace.id : undefined;
	const id = typeof workspace === 'string' ? workspace : me.id;
	if (typeof id !== 'string' || id === '') {
		throw new NodeOperationError(ctx.getNode(), 'Formbricks did not tell which workspace this API key belongs to', {
			itemIndex,
			description: 'Give the workspace\'s ID in the credential\'s Workspace ID field (Formbricks shows it under the workspace\'s settings → General).',
		});
	}
	return id;
}
