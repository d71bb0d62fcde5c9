/* eslint-disable @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/no-restricted-imports -- a stand-in for n8n's HTTP client, which throws plain errors */
/**
 * Stand-ins for the contexts n8n hands to a node, with a real HTTP client behind them,
 * so that unit tests run the node's own code against the sandbox over the network.
 * The real n8n runs the same nodes in the end-to-end tests.
 */
import type {
	IAuthenticateGeneric,
	IBinaryData,
	IBinaryKeyData,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { EventEmitter } from 'node:events';
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';

import { BookmarkApi } from '../../../credentials/BookmarkApi.credentials';
import { SigningApi } from '../../../credentials/SigningApi.credentials';
import { SurveyApi } from '../../../credentials/SurveyApi.credentials';

const CREDENTIAL_TYPES: Record<string, ICredentialType> = {
	signingApi: new SigningApi(),
	bookmarkApi: new BookmarkApi(),
	surveyApi: new SurveyApi(),
};

export class HttpRequestError extends Error {
	constructor(
		message: string,
		readonly code?: string,
	) {
		super(message);
	}
}

function resolveCredentialTemplate(template: string, credentials: IDataObject): string {
	return template
		.replace(/^=/, '')
		.replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, key: string) =>
			String(credentials[key] ?? ''),
		);
}

let inFlight = 0;

/** Requests sent and not yet read to the end: fake time moves only while there are none (clock.ts). */
export const requestsInFlight = () => inFlight;

/** What n8n's `httpRequestWithAuthentication` does for a generic `authenticate` block. */
export async function authenticatedRequest(
	credentialType: string,
	credentials: IDataObject,
	options: IHttpRequestOptions,
	log?: IHttpRequestOptions[],
): Promise<unknown> {
	inFlight++;
	try {
		return await sendRequest(credentialType, credentials, options, log);
	} finally {
		inFlight--;
	}
}

async function sendRequest(
	credentialType: string,
	credentials: IDataObject,
	options: IHttpRequestOptions,
	log?: IHttpRequestOptions[],
): Promise<unknown> {
	const authenticate = CREDENTIAL_TYPES[credentialType]?.authenticate as IAuthenticateGeneric;
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(authenticate.properties.headers ?? {})) {
		headers[name] = resolveCredentialTemplate(String(value), credentials);
	}
	for (const [name, value] of Object.entries(options.headers ?? {})) headers[name] = String(value);
	log?.push(options);
	if (options.body instanceof FormData) {
		// A multipart body goes through n8n's own HTTP client (convertN8nRequestToAxios and axios,
		// @n8n/backend-network as n8n 2.41 ships it), which encodes and streams it part by part.
		const { httpRequest } = await import('@n8n/backend-network/testing');
		return await httpRequest({ ...options, headers } as never);
	}

	const url = new URL(options.url);
	for (const [key, value] of Object.entries(options.qs ?? {})) {
		if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
	}
	let body: string | undefined;
	if (options.body !== undefined) {
		headers['content-type'] = 'application/json';
		body = JSON.stringify(options.body);
	}
	let response: Response;
	try {
		const timeout = AbortSignal.timeout(options.timeout ?? 60_000);
		const cancel = options.abortSignal as AbortSignal | undefined;
		response = await fetch(url, {
			method: options.method ?? 'GET',
			headers,
			body,
			signal: cancel ? AbortSignal.any([timeout, cancel]) : timeout,
		});
	} catch (error) {
		const cause = (error as Error & { cause?: { code?: string } }).cause;
		throw new HttpRequestError((error as Error).message, cause?.code ?? (error as Error).name);
	}
	let parsed: unknown;
	if (options.encoding === 'stream') {
		// The answer as it arrives, as axios gives it for responseType stream.
		parsed = response.body
			? Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)
			: Readable.from([]);
	} else if (options.encoding === 'arraybuffer') {
		// A file: its bytes, as axios gives them for responseType arraybuffer.
		parsed = Buffer.from(await response.arrayBuffer());
	} else {
		const text = await response.text();
		parsed = text;
		try {
			parsed = text === '' ? '' : JSON.parse(text);
		} catch {
			// Plain-text answers stay strings, as axios leaves them.
		}
	}
	if (!options.ignoreHttpStatusErrors && !response.ok) {
		throw new HttpRequestError(`Request failed with status code ${response.status}`);
	}
	if (!options.returnFullResponse) return parsed;
	const responseHeaders: Record<string, string> = {};
	response.headers.forEach((value, key) => (responseHeaders[key] = value));
	return { statusCode: response.status, headers: responseHeaders, body: parsed };
}

