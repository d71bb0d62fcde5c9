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
export const answer = v1.answer;

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
const workspaceFieldOfRun = perRun<WorkspaceField>();

/** How a request body names the workspace: `workspaceId`, or `environmentId` on a server from before the rename. */
export type WorkspaceField = { workspaceId: string; environmentId?: undefined } | { environmentId: string; workspaceId?: undefined };

/**
 * The workspace as the server expects a body to name it (read once per run). A Workspace ID given in the
 * credential is a workspace's (Formbricks 5 and later): `workspaceId`. Left empty, the key's own
 * `GET /api/v1/management/me` tells: Formbricks 5 answers its `workspace` (`workspaceId`); a server from
 * before the rename answers the key's environment without one, and takes `environmentId`
 * (apps/web/app/api/v1/management/lib/workspace-resolver.ts accepts both since the rename).
 */
export async function workspaceField(ctx: RequestContext, itemIndex?: number): Promise<WorkspaceField> {
	return await workspaceFieldOfRun(ctx, 'workspaceField', async () => {
		const credentials = await ctx.getCredentials('surveyApi', itemIndex);
		const given = String(credentials.workspaceId ?? '').trim();
		if (given !== '') return { workspaceId: given };
		const me = await request<IDataObject>(ctx, { method: 'GET', path: '/api/v1/management/me', itemIndex });
		if (isObject(me.workspace) && typeof me.workspace.id === 'string') return { workspaceId: me.workspace.id };
		if (typeof me.id === 'string' && me.id !== '') return { environmentId: me.id };
		return { workspaceId: await workspaceIdOf(ctx, itemIndex) };
	});
}

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
