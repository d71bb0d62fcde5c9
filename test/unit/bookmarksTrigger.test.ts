import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { ManualClock, Sandbox, startSandbox } from '../sandbox';
import { driveClock, eventually } from '../sandbox/testkit';
import { pollContext } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(30_000);

describe('Bookmarks Trigger polling the sandbox', () => {
	let sandbox: Sandbox;
	const trigger = new BookmarksTrigger();

	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => await sandboxControl(sandbox, 'bookmark').reset());

	const credentials = () => ({
		bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey },
	});
	const addRecords = async (count: number) =>
		await sandboxControl(sandbox, 'bookmark').call<{ bookmarks?: Array<{ id: string }> }>(
			'POST',
			'/bookmarks/generate',
			{
				count,
				tag: 'polled',
			},
		);
	const fetchRecord = async (id: string) =>
		(await (
			await fetch(`${sandbox.bookmark.url}/api/v1/bookmarks/${id}`, {
				headers: { authorization: `Bearer ${sandbox.bookmark.apiKey}` },
			})
		).json()) as { createdAt: string };
	const createOne = async (url: string) =>
		await fetch(`${sandbox.bookmark.url}/api/v1/bookmarks`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${sandbox.bookmark.apiKey}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ type: 'link', url }),
		}).then(async (response) => (await response.json()) as { id: string });

	it('starts from now, then emits every record created since, each exactly once', async () => {
		const harness = pollContext({ credentials: credentials() });
		const poll = async () =>
			(await trigger.poll.call(harness.context))?.[0].map((item) => String(item.json.id)) ?? [];

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

	describe('exactly once, also when the data is odd or polls overlap', () => {
		const control = () => sandboxControl(sandbox, 'bookmark');
		const plant = async (createdAt: string | null) =>
			(
				await control().call<{ ids: string[] }>('POST', '/bookmarks/generate', {
					count: 1,
					createdAt,
				})
			).ids[0];
		const poller = (parameters: Record<string, unknown> = {}) => {
			const harness = pollContext({ credentials: credentials(), parameters });
			const poll = async () =>
				(await trigger.poll.call(harness.context))?.[0].map((item) => String(item.json.id)) ?? [];
			return { harness, poll };
		};

		it('goes on after records with a null or missing createdAt, emitting each once', async () => {
			const { poll } = poller();
			expect(await poll()).toEqual([]);
			const undated = await plant(null);
			const missing = await control()
				.call<{ ids: string[] }>('POST', '/bookmarks/generate', { count: 1, createdAt: 'missing' })
				.then((answer) => answer.ids[0]);
			const dated = await createOne('https://example.org/dated');
			const first = await poll();
			expect([...first].sort()).toEqual([undated, missing, dated.id].sort());
			expect(await poll()).toEqual([]);
			const later = await createOne('https://example.org/later');
			expect(await poll()).toEqual([later.id]);
			expect(await poll()).toEqual([]);
		});

		it('emits a record that becomes visible after a newer one was polled', async () => {
			const { poll } = poller();
			expect(await poll()).toEqual([]);
			const newer = await createOne('https://example.org/newer');
			expect(await poll()).toEqual([newer.id]);
			const createdBefore = new Date(Date.now() - 60_000).toISOString();
			const late = await plant(createdBefore);
			expect(await poll()).toEqual([late]);
			expect(await poll()).toEqual([]);
		});

		it('is not stopped by a record dated in the future', async () => {
			const { poll } = poller();
			expect(await poll()).toEqual([]);
			const future = await plant('2099-01-01T00:00:00.000Z');
			expect(await poll()).toEqual([future]);
			const next = await createOne('https://example.org/after-the-future');
			expect(await poll()).toEqual([next.id]);
			expect(await poll()).toEqual([]);
		});

		it('emits each record once when two polls overlap', async () => {
			// A sandbox of its own whose answers wait for this test's clock: both polls are surely in flight together.
			const clock = new ManualClock();
			const held = await startSandbox({ clock });
			try {
				const harness = pollContext({
					credentials: { bookmarkApi: { baseUrl: held.bookmark.url, apiKey: held.bookmark.apiKey } },
				});
				const poll = async () =>
					(await trigger.poll.call(harness.context))?.[0].map((item) => String(item.json.id)) ?? [];
				expect(await poll()).toEqual([]);
				const heldControl = sandboxControl(held, 'bookmark');
				await heldControl.call('POST', '/bookmarks/generate', { count: 150, tag: 'polled' });
				await heldControl.call('PUT', '/latency', { ms: 150 });
				const both = Promise.all([poll(), poll()]);
				await eventually('both polls to wait for an answer', () =>
					clock.pending().filter((wait) => wait.purpose === 'latency').length === 2,
				);
				const [a, b] = await driveClock(clock, both);
				await heldControl.call('PUT', '/latency', { ms: 0 });
				const all = [...a, ...b];
				expect(all).toHaveLength(150);
				expect(new Set(all).size).toBe(150);
				expect(await poll()).toEqual([]);
			} finally {
				await held.stop();
			}
		});

		it('carries on from the state of earlier versions, and restarts a state they broke', async () => {
			const existing = await createOne('https://example.org/before-upgrade');
			const harness = pollContext({
				credentials: credentials(),
				staticData: {
					since: (await fetchRecord(existing.id)).createdAt,
					idsAtSince: [existing.id],
				},
			});
			const poll = async () =>
				(await trigger.poll.call(harness.context))?.[0].map((item) => String(item.json.id)) ?? [];
			const added = await createOne('https://example.org/after-upgrade');
			expect(await poll()).toEqual([added.id]);
			const broken = pollContext({
				credentials: credentials(),
				staticData: { since: 'null', idsAtSince: [] },
			});
			const pollBroken = async () =>
				(await trigger.poll.call(broken.context))?.[0].map((item) => String(item.json.id)) ?? [];
			expect(await pollBroken()).toEqual([]);
			const fresh = await createOne('https://example.org/after-repair');
			expect(await pollBroken()).toEqual([fresh.id]);
		});
	});

	describe('Trigger On: Changed Records', () => {
		const control = () => sandboxControl(sandbox, 'bookmark');
		const api = async (method: string, path: string, body?: unknown) =>
			await fetch(`${sandbox.bookmark.url}${path}`, {
				method,
				headers: {
					authorization: `Bearer ${sandbox.bookmark.apiKey}`,
					...(body === undefined ? {} : { 'content-type': 'application/json' }),
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
		const changedPoller = () => {
			const harness = pollContext({
				credentials: credentials(),
				parameters: { watch: 'changedRecords' },
			});
			const poll = async () =>
				(await trigger.poll.call(harness.context))?.[0].map((item) => item.json) ?? [];
			return { harness, poll };
		};
		const ids = (records: Array<Record<string, unknown>>) =>
			records.map((record) => String(record.id));

		it('emits each change once, oldest first, and no record that was only created', async () => {
			const { poll, harness } = changedPoller();
			expect(await poll()).toEqual([]);
			const [archived, tagged, listed] = [
				'bm_seed_grace_portfolio',
				'bm_seed_on_attunement',
				'bm_seed_studio_visit',
			];
			await api('PATCH', `/api/v1/bookmarks/${archived}`, { archived: true });
			await api('POST', `/api/v1/bookmarks/${tagged}/tags`, { tags: ['shortlist'] });
			await api('PUT', `/api/v1/lists/list_applications/bookmarks/${listed}`);
			await createOne('https://example.org/only-created');
			const changed = await poll();
			expect(ids(changed)).toEqual([archived, tagged, listed]);
			expect(changed[0]).toMatchObject({ archived: true });
			expect(await poll()).toEqual([]);
			// Two changes between polls: one emission, with the latest state.
			await api('PATCH', `/api/v1/bookmarks/${archived}`, { favourited: true });
			await api('PATCH', `/api/v1/bookmarks/${archived}`, { note: 'Final' });
			const again = await poll();
			expect(ids(again)).toEqual([archived]);
			expect(again[0]).toMatchObject({ archived: true, favourited: true, note: 'Final' });
			expect(await poll()).toEqual([]);
			expect(harness.requests.every((request) => request.qs?.sortBy === 'modifiedAt')).toBe(true);
		});

		it('emits every change across more than one page, none twice, none lost', async () => {
			const generated = (
				await control().call<{ ids: string[] }>('POST', '/bookmarks/generate', {
					count: 260,
					tag: 'bulk',
				})
			).ids;
			const { poll } = changedPoller();
			expect(await poll()).toEqual([]);
			const touched = generated.filter((_, index) => index % 2 === 0);
			for (const id of touched) await api('PATCH', `/api/v1/bookmarks/${id}`, { archived: true });
			// Changes made within one millisecond share a modifiedAt, so their order among
			// themselves is the service's tie-break: what counts is each change once.
			const sameChanges = (emitted: string[], expected: string[]) => {
				expect(emitted).toHaveLength(new Set(emitted).size);
				expect([...emitted].sort()).toEqual([...expected].sort());
			};
			sameChanges(ids(await poll()), touched);
			// Touched again, and others for the first time, between the next two polls.
			const second = [
				...touched.slice(0, 20),
				...generated.filter((_, index) => index % 2 === 1).slice(0, 110),
			];
			for (const id of second) await api('PATCH', `/api/v1/bookmarks/${id}`, { favourited: true });
			sameChanges(ids(await poll()), second);
			expect(await poll()).toEqual([]);
		});

		it('starts from now again when Trigger On changes', async () => {
			const staticData: Record<string, unknown> = {};
			const asNew = pollContext({ credentials: credentials(), staticData });
			expect(await trigger.poll.call(asNew.context)).toBeNull();
			await api('PATCH', '/api/v1/bookmarks/bm_seed_grace_portfolio', { archived: true });
			const asChanged = pollContext({
				credentials: credentials(),
				staticData,
				parameters: { watch: 'changedRecords' },
			});
			expect(await trigger.poll.call(asChanged.context)).toBeNull();
			await api('PATCH', '/api/v1/bookmarks/bm_seed_on_attunement', { archived: true });
			const output = await trigger.poll.call(asChanged.context);
			expect(output?.[0].map((item) => item.json.id)).toEqual(['bm_seed_on_attunement']);
		});

		it('shows the latest change for "Fetch Test Event"', async () => {
			await api('PATCH', '/api/v1/bookmarks/bm_seed_grace_portfolio', { favourited: true });
			await createOne('https://example.org/newer-but-unchanged');
			const harness = pollContext({
				credentials: credentials(),
				mode: 'manual',
				parameters: { watch: 'changedRecords' },
			});
			const output = await trigger.poll.call(harness.context);
			expect(output?.[0].map((item) => item.json.id)).toEqual(['bm_seed_grace_portfolio']);
		});
	});
});