/** All of a stream's bytes, as n8n's default binary mode reads a streamed file. */
async function streamBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(Buffer.from(chunk));
	return Buffer.concat(chunks);
}

export type Parameters = Record<string, unknown>;

export interface ExecuteOptions {
	/** One parameter set for all items, or one per item. */
	parameters: Parameters | Parameters[];
	items?: IDataObject[];
	/**
	 * The items' binary data (`inputBinary`, `storedBinary`): in memory as base64, or stored on disk
	 * as n8n's filesystem mode keeps it, read through `getBinaryStream`.
	 */
	binaries?: Array<IBinaryKeyData | undefined>;
	credentials?: Record<string, IDataObject>;
	continueOnFail?: boolean;
	node?: Partial<INode>;
	/** The execution's cancel signal, as n8n hands it to nodes. */
	cancelSignal?: AbortSignal;
	/** The workflow's static data, kept by the caller across runs as n8n keeps it. */
	staticData?: { global?: IDataObject; node?: IDataObject };
	executionId?: string;
	/** Runs as an AI agent's tool (`isToolExecution()`). */
	tool?: boolean;
	/** Sees each request before it is sent, e.g. to change the service's data between pages. */
	onRequest?: (request: IHttpRequestOptions, count: number) => Promise<void>;
	/** The nodes before this one in the workflow (`getParentNodes()`); none by default. */
	parentNodes?: string[];
	/** The workflow's time zone (`getTimezone()`); n8n's default when not given. */
	timezone?: string;
	/**
	 * Files in n8n's binary data store (filesystem or S3 mode), by id: an item's binary with an `id`
	 * is read from here with `getBinaryStream`, in chunks, as n8n streams a stored file (`storedBinary`
	 * gives a file on disk an id of its own).
	 */
	binaryStore?: Map<string, Buffer>;
	/**
	 * The parameters are exactly those n8n holds for the node (the shown ones, with their defaults:
	 * `shownParameters` in test/harness/operationSweep.ts): a parameter absent from them, read
	 * without a fallback, throws as n8n-core does ("Could not get parameter").
	 */
	asN8n?: boolean;
}

export interface ExecuteHarness {
	context: IExecuteFunctions;
	requests: IHttpRequestOptions[];
}

function parameterFor(parameters: Parameters | Parameters[], itemIndex: number): Parameters {
	return Array.isArray(parameters) ? (parameters[itemIndex] ?? parameters[0]) : parameters;
}

/** An item's file as n8n's default (in-memory) binary mode holds it: base64 in the item. */
export function inputBinary(bytes: Buffer, fileName: string, mimeType: string): IBinaryData {
	return { data: bytes.toString('base64'), fileName, mimeType, fileSize: `${bytes.length} B`, bytes: bytes.length };
}

/** Files kept as n8n's filesystem binary mode keeps them: here the binary data's id names the file on disk. */
const STORED_PREFIX = 'test-store:';

/** An item's file as n8n's filesystem mode holds it: on disk, `data` only a marker, read as a stream. */
export function storedBinary(filePath: string, fileName: string, mimeType: string): IBinaryData {
	const size = statSync(filePath).size;
	return { id: `${STORED_PREFIX}${filePath}`, data: 'filesystem-v2', fileName, mimeType, fileSize: `${size} B`, bytes: size };
}

const storedPath = (binaryDataId: string) => {
	if (!binaryDataId.startsWith(STORED_PREFIX)) throw new Error(`No stored binary data ${binaryDataId}`);
	return binaryDataId.slice(STORED_PREFIX.length);
};

