/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error */
import { readFileSync } from 'node:fs';

import type { Sandbox, SandboxOptions } from '../sandbox';
import { FORMBRICKS_SEED, SEED, startSandbox } from '../sandbox';
import type { N8nInstance } from './n8n';
import { listWorkflowFiles, PACKAGE_NAME, packPackage, startN8n } from './n8n';
import { N8N_MAJOR } from './paths';
import { waitUntil } from './processes';

export const SIGNING_WEBHOOK_SECRET = 'sandbox-signing-webhook-secret';
/** The bearer token MCP clients send to the sample MCP servers (credential "MCP clients (sandbox)"). */
export const MCP_TOKEN = 'sandbox-mcp-token';

export interface CredentialRef {
	id: string;
	name: string;
}

/**
 * Keyed by credential type, as workflow nodes reference them; httpBearerAuth guards the MCP
 * servers; postgres holds the queue-mode samples' event claims (test/harness/claims.ts).
 */
export type CredentialRefs = Record<'signingApi' | 'bookmarkApi' | 'surveyApi' | 'httpBearerAuth', CredentialRef> & {
	postgres?: CredentialRef;
	/** n8n's own SMTP credential, for the samples' Send Email nodes (an SMTP sink in `npm start`). */
	smtp?: CredentialRef;
};

export interface WorkflowNode {
	name: string;
	type: string;
	webhookId?: string;
	credentials?: Record<string, CredentialRef>;
	[key: string]: unknown;
}

