/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a stand-in for the response n8n hands a webhook */
import { EventEmitter } from 'node:events';

import type { IWebhookFunctions } from 'n8n-workflow';

import {
	ACKNOWLEDGE_ONLY,
	admitDeliveries,
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

describe('admitDeliveries (a delivery standing for several events)', () => {
	/** A delivery's context; `answer` is n8n's answer once it started (or failed to start) the execution. */
	const delivery = () => {
		const response = Object.assign(new EventEmitter(), { headersSent: false, statusCode: 200 });
		const ctx = {
			getWorkflow: () => ({ id: 'wf' }),
			getNode: () => ({ id: 'node' }),
			getNodeWebhookUrl: () => 'http://n8n/webhook/x',
			getResponseObject: () => response,
		} as unknown as IWebhookFunctions;
		const answer = (status: number) => {
			Object.assign(response, { headersSent: true, statusCode: status });
			response.emit('close');
		};
		return { ctx, answer };
	};

	it('admits the ids not started before; a later delivery of the same ones waits for them and starts nothing', async () => {
		const store = new RecentDeliveries();
		const first = delivery();
		expect(await admitDeliveries(first.ctx, ['a', 'b'], store)).toEqual({ admitted: ['a', 'b'] });
		const again = admitDeliveries(delivery().ctx, ['a', 'b'], store);
		first.answer(200);
		await expect(again).resolves.toEqual({ answer: ACKNOWLEDGE_ONLY });
		expect(await admitDeliveries(delivery().ctx, ['a', 'b', 'c'], store)).toEqual({ admitted: ['c'] });
	});

	it('takes again the ids whose execution n8n did not start', async () => {
		const store = new RecentDeliveries();
		const first = delivery();
		await admitDeliveries(first.ctx, ['a', 'b'], store);
		const retry = admitDeliveries(delivery().ctx, ['a', 'b'], store);
		first.answer(500);
		await expect(retry).resolves.toEqual({ admitted: ['a', 'b'] });
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