export function executeContext(options: ExecuteOptions): ExecuteHarness {
	const items = (options.items ?? [{}]).map((json, index) => {
		const binary = options.binaries?.[index];
		return binary ? { json, binary } : { json };
	});
	/** A stored file's bytes from the test's store; undefined for a file on disk (`storedBinary`). */
	const storedBytes = (id: string) => {
		if (id.startsWith(STORED_PREFIX)) return undefined;
		const bytes = options.binaryStore?.get(id);
		if (!bytes) throw new Error(`No binary data with id ${id}`);
		return bytes;
	};
	const requests: IHttpRequestOptions[] = [];
	const node: INode = {
		id: 'node-under-test',
		name: 'Node Under Test',
		type: 'n8n-nodes-sign-survey-bookmark.test',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		...options.node,
	};
	const getCredentials = async (type: string) => {
		const credentials = options.credentials?.[type];
		if (!credentials) throw new Error(`No credentials of type ${type}`);
		return credentials;
	};
	let sent = 0;
	const context = {
		getInputData: () => items as INodeExecutionData[],
		getNode: () => node,
		continueOnFail: () => options.continueOnFail ?? false,
		getExecutionCancelSignal: () => options.cancelSignal,
		getNodeParameter: (
			name: string,
			itemIndex: number,
			fallback?: unknown,
			parameterOptions?: { extractValue?: boolean },
		) => {
			const value = parameterFor(options.parameters, itemIndex)[name];
			if (value === undefined && fallback === undefined && options.asN8n) {
				throw new NodeOperationError(node, `Could not get parameter "${name}"`);
			}
			if (value === undefined) return fallback;
			// Resource locators are { mode, value } objects; n8n extracts the value on request.
			if (
				parameterOptions?.extractValue &&
				value !== null &&
				typeof value === 'object' &&
				'value' in value
			) {
				return (value as { value: unknown }).value;
			}
			return value;
		},
		getCredentials,
		getWorkflowStaticData: (type: 'global' | 'node') => {
			const staticData = (options.staticData ??= {});
			return (staticData[type] ??= {});
		},
		getExecutionId: () => options.executionId ?? 'execution-under-test',
		isToolExecution: () => options.tool === true,
		getParentNodes: () =>
			(options.parentNodes ?? []).map((name) => ({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1 })),
		getTimezone: () => options.timezone ?? 'America/New_York',
		helpers: {
			httpRequestWithAuthentication: async (type: string, requestOptions: IHttpRequestOptions) => {
				await options.onRequest?.(requestOptions, ++sent);
				return await authenticatedRequest(type, await getCredentials(type), requestOptions, requests);
			},
			// n8n's own messages (n8n-core binary-helper-functions.ts).
			assertBinaryData: (itemIndex: number, propertyName: string) => {
				const binary = (items[itemIndex] as { binary?: IBinaryKeyData } | undefined)?.binary;
				if (binary === undefined) {
					throw new NodeOperationError(node, `This operation expects the node's input data to contain a binary file '${propertyName}', but none was found [item ${itemIndex}]`, { itemIndex });
				}
				if (binary[propertyName] === undefined) {
					throw new NodeOperationError(node, `The item has no binary field '${propertyName}' [item ${itemIndex}]`, { itemIndex });
				}
				return binary[propertyName];
			},
			getBinaryMetadata: async (id: string) => ({
				fileSize: storedBytes(id)?.length ?? statSync(storedPath(id)).size,
			}),
			// As n8n's filesystem mode reads a stored file: a stream of 64 KiB chunks.
			getBinaryStream: async (id: string, chunkSize = 64 * 1024) => {
				const bytes = storedBytes(id);
				if (!bytes) return createReadStream(storedPath(id), { highWaterMark: chunkSize });
				return Readable.from(
					(function* () {
						for (let start = 0; start < bytes.length; start += chunkSize) yield bytes.subarray(start, start + chunkSize);
					})(),
				);
			},
			// n8n's default (in-memory) binary mode: the bytes travel base64-encoded in the item.
			prepareBinaryData: async (
				data: Buffer | NodeJS.ReadableStream,
				fileName?: string,
				mimeType?: string,
			) => {
				const bytes = Buffer.isBuffer(data) ? data : await streamBytes(data);
				return {
					data: bytes.toString('base64'),
					mimeType: mimeType ?? 'application/octet-stream',
					fileName,
					fileExtension: fileName?.split('.').pop(),
					fileSize: `${bytes.length} B`,
					bytes: bytes.length,
				};
			},
		},
	} as unknown as IExecuteFunctions;
	return { context, requests };
}

