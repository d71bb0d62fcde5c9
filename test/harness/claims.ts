/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The queue-mode samples (workflows/queue/): each replaces the single-process sample of the same
 * file name and claims every event in the table `event_claims`, in a Postgres database of its own
 * on the server queue mode already has. This sets that database up as a user would: the table
 * from the samples' own "Create Claims Table" node, and the credential "Event claims (Postgres)".
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { listWorkflowFiles } from './n8n';
import { PROJECT_ROOT } from './paths';
import { type CredentialRef, createCredential, type WorkflowFile } from './provision';
import type { QueueN8n } from './queue';

export const QUEUE_WORKFLOWS_DIR = path.join(PROJECT_ROOT, 'workflows', 'queue');
export const CLAIMS_DATABASE = 'event_claims';
export const CLAIMS_CREDENTIAL_NAME = 'Event claims (Postgres)';

export function queueWorkflowFiles(): string[] {
	return existsSync(QUEUE_WORKFLOWS_DIR)
		? readdirSync(QUEUE_WORKFLOWS_DIR)
				.filter((file) => file.endsWith('.json'))
				.map((file) => path.join(QUEUE_WORKFLOWS_DIR, file))
		: [];
}

/** The sample workflows for queue mode: each single-process sample, or its queue-mode variant where there is one. */
export function queueModeSampleFiles(): string[] {
	const variants = new Map(queueWorkflowFiles().map((file) => [path.basename(file), file]));
	return listWorkflowFiles().map((file) => variants.get(path.basename(file)) ?? file);
}

export function readWorkflow(file: string): WorkflowFile {
	return JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile;
}

/** The SQL of a Postgres node of a workflow, by the node's name. */
export function queryOf(workflow: WorkflowFile, nodeName: string): string {
	const node = workflow.nodes.find((candidate) => candidate.name === nodeName);
	const query = (node?.parameters as { query?: unknown } | undefined)?.query;
	if (typeof query !== 'string') throw new Error(`"${workflow.name}" has no Postgres query in a node "${nodeName}"`);
	return query;
}

/**
 * The claims database with its table (the SQL of the first queue-mode sample's "Create Claims
 * Table", what a user runs once with "Set Up Once"), and the Postgres credential to it.
 */
export async function setUpEventClaims(queue: QueueN8n): Promise<CredentialRef> {
	await queue.postgres.createDatabase(CLAIMS_DATABASE);
	const [first] = queueWorkflowFiles();
	await queue.postgres.query(CLAIMS_DATABASE, queryOf(readWorkflow(first), 'Create Claims Table'));
	return await createCredential(queue.main, CLAIMS_CREDENTIAL_NAME, 'postgres', {
		host: queue.postgres.host,
		port: queue.postgres.port,
		database: CLAIMS_DATABASE,
		user: queue.postgres.user,
		password: queue.postgres.password,
		ssl: 'disable',
		allowUnauthorizedCerts: false,
		sshTunnel: false,
		maxConnections: 20,
	});
}

/** The claim key of a finished response in the application sample (its expression `survey:responseFinished:{{ $json.responseId }}`). */
export const responseClaimKey = (responseId: string): string => `survey:responseFinished:${responseId}`;

export interface Claim {
	claimKey: string;
	state: string;
	executionId: string;
	attempts: number;
	progress: string;
}

/** Every claim in the table, e.g. to see which execution handled an event and how often it was taken. */
export async function readClaims(queue: QueueN8n): Promise<Claim[]> {
	const rows = await queue.postgres.query(
		CLAIMS_DATABASE,
		'SELECT claim_key, state, execution_id, attempts, coalesce(progress, \'\') FROM event_claims ORDER BY claim_key',
	);
	return rows.map((row) => {
		const [claimKey, state, executionId, attempts, progress] = row.split('\t');
		return { claimKey, state, executionId, attempts: Number(attempts), progress };
	});
}

/** The lease after which a claim whose execution died may be taken over, as the samples ship it. */
export const SHIPPED_LEASE = "interval '5 minutes'";
/** What the reconcile leaves to the webhooks: what changed in the last 5 minutes, as the samples ship it. */
export const SHIPPED_GRACE = '$now.minus({ minutes: 5 })';

/** Every string in a node's parameters, replaced through `replace`; how many changed. */
function replaceInParameters(value: unknown, replace: (text: string) => string): { value: unknown; changed: number } {
	if (typeof value === 'string') {
		const replaced = replace(value);
		return { value: replaced, changed: replaced === value ? 0 : 1 };
	}
	if (Array.isArray(value)) {
		const parts = value.map((part) => replaceInParameters(part, replace));
		return { value: parts.map((part) => part.value), changed: parts.reduce((sum, part) => sum + part.changed, 0) };
	}
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value).map(([key, part]) => [key, replaceInParameters(part, replace)] as const);
		return {
			value: Object.fromEntries(entries.map(([key, part]) => [key, part.value])),
			changed: entries.reduce((sum, [, part]) => sum + part.changed, 0),
		};
	}
	return { value, changed: 0 };
}

/**
 * A queue-mode sample as a test or chaos run imports it: its reconcile every
 * `reconcileEveryMinutes` instead of 5 and leaving the webhooks the last `graceSeconds` instead of
 * 5 minutes, and optionally a shorter lease (with the workflow's timeout kept below it), so that
 * a run need not wait the shipped 5 minutes.
 */
export function queueVariant(
	file: string,
	options: { reconcileEveryMinutes?: number; graceSeconds?: number; leaseSeconds?: number } = {},
): WorkflowFile {
	const workflow = readWorkflow(file);
	let graces = 0;
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.scheduleTrigger' && options.reconcileEveryMinutes !== undefined) {
			node.parameters = { rule: { interval: [{ field: 'minutes', minutesInterval: options.reconcileEveryMinutes }] } };
		}
		if (options.graceSeconds !== undefined) {
			const grace = replaceInParameters(node.parameters, (text) =>
				text.split(SHIPPED_GRACE).join(`$now.minus({ seconds: ${options.graceSeconds} })`),
			);
			node.parameters = grace.value as Record<string, unknown>;
			graces += grace.changed;
		}
		if (node.name === 'Claim Event' && options.leaseSeconds !== undefined) {
			const parameters = node.parameters as Record<string, unknown>;
			const query = String(parameters.query);
			if (!query.includes(SHIPPED_LEASE)) throw new Error(`"${workflow.name}": the claim has no ${SHIPPED_LEASE} to shorten`);
			parameters.query = query.replace(SHIPPED_LEASE, `interval '${options.leaseSeconds} seconds'`);
		}
	}
	if (options.graceSeconds !== undefined && graces === 0) throw new Error(`"${workflow.name}": no ${SHIPPED_GRACE} to shorten`);
	if (options.leaseSeconds !== undefined) {
		workflow.settings = { ...workflow.settings, executionTimeout: Math.max(10, options.leaseSeconds - 20) };
	}
	return workflow;
}
