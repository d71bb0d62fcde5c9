/**
 * What a Formbricks server holds for one organisation: its workspace, surveys, responses,
 * webhooks, and the API key's access. Changes to responses go through the pipeline, as
 * `sendToPipeline` does in Formbricks' response routes.
 */
import { randomBytes } from 'node:crypto';

import { cuid } from './ids';
import type { Pipeline } from './pipeline';
import {
	responseV1,
	type ResponseRow,
	type StorageUrls,
	type SurveyRow,
	type WebhookRow,
	type Workspace,
} from './records';
import { FORMBRICKS_SEED, seedResponses, seedSurveys, seedWorkspace } from './seed';
import { nowIso } from './timing';
import type { PipelineEvent } from './webhook';

export type Permission = 'read' | 'write' | 'manage';

/** The API key's access (`TAuthenticationApiKey`): one or more workspaces, each with a permission. */
export interface KeyAccess {
	permission: Permission;
	/** Workspaces beyond the seeded one the key can reach; `GET /api/v1/management/me` refuses such keys. */
	extraWorkspaces: number;
}

const PERMISSION_FOR_METHOD: Record<string, Permission> = {
	GET: 'read',
	POST: 'write',
	PUT: 'write',
	PATCH: 'write',
	DELETE: 'manage',
};

/** `hasPermission` (apps/web/modules/organization/settings/api-keys/lib/utils.ts). */
function allows(granted: Permission, method: string): boolean {
	const required = PERMISSION_FOR_METHOD[method];
	if (granted === 'manage') return true;
	if (granted === 'write') return required === 'write' || required === 'read';
	return required === 'read';
}

/** `generateWebhookSecret` (apps/web/lib/crypto.ts): `whsec_` and 32 random bytes in base64. */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export interface StoreOptions {
	seed: boolean;
	/** The workspace was an environment before Formbricks 5 (`legacyEnvironmentId` set). */
	legacyEnvironmentId: boolean;
	/** The residency and erasure surveys with the question ids the sample workflows read (SAMPLE_QUESTION_IDS). */
	sampleQuestionIds?: boolean;
	urls: StorageUrls;
}

export class FormbricksStore {
	workspace!: Workspace;
	surveys = new Map<string, SurveyRow>();
	responses = new Map<string, ResponseRow>();
	webhooks: WebhookRow[] = [];
	access: KeyAccess = { permission: 'manage', extraWorkspaces: 0 };
	pipeline?: Pipeline;

	constructor(private readonly options: StoreOptions) {
		this.reset();
	}

	reset(): void {
		this.workspace = seedWorkspace(this.options.legacyEnvironmentId ? 'cmstt2j402f7aw1vf1az6rzr1' : null);
		this.surveys = new Map();
		this.responses = new Map();
		this.webhooks = [];
		this.access = { permission: 'manage', extraWorkspaces: 0 };
		if (!this.options.seed) return;
		const sample = this.options.sampleQuestionIds ?? false;
		for (const survey of seedSurveys(sample)) this.surveys.set(survey.id, survey);
		for (const response of seedResponses(sample)) this.responses.set(response.id, response);
	}

	get urls(): StorageUrls {
		return this.options.urls;
	}

	/** The key's workspace permissions, the seeded workspace first. */
	permissions(): Array<{ workspaceId: string; workspaceName: string; permission: Permission }> {
		return [
			{ workspaceId: this.workspace.id, workspaceName: this.workspace.name, permission: this.access.permission },
			...Array.from({ length: this.access.extraWorkspaces }, (_, index) => ({
				workspaceId: `cmextraworkspace${String(index + 1).padStart(9, '0')}`,
				workspaceName: `Other workspace ${index + 1}`,
				permission: this.access.permission,
			})),
		];
	}

	can(method: string, workspaceId: string): boolean {
		const grant = this.permissions().find((permission) => permission.workspaceId === workspaceId);
		return grant !== undefined && allows(grant.permission, method);
	}

	/** `findWorkspaceByIdOrLegacyEnvId`: the workspace by its id or its former environment id. */
	findWorkspace(id: string): Workspace | undefined {
		return id === this.workspace.id || id === this.workspace.legacyEnvironmentId
			? this.workspace
			: undefined;
	}

	/** The key's workspaces that exist here (only the seeded one holds data). */
	workspaceIds(): string[] {
		return this.permissions().map((permission) => permission.workspaceId);
	}

	responsesOf(surveyId: string): ResponseRow[] {
		return [...this.responses.values()].filter((response) => response.surveyId === surveyId);
	}

	hooksFor(event: PipelineEvent, surveyId: string): WebhookRow[] {
		const survey = this.surveys.get(surveyId);
		return this.webhooks.filter(
			(hook) =>
				hook.workspaceId === survey?.workspaceId &&
				hook.triggers.includes(event) &&
				(hook.surveyIds.length === 0 || hook.surveyIds.includes(surveyId)),
		);
	}

	private fire(event: PipelineEvent, response: ResponseRow): void {
		this.pipeline?.enqueue({ event, surveyId: response.surveyId, response: responseV1(response) });
	}

	/** A respondent starts (and maybe finishes) a response: `responseCreated`, then `responseFinished`. */
	addResponse(response: ResponseRow): ResponseRow {
		this.responses.set(response.id, response);
		this.fire('responseCreated', response);
		if (response.finished) this.fire('responseFinished', response);
		return response;
	}

	/**
	 * A respondent answers more: `responseUpdated`, then `responseFinished` whenever the response is
	 * finished after the update (`if (updated.finished)` in both the client and the management PUT).
	 */
	updateResponse(
		response: ResponseRow,
		change: { data?: Record<string, unknown>; finished?: boolean },
	): ResponseRow {
		response.data = { ...response.data, ...change.data };
		if (change.finished !== undefined) response.finished = change.finished;
		response.updatedAt = nowIso();
		this.fire('responseUpdated', response);
		if (response.finished) this.fire('responseFinished', response);
		return response;
	}

	addWebhook(input: Omit<WebhookRow, 'id' | 'createdAt' | 'updatedAt' | 'secret'>): WebhookRow {
		const now = nowIso();
		const webhook: WebhookRow = {
			id: cuid(),
			name: input.name,
			createdAt: now,
			updatedAt: now,
			url: input.url,
			source: input.source,
			workspaceId: input.workspaceId,
			triggers: input.triggers,
			surveyIds: input.surveyIds,
			secret: generateWebhookSecret(),
		};
		this.webhooks.push(webhook);
		return webhook;
	}

	deleteWebhook(webhook: WebhookRow): void {
		this.webhooks = this.webhooks.filter((candidate) => candidate !== webhook);
	}
}

export { FORMBRICKS_SEED };
