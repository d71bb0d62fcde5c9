import {
	MAX_DELIVERY_ID_LENGTH,
	openSecret,
	RecentDeliveries,
	sealSecret,
	secretsMatch,
} from '../../nodes/shared/webhooks';
import { useFakeTime } from './helpers/clock';

describe('secretsMatch', () => {
	it('matches equal secrets only', () => {
		expect(secretsMatch('abc', 'abc')).toBe(true);
		expect(secretsMatch('abc', 'abd')).toBe(false);
		expect(secretsMatch('abc', 'abcd')).toBe(false);
		expect(secretsMatch('', 'abc')).toBe(false);
	});
});

/** Admits a delivery and, when new, settles it as n8n's answer would. */
function deliver(store: RecentDeliveries, scope: string, id: string, now: number, started = true): string {
	const admission = store.admit(scope, id, now);
	if (admission.status === 'new') admission.settle(started);
	return admission.status;
}

describe('RecentDeliveries', () => {
	it('reports an id seen before within the age limit', () => {
		// Settling stamps the time n8n started the execution, from Date.now: the test's fake time,
		// so that a pause of the machine between two lines cannot age the entry.
		const settledAt = 1_800_000_000_000;
		useFakeTime(settledAt);
		try {
			const store = new RecentDeliveries({ maxAgeMs: 1000, maxEntries: 10 });
			const first = store.admit('wf', 'a', 0);
			expect(first.status).toBe('new');
			if (first.status === 'new') first.settle(true);
			expect(store.admit('wf', 'a', settledAt + 1000).status).toBe('done');
			expect(store.admit('wf', 'a', settledAt + 1001).status).toBe('new');
		} finally {
			jest.useRealTimers();
		}
	});

	it('forgets a delivery n8n did not start, so that its redelivery runs', () => {
		const store = new RecentDeliveries();
		expect(deliver(store, 'wf', 'a', Date.now(), false)).toBe('new');
		expect(deliver(store, 'wf', 'a', Date.now())).toBe('new');
		expect(deliver(store, 'wf', 'a', Date.now())).toBe('done');
	});

	it('tells a redelivery arriving while the first attempt is being started how that one ended', async () => {
		const store = new RecentDeliveries();
		const first = store.admit('wf', 'a');
		const again = store.admit('wf', 'a');
		expect(again.status).toBe('inFlight');
		if (first.status !== 'new' || again.status !== 'inFlight') throw new Error('unexpected admissions');
		first.settle(false);
		await expect(again.settled).resolves.toBe(false);
	});

	it('keeps scopes apart and forgets a scope on request', () => {
		const store = new RecentDeliveries();
		deliver(store, 'one', 'a', Date.now());
		expect(deliver(store, 'two', 'a', Date.now())).toBe('new');
		store.forget('one');
		expect(deliver(store, 'one', 'a', Date.now())).toBe('new');
		expect(deliver(store, 'two', 'a', Date.now())).toBe('done');
	});

	it('holds at most the configured number of ids, dropping the oldest', () => {
		const store = new RecentDeliveries({ maxEntries: 3 });
		for (const id of ['a', 'b', 'c', 'd']) deliver(store, 'wf', id, Date.now());
		expect(store.size).toBe(3);
		expect(deliver(store, 'wf', 'd', Date.now())).toBe('done');
		expect(deliver(store, 'wf', 'a', Date.now())).toBe('new');
	});

	it('is bounded in bytes: long ids cost no more than the id length cap', () => {
		const maxBytes = 64 * 1024;
		const store = new RecentDeliveries({ maxBytes });
		const huge = 'x'.repeat(100_000);
		for (let i = 0; i < 1000; i++) deliver(store, 'wf', `${i}${huge}`, Date.now());
		expect(store.approximateBytes).toBeLessThanOrEqual(maxBytes);
		expect(store.approximateBytes / store.size).toBeLessThan(2 * (MAX_DELIVERY_ID_LENGTH + 100) + 96);
		// A long id is still recognised when it comes again.
		expect(deliver(store, 'wf', `999${huge}`, Date.now())).toBe('done');
	});
});

describe('sealSecret', () => {
	it('opens only with the same key material and context', () => {
		const sealed = sealSecret('whsec_c2VjcmV0', 'api-key', 'wh_1');
		expect(sealed).not.toContain('c2VjcmV0');
		expect(openSecret(sealed, 'api-key', 'wh_1')).toBe('whsec_c2VjcmV0');
		expect(openSecret(sealed, 'other-key', 'wh_1')).toBeUndefined();
		expect(openSecret(sealed, 'api-key', 'wh_2')).toBeUndefined();
		expect(openSecret('whsec_c2VjcmV0', 'api-key', 'wh_1')).toBeUndefined();
	});
});