export interface WorkflowFile {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

export interface ImportedWorkflow {
	id: string;
	name: string;
	file: string;
	nodes: WorkflowNode[];
}

/**
 * Saves a credential through the public API. n8n 1.x's schema for every credential also
 * requires `allowedHttpRequestDomains` (which domains the HTTP Request node may use it for);
 * the harness fills in n8n's own default, "all", wherever the schema asks for it.
 */
export async function createCredential(
	n8n: N8nInstance,
	name: string,
	type: string,
	data: Record<string, unknown>,
): Promise<CredentialRef> {
	const schema = await n8n
		.api<{ properties?: Record<string, unknown> }>('GET', `/credentials/schema/${type}`)
		.catch(() => undefined);
	const completed: Record<string, unknown> = { ...data };
	if (schema?.properties?.allowedHttpRequestDomains && data.allowedHttpRequestDomains === undefined) {
		completed.allowedHttpRequestDomains = 'all';
	}
	const created = await n8n.api<{ id: string; name: string }>('POST', '/credentials', {
		name,
		type,
		data: completed,
	});
	return { id: created.id, name: created.name };
}

/**
 * The credentials of `createSandboxCredentials`, with the Signing credential's API set to Documenso
 * (for a sandbox started with `signing: 'documenso'`) and its webhook secret.
 */
export async function createDocumensoSandboxCredentials(n8n: N8nInstance, sandbox: Sandbox): Promise<CredentialRefs> {
	const credentials = await createSandboxCredentials(n8n, sandbox);
	credentials.signingApi = await createCredential(n8n, 'Documenso (sandbox)', 'signingApi', {
		api: 'documenso',
		baseUrl: sandbox.signing.url,
		apiToken: sandbox.signing.apiKey,
		webhookSecret: SIGNING_WEBHOOK_SECRET,
	});
	return credentials;
}

/**
 * Credentials of the three services, pointing at the sandbox, and the one MCP clients authenticate
 * with. The Survey API credential's API option names the API the sandbox's survey service speaks.
 * A service given in `provided` (a real platform's credential, e.g. Karakeep's) gets no sandbox
 * credential: in a platform's flavour of `npm start`, a node added by hand can pick only that one.
 */
export async function createSandboxCredentials(
	n8n: N8nInstance,
	sandbox: Sandbox,
	provided: Partial<CredentialRefs> = {},
): Promise<CredentialRefs> {
	const formbricks = sandbox.survey.api === 'formbricks';
	const create = async (name: string, type: string, data: Record<string, string>) =>
		await createCredential(n8n, name, type, data);
	return {
		...provided,
		signingApi:
			provided.signingApi ??
			(await create('Signing (sandbox)', 'signingApi', {
				baseUrl: sandbox.signing.url,
				apiToken: sandbox.signing.apiKey,
				webhookSecret: SIGNING_WEBHOOK_SECRET,
			})),
		bookmarkApi:
			provided.bookmarkApi ??
			(await create('Bookmarks (sandbox)', 'bookmarkApi', {
				baseUrl: sandbox.bookmark.url,
				apiKey: sandbox.bookmark.apiKey,
			})),
		surveyApi:
			provided.surveyApi ??
			(await create(formbricks ? 'Formbricks (sandbox)' : 'Survey (sandbox)', 'surveyApi', {
				api: formbricks ? 'formbricks' : 'documented',
				baseUrl: sandbox.survey.url,
				apiKey: sandbox.survey.apiKey,
			})),
		httpBearerAuth: provided.httpBearerAuth ?? (await create('MCP clients (sandbox)', 'httpBearerAuth', { token: MCP_TOKEN })),
	};
}

/** n8n's SMTP credential for an SMTP sink on 127.0.0.1: no TLS, no login. */
export async function createSmtpSinkCredential(n8n: N8nInstance, sink: { host: string; port: number }, name = 'SMTP (sandbox sink)'): Promise<CredentialRef> {
	return await createCredential(n8n, name, 'smtp', {
		host: sink.host,
		port: sink.port,
		secure: false,
		disableStartTls: true,
		user: '',
		password: '',
	});
}

/** Imports a workflow through the public API with its credentials pointed at the given ones. */
export async function importWorkflow(
	n8n: N8nInstance,
	workflow: WorkflowFile,
	credentials: Partial<CredentialRefs>,
	file = '',
): Promise<ImportedWorkflow> {
	const nodes = workflow.nodes.map((node) => {
		if (!node.credentials) return node;
		const attached = Object.fromEntries(
			Object.keys(node.credentials).map((type) => [
				type,
				credentials[type as keyof CredentialRefs] ?? node.credentials![type],
			]),
		);
		return { ...node, credentials: attached };
	});
	const created = await n8n.api<{ id: string; name: string }>('POST', '/workflows', {
		name: workflow.name,
		nodes,
		connections: workflow.connections,
		settings: workflow.settings ?? { executionOrder: 'v1' },
	});
	return { id: created.id, name: created.name, file, nodes };
}

/** A workflow's text with each survey id `from` replaced by `to`, wherever it is named. */
export function withSurveyIds(text: string, surveyIds: Record<string, string>): string {
	return Object.entries(surveyIds).reduce(
		(replaced, [from, to]) => replaced.replace(new RegExp(`\\b${from}\\b`, 'g'), to),
		text,
	);
}

/**
 * The sample workflows, with their survey ids replaced by `surveyIds` (the samples name the
 * documented seed's surveys; a Formbricks has surveys of its own ids).
 */
export async function importWorkflowFiles(
	n8n: N8nInstance,
	credentials: CredentialRefs,
	surveyIds: Record<string, string> = {},
	files = listWorkflowFiles(),
	adapt: (workflow: WorkflowFile) => WorkflowFile = (workflow) => workflow,
): Promise<ImportedWorkflow[]> {
	const imported: ImportedWorkflow[] = [];
	for (const file of files) {
		const workflow = adapt(JSON.parse(withSurveyIds(readFileSync(file, 'utf8'), surveyIds)) as WorkflowFile);
		imported.push(await importWorkflow(n8n, workflow, credentials, file));
	}
	return imported;
}

/**
 * A sample as `BOOKMARKS=karakeep npm start` imports it: *Signed → archived* keeps the signed PDF
 * itself (its *Archive As* field `keepSignedPdf` on), which only Karakeep can file; the shipped
 * sample keeps it off, as the documented API needs. Any other sample is returned as it is.
 */
export function withSignedPdfKept(workflow: WorkflowFile): WorkflowFile {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			const assignments = (node.parameters as { assignments?: { assignments?: Array<{ name: string; value: unknown }> } } | undefined)
				?.assignments?.assignments;
			if (node.type !== 'n8n-nodes-base.set' || !assignments?.some((assignment) => assignment.name === 'keepSignedPdf')) return node;
			const parameters = node.parameters as { assignments: { assignments: Array<{ name: string; value: unknown }> } };
			return {
				...node,
				parameters: {
					...parameters,
					assignments: {
						...parameters.assignments,
						assignments: assignments.map((assignment) =>
							assignment.name === 'keepSignedPdf' ? { ...assignment, value: true } : assignment,
						),
					},
				},
			};
		}),
	};
}

export function hasTrigger(workflow: ImportedWorkflow): boolean {
	return workflow.nodes.some(
		(node) => /trigger$/i.test(node.type) && node.type !== 'n8n-nodes-base.manualTrigger',
	);
}

/**
 * A sample that runs only on Karakeep: its Bookmarks Trigger watches Bookmark Changes, which fails
 * at once on the documented API. It is activated only where the Bookmark credential is a Karakeep's.
 */
export function needsKarakeep(workflow: Pick<WorkflowFile, 'nodes'>): boolean {
	return workflow.nodes.some(
		(node) => node.type.endsWith('.bookmarksTrigger') && (node.parameters as { watch?: unknown } | undefined)?.watch === 'changes',
	);
}

