/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/* eslint-disable @typescript-eslint/no-explicit-any -- answers are JSON of many shapes; each test states the shape it expects */
/** Raw HTTP against a Karakeep (real or the spec mock): what the tests of this folder pin facts with. */

export interface Answer<T = unknown> {
	status: number;
	contentType: string;
	text: string;
	/** The body parsed as JSON when it is JSON, otherwise undefined. */
	json: T;
}

export interface CallOptions {
	query?: Record<string, string | number | boolean>;
	body?: unknown;
	/** The API key; `null` sends no Authorization header. */
	apiKey?: string | null;
}

/** One request to `<baseUrl>/api/v1<path>` (or `<baseUrl><path>` for a path starting with `/api/`). */
export async function call<T = any>(
	server: { url: string; apiKey: string },
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<Answer<T>> {
	const url = new URL(path.startsWith('/api/') ? path : `/api/v1${path}`, server.url);
	for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
	const apiKey = options.apiKey === undefined ? server.apiKey : options.apiKey;
	const headers: Record<string, string> = {};
	if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
	if (options.body !== undefined) headers['content-type'] = 'application/json';
	const response = await fetch(url, {
		method,
		headers,
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
	});
	const text = await response.text();
	const contentType = response.headers.get('content-type') ?? '';
	let json: any;
	if (contentType.includes('json')) json = JSON.parse(text);
	return { status: response.status, contentType, text, json };
}

/** The same request, but fails the test unless the answer has `status`. */
export async function expectStatus<T = any>(
	status: number,
	server: { url: string; apiKey: string },
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<Answer<T>> {
	const answer = await call<T>(server, method, path, options);
	if (answer.status !== status) {
		throw new Error(`${method} ${path} answered ${answer.status}, expected ${status}: ${answer.text.slice(0, 500)}`);
	}
	return answer;
}

/** Karakeep's refusal of a request that fails its zod validation (@hono/zod-validator). */
export function zodIssues(answer: Answer): Array<{ path: Array<string | number>; message: string; code: string }> {
	const body = answer.json as { success?: boolean; error?: { name?: string; message?: string } };
	if (answer.status !== 400 || body?.success !== false || body.error?.name !== 'ZodError') {
		throw new Error(`Not a zod refusal: ${answer.status} ${answer.text.slice(0, 300)}`);
	}
	return JSON.parse(body.error.message ?? '[]');
}

/** Karakeep IDs are cuid2 (`@paralleldrive/cuid2` `createId()`): 24 lower-case letters and digits, a letter first. */
export const CUID2 = /^[a-z][a-z0-9]{23}$/;
/** Karakeep stores times in whole seconds (drizzle `integer(..., { mode: "timestamp" })`). */
export const WHOLE_SECOND = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/;

/**
 * Waits until the clock is in a later whole second than `iso` (Karakeep's stored times have whole
 * seconds, so a change is only visible in `modifiedAt` from the next second on). A wait for the
 * clock, the same clock the server reads on this machine; never a bound on how fast anything runs.
 */
export async function afterSecondOf(iso: string): Promise<void> {
	const next = Math.floor(Date.parse(iso) / 1000) * 1000 + 1000;
	while (Date.now() < next) await new Promise((resolve) => setTimeout(resolve, next - Date.now() + 5));
}

/** One server per test file; its first start on a machine installs Karakeep (minutes on a busy machine). */
export const START_TIMEOUT_MS = 20 * 60_000;
