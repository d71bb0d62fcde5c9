import type { IDataObject } from 'n8n-workflow';

import type { RecordedRequest, Sandbox, SandboxOptions } from '../../sandbox';
import { DOCUMENSO_SEED, startSandbox } from '../../sandbox';
import {
	coerceParameters,
	isMultipartRecord,
	multipartIssues,
	OPERATIONS,
	type Operation,
	parseRequest,
} from '../../sandbox/documenso/sdk';
import { routeMissing } from '../../sandbox/documenso/service';
import { signingApis } from '../../../nodes/Signing/adapters';

/**
 * Reads of another signing API's route, sent on purpose after a failed request to tell the user
 * that the server speaks another API (the registry's explainError): not Documenso requests.
 */
const OTHER_API_PROBES = new Set(
	signingApis.adapters
		.filter((adapter) => adapter.api !== 'documenso')
		.map((adapter) => adapter.recognition.probePath.split('?')[0]),
);

/**
 * The signing sandbox as Documenso (test/sandbox/documenso) for node tests: it parses every
 * request with the request schema of `@documenso/sdk-typescript` and answers 400 "Input validation
 * failed" when it does not parse, and checks every JSON answer with the SDK's response schema
 * before sending it (an answer that would not parse is a 500 naming the sandbox bug).
 */

/** The flavour's route of a request, matched as fastify matches it (`/document/:documentId`). */
function routeOf(request: RecordedRequest): { op: Operation; params: Record<string, string> } | undefined {
	const method = request.method === 'HEAD' ? 'GET' : request.method;
	for (const op of Object.values(OPERATIONS)) {
		if (op.method !== method) continue;
		const names: string[] = [];
		const pattern = new RegExp(
			`^${op.url.replace(/:(\w+)/g, (_, name: string) => {
				names.push(name);
				return '([^/]+)';
			})}$`,
		);
		const match = pattern.exec(request.path);
		if (match) {
			return { op, params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1])])) };
		}
	}
	return undefined;
}

/**
 * What broke Documenso's SDK schemas at the flavour: each API request it received that does not
 * parse under its operation's request schema (checked again here, whatever the flavour answered),
 * each request to a route Documenso does not have, and each 500 (a plain error, or an answer that
 * did not parse under the SDK's response schema).
 */
export async function documensoSchemaProblems(url: string): Promise<string[]> {
	const { requests } = (await (await fetch(`${url}/_sandbox/requests`)).json()) as { requests: RecordedRequest[] };
	const problems: string[] = [];
	for (const request of requests) {
		if (!request.path.startsWith('/api/v2/') || request.path === '/api/v2/openapi.json') continue;
		if (request.method === 'GET' && OTHER_API_PROBES.has(request.path)) continue;
		const where = `${request.method} ${request.path}`;
		const route = routeOf(request);
		if (!route) {
			problems.push(`${where}: no such route in Documenso's API v2`);
			continue;
		}
		if (routeMissing('after-march-2027', route.op.url)) {
			problems.push(`${where}: a route Documenso removes on 1 March 2027`);
			continue;
		}
		if (route.op.multipart) {
			// Part by part: one JSON payload that parses under the SDK's schema, then files.
			const issues = isMultipartRecord(request.body)
				? multipartIssues(route.op, request.body)
				: [{ path: [], message: 'not a multipart/form-data body' }];
			if (issues.length > 0) problems.push(`${where}: ${JSON.stringify(issues)}`);
			if (request.status >= 500) problems.push(`${where}: answered ${request.status}`);
			continue;
		}
		const params = coerceParameters(route.op, route.params);
		const raw =
			route.op.method === 'GET'
				? { ...coerceParameters(route.op, request.query as Record<string, unknown>), ...params }
				: { ...(request.body as Record<string, unknown>), ...params };
		try {
			parseRequest(route.op, raw);
		} catch (error) {
			const body = (error as { details?: { body?: unknown } }).details?.body;
			problems.push(`${where}: ${JSON.stringify(body ?? (error as Error).message)}`);
		}
		if (request.status >= 500) problems.push(`${where}: answered ${request.status}`);
	}
	return problems;
}

/** The JSON `payload` part of a multipart request (`/envelope/create`, `/envelope/use`) as the log kept it. */
export function payloadOf(request: RecordedRequest): IDataObject {
	if (!isMultipartRecord(request.body)) throw new Error(`${request.method} ${request.path} is not multipart`);
	return request.body.parts.find((part) => part.name === 'payload')?.json as IDataObject;
}

export interface DocumensoHarness {
	sandbox: Sandbox;
	/** A Signing API credential set to Documenso. */
	credentials(extra?: IDataObject): Record<string, IDataObject>;
	control<T = IDataObject>(route: string, method?: string, body?: unknown): Promise<T>;
	requests(): Promise<RecordedRequest[]>;
	clearRequests(): Promise<void>;
	/** Requests the SDK's schemas refuse, and answers that broke them (see `documensoSchemaProblems`). */
	schemaProblems(): Promise<string[]>;
	stop(): Promise<void>;
}

/** A Documenso after 1 March 2027 unless told otherwise (`SandboxOptions.documensoRoutes`). */
export async function startDocumensoHarness(
	documensoRoutes: SandboxOptions['documensoRoutes'] = 'after-march-2027',
): Promise<DocumensoHarness> {
	const sandbox = await startSandbox({ signing: 'documenso', documensoRoutes, webhookRetryDelayMs: 0 });
	const url = sandbox.signing.url;
	const control = async <T = IDataObject>(route: string, method = 'POST', body?: unknown): Promise<T> => {
		const response = await fetch(`${url}/_sandbox${route}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} /_sandbox${route} answered ${response.status}: ${text}`);
		return (text ? JSON.parse(text) : undefined) as T;
	};
	return {
		sandbox,
		credentials: (extra = {}) => ({
			signingApi: { api: 'documenso', baseUrl: `${url}/`, apiToken: sandbox.signing.apiKey, ...extra },
		}),
		control,
		requests: async () => (await control<{ requests: RecordedRequest[] }>('/requests', 'GET')).requests,
		clearRequests: async () => {
			await control('/requests', 'DELETE');
		},
		schemaProblems: async () => await documensoSchemaProblems(url),
		stop: async () => await sandbox.stop(),
	};
}

/**
 * The harness for the `describe` block that calls it: one sandbox for its tests, reset before each;
 * after each, every request any test sent validates under Documenso's SDK schemas, and no answer broke them.
 */
export function documensoForEachTest(documensoRoutes?: SandboxOptions['documensoRoutes']): DocumensoHarness {
	let harness: DocumensoHarness | undefined;
	const current = (): DocumensoHarness => {
		if (!harness) throw new Error('The Documenso harness is used before its beforeAll started it');
		return harness;
	};
	beforeAll(async () => {
		harness = await startDocumensoHarness(documensoRoutes);
	});
	afterAll(async () => await harness?.stop());
	beforeEach(async () => {
		await current().control('/reset');
	});
	afterEach(async () => {
		expect(await current().schemaProblems()).toEqual([]);
	});
	return {
		get sandbox() {
			return current().sandbox;
		},
		credentials: (extra) => current().credentials(extra),
		control: async <T = IDataObject>(route: string, method?: string, body?: unknown) =>
			await current().control<T>(route, method, body),
		requests: async () => await current().requests(),
		clearRequests: async () => await current().clearRequests(),
		schemaProblems: async () => await current().schemaProblems(),
		stop: async () => await current().stop(),
	};
}

export { DOCUMENSO_SEED };