/** GET /rest/workflows/:id/publication-status in n8n 2.x (@n8n/api-types WorkflowPublicationStatusSchema). */
interface PublicationStatus {
	status: 'in_progress' | 'published' | 'partial' | 'failed' | 'not_published';
	triggers: Array<{ nodeId: string; status: 'activated' | 'failed'; errorMessage: string | null }>;
}

/**
 * Activates a workflow and waits until n8n has really registered it: activation is
 * asynchronous in n8n 2.x, and events sent before it completes are lost. The same public
 * route activates in n8n 1.x.
 */
export async function activateWorkflow(n8n: N8nInstance, id: string, timeoutMs = 60_000): Promise<void> {
	await n8n.api('POST', `/workflows/${id}/activate`);
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const workflow = await n8n.api<{ active: boolean; activeVersionId?: string | null }>(
			'GET',
			`/workflows/${id}`,
		);
		// n8n 1.x activates synchronously and has no publication status.
		if (workflow.active && N8N_MAJOR < 2) return;
		if (workflow.active) {
			// 2.x publishes in the background: its triggers (webhooks, a poll's first run) are live only
			// once the status is `published`. A 2.x without the route activates synchronously, as 1.x.
			const publication = await n8n
				.rest<PublicationStatus>('GET', `/workflows/${id}/publication-status`)
				.catch((error: unknown) => ((error as { status?: number }).status === 404 ? 'no such route' : undefined));
			if (publication === 'no such route' || publication?.status === 'published') return;
			if (publication?.status === 'failed' || publication?.status === 'partial') {
				throw new Error(`Publishing workflow ${id} ended ${publication.status}: ${JSON.stringify(publication.triggers)}`);
			}
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`Workflow ${id} was not active after ${timeoutMs} ms`);
}

export async function deactivateWorkflow(n8n: N8nInstance, id: string): Promise<void> {
	await n8n.api('POST', `/workflows/${id}/deactivate`);
}

/** Production URL of a webhook-based node of ours, as n8n builds it from the node's webhookId. */
export function productionWebhookUrl(n8n: N8nInstance, node: WorkflowNode, path = 'webhook'): string {
	if (!node.webhookId) throw new Error(`Node "${node.name}" has no webhookId`);
	return `${n8n.baseUrl}/webhook/${node.webhookId}/${path}`;
}

export function nodesOfType(workflow: ImportedWorkflow, nodeName: string): WorkflowNode[] {
	return workflow.nodes.filter((node) => node.type === `${PACKAGE_NAME}.${nodeName}`);
}

export interface ExecutionSummary {
	id: string;
	status: string;
	workflowId: string;
	data?: {
		resultData: {
			runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>>;
			error?: { message: string };
		};
	};
}

const UNFINISHED = new Set(['new', 'running', 'waiting']);

async function allExecutions(n8n: N8nInstance, workflowId: string, includeData: boolean): Promise<ExecutionSummary[]> {
	const page = await n8n.api<{ data: ExecutionSummary[] }>(
		'GET',
		`/executions?workflowId=${workflowId}&includeData=${includeData}&limit=250`,
	);
	return page.data;
}

/** The workflow's finished executions, newest first; running ones have no output to read yet. */
export async function listExecutions(
	n8n: N8nInstance,
	workflowId: string,
	includeData = false,
): Promise<ExecutionSummary[]> {
	return (await allExecutions(n8n, workflowId, includeData)).filter((execution) => !UNFINISHED.has(execution.status));
}

/**
 * The workflow's executions once at least `atLeast` exist and none is still running: with the
 * sandbox's deliveries settled, n8n 2.x has stored an execution for every delivery it
 * accepted, so the list is final and a test sees a duplicate without sleeping for it.
 * (n8n 1.x answers a delivery before it stores the execution: there a duplicate can still be
 * missed, never reported falsely.)
 */
export async function settledExecutions(
	n8n: N8nInstance,
	workflowId: string,
	atLeast = 1,
	includeData = false,
): Promise<ExecutionSummary[]> {
	return await waitUntil(`${atLeast} finished executions of workflow ${workflowId}`, async () => {
		const all = await allExecutions(n8n, workflowId, includeData);
		return all.length >= atLeast && all.every((execution) => !UNFINISHED.has(execution.status)) && all;
	});
}

/** First output items of a node in an execution. */
export function nodeOutput(execution: ExecutionSummary, nodeName: string): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData.runData[nodeName] ?? [];
	return (runs[0]?.data?.main[0] ?? []).map((item) => item.json);
}

export { waitUntil } from './processes';

export interface Stack {
	sandbox: Sandbox;
	n8n: N8nInstance;
	credentials: CredentialRefs;
	stop(): Promise<void>;
}

