/**
 * Issue 32, acceptance 2 on Karakeep: the privacy corpus' bookmarks (test/unit/fixtures/privacyCorpusTools.ts)
 * filed in the real Karakeep, then every operation of the Bookmarks node run as an AI agent's tool
 * with the defaults: no personal value of the corpus in any output; tag and list names, and the
 * parts of titles and notes that are no one's details, come through. Search goes through the
 * validating mock of Karakeep's spec in front of the real server (it has no Meilisearch here).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { type KarakeepSpecMock, startKarakeepSpecMock } from '../harness/karakeepSpecMock';
import { executeContext, type Parameters } from '../unit/helpers/context';
import { BOOKMARKS, LIST, leakedToolValues, TOOL_PERSONAL_VALUES } from '../unit/fixtures/privacyCorpusTools';
import { START_TIMEOUT_MS } from './api';

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
async function run(parameters: Parameters, asTool = true): Promise<IDataObject[]> {
	const { context } = executeContext({
		parameters,
		credentials: { bookmarkApi: { api: 'karakeep', baseUrl: mock.url, apiKey: karakeep.apiKey } },
		node: { typeVersion: 2, ...(asTool ? { type: 'n8n-nodes-sign-survey-bookmark.bookmarksTool' } : {}) },
	});
	const [output] = (await node.execute.call(context)) as INodeExecutionData[][];
	return output.map((item) => item.json);
}

describe('the privacy corpus through every Bookmarks operation as a tool, on Karakeep', () => {
	const ids: string[] = [];
	let listId = '';
	let otherListId = '';

	beforeAll(async () => {
		for (const bookmark of BOOKMARKS) {
			const [created] = await run(
				{
					resource: 'bookmark',
					operation: 'create',
					type: bookmark.type,
					url: bookmark.url,
					text: bookmark.text,
					title: bookmark.title,
					tags: bookmark.tags.join(', '),
					notes: bookmark.note,
				},
				false,
			);
			ids.push(String(created.id));
		}
		const [list] = await run(
			{ resource: 'list', operation: 'create', name: LIST.name, additionalFields: { description: LIST.description } },
			false,
		);
		listId = String(list.id);
		const [other] = await run({ resource: 'list', operation: 'create', name: 'Reading' }, false);
		otherListId = String(other.id);
		await run({ resource: 'bookmark', operation: 'addToList', recordId: byId(ids[0]), listId: byId(listId) }, false);
	}, START_TIMEOUT_MS);

	afterAll(() => {
		// Every request the node sent validates against Karakeep's spec.
		expect(mock.requests.filter((request) => !request.valid)).toEqual([]);
	});

	it('holds every listed value: an ordinary node returns them', async () => {
		const records = await run({ resource: 'bookmark', operation: 'getMany', returnAll: true }, false);
		const lists = await run({ resource: 'list', operation: 'getMany', returnAll: true }, false);
		const expected = TOOL_PERSONAL_VALUES.filter((value) =>
			JSON.stringify([BOOKMARKS, LIST]).toLowerCase().includes(value.toLowerCase()),
		);
		expect(leakedToolValues([records, lists])).toEqual(expected);
	});

	const record = (operation: string, extra: Parameters = {}) => ({
		resource: 'bookmark',
		operation,
		recordId: byId(ids[0]),
		...extra,
	});

	it.each([
		['Get (simplified, the tool’s default)', () => record('get')],
		['Get (full record)', () => record('get', { simplify: false, options: { simplify: false } })],
		['Get Many', () => ({ resource: 'bookmark', operation: 'getMany', returnAll: true })],
		['Search', () => ({ resource: 'bookmark', operation: 'search', query: 'Grace', returnAll: true })],
		['Update', () => record('update', { updateFields: { favourited: true } })],
		['Add Tags', () => record('addTags', { tags: 'interview, residency' })],
		['Remove Tags', () => record('removeTags', { tags: 'interview' })],
		['Add to List', () => record('addToList', { listId: byId(otherListId) })],
		['Remove From List', () => record('removeFromList', { listId: byId(otherListId) })],
		['Tag → Get Many', () => ({ resource: 'tag', operation: 'getMany', returnAll: true })],
		['List → Get Many', () => ({ resource: 'list', operation: 'getMany', returnAll: true })],
		['List → Update', () => ({ resource: 'list', operation: 'update', listId: byId(listId), updateFields: { icon: '📖' } })],
	])('%s', async (_name, parameters) => {
		const output = await run(parameters() as Parameters);
		expect(output.length).toBeGreaterThan(0);
		expect(leakedToolValues(output)).toEqual([]);
	});

	it('keeps what is no one’s details: tag and list names, labels of other lines, the rest of a title', async () => {
		const [full] = await run(record('get', { simplify: false, options: { simplify: false } }));
		expect(full.title).toBe('Portfolio – NAME_1');
		expect(full.note).toMatch(/^Applicant: NAME_1\nE-mail: EMAIL_1\nPhone: PHONE_1\n.*\nStatus: shortlisted$/s);
		expect((full.tags as IDataObject[]).map((tag) => tag.name)).toEqual(expect.arrayContaining(['residency', 'shortlist']));
		const lists = await run({ resource: 'list', operation: 'getMany', returnAll: true });
		expect(lists.find((list) => list.id === listId)).toMatchObject({ name: LIST.name });
	});

	it('Create (link and text), List → Create, and the deletes with the author’s consent', async () => {
		const output = [
			...(await run({
				resource: 'bookmark',
				operation: 'create',
				type: 'link',
				url: 'https://portfolio.example.org/new/ada-lovelace',
				title: 'Portfolio – Ada Lovelace',
				notes: BOOKMARKS[0].note,
			})),
			...(await run({ resource: 'bookmark', operation: 'create', type: 'text', text: BOOKMARKS[1].text!, title: BOOKMARKS[1].title })),
			...(await run({ resource: 'list', operation: 'create', name: 'Referees', additionalFields: { description: LIST.description } })),
			...(await run(record('delete', { recordId: byId(ids[1]), allowAsTool: true }))),
			...(await run({ resource: 'list', operation: 'delete', listId: byId(listId), allowAsTool: true })),
		];
		expect(output).toHaveLength(5);
		expect(leakedToolValues(output)).toEqual([]);
	});
});