export interface WebhookCall {
	headers?: Record<string, string>;
	body: unknown;
	/** The bytes as received; a string is sent as UTF-8. */
	rawBody?: string | Buffer;
	parameters?: Parameters;
	credentials?: Record<string, IDataObject>;
	workflowId?: string;
	nodeId?: string;
	staticData?: Record<string, unknown>;
	/** The node's webhook URL; test ("Listen for test event") and production URLs differ. */
	webhookUrl?: string;
	/** The node's version in the workflow; 1 when not given. */
	typeVersion?: number;
	/**
	 * What n8n answers after the trigger returned items: 200 once it started the execution
	 * (the default), 500 when it failed to, `'disconnect'` when the sender left first.
	 */
	n8nAnswer?: number | 'disconnect';
}

export interface WebhookOutcome {
	status?: number;
	responseBody?: unknown;
	warnings: string[];
	/** Times the trigger read its credentials. */
	credentialReads: number;
	result: Awaited<ReturnType<NonNullable<import('n8n-workflow').INodeType['webhook']>>>;
}

export async function callWebhook(
	webhook: (this: IWebhookFunctions) => Promise<WebhookOutcome['result']>,
	call: WebhookCall,
): Promise<WebhookOutcome> {
	const rawBody = call.rawBody ?? JSON.stringify(call.body);
	const outcome: Partial<WebhookOutcome> = { warnings: [], credentialReads: 0 };
	// Like Express's response: a status, headers sent once answered, and 'close' at the end.
	const response = Object.assign(new EventEmitter(), {
		statusCode: 200,
		headersSent: false,
		status(code: number) {
			outcome.status = code;
			response.statusCode = code;
			return response;
		},
		json(body: unknown) {
			outcome.responseBody = body;
			return response;
		},
		send(body: unknown) {
			outcome.responseBody = body;
			return response;
		},
		end() {
			response.headersSent = true;
			response.emit('finish');
			response.emit('close');
			return response;
		},
	});
	const credentials = call.credentials ?? {};
	const node = {
		id: call.nodeId ?? 'trigger-under-test',
		name: 'Trigger Under Test',
		typeVersion: call.typeVersion ?? 1,
		credentials: Object.fromEntries(
			Object.keys(credentials).map((type) => [type, { id: type, name: type }]),
		),
	};
	const context = {
		getHeaderData: () =>
			Object.fromEntries(Object.entries(call.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
		getBodyData: () => call.body,
		getRequestObject: () => ({ rawBody: Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody), body: call.body }),
		getResponseObject: () => response,
		getNode: () => node,
		getWorkflow: () => ({ id: call.workflowId ?? 'workflow-under-test' }),
		getNodeWebhookUrl: () => call.webhookUrl ?? 'http://127.0.0.1:5678/webhook/trigger-under-test/webhook',
		logger: { warn: (message: string) => outcome.warnings!.push(message) },
		getNodeParameter: (name: string, fallback?: unknown) => call.parameters?.[name] ?? fallback,
		getCredentials: async (type: string) => {
			outcome.credentialReads!++;
			if (!credentials[type]) throw new Error(`No credentials of type ${type}`);
			return credentials[type];
		},
		getWorkflowStaticData: () => call.staticData ?? {},
		helpers: {
			httpRequestWithAuthentication: async (type: string, requestOptions: IHttpRequestOptions) =>
				await authenticatedRequest(type, credentials[type], requestOptions),
			returnJsonArray: (data: IDataObject | IDataObject[]) =>
				(Array.isArray(data) ? data : [data]).map((json) => ({ json })),
		},
	} as unknown as IWebhookFunctions;
	outcome.result = await webhook.call(context);
	// n8n answers a delivery that starts an execution itself, after it started it (or failed to).
	if (outcome.result.workflowData && !response.headersSent) {
		const answer = call.n8nAnswer ?? 200;
		if (answer === 'disconnect') response.emit('close');
		else response.status(answer).json({}).end();
		delete outcome.status;
		delete outcome.responseBody;
	}
	return outcome as WebhookOutcome;
}

export interface PollHarness {
	context: IPollFunctions;
	staticData: Record<string, unknown>;
	requests: IHttpRequestOptions[];
}

/** A polling context whose static data survives between polls, as n8n keeps it. */
export function pollContext(options: {
	parameters?: Parameters;
	credentials: Record<string, IDataObject>;
	mode?: 'manual' | 'trigger';
	staticData?: Record<string, unknown>;
	/** The node's version in the workflow; 1 when not given. */
	typeVersion?: number;
}): PollHarness {
	const staticData = options.staticData ?? {};
	const requests: IHttpRequestOptions[] = [];
	const getCredentials = async (type: string) => options.credentials[type];
	const context = {
		getMode: () => options.mode ?? 'trigger',
		getNode: () => ({ id: 'poll-under-test', name: 'Poll Under Test', typeVersion: options.typeVersion ?? 1 }),
		getNodeParameter: (name: string, fallback?: unknown) => options.parameters?.[name] ?? fallback,
		getWorkflowStaticData: () => staticData,
		getCredentials,
		helpers: {
			httpRequestWithAuthentication: async (type: string, requestOptions: IHttpRequestOptions) =>
				await authenticatedRequest(type, await getCredentials(type), requestOptions, requests),
			returnJsonArray: (data: IDataObject | IDataObject[]) =>
				(Array.isArray(data) ? data : [data]).map((json) => ({ json })),
		},
	} as unknown as IPollFunctions;
	return { context, staticData, requests };
}

export interface HookHarness {
	context: IHookFunctions;
	staticData: Record<string, unknown>;
	requests: IHttpRequestOptions[];
	/** What the node logged as warnings. */
	warnings: string[];
}

/** What n8n hands to webhookMethods on activation and deactivation. */
export function hookContext(options: {
	parameters: Parameters;
	credentials: Record<string, IDataObject>;
	webhookUrl: string;
	staticData?: Record<string, unknown>;
	/** `manual` for "Listen for test event" (n8n's test webhooks), `trigger` (the default) for activation. */
	mode?: 'manual' | 'trigger';
	workflowId?: string;
	nodeId?: string;
	/** The n8n instance's ID (n8n derives it from its encryption key). */
	instanceId?: string;
}): HookHarness {
	const staticData = options.staticData ?? {};
	const requests: IHttpRequestOptions[] = [];
	const warnings: string[] = [];
	const getCredentials = async (type: string) => options.credentials[type];
	const context = {
		logger: { warn: (message: string) => warnings.push(message) },
		getNode: () => ({ id: options.nodeId ?? 'hook-under-test', name: 'Hook Under Test' }),
		getWorkflow: () => ({ id: options.workflowId ?? 'workflow-under-test' }),
		getInstanceId: () => options.instanceId ?? 'instance-under-test',
		getMode: () => options.mode ?? 'trigger',
		getActivationMode: () => (options.mode === 'manual' ? 'manual' : 'activate'),
		getNodeParameter: (name: string, fallback?: unknown) => options.parameters[name] ?? fallback,
		getNodeWebhookUrl: () => options.webhookUrl,
		getWorkflowStaticData: () => staticData,
		getCredentials,
		helpers: {
			httpRequestWithAuthentication: async (type: string, requestOptions: IHttpRequestOptions) =>
				await authenticatedRequest(type, await getCredentials(type), requestOptions, requests),
		},
	} as unknown as IHookFunctions;
	return { context, staticData, requests, warnings };
}

/**
 * What n8n hands to a credential test (`ICredentialTestFunctions`): only `helpers.request`, the
 * request-promise style client (`uri`, `json`, `simple: false`, `resolveWithFullResponse`).
 */
export function credentialTestContext(): import('n8n-workflow').ICredentialTestFunctions & { requests: string[] } {
	const requests: string[] = [];
	const request = async (options: { method?: string; uri: string; headers?: Record<string, string> }) => {
		requests.push(`${options.method ?? 'GET'} ${new URL(options.uri).pathname}`);
		const response = await fetch(options.uri, { method: options.method ?? 'GET', headers: options.headers });
		const text = await response.text();
		let body: unknown = text;
		try {
			body = text === '' ? '' : JSON.parse(text);
		} catch {
			// Plain text and HTML stay strings.
		}
		return { statusCode: response.status, body };
	};
	return { helpers: { request }, requests } as unknown as import('n8n-workflow').ICredentialTestFunctions & {
		requests: string[];
	};
}
