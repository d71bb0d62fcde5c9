/* eslint-disable @typescript-eslint/no-explicit-any -- trigger outputs are JSON; each test states what it expects */
/**
 * Change events (issue 44) against the real Karakeep: every change made through Karakeep's own API
 * gives exactly one event of its kind, with its `changes`, through each trigger that claims it: the
 * polling Bookmarks Trigger (Trigger On: Bookmark Changes) for all of them, the Bookmarks Webhook
 * Trigger for those Karakeep's `edited` and `ai tagged` deliveries stand for (deliveries built as
 * Karakeep's worker builds them, test/harness/karakeepWebhooks.ts). Unrelated changes give none;
 * static data carried over a restart (as n8n stores it, JSON) loses nothing.
 */
import { randomUUID } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { BookmarksWebhookTrigger } from '../../nodes/Bookmarks/BookmarksWebhookTrigger.node';
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { buildKarakeepDelivery, type KarakeepWebhookOperation } from '../harness/karakeepWebhooks';
import { callWebhook, pollContext } from '../unit/helpers/context';
import { expectStatus, START_TIMEOUT_MS } from './api';

let karakeep: KarakeepServer;

beforeAll(async () => {
	karakeep = await startKarakeep();
}, START_TIMEOUT_MS);

afterAll(async () => {
	await karakeep?.stop();
});

const ALL_EVENTS = [
	'addedToList',
	'archived',
	'favourited',
	'highlightAdded',
	'removedFromList',
	'summaryAdded',
	'tagsAdded',
	'tagsRemoved',
	'titleOrNoteChanged',
	'unarchived',
	'unfavourited',
];
const credentials = () => ({ bookmarkApi: { api: 'karakeep', baseUrl: karakeep.url, apiKey: karakeep.apiKey, webhookToken: TOKEN } });
const TOKEN = 'change-events-token';

/** A polling trigger whose static data is kept as n8n keeps it (JSON between runs). */
function poller(events: string[] = ALL_EVENTS) {
	let stored = '{}';
	const trigger = new BookmarksTrigger();
	return {
		async poll(): Promise<any[]> {
			const staticData = JSON.parse(stored) as Record<string, unknown>;
			const { context } = pollContext({
				parameters: { watch: 'changes', changeEvents: events },
				credentials: credentials(),
				staticData,
				typeVersion: 2,
			});
			const output = await trigger.poll.call(context);
			stored = JSON.stringify(staticData);
			return (output?.[0] ?? []).map((item) => item.json);
		},
	};
}

const webhookTrigger = new BookmarksWebhookTrigger();
let nextJob = 5000;

/** A webhook trigger: one workflow and node, so that what it learns is kept between deliveries. */
function webhookListener(events: string[]) {
	const workflowId = `workflow-${randomUUID()}`;
	return async (operation: KarakeepWebhookOperation, bookmarkId: string, jobId = String(nextJob++)): Promise<any[]> => {
		const delivery = buildKarakeepDelivery({
			jobId,
			userId: 'uuuuuuuuuuuuuuuuuuuuuuuu',
			operation,
			bookmark: { type: 'text' },
			bookmarkId,
			token: TOKEN,
		});
		const outcome = await callWebhook(webhookTrigger.webhook, {
			headers: Object.fromEntries(delivery.headers),
			body: JSON.parse(delivery.body.toString('utf8')),
			rawBody: delivery.body,
			parameters: { events },
			credentials: credentials(),
			workflowId,
		});
		return (outcome.result.workflowData?.[0] ?? []).map((item) => item.json);
	};
}

const api = {
	create: async (text: string) => (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text } })).json,
	patch: async (id: string, body: IDataObject) => await expectStatus(200, karakeep, 'PATCH', `/bookmarks/${id}`, { body }),
	attach: async (id: string, tags: IDataObject[]) => await expectStatus(200, karakeep, 'POST', `/bookmarks/${id}/tags`, { body: { tags } }),
	detach: async (id: string, tags: IDataObject[]) => await expectStatus(200, karakeep, 'DELETE', `/bookmarks/${id}/tags`, { body: { tags } }),
	list: async (name: string) => (await expectStatus(201, karakeep, 'POST', '/lists', { body: { name, icon: '📁' } })).json,
};

const eventsOf = (items: any[]) => items.map((item) => item.event);

