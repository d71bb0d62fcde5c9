import type { RecordedRequest, Sandbox } from '../../sandbox';

export type { RecordedRequest };

export type ServiceName = 'signing' | 'bookmark' | 'survey';

/** The sandbox's control endpoints of one service, for tests. */
export function sandboxControl(sandbox: Sandbox, service: ServiceName) {
	const call = async <T = unknown>(method: string, route: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${sandbox[service].url}/_sandbox${route}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} /_sandbox${route} answered ${response.status}: ${text}`);
		return (text ? JSON.parse(text) : undefined) as T;
	};
	return {
		call,
		requests: async () => (await call<{ requests: RecordedRequest[] }>('GET', '/requests')).requests,
		clearRequests: async () => await call('DELETE', '/requests'),
		failNext: async (count: number, status: number, extra: Record<string, unknown> = {}) =>
			await call('PUT', '/faults', { status, count, ...extra }),
		clearFaults: async () => await call('DELETE', '/faults'),
		rateLimit: async (limit: number | null) => await call('PUT', '/rate-limit', { limit }),
		reset: async () => await call('POST', '/reset'),
	};
}
