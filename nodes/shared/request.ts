import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { RequestPacer } from './concurrency';
import type { MultipartBody } from './multipart';

export type RequestContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IPollFunctions
	| IWebhookFunctions;

export interface ServiceRequest {
	method: IHttpRequestMethods;
	/** Path below the credential's base URL, starting with `/`. */
	path: string;
	/** Another base URL than the credential's: where a webhook was registered before the credential changed. */
	baseUrl?: string;
	qs?: IDataObject;
	body?: IDataObject;
	/**
	 * A multipart/form-data body instead of `body`, streamed part by part as it is sent; its
	 * files are read again from the start when the request is sent again after a 429.
	 */
	form?: MultipartBody;
	/** Item the request is made for, so errors point at it. */
	itemIndex?: number;
	/** Error statuses that are an expected answer here; the request then resolves to undefined. */
	acceptStatuses?: number[];
	/** Advice added to the error for a given status, e.g. what to do when an endpoint is missing. */
	errorHints?: Partial<Record<number, string>>;
	/**
	 * `arraybuffer` for a file: the body then resolves to its bytes (a Buffer), not JSON.
	 * `stream`: the body is the response itself, to be read by the caller (a large file).
	 */
	encoding?: 'arraybuffer' | 'stream';
	/** The pool the request runs in, told when the service rate-limits it. */
	pacer?: RequestPacer;
	/** Reads the service's error body where it is not the usual `{ code, message }` (another API's shape). */
	readError?: ServiceErrorReader;
	/**
	 * Whether the request may be sent again after a server error or a lost connection. By
	 * default the methods that are safe to repeat (GET, HEAD, PUT, DELETE) are; POST and PATCH never.
	 */
	repeatable?: boolean;
	/** Milliseconds to wait for the service to start answering (and between two parts of the answer). */
	timeoutMs?: number;
}

/** An answer the caller takes: a success, or an error status it listed in `acceptStatuses`. */
export interface ServiceAnswer<T> {
	statusCode: number;
	body: T;
	headers: Record<string, string | string[] | undefined>;
	/**
	 * Whether an earlier attempt of this request ended without a known outcome (a 502, 503 or
	 * 504, or a lost connection): it may have been carried out, so a "not found" now can be
	 * the effect of that first attempt.
	 */
	repeated: boolean;
	/** For an accepted error status: the error the request would have failed with. */
	error?: NodeApiError;
}

/** A service's own words for a failed request, and advice where its message alone would puzzle. */
export interface ServiceError {
	message: string;
	code?: string;
	hint?: string;
}

export type ServiceErrorReader = (body: unknown, status: number) => ServiceError;

export interface RetryPolicy {
	/** Retries after a 429, which are always safe: the service says it did nothing. */
	maxRateLimitRetries: number;
	/** Retries of a request that is safe to repeat after a 502/503/504 or a network error. */
	maxServerErrorRetries: number;
	/** A `Retry-After` longer than this fails the request instead of stalling the workflow. */
	maxRetryAfterSeconds: number;
	/** First backoff for retried server errors; doubled on every further attempt. */
	backoffMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRateLimitRetries: 10,
	maxServerErrorRetries: 4,
	maxRetryAfterSeconds: 120,
	backoffMs: 500,
};

const REQUEST_TIMEOUT_MS = 60_000;
const RETRIABLE_SERVER_STATUSES = new Set([502, 503, 504]);
/**
 * Sending these twice has the effect of sending them once (RFC 9110, 9.2.2), so they are sent
 * again after an answer that leaves the outcome unknown. POST and PATCH are not: a create that
 * failed that way may still have happened, and repeating it could create a duplicate.
 */
const IDEMPOTENT_METHODS = new Set<IHttpRequestMethods>(['GET', 'HEAD', 'PUT', 'DELETE']);
/** The most of an error body read from a streamed answer: enough for any service's message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

interface FullResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

/** The execution's cancel signal, where n8n gives one (executions; not activation or webhooks). */
function cancelSignalOf(ctx: RequestContext): AbortSignal | undefined {
	const withSignal = ctx as Partial<Pick<IExecuteFunctions, 'getExecutionCancelSignal'>>;
	return typeof withSignal.getExecutionCancelSignal === 'function' ? withSignal.getExecutionCancelSignal() : undefined;
}

