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
import { executeContext } from '../unit/helpers/context';
import {
	BOOKMARK_CORPUS_VALUES,
	BOOKMARK_CREATE_CALLS,
	bookmarkToolCalls,
	fileBookmarkCorpus,
	type FiledBookmarkCorpus,
	leakedToolValues,
	LIST,
	onFirstRecord,
} from '../unit/fixtures/privacyCorpusTools';
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
async function run(parameters: Record<string, unknown>, asTool = true): Promise<IDataObject[]> {
	const { context } = executeContext({
		parameters,
		credentials: { bookmarkApi: { api: 'karakeep', baseUrl: mock.url, apiKey: karakeep.apiKey } },
		node: { typeVersion: 2, ...(asTool ? { type: 'n8n-nodes-sign-survey-bookmark.bookmarksTool' } : {}) },
	});
	const [output] = (await node.execute.call(context)) as INodeExecutionData[][];
	return output.map((item) => item.json);
}

describe('the privacy corpus through every Bookmarks operation as a tool, on Karakeep', () => {
	let filed: FiledBookmarkCorpus = { ids: [], listId: '', otherListId: '' };

	beforeAll(async () => {
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
