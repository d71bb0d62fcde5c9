import type { IDataObject } from 'n8n-workflow';

import { startFormbricks, type FormbricksSandbox } from '../../sandbox/formbricks';
import { formbricksSpecs } from '../../sandbox/formbricks/spec';
import type { RecordedRequest } from '../../sandbox';

/**
 * What broke Formbricks' OpenAPI files at the Formbricks flavour running at `url`: each request it
 * received that the specs refuse (checked again here, whatever the flavour answered), and each 2xx
 * answer it gave that did not match them.
 */
export async function formbricksSpecProblems(url: string): Promise<string[]> {
	const specs = await formbricksSpecs();
	const read = async <T>(route: string) => (await (await fetch(`${url}/_sandbox/${route}`)).json()) as T;
	const problems: string[] = [];
	for (const request of (await read<{ requests: RecordedRequest[] }>('requests')).requests) {
		const refusal = specs.checkRequest(request);
		if (refusal) problems.push(`${request.method} ${request.path}: ${JSON.stringify(refusal.body)}`);
	}
	const { violations } = await read<{ violations: Array<{ method: string; path: string; errors: string[] }> }>(
		'spec-violations',
	);
	for (const violation of violations) {
		problems.push(`answer to ${violation.method} ${violation.path}: ${violation.errors.join('; ')}`);
	}
	return problems;
}

/**
 * The Formbricks flavour of the survey sandbox for node tests: it refuses every request that
 * Formbricks' OpenAPI files do not allow and holds each 2xx answer to them (test/sandbox/formbricks).
 * `specProblems()` says, after a test, which of the requests the node sent do not validate and
 * which answers did not match, so that a test can require both to be none.
 */
export interface FormbricksHarness {
	fb: FormbricksSandbox;
	/** A Survey API credential set to Formbricks. */
	credentials(extra?: IDataObject): Record<string, IDataObject>;
	/** A control endpoint (`/_sandbox/…`, no key). */
	control<T = IDataObject>(route: string, method?: string, body?: unknown): Promise<T>;
	/** Formbricks' API with the key, answered as JSON. */
	api<T = IDataObject>(path: string, method?: string): Promise<{ status: number; json: T }>;
	requests(): Promise<RecordedRequest[]>;
	/** Requests to the API that Formbricks' specs refuse, and 2xx answers that broke them. */
	specProblems(): Promise<string[]>;
	stop(): Promise<void>;
}

export async function startFormbricksHarness(
	options: Parameters<typeof startFormbricks>[0] = {},
): Promise<FormbricksHarness> {
	const fb = await startFormbricks({ rateLimit: null, ...options });
	const control = async <T = IDataObject>(route: string, method = 'GET', body?: unknown): Promise<T> => {
		const response = await fetch(`${fb.url}/_sandbox/${route}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} /_sandbox/${route} answered ${response.status}: ${text}`);
		return (text ? JSON.parse(text) : undefined) as T;
	};
	const requests = async () => (await control<{ requests: RecordedRequest[] }>('requests')).requests;
	return {
		fb,
		credentials: (extra = {}) => ({
			surveyApi: { api: 'formbricks', baseUrl: fb.url, apiKey: fb.apiKey, ...extra },
		}),
		control,
		api: async <T>(path: string, method = 'GET') => {
			const response = await fetch(`${fb.url}${path}`, { method, headers: { 'x-api-key': fb.apiKey } });
			const text = await response.text();
			return { status: response.status, json: (text ? JSON.parse(text) : undefined) as T };
		},
		requests,
		specProblems: async () => await formbricksSpecProblems(fb.url),
		stop: async () => await fb.stop(),
	};
}

/**
 * The Formbricks flavour for one test file: started once, reset (and its request log cleared)
 * before each test, and after each test no request the node sent and no answer may have broken
 * Formbricks' specs. Returns the harness for the tests to use.
 */
export function formbricksForEachTest(options: Parameters<typeof startFormbricks>[0] = {}): () => FormbricksHarness {
	let harness: FormbricksHarness | undefined;
	const started = () => {
		if (!harness) throw new Error('The Formbricks flavour did not start');
		return harness;
	};
	beforeAll(async () => {
		harness = await startFormbricksHarness(options);
	});
	afterAll(async () => await harness?.stop());
	beforeEach(async () => {
		await started().control('reset', 'POST');
		await started().control('requests', 'DELETE');
	});
	afterEach(async () => {
		expect(await started().specProblems()).toEqual([]);
	});
	return started;
}