function cancelledError(ctx: RequestContext, serviceName: string, request: ServiceRequest): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), 'The execution was cancelled', {
		description: `${request.method} ${request.path} to the ${serviceName} was stopped and not retried`,
		itemIndex: request.itemIndex,
	});
}

/**
 * Waits `ms`, or rejects with `cancelled()` as soon as the signal aborts. Older n8n
 * versions' `sleep` ignores a signal, so the abort is also raced here.
 */
async function abortableWait(ms: number, signal: AbortSignal | undefined, cancelled: () => Error): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) throw cancelled();
	let onAbort = () => {};
	const aborted = new Promise<never>((_, rejectWait) => {
		onAbort = () => rejectWait(cancelled());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([sleep(ms, signal).catch(() => aborted), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/** Seconds from a `Retry-After` header (seconds or HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
	const raw = Array.isArray(value) ? value[0] : value;
	if (raw === undefined || raw.trim() === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.max(0, seconds);
	const date = Date.parse(raw);
	return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/** The service's own words from an error body that may be JSON (`message`, `code`) or plain text. */
export function serviceErrorOf(body: unknown): ServiceError {
	// A file request's error arrives as bytes, like the file would have.
	if (body instanceof ArrayBuffer) body = Buffer.from(body);
	if (ArrayBuffer.isView(body)) {
		body = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
	}
	let parsed = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body);
		} catch {
			return { message: body.trim() };
		}
	}
	if (parsed && typeof parsed === 'object') {
		const { message, code, error } = parsed as IDataObject;
		const text = [message, error].find((value) => typeof value === 'string' && value !== '');
		return {
			message: (text as string | undefined) ?? JSON.stringify(parsed),
			code: typeof code === 'string' ? code : undefined,
		};
	}
	return { message: String(parsed ?? '') };
}

function apiError(
	ctx: RequestContext,
	serviceName: string,
	request: ServiceRequest,
	status: number,
	body: unknown,
): NodeApiError {
	const { message, code, hint } = (request.readError ?? serviceErrorOf)(body, status);
	const serviceMessage = message || `HTTP ${status}`;
	return new NodeApiError(
		ctx.getNode(),
		{ message: serviceMessage, code: code ?? null, httpCode: String(status) } as JsonObject,
		{
			httpCode: String(status),
			message: `The ${serviceName} answered ${status}: ${serviceMessage}`,
			description: [`${request.method} ${request.path}${code ? ` (${code})` : ''}`, request.errorHints?.[status], hint]
				.filter(Boolean)
				.join('. '),
			itemIndex: request.itemIndex,
		},
	);
}

function networkError(ctx: RequestContext, serviceName: string, request: ServiceRequest, error: Error): NodeApiError {
	const withCode = error as Error & { code?: string; cause?: { code?: string } };
	const code = withCode.code ?? withCode.cause?.code;
	const unreachable = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
	// The code stays out of the error object: NodeApiError would replace our message with its generic one.
	return new NodeApiError(ctx.getNode(), { message: error.message } as JsonObject, {
		message: unreachable
			? `The ${serviceName} cannot be reached: check the Base URL in the credential`
			: `The request to the ${serviceName} failed: ${error.message}`,
		description: `${request.method} ${request.path}${code ? ` (${code})` : ''}`,
		itemIndex: request.itemIndex,
	});
}

/** The credential's Base URL, without a trailing slash. */
export async function credentialBaseUrl(ctx: RequestContext, credentialType: string, itemIndex?: number): Promise<string> {
	const credentials = await ctx.getCredentials(credentialType, itemIndex);
	return String(credentials.baseUrl ?? '').replace(/\/+$/, '');
}

/** A streamed answer's body, as an async iterable of chunks (an `IncomingMessage`). */
interface StreamedBody extends AsyncIterable<Buffer | string> {
	destroy?: () => void;
}

const isStreamedBody = (body: unknown): body is StreamedBody =>
	body !== null &&
	typeof body === 'object' &&
	!ArrayBuffer.isView(body) &&
	typeof (body as Partial<StreamedBody>)[Symbol.asyncIterator] === 'function';

/** Stops reading a streamed answer that is not wanted, so its connection is freed. */
function discard(body: unknown): void {
	if (isStreamedBody(body)) body.destroy?.();
}

/** The text of a streamed error answer (its first 64 KiB), so its message can be read. */
async function readErrorBody(body: unknown): Promise<unknown> {
	if (!isStreamedBody(body)) return body;
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body) {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			chunks.push(bytes);
			size += bytes.length;
			if (size >= MAX_ERROR_BODY_BYTES) break;
		}
	} catch {
		// What arrived before the connection failed is all the service said.
	} finally {
		body.destroy?.();
	}
	return Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY_BYTES).toString('utf8');
}

