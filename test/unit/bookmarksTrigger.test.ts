import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { Sandbox, startSandbox } from '../sandbox';
import { pollContext } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(30_000);

describe('Bookmarks Trigger polling the sandbox', () => {
	let sandbox: Sandbox;
	const trigger = new BookmarksTrigger();

	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => await sandboxControl(sandbox, 'bookmark').reset());

	const credentials = () => ({ bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey } });
	const addRecords = async (count: number) =>
		(await sandboxControl(sandbox, 'bookmark').call<{ bookmarks?: Array<{ id: string }> }>('POST', '/bookmarks/generate', {
			count,
			tag: 'polled',
		}));
	const createOne = async (url: string) =>
		await fetch(`${sandbox.bookmark.url}/api/v1/bookmarks`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.bookmark.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({ type: 'link', url }),
		}).then(async (response) => (await response.json()) as { id: string });

	it('starts from now, then emits every record created since, each exactly once', async () => {
		const harness = pollContext({ credentials: credentials() });
		const poll = async () => (await trigger.poll.call(harness.context))?.[0].map((item) => String(item.json.id)) ?? [];

		expect(await poll()).toEqual([]);
		expect(await poll()).toEqual([]);

		const first = await createOne('https://example.org/one');
		const second = await createOne('https://example.org/two');
		expect(await poll()).toEqual([first.id, second.id]);
		expect(await poll()).toEqual([]);

		// More than one page (the maximum page is 100) between two polls.
		await addRecords(230);
		const third = await createOne('https://example.org/three');
		const emitted = await poll();
		expect(emitted).toHaveLength(231);
		expect(new Set(emitted).size).toBe(231);
		expect(emitted[emitted.length - 1]).toBe(third.id);
		expect(emitted).not.toContain(first.id);
		expect(await poll()).toEqual([]);
	});

	it('shows the latest record for "Fetch Test Event"', async () => {
		const latest = await createOne('https://example.org/latest');
		const harness = pollContext({ credentials: credentials(), mode: 'manual' });
		const output = await trigger.poll.call(harness.context);
		expect(output?.[0].map((item) => item.json.id)).toEqual([latest.id]);
		expect(harness.staticData).toEqual({});
	});
});
