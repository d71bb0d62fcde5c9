/**
 * Issue 32, acceptance 2 on Karakeep: the privacy corpus' bookmarks (test/unit/fixtures/privacyCorpusTools.ts)
 * filed in the real Karakeep, then every operation of the Bookmarks node run as an AI agent's tool
 * with the defaults: no personal value of the corpus in any output; tag and list names, and the
 * parts of titles and notes that are no one's details, come through. Search goes through the
 * validating mock of Karakeep's spec in front of the real server (it has no Meilisearch here).
 * The same corpus through the triggers with Personal Data set to Redact and to Omit: the polling
 * Bookmarks Trigger, activated before the corpus was filed, and the Bookmarks Webhook Trigger with
 * Include Record, fed events built as Karakeep's webhook worker builds them
 * (test/harness/karakeepWebhooks.ts; Karakeep apps/workers/workers/webhookWorker.ts at 7ca5ee2).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { BookmarksWebhookTrigger } from '../../nodes/Bookmarks/BookmarksWebhookTrigger.node';
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { type KarakeepSpecMock, startKarakeepSpecMock } from '../harness/karakeepSpecMock';
import { buildKarakeepDelivery, type KarakeepDeliveryInput, type KarakeepWebhookOperation } from '../harness/karakeepWebhooks';
import { callWebhook, executeContext } from '../unit/helpers/context';
import { pollBookmarks } from '../unit/helpers/triggerRuns';
import {
	BOOKMARK_CORPUS_VALUES,
	BOOKMARKS,
	BOOKMARK_CREATE_CALLS,
	bookmarkToolCalls,
	fileBookmarkCorpus,
	type FiledBookmarkCorpus,
	leakedToolValues,
	LIST,
	onFirstRecord,
} from '../unit/fixtures/privacyCorpusTools';
import { expectStatus, START_TIMEOUT_MS } from './api';

let karakeep: KarakeepServer;
let mock: KarakeepSpecMock;

beforeAll(async () => {
	karakeep = await startKarakeep();
	mock = await startKarakeepSpecMock({ upstream: karakeep });
}, START_TIMEOUT_MS);

afterAll(async () => {
	await mock?.stop();
	await karakeep?.stop();
});

const node = new Bookmarks();
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** The Bookmarks node on Karakeep (through the spec mock), as a tool unless `asTool` is false. */
async function run(parameters: Record<string, unknown>, asTool = true): Promise<IDataObject[]> {
	const { context } = executeContext({
		parameters,
		credentials: { bookmarkApi: { api: 'karakeep', baseUrl: mock.url, apiKey: karakeep.apiKey } },
		node: { typeVersion: 2, ...(asTool ? { type: 'n8n-nodes-sign-survey-bookmark.bookmarksTool' } : {}) },
	});
	const [output] = (await node.execute.call(context)) as INodeExecutionData[][];
	return output.map((item) => item.json);
}

const TOKEN = 'privacy-corpus-webhook-token';
const credentials = () => ({ bookmarkApi: { api: 'karakeep', baseUrl: mock.url, apiKey: karakeep.apiKey, webhookToken: TOKEN } });
/** Kept whatever the mode: tag names, other lines' labels and values, the rest of the titles. */
const KEPT = ['Portfolio – ', 'Reference – ', 'Status: shortlisted', 'residency', 'shortlist', 'reference'];
const keptMissing = (output: unknown) => KEPT.filter((value) => !JSON.stringify(output).includes(value));

