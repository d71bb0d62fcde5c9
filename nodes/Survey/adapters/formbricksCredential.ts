import type { IDataObject, INodeCredentialTestResult } from 'n8n-workflow';

import type { ApiAdapter } from '../../shared/adapterRegistry';
import type { ProbeGet, ServiceProbe } from '../../shared/credentialTest';
import { isObject } from '../../shared/credentialTest';

/**
 * "Test credential" on Formbricks: `GET /api/v1/management/me` (apps/web/app/api/v1/management/me/route.ts
 * at b66c1dd) answers the key's workspace, unwrapped, for a key scoped to one workspace, and 400
 * for a key with access to several; `GET /api/v2/me` lists every workspace a key reaches.
 */

const workspaceWords = (workspace: { id: string; name?: string }) =>
	workspace.name ? `"${workspace.name}" (${workspace.id})` : workspace.id;

/** The workspaces a key reaches, from `GET /api/v2/me`; empty when that route does not answer. */
async function keyWorkspaces(get: ProbeGet): Promise<Array<{ id: string; name?: string }>> {
	const { statusCode, body } = await get('/api/v2/me').catch(() => ({ statusCode: 0, body: undefined }));
	if (statusCode !== 200 || !isObject(body) || !isObject(body.data)) return [];
	const permissions = Array.isArray(body.data.workspacePermissions) ? body.data.workspacePermissions : [];
	return permissions.filter(isObject).map((permission: IDataObject) => ({
		id: String(permission.workspaceId),
		name: typeof permission.workspaceName === 'string' ? permission.workspaceName : undefined,
	}));
}

const isMe = (body: unknown): body is IDataObject =>
	isObject(body) && typeof body.id === 'string' && (isObject(body.workspace) || isObject(body.project));

async function settle(
	{ statusCode, body }: { statusCode: number; body: unknown },
	credentials: IDataObject,
	get: ProbeGet,
): Promise<INodeCredentialTestResult | undefined> {
	const given = String(credentials.workspaceId ?? '').trim();
	if (statusCode === 200 && isMe(body)) {
		const workspace = (isObject(body.workspace) ? body.workspace : body.project) as IDataObject;
		const current = { id: String(workspace.id), name: typeof workspace.name === 'string' ? workspace.name : undefined };
		// Older servers' `id` is the workspace's former environment, which Formbricks accepts in its place.
		if (given !== '' && given !== current.id && given !== body.id) {
			return {
				status: 'Error',
				message: `The API key belongs to the workspace ${workspaceWords(current)}, not to the Workspace ID ${given} given in the credential. Correct the Workspace ID, or leave it empty.`,
			};
		}
		return { status: 'OK', message: `Connected to Formbricks, workspace ${workspaceWords(current)}` };
	}
	const message = isObject(body) && typeof body.message === 'string' ? body.message : '';
	if (statusCode === 400 && /single workspace/i.test(message)) {
		const workspaces = await keyWorkspaces(get);
		const listed = workspaces.length > 0 ? ` It reaches ${workspaces.map(workspaceWords).join(', ')}.` : '';
		if (given === '') {
			return {
				status: 'Error',
				message: `This API key reaches more than one workspace: give the one the Survey Trigger registers its webhooks in as Workspace ID (Formbricks shows it under the workspace's settings → General).${listed}`,
			};
		}
		if (workspaces.length > 0 && !workspaces.some((workspace) => workspace.id === given)) {
			return {
				status: 'Error',
				message: `This API key has no access to the Workspace ID ${given} given in the credential.${listed}`,
			};
		}
		return { status: 'OK', message: `Connected to Formbricks, workspace ${given}` };
	}
	return undefined;
}

/** How "Test credential" and errors on another API recognise a Formbricks server. */
export const FORMBRICKS_RECOGNITION: ApiAdapter['recognition'] = {
	probePath: '/api/v1/management/me',
	answersLikeIt: ({ statusCode, body }) => statusCode === 200 && isMe(body),
};

export const FORMBRICKS_CREDENTIAL_PROBE: ServiceProbe = {
	service: 'Formbricks server',
	secretName: 'API key',
	secretHint:
		'Check the API Key: Formbricks makes keys under Organization Settings → API Keys, each with access to chosen workspaces.',
	apiPrefix: '/api/v1',
	probePath: '/api/v1/management/me',
	headers: (credentials) => ({ 'x-api-key': String(credentials.apiKey ?? '') }),
	isServiceAnswer: isMe,
	// Formbricks' v1 refusal of a missing or unknown key (apps/web/app/lib/api/response.ts, notAuthenticatedResponse).
	isServiceRefusal: (body) => isObject(body) && body.code === 'not_authenticated',
	settle,
};
