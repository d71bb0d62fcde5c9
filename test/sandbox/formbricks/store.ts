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
	type AttributeKeyRow,
	type AttributeRow,
	type ContactRow,
	type ResponseRow,
	type SegmentRow,
	type StorageUrls,
	type SurveyRow,
	type WebhookRow,
	type Workspace,
} from './records';
import {
	FORMBRICKS_SEED,
	seedAttributeKeys,
	seedContacts,
	seedResponses,
	seedSurveys,
	seedWorkspace,
} from './seed';
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
	contacts = new Map<string, ContactRow>();
	attributeKeys: AttributeKeyRow[] = [];
	attributes: AttributeRow[] = [];
	segments = new Map<string, SegmentRow>();
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
		this.contacts = new Map();
		// Every workspace has the default keys, seeded or not.
		this.attributeKeys = seedAttributeKeys().filter((key) => key.type === 'default');
		this.attributes = [];
		this.segments = new Map();
		this.access = { permission: 'manage', extraWorkspaces: 0 };
		if (!this.options.seed) return;
		this.attributeKeys = seedAttributeKeys();
		const { contacts, attributes, segments } = seedContacts();
		for (const contact of contacts) this.contacts.set(contact.id, contact);
		this.attributes = attributes;
		for (const segment of segments) this.segments.set(segment.id, segment);
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

	/** A contact's attributes by key, as Formbricks flattens them (`attributes.forEach(…)[key] = value`). */
	attributesOf(contactId: string): Record<string, string> {
		const keys = new Map(this.attributeKeys.map((key) => [key.id, key.key]));
		return Object.fromEntries(
			this.attributes
				.filter((attribute) => attribute.contactId === contactId)
				.map((attribute) => [keys.get(attribute.attributeKeyId) ?? attribute.attributeKeyId, attribute.value]),
		);
	}

	attributeKey(workspaceId: string, key: string): AttributeKeyRow | undefined {
		return this.attributeKeys.find((row) => row.workspaceId === workspaceId && row.key === key);
	}

	/** The contact of a workspace whose attribute `key` has this value. */
	contactWith(workspaceId: string, key: string, value: string): ContactRow | undefined {
		const keyRow = this.attributeKey(workspaceId, key);
		const attribute = keyRow && this.attributes.find((row) => row.attributeKeyId === keyRow.id && row.value === value);
		return attribute && this.contacts.get(attribute.contactId);
	}

	addAttributeKey(
		input: Pick<AttributeKeyRow, 'key' | 'workspaceId'> & Partial<Pick<AttributeKeyRow, 'name' | 'description' | 'dataType'>>,
	): AttributeKeyRow {
		const now = nowIso();
		const row: AttributeKeyRow = {
			id: cuid(),
			createdAt: now,
			updatedAt: now,
			isUnique: false,
			key: input.key,
			name: input.name ?? null,
			description: input.description ?? null,
			type: 'custom',
			dataType: input.dataType ?? 'string',
			workspaceId: input.workspaceId,
		};
		this.attributeKeys.push(row);
		return row;
	}

	addContact(workspaceId: string): ContactRow {
		const now = nowIso();
		const contact: ContactRow = { id: cuid(), createdAt: now, updatedAt: now, workspaceId };
		this.contacts.set(contact.id, contact);
		return contact;
	}

	/** Sets a contact's value for a key (an upsert on `contactId, attributeKeyId`, as Formbricks' bulk route does). */
	setAttribute(contactId: string, key: AttributeKeyRow, value: string): void {
		const now = nowIso();
		const existing = this.attributes.find((row) => row.contactId === contactId && row.attributeKeyId === key.id);
		if (existing) {
			existing.value = value;
			existing.updatedAt = now;
			return;
		}
		this.attributes.push({
			id: cuid(),
			createdAt: now,
			updatedAt: now,
			attributeKeyId: key.id,
			contactId,
			value,
			valueNumber: key.dataType === 'number' ? Number(value) : null,
			valueDate: key.dataType === 'date' ? new Date(value).toISOString() : null,
		});
	}

	/**
	 * Deletes a contact with what cascades from it in Formbricks' schema (`onDelete: Cascade` on
	 * ContactAttribute.contact and Response.contact): its attributes and its responses.
	 */
	deleteContact(contactId: string): void {
		this.contacts.delete(contactId);
		this.attributes = this.attributes.filter((row) => row.contactId !== contactId);
		for (const response of [...this.responses.values()]) {
			if (response.contactId === contactId) this.responses.delete(response.id);
		}
	}

	/** The contacts a segment's filters select, newest first (`orderBy: { createdAt: "desc" }`). */
	contactsInSegment(segment: SegmentRow): ContactRow[] {
		return [...this.contacts.values()]
			.filter((contact) => contact.workspaceId === segment.workspaceId)
			.filter((contact) => {
				const attributes = this.attributesOf(contact.id);
				return segment.filters.every((filter) => attributes[filter.key] === filter.value);
			})
			.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
	}

	/**
	 * The management API's PUT: the response's fields replaced by those given (as `prisma.response.update`
	 * with the whole record), then `responseUpdated`, and `responseFinished` when it is finished.
	 */
	replaceResponse(response: ResponseRow, fields: Omit<ResponseRow, 'id' | 'surveyId' | 'tags' | 'contactUserId'>): ResponseRow {
		Object.assign(response, fields);
		if (fields.contactId === null) delete response.contactUserId;
		else if (fields.contactId) response.contactUserId = this.attributesOf(fields.contactId).userId;
		this.fire('responseUpdated', response);
		if (response.finished) this.fire('responseFinished', response);
		return response;
	}

	/**
	 * Deletes a survey with what cascades from it in Formbricks' schema (`onDelete: Cascade` on
	 * Response.survey, Display.survey…): its responses. The survey as it was.
	 */
	deleteSurvey(surveyId: string): SurveyRow {
		const survey = this.surveys.get(surveyId)!;
		this.surveys.delete(surveyId);
		for (const response of this.responsesOf(surveyId)) this.responses.delete(response.id);
		return survey;
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