describe('the privacy corpus through every Bookmarks operation as a tool, on Karakeep', () => {
	let filed: FiledBookmarkCorpus = { ids: [], listId: '', otherListId: '' };
	/** The polling Bookmarks Trigger's state once activated, before the corpus was filed. */
	let activated: Record<string, unknown> = {};

	/** A poll of the Bookmarks Trigger as activated before the corpus was filed: what it emits. */
	const poll = async (typeVersion: number, parameters: Record<string, unknown>) =>
		await pollBookmarks(credentials(), structuredClone(activated), parameters, typeVersion);

	beforeAll(async () => {
		const state = {};
		expect(await pollBookmarks(credentials(), state)).toEqual([]);
		activated = structuredClone(state);
		filed = await fileBookmarkCorpus(run);
	}, START_TIMEOUT_MS);

	afterAll(() => {
		// Every request the node sent validates against Karakeep's spec.
		expect(mock.requests.filter((request) => !request.valid)).toEqual([]);
	});

	it('holds every listed value: an ordinary node returns them', async () => {
		const records = await run({ resource: 'bookmark', operation: 'getMany', returnAll: true }, false);
		const lists = await run({ resource: 'list', operation: 'getMany', returnAll: true }, false);
		expect(leakedToolValues([records, lists])).toEqual(BOOKMARK_CORPUS_VALUES);
	});

	describe('the Bookmarks Trigger (polling), emitting the corpus as new records', () => {
		const SHAPES: Array<[string, number, boolean]> = [
			['version 1', 1, true],
			['version 2, simplified', 2, true],
			['version 2, Simplify off', 2, false],
		];
		it('holds the records’ listed values: without Personal Data (Keep, a trigger’s default) they come as they are', async () => {
			const records = await poll(1, {});
			expect(records.map((record) => record.id).sort()).toEqual([...filed.ids].sort());
			expect(leakedToolValues(records)).toEqual(
				BOOKMARK_CORPUS_VALUES.filter((value) => !LIST.description.toLowerCase().includes(value.toLowerCase())),
			);
		});

		it.each(SHAPES.flatMap(([name, version, simplify]) => ['redact', 'omit'].map((mode) => [mode, name, version, simplify] as const)))(
			'Personal Data %s, %s: 0 personal values; tags, labels and the rest of the titles kept',
			async (personalData, _name, version, simplify) => {
				const records = await poll(version, { simplify, options: { personalData } });
				expect(records.map((record) => record.id).sort()).toEqual([...filed.ids].sort());
				expect(leakedToolValues(records)).toEqual([]);
				expect(keptMissing(records)).toEqual([]);
			},
		);
	});

	describe('the Bookmarks Webhook Trigger with Include Record, fed the events Karakeep’s worker sends', () => {
		const trigger = new BookmarksWebhookTrigger();
		const OPERATIONS: KarakeepWebhookOperation[] = ['created', 'edited', 'crawled', 'ai tagged'];
		let runs = 0;

		/** One event of a record, as the worker sends it, to a trigger set as `parameters` say; the items. */
		async function deliver(
			workflowId: string,
			jobId: string,
			bookmarkId: string,
			bookmark: KarakeepDeliveryInput['bookmark'],
			operation: KarakeepWebhookOperation,
			parameters: Record<string, unknown>,
		): Promise<IDataObject[]> {
			const delivery = buildKarakeepDelivery({ jobId, bookmarkId, userId: 'privacy-corpus-user', operation, bookmark, token: TOKEN });
			const outcome = await callWebhook(trigger.webhook, {
				workflowId,
				headers: Object.fromEntries(delivery.headers),
				body: JSON.parse(delivery.body.toString('utf8')),
				rawBody: delivery.body,
				parameters: { events: OPERATIONS, includeRecord: true, ...parameters },
				credentials: credentials(),
			});
			return (outcome.result.workflowData?.[0] ?? []).map((item) => item.json);
		}

		/** Every event of every corpus record to a trigger set as `parameters` say (a workflow of its own); the items. */
		async function items(parameters: Record<string, unknown>) {
			const workflowId = `privacy-corpus-karakeep-${++runs}`;
			const output: IDataObject[] = [];
			for (const [index, bookmarkId] of filed.ids.entries()) {
				const bookmark = BOOKMARKS[index];
				for (const operation of OPERATIONS) {
					const shape = { type: bookmark.type as 'link' | 'text', url: bookmark.url };
					output.push(...(await deliver(workflowId, `${index}${operation.length}`, bookmarkId, shape, operation, parameters)));
				}
			}
			expect(output.map((item) => item.recordStatus)).toEqual(Array(filed.ids.length * OPERATIONS.length).fill('found'));
			return output;
		}

		it('holds the records’ listed values: without Personal Data (Keep, a trigger’s default) they come as they are', async () => {
			expect(leakedToolValues(await items({ simplify: false }))).toEqual(
				BOOKMARK_CORPUS_VALUES.filter((value) => !LIST.description.toLowerCase().includes(value.toLowerCase())),
			);
		});

		it.each([
			['redact', true],
			['redact', false],
			['omit', true],
			['omit', false],
		])('Personal Data %s (Simplify %s): 0 personal values in the events and their records; tags, labels and titles kept', async (personalData, simplify) => {
			const output = await items({ simplify, options: { personalData } });
			expect(leakedToolValues(output)).toEqual([]);
			expect(keptMissing(output)).toEqual([]);
			// The event's URL too: the name the record gives is found again in its slug.
			expect(output[0].url).toMatch(personalData === 'redact' ? /^https:\/\/portfolio\.example\.org\/NAME_\d+\/2026$/ : /^https:\/\/portfolio\.example\.org\/\[removed\]\/2026$/);
		});

		it('Simplify leaves Karakeep’s summary out: the name it gives is still found in the title, by both triggers', async () => {
			const url = 'https://portfolio.example.org/hedy-lamarr/2027';
			const created = (
				await expectStatus(201, karakeep, 'POST', '/bookmarks', {
					body: { type: 'link', url, title: 'Portfolio – Hedy Lamarr', summary: 'Applicant: Hedy Lamarr, inventor of frequency hopping.' },
				})
			).json;
			const [event] = await deliver(`privacy-corpus-karakeep-${++runs}`, '77', created.id, { type: 'link', url }, 'created', {
				options: { personalData: 'redact' },
			});
			expect(event.record).toMatchObject({ id: created.id, title: expect.stringMatching(/^Portfolio – NAME_\d+$/) });
			expect(event.url).toMatch(/^https:\/\/portfolio\.example\.org\/NAME_\d+\/2027$/);
			const polled = (await poll(2, { options: { personalData: 'redact' } })).find((record) => record.id === created.id);
			expect(polled).toMatchObject({ title: expect.stringMatching(/^Portfolio – NAME_\d+$/) });
			expect(JSON.stringify([event, polled])).not.toMatch(/hedy|lamarr/i);
		});
	});

	it.each(bookmarkToolCalls(() => filed))('%s', async (_name, parameters) => {
		const output = await run(parameters());
		expect(output.length).toBeGreaterThan(0);
		expect(leakedToolValues(output)).toEqual([]);
	});

	it('keeps what is no one’s details: tag and list names, labels of other lines, the rest of a title', async () => {
		const [full] = await run(onFirstRecord(filed, 'get', { simplify: false, options: { simplify: false } }));
		expect(full.title).toBe('Portfolio – NAME_1');
		expect(full.note).toMatch(/^Applicant: NAME_1\nE-mail: EMAIL_1\nPhone: PHONE_1\n.*\nStatus: shortlisted$/s);
		expect((full.tags as IDataObject[]).map((tag) => tag.name)).toEqual(expect.arrayContaining(['residency', 'shortlist']));
		const lists = await run({ resource: 'list', operation: 'getMany', returnAll: true });
		expect(lists.find((list) => list.id === filed.listId)).toMatchObject({ name: LIST.name });
	});

	it('Create (link and text), List → Create, and the deletes with the author’s consent', async () => {
		const output: IDataObject[] = [];
		for (const call of [
			...BOOKMARK_CREATE_CALLS,
			onFirstRecord(filed, 'delete', { recordId: byId(filed.ids[1]), allowAsTool: true }),
			{ resource: 'list', operation: 'delete', listId: byId(filed.listId), allowAsTool: true },
		]) {
			output.push(...(await run(call)));
		}
		expect(output).toHaveLength(5);
		expect(leakedToolValues(output)).toEqual([]);
	});
});
