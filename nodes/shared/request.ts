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
import {
	CONTRACT_RATE_POLICY,
	rateBudget,
	type RatePolicy,
	serverLimitOf,
	type ServerLimit,
	WEBHOOK_ANSWER_MARGIN_MS,
} from './rateBudget';

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
	 * A multipart/form-data body (`multipartBody`), sent in place of `body`: its files are streamed,
	 * and read anew when the request is sent again after a `429`.
	 */
	multipart?: FormData;
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
	/**
	 * For a request that is not repeated: how to find out whether it was carried out after its
	 * answer was lost, e.g. where the record it creates would be listed. Said in the error.
	 */
	lostAnswerHint?: string;
	/** Milliseconds to wait for the service to start answering (and between two parts of the answer). */
	timeoutMs?: number;
	/** How the platform limits a key's requests (see `RateBudget`); the contract's rule when not given. */
	rate?: RatePolicy;
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
	/**
	 * 429s in a row after which the request fails, counting only those that came after a wait in
	 * which no request with the same key got an answer: a platform that is merely busy answers others.
	 */
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

/** Errors of requests whose answer was lost (a cut connection, a timeout, a gateway's 502/503/504). */
const lostAnswers = new WeakSet<Error>();

/** Whether the request that failed with this error may have been carried out all the same: its answer was lost. */
export const answerWasLost = (error: unknown): boolean => error instanceof Error && lostAnswers.has(error);

/**
 * What the error of a request that is not repeated says when its answer was lost: it may have
 * been carried out, it was not sent again, and how to find out (`lostAnswerHint`).
 */
function lostAnswerAdvice(serviceName: string, request: ServiceRequest): string {
	const effect =
		request.method === 'POST'
			? 'what it was to create or send may have been created or sent'
			: 'the change may have been made';
	const check = request.lostAnswerHint ?? `Check in the ${serviceName} before running this item again.`;
	return `The ${serviceName} may have carried it out before the answer was lost: ${effect}. It was not sent again, so that it is not done twice. ${check}`;
}