describe('the polling Bookmarks Trigger: each change through Karakeep’s API is one event', () => {
	test('archive, favourite, tags by hand and as AI, lists, highlight, title, note, summary: one event each, with its changes', async () => {
		const list = await api.list(`Reading ${randomUUID().slice(0, 6)}`);
		const record = await api.create('A record whose every change is watched');
		const other = await api.create('A record nobody changes in a way that is watched');
		const trigger = poller();
		// The first poll learns the library and emits nothing, whatever is there.
		expect(await trigger.poll()).toEqual([]);

		const step = async (change: () => Promise<unknown>) => {
			await change();
			const items = await trigger.poll();
			// Nothing twice: the next poll has nothing more.
			expect(await trigger.poll()).toEqual([]);
			return items;
		};

		let items = await step(() => api.patch(record.id, { archived: true }));
		expect(items).toEqual([expect.objectContaining({ id: record.id, event: 'archived', changes: { archived: { from: false, to: true } } })]);
		items = await step(() => api.patch(record.id, { archived: false }));
		expect(items).toEqual([expect.objectContaining({ event: 'unarchived', changes: { archived: { from: true, to: false } } })]);
		items = await step(() => api.patch(record.id, { favourited: true }));
		expect(items).toEqual([expect.objectContaining({ event: 'favourited', changes: { favourited: { from: false, to: true } } })]);
		items = await step(() => api.patch(record.id, { favourited: false }));
		expect(items).toEqual([expect.objectContaining({ event: 'unfavourited' })]);

		items = await step(() => api.attach(record.id, [{ tagName: 'by-hand' }]));
		expect(items).toEqual([
			expect.objectContaining({
				event: 'tagsAdded',
				changes: { tags: { added: [{ id: expect.any(String), name: 'by-hand', attachedBy: 'human' }] } },
			}),
		]);
		items = await step(() => api.attach(record.id, [{ tagName: 'by-ai', attachedBy: 'ai' }]));
		expect(items).toEqual([
			expect.objectContaining({
				event: 'tagsAdded',
				changes: { tags: { added: [{ id: expect.any(String), name: 'by-ai', attachedBy: 'ai' }] } },
			}),
		]);
		items = await step(() => api.detach(record.id, [{ tagName: 'by-hand' }]));
		expect(items).toEqual([
			expect.objectContaining({
				event: 'tagsRemoved',
				changes: { tags: { removed: [{ id: expect.any(String), name: 'by-hand', attachedBy: 'human' }] } },
			}),
		]);

		items = await step(() => expectStatus(204, karakeep, 'PUT', `/lists/${list.id}/bookmarks/${record.id}`));
		expect(items).toEqual([
			expect.objectContaining({ id: record.id, event: 'addedToList', changes: { list: { id: list.id, name: list.name } } }),
		]);
		items = await step(() => expectStatus(204, karakeep, 'DELETE', `/lists/${list.id}/bookmarks/${record.id}`));
		expect(items).toEqual([
			expect.objectContaining({ id: record.id, event: 'removedFromList', changes: { list: { id: list.id, name: list.name } } }),
		]);

		items = await step(() =>
			expectStatus(201, karakeep, 'POST', '/highlights', {
				body: { bookmarkId: record.id, startOffset: 2, endOffset: 8, text: 'record', note: 'worth it' },
			}),
		);
		expect(items).toEqual([
			expect.objectContaining({
				id: record.id,
				event: 'highlightAdded',
				changes: { highlight: expect.objectContaining({ bookmarkId: record.id, text: 'record', note: 'worth it' }) },
			}),
		]);

		items = await step(() => api.patch(record.id, { title: 'A title of its own' }));
		expect(items).toEqual([
			expect.objectContaining({ event: 'titleOrNoteChanged', changes: { title: { from: null, to: 'A title of its own' } } }),
		]);
		items = await step(() => api.patch(record.id, { title: 'A better title', note: 'Read before Friday' }));
		expect(items).toEqual([
			expect.objectContaining({
				event: 'titleOrNoteChanged',
				changes: {
					title: { from: 'A title of its own', to: 'A better title' },
					note: { from: null, to: 'Read before Friday' },
				},
			}),
		]);
		items = await step(() => api.patch(record.id, { summary: 'It says what it says.' }));
		expect(items).toEqual([
			expect.objectContaining({ event: 'summaryAdded', changes: { summary: { from: null, to: 'It says what it says.' } } }),
		]);

		// Unrelated changes: a list renamed, a highlight recoloured, a tag made and attached to nothing, a text edited.
		items = await step(async () => {
			await expectStatus(200, karakeep, 'PATCH', `/lists/${list.id}`, { body: { name: `${String(list.name)} (renamed)` } });
			const { json: highlights } = await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}/highlights`);
			await expectStatus(200, karakeep, 'PATCH', `/highlights/${highlights.highlights[0].id}`, { body: { color: 'blue' } });
			await expectStatus(201, karakeep, 'POST', '/tags', { body: { name: `unused-${randomUUID().slice(0, 6)}` } });
			await api.patch(other.id, { text: 'Its text, edited' });
		});
		expect(items).toEqual([]);
	});

	test('only the chosen events; two changes in one second are two events', async () => {
		const record = await api.create('Two changes at once');
		const trigger = poller(['archived', 'favourited']);
		await trigger.poll();
		await api.patch(record.id, { note: 'not watched here' });
		expect(await trigger.poll()).toEqual([]);
		await api.patch(record.id, { archived: true });
		await api.patch(record.id, { favourited: true });
		const items = await trigger.poll();
		expect(eventsOf(items).sort()).toEqual(['archived', 'favourited']);
		expect(items.every((item) => item.id === record.id)).toBe(true);
	});

	test('a change made while n8n is stopped comes with the next poll after it starts, once', async () => {
		const record = await api.create('Changed while n8n was stopped');
		const trigger = poller();
		await trigger.poll();
		// n8n stops here: nothing of the trigger runs, its static data stays stored.
		await api.patch(record.id, { archived: true });
		await api.attach(record.id, [{ tagName: 'while-stopped' }]);
		// n8n starts again: a new trigger object, the static data read back from where n8n stored it.
		const items = await trigger.poll();
		expect(eventsOf(items).sort()).toEqual(['archived', 'tagsAdded']);
		expect(await trigger.poll()).toEqual([]);
	});

	test('a record created after the first poll: the tags given to it since are Tags Added; the record itself is no change', async () => {
		const trigger = poller();
		await trigger.poll();
		const record = await api.create('New after the first poll');
		await api.attach(record.id, [{ tagName: 'ai-picked', attachedBy: 'ai' }]);
		const items = await trigger.poll();
		expect(items).toEqual([
			expect.objectContaining({
				id: record.id,
				event: 'tagsAdded',
				changes: { tags: { added: [expect.objectContaining({ name: 'ai-picked', attachedBy: 'ai' })] } },
			}),
		]);
	});
});

describe('the Bookmarks Webhook Trigger: Karakeep’s edited and AI tagged deliveries as precise events', () => {
	test('each change is one event, with its changes; a redelivery and an unrelated edit give none', async () => {
		const record = await api.create('Watched through webhooks');
		const deliver = webhookListener(ALL_EVENTS.filter((event) => !['addedToList', 'removedFromList', 'highlightAdded'].includes(event)));
		// The created delivery teaches the trigger the record; it emits nothing (Created is not chosen).
		expect(await deliver('created', record.id)).toEqual([]);

		await api.patch(record.id, { archived: true });
		const job = String(nextJob++);
		let items = await deliver('edited', record.id, job);
		expect(items).toEqual([
			expect.objectContaining({
				event: 'archived',
				recordId: record.id,
				deliveryId: `${job}:edited:archived`,
				changes: { archived: { from: false, to: true } },
				record: expect.objectContaining({ id: record.id, archived: true }),
			}),
		]);
		// Karakeep sends the same job again (its retry): nothing new.
		expect(await deliver('edited', record.id, job)).toEqual([]);

		await api.patch(record.id, { favourited: true, title: 'Named' });
		items = await deliver('edited', record.id);
		expect(eventsOf(items)).toEqual(['favourited', 'titleOrNoteChanged']);
		expect(items[1].changes).toEqual({ title: { from: null, to: 'Named' } });

		await api.attach(record.id, [{ tagName: 'hooked-by-hand' }]);
		items = await deliver('edited', record.id);
		expect(items).toEqual([
			expect.objectContaining({
				event: 'tagsAdded',
				changes: { tags: { added: [expect.objectContaining({ name: 'hooked-by-hand', attachedBy: 'human' })] } },
			}),
		]);
		await api.detach(record.id, [{ tagName: 'hooked-by-hand' }]);
		items = await deliver('edited', record.id);
		expect(items).toEqual([
			expect.objectContaining({
				event: 'tagsRemoved',
				changes: { tags: { removed: [expect.objectContaining({ name: 'hooked-by-hand', attachedBy: 'human' })] } },
			}),
		]);

		// The AI's tags, as Karakeep's tagging worker attaches them, then its ai tagged delivery: they come with it.
		await api.attach(record.id, [{ tagName: 'hooked-by-ai', attachedBy: 'ai' }]);
		items = await deliver('ai tagged', record.id);
		expect(items).toEqual([
			expect.objectContaining({
				event: 'tagsAdded',
				changes: { tags: { added: [expect.objectContaining({ name: 'hooked-by-ai', attachedBy: 'ai' })] } },
			}),
		]);

		await api.patch(record.id, { summary: 'In short.' });
		items = await deliver('edited', record.id);
		expect(items).toEqual([expect.objectContaining({ event: 'summaryAdded', changes: { summary: { from: null, to: 'In short.' } } })]);

		// An edit of what no event watches (the text), and an edited delivery for a change already told: nothing.
		await api.patch(record.id, { text: 'Another text' });
		expect(await deliver('edited', record.id)).toEqual([]);
	});

	test('an AI tagged delivery about a record the trigger never saw still carries the AI’s tags', async () => {
		const record = await api.create('Tagged before the trigger knew it');
		await api.attach(record.id, [{ tagName: 'person-tag' }, { tagName: 'machine-tag', attachedBy: 'ai' }]);
		const deliver = webhookListener(['tagsAdded']);
		const items = await deliver('ai tagged', record.id);
		expect(items).toEqual([
			expect.objectContaining({
				event: 'tagsAdded',
				changes: { tags: { added: [expect.objectContaining({ name: 'machine-tag', attachedBy: 'ai' })] } },
			}),
		]);
	});
});