/**
 * The one way nodes talk to a service, giving the whole answer (see `serviceRequest` for the
 * body alone). Rate-limit answers (429) are retried for every method after the service's
 * `Retry-After`, because the service said it did nothing. Server errors (502, 503, 504) and
 * lost connections are retried only for requests that are safe to repeat (`repeatable`).
 */
export async function serviceAnswer<T = IDataObject>(
	ctx: RequestContext,
	credentialType: string,
	serviceName: string,
	request: ServiceRequest,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<ServiceAnswer<T>> {
	const baseUrl = (request.baseUrl ?? (await credentialBaseUrl(ctx, credentialType, request.itemIndex))).replace(
		/\/+$/,
		'',
	);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		qs: request.qs,
		// n8n's client (axios) encodes a FormData-like body itself, as multipart/form-data.
		body: (request.form as unknown as IHttpRequestOptions['body']) ?? request.body,
		json: request.encoding === undefined,
		encoding: request.encoding,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeoutMs ?? REQUEST_TIMEOUT_MS,
	};
	const signal = cancelSignalOf(ctx);
	if (signal) options.abortSignal = signal;
	const repeatable = request.repeatable ?? IDEMPOTENT_METHODS.has(request.method);

	let rateLimitRetries = 0;
	let serverErrorRetries = 0;
	let repeated = false;
	// A cancelled execution stops waiting at once and sends nothing more.
	const wait = async (ms: number) =>
		await abortableWait(ms, signal, () => cancelledError(ctx, serviceName, request));
	const backoff = async () => {
		repeated = true;
		await wait(policy.backoffMs * 2 ** serverErrorRetries++);
	};
	for (;;) {
		if (signal?.aborted) throw cancelledError(ctx, serviceName, request);
		let response: FullResponse;
		try {
			response = (await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				credentialType,
				options,
			)) as FullResponse;
		} catch (error) {
			if (signal?.aborted) throw cancelledError(ctx, serviceName, request);
			if (!repeatable || serverErrorRetries >= policy.maxServerErrorRetries) {
				throw networkError(ctx, serviceName, request, error as Error);
			}
			await backoff();
			continue;
		}

		const { statusCode, headers } = response;
		if (statusCode >= 200 && statusCode < 300) {
			return { statusCode, body: response.body as T, headers, repeated };
		}

		if (statusCode === 429 && rateLimitRetries < policy.maxRateLimitRetries) {
			const retryAfter = parseRetryAfter(headers['retry-after']) ?? 2 ** rateLimitRetries;
			if (retryAfter <= policy.maxRetryAfterSeconds) {
				discard(response.body);
				rateLimitRetries++;
				request.pacer?.rateLimited();
				await wait(Math.ceil(retryAfter * 1000));
				await request.pacer?.resume();
				continue;
			}
		}
		if (
			repeatable &&
			RETRIABLE_SERVER_STATUSES.has(statusCode) &&
			serverErrorRetries < policy.maxServerErrorRetries
		) {
			discard(response.body);
			await backoff();
			continue;
		}
		const body = await readErrorBody(response.body);
		const error = apiError(ctx, serviceName, request, statusCode, body);
		if (request.acceptStatuses?.includes(statusCode)) {
			return { statusCode, body: body as T, headers, repeated, error };
		}
		throw error;
	}
}

/**
 * The body of a service's answer (see `serviceAnswer` for retries). A status listed in
 * `acceptStatuses` resolves to undefined.
 */
export async function serviceRequest<T = IDataObject>(
	ctx: RequestContext,
	credentialType: string,
	serviceName: string,
	request: ServiceRequest,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
	const answer = await serviceAnswer<T>(ctx, credentialType, serviceName, request, policy);
	return (answer.error ? undefined : answer.body) as T;
}

/**
 * The node's error with `text` added to its description, e.g. what a write that failed half-way
 * had already changed. Errors of other kinds become a NodeOperationError for the item.
 */
export function withDescription(
	ctx: Pick<RequestContext, 'getNode'>,
	error: Error,
	itemIndex: number,
	text: string | undefined,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (text) error.description = [error.description, text].filter(Boolean).join(' ');
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error, { itemIndex, description: text });
}