function networkError(
	ctx: RequestContext,
	serviceName: string,
	request: ServiceRequest,
	error: Error,
	repeatable: boolean,
): NodeApiError {
	const withCode = error as Error & { code?: string; cause?: { code?: string } };
	const code = withCode.code ?? withCode.cause?.code;
	const unreachable = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
	const lost = !unreachable && !repeatable;
	// The code stays out of the error object: NodeApiError would replace our message with its generic one.
	const failed = new NodeApiError(ctx.getNode(), { message: error.message } as JsonObject, {
		message: unreachable
			? `The ${serviceName} cannot be reached: check the Base URL in the credential`
			: lost
				? `The answer of the ${serviceName} was lost: ${error.message}`
				: `The request to the ${serviceName} failed: ${error.message}`,
		description: [`${request.method} ${request.path}${code ? ` (${code})` : ''}`, lost && lostAnswerAdvice(serviceName, request)]
			.filter(Boolean)
			.join('. '),
		itemIndex: request.itemIndex,
	});
	if (!unreachable) lostAnswers.add(failed);
	return failed;
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

/** The credential's Base URL and the key it sends, read once for every request a node's context makes. */
interface CredentialIdentity {
	baseUrl: string;
	secret: string;
	serverLimit: ServerLimit;
}

const identities = new WeakMap<RequestContext, Map<string, Promise<CredentialIdentity>>>();

async function credentialIdentity(
	ctx: RequestContext,
	credentialType: string,
	itemIndex?: number,
): Promise<CredentialIdentity> {
	const known = identities.get(ctx) ?? new Map<string, Promise<CredentialIdentity>>();
	identities.set(ctx, known);
	const id = `${credentialType}\n${itemIndex ?? ''}`;
	let identity = known.get(id);
	if (!identity) {
		identity = (async () => {
			const credentials = await ctx.getCredentials(credentialType, itemIndex);
			return {
				baseUrl: String(credentials.baseUrl ?? '').replace(/\/+$/, ''),
				secret: String(credentials.apiKey ?? credentials.apiToken ?? ''),
				serverLimit: serverLimitOf(credentials),
			};
		})();
		// A failed read is not remembered: the next request reads the credential again.
		identity.catch(() => known.delete(id));
		known.set(id, identity);
	}
	return await identity;
}

/** When a trigger's requests must be sent by: the sender waits for the answer no longer than its policy says. */
const webhookDeadlines = new WeakMap<RequestContext, number>();
/** Triggers that wait for their requests with a deadline of their own, and let them finish later. */
const ownDeadlines = new WeakSet<RequestContext>();

/**
 * Says that this trigger stops waiting for its requests by a deadline of its own
 * (`withinDeadline`) and lets them finish after it answered the sender (a read that fills a
 * cache for the next deliveries): they then wait their turn in the budget however long it takes.
 */
export function waitsWithOwnDeadline(ctx: IWebhookFunctions): void {
	ownDeadlines.add(ctx);
}

function webhookDeadline(ctx: RequestContext, policy: RatePolicy, now: number): number | undefined {
	if (typeof (ctx as Partial<IWebhookFunctions>).getRequestObject !== 'function') return undefined;
	if (ownDeadlines.has(ctx)) return undefined;
	let deadline = webhookDeadlines.get(ctx);
	if (deadline === undefined) {
		deadline = now + Math.max(0, policy.senderWaitMs - WEBHOOK_ANSWER_MARGIN_MS);
		webhookDeadlines.set(ctx, deadline);
	}
	return deadline;
}

function rateLimitedError(
	ctx: RequestContext,
	serviceName: string,
	request: ServiceRequest,
	policy: RatePolicy,
	readyAt: number,
	now: number,
): NodeApiError {
	const seconds = Math.ceil((readyAt - now) / 1000);
	return new NodeApiError(ctx.getNode(), { message: 'Too Many Requests', httpCode: '429' } as JsonObject, {
		httpCode: '429',
		message: `The ${serviceName}'s rate limit for this key is used up for another ${seconds} s`,
		description: `${request.method} ${request.path} was not sent: the ${serviceName} waits at most ${policy.senderWaitMs / 1000} s for this webhook's answer`,
		itemIndex: request.itemIndex,
	});
}

/**
 * The one way nodes talk to a service, giving the whole answer (see `serviceRequest` for the
 * body alone). Every request waits its turn in the budget of its platform, Base URL and key,
 * shared by every node and execution in this process (`RateBudget`); a 429 pauses that budget
 * until the platform's window reopens, and the request is sent again, for every method, because
 * the service said it did nothing. In a trigger, no request waits on the budget longer than the
 * sender waits for the answer. Server errors (502, 503, 504) and lost connections are retried only
 * for requests that are safe to repeat (`repeatable`).
 */
export async function serviceAnswer<T = IDataObject>(
	ctx: RequestContext,
	credentialType: string,
	serviceName: string,
	request: ServiceRequest,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<ServiceAnswer<T>> {
	const identity = await credentialIdentity(ctx, credentialType, request.itemIndex);
	const baseUrl = (request.baseUrl ?? identity.baseUrl).replace(/\/+$/, '');
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		qs: request.qs,
		// n8n's client (axios) encodes a FormData body itself, as multipart/form-data.
		body: (request.multipart as IHttpRequestOptions['body']) ?? request.body,
		json: request.encoding === undefined,
		encoding: request.encoding,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeoutMs ?? REQUEST_TIMEOUT_MS,
	};
	// Following redirects, n8n's HTTP client (axios through follow-redirects) keeps every byte
	// of a request body to send it again: a streamed file would be held whole. No service here
	// redirects an upload.
	if (request.multipart) options.disableFollowRedirect = true;
	const signal = cancelSignalOf(ctx);
	if (signal) options.abortSignal = signal;
	const repeatable = request.repeatable ?? IDEMPOTENT_METHODS.has(request.method);
	const ratePolicy = request.rate ?? CONTRACT_RATE_POLICY;
	const budget = rateBudget(`${credentialType} ${serviceName}`, baseUrl, identity.secret, ratePolicy, identity.serverLimit);
	const order = budget.nextOrder();
	const cancelled = () => cancelledError(ctx, serviceName, request);
	const deadline = webhookDeadline(ctx, ratePolicy, Date.now());

	let waitsWithoutProgress = 0;
	let progressSeen = budget.progress;
	let serverErrorRetries = 0;
	let repeated = false;
	// A cancelled execution stops waiting at once and sends nothing more.
	const wait = async (ms: number) => await abortableWait(ms, signal, cancelled);
	const backoff = async () => {
		repeated = true;
		await wait(policy.backoffMs * 2 ** serverErrorRetries++);
	};
	for (;;) {
		if (signal?.aborted) throw cancelled();
		const ticket = await budget.take({
			order,
			deadline,
			signal,
			cancelled,
			tooLate: (readyAt) => rateLimitedError(ctx, serviceName, request, ratePolicy, readyAt, Date.now()),
		});
		let response: FullResponse;
		try {
			response = (await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				credentialType,
				options,
			)) as FullResponse;
		} catch (error) {
			if (signal?.aborted) throw cancelled();
			if (!repeatable || serverErrorRetries >= policy.maxServerErrorRetries) {
				throw networkError(ctx, serviceName, request, error as Error, repeatable);
			}
			await backoff();
			continue;
		}

		const { statusCode, headers } = response;
		if (statusCode === 429) {
			const body = ratePolicy.reopensIn ? await readErrorBody(response.body) : undefined;
			const { retryAfterSeconds } = budget.refused(ticket, headers, body, policy.maxRetryAfterSeconds);
			waitsWithoutProgress = budget.progress === progressSeen ? waitsWithoutProgress + 1 : 1;
			progressSeen = budget.progress;
			const tooLong = (retryAfterSeconds ?? 0) > policy.maxRetryAfterSeconds;
			if (!tooLong && waitsWithoutProgress <= policy.maxRateLimitRetries) {
				discard(response.body);
				request.pacer?.rateLimited();
				await request.pacer?.resume();
				continue;
			}
			if (body !== undefined) response.body = body;
		} else {
			budget.answered(ticket, headers);
		}
		if (statusCode >= 200 && statusCode < 300) {
			return { statusCode, body: response.body as T, headers, repeated };
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
		// A gateway's 502/503/504 leaves the outcome unknown, as a cut connection does.
		if (RETRIABLE_SERVER_STATUSES.has(statusCode)) {
			lostAnswers.add(error);
			if (!repeatable) error.description = withSentence(error.description, lostAnswerAdvice(serviceName, request));
		}
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

/** A description with a sentence added, the one before it ended with a full stop. */
const withSentence = (description: string | null | undefined, text: string) =>
	[description?.replace(/[^.!?]$/, '$&.'), text].filter(Boolean).join(' ');

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
		if (text) error.description = withSentence(error.description, text);
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error, { itemIndex, description: text });
}
