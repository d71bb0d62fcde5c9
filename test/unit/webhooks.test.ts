import { RecentDeliveries, secretsMatch } from '../../nodes/shared/webhooks';

describe('secretsMatch', () => {
	it('matches equal secrets only', () => {
		expect(secretsMatch('abc', 'abc')).toBe(true);
		expect(secretsMatch('abc', 'abd')).toBe(false);
		expect(secretsMatch('abc', 'abcd')).toBe(false);
		expect(secretsMatch('', 'abc')).toBe(false);
	});
});

describe('RecentDeliveries', () => {
	it('reports an id seen before within the age limit', () => {
		const store = new RecentDeliveries(1000, 10);
		expect(store.checkAndRemember('wf', 'a', 0)).toBe(false);
		expect(store.checkAndRemember('wf', 'a', 500)).toBe(true);
		expect(store.checkAndRemember('wf', 'a', 2000)).toBe(false);
	});

	it('keeps scopes apart and forgets a scope on request', () => {
		const store = new RecentDeliveries();
		store.checkAndRemember('one', 'a');
		expect(store.checkAndRemember('two', 'a')).toBe(false);
		store.forget('one');
		expect(store.checkAndRemember('one', 'a')).toBe(false);
	});

	it('holds at most the configured number of ids, dropping the oldest', () => {
		const store = new RecentDeliveries(60_000, 3);
		for (const id of ['a', 'b', 'c', 'd']) store.checkAndRemember('wf', id, 0);
		expect(store.checkAndRemember('wf', 'd', 1)).toBe(true);
		expect(store.checkAndRemember('wf', 'a', 1)).toBe(false);
	});
});