/** The sandbox on the ports `npm start` and `npm run start:queue` use, or those the environment names. */
export async function startDemoSandbox(): Promise<Sandbox> {
	const surveys = process.env.SURVEYS?.trim() || 'documented';
	if (surveys !== 'documented' && surveys !== 'formbricks') {
		throw new Error(`SURVEYS=${surveys}: the survey service speaks "documented" (the default) or "formbricks"`);
	}
	return await startSandbox({
		ports: {
			signing: Number(process.env.SANDBOX_SIGNING_PORT ?? 4101),
			bookmark: Number(process.env.SANDBOX_BOOKMARK_PORT ?? 4102),
			survey: Number(process.env.SANDBOX_SURVEY_PORT ?? 4103),
		},
		// Formbricks' flavour, its residency and erasure surveys with the question ids the samples read.
		...(surveys === 'formbricks' ? { survey: 'formbricks', formbricks: { sampleQuestionIds: true } } : {}),
	});
}

/** The samples' survey ids and those of the sandbox's survey service, where they differ (Formbricks). */
export function sampleSurveyIds(sandbox: Sandbox): Record<string, string> {
	if (sandbox.survey.api !== 'formbricks') return {};
	return {
		[SEED.residencySurveyId]: FORMBRICKS_SEED.surveys.residency,
		[SEED.erasureSurveyId]: FORMBRICKS_SEED.surveys.erasure,
	};
}

/** Whether `deploySamples` activates the sample: it has a trigger, and its services are there (a Karakeep for a Karakeep-only one). */
export function activeAfterDeploy(workflow: ImportedWorkflow, credentials: Partial<CredentialRefs> = {}): boolean {
	return hasTrigger(workflow) && (!needsKarakeep(workflow) || credentials.bookmarkApi !== undefined);
}

/**
 * What `npm start` and `npm run start:queue` set up in their n8n: credentials pointing at the
 * sandbox (or others given, e.g. a real Karakeep's, in place of the sandbox's), every sample
 * workflow (or the given files, in queue mode) imported (as `adapt` changes it for a flavour), each Signing Trigger's URL entered in the signing
 * service (as its administrator would, at the address `webhookUrlOf` gives), and the workflows
 * with a trigger activated.
 */
export async function deploySamples(
	n8n: N8nInstance,
	sandbox: Sandbox,
	webhookUrlOf: (node: WorkflowNode) => string,
	options: { files?: string[]; credentials?: Partial<CredentialRefs>; adapt?: (workflow: WorkflowFile) => WorkflowFile } = {},
): Promise<ImportedWorkflow[]> {
	const credentials = await createSandboxCredentials(n8n, sandbox, options.credentials);
	const workflows = await importWorkflowFiles(n8n, credentials, sampleSurveyIds(sandbox), options.files, options.adapt);
	for (const workflow of workflows) {
		for (const node of nodesOfType(workflow, 'signingTrigger')) {
			await fetch(`${sandbox.signing.url}/_sandbox/webhook-endpoints`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ url: webhookUrlOf(node), secret: SIGNING_WEBHOOK_SECRET }),
			});
		}
		if (activeAfterDeploy(workflow, options.credentials)) await activateWorkflow(n8n, workflow.id);
	}
	return workflows;
}

/**
 * The sandbox as the end-to-end suites run it: retries come quickly, and the services wait up to
 * a minute for n8n's answer instead of their real 5 s. On a busy machine n8n can answer later than
 * 5 s; the service would then retry an event n8n already ran, a duplicate the contract allows
 * (at least once) but not the one these suites look for.
 */
export const E2E_SANDBOX_OPTIONS = { webhookRetryDelayMs: 200, webhookTimeoutMs: 60_000 } satisfies SandboxOptions;

/** The sandbox, a real n8n with the package installed from its tarball, and credentials to the sandbox. */
export async function startStack(
	sandboxOptions: SandboxOptions = E2E_SANDBOX_OPTIONS,
	n8nEnv: Record<string, string> = {},
	n8nNodeFlags: string[] = [],
): Promise<Stack> {
	const sandbox = await startSandbox(sandboxOptions);
	let n8n: N8nInstance | undefined;
	try {
		n8n = await startN8n({ packageTarball: await packPackage(), env: n8nEnv, nodeFlags: n8nNodeFlags });
		const started = n8n;
		const credentials = await createSandboxCredentials(started, sandbox);
		return {
			sandbox,
			n8n: started,
			credentials,
			stop: async () => {
				await started.stop();
				await sandbox.stop();
			},
		};
	} catch (error) {
		// The test never gets a stack to stop: an n8n left running would outlive the test run.
		await n8n?.stop();
		await sandbox.stop();
		throw error;
	}
}
