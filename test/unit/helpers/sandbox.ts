import type { DeliveryAttempt, RecordedRequest, Sandbox } from '../../sandbox';
import { eventually } from '../../sandbox/testkit';

export type { DeliveryAttempt, RecordedRequest };

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
		/**
		 * The webhook delivery log (signing, survey) once every delivery sent so far has been
		 * tried to the end: nothing more arrives until the next event (sandbox README, Time).
		 */
		settledDeliveries: async () =>
			await eventually(`the ${service} service's deliveries to be tried to the end`, async () => {
				const log = await call<{ deliveries: DeliveryAttempt[]; pending: number }>('GET', '/deliveries');
				return log.pending === 0 ? log.deliveries : undefined;
			}),
	};
}
