import type { IDataObject } from 'n8n-workflow';

import { documentedOption } from '../../shared/adapterRegistry';
import { DOCUMENTED_API } from '../../shared/apiChoice';
import { isObject } from '../../shared/credentialTest';
import type { RequestContext } from '../../shared/request';
import { serviceAnswer, serviceRequest } from '../../shared/request';
import { lostAnswerHints } from '../hints';
import { listPath, recordPath } from './paths';
import type { BookmarkAdapter, TagRef } from './types';

/** The bookmark service as CONTRACTS.md describes it (section 2 and Part 2, section 5). */
const SERVICE = 'bookmark service';

const request = async <T = IDataObject>(ctx: RequestContext, req: Parameters<typeof serviceRequest>[3]) =>
	await serviceRequest<T>(ctx, 'bookmarkApi', SERVICE, req);
const answer = async (ctx: RequestContext, req: Parameters<typeof serviceAnswer>[3]) =>
	await serviceAnswer<unknown>(ctx, 'bookmarkApi', SERVICE, req);

const isRecordPage = (body: unknown): body is IDataObject & { bookmarks: IDataObject[] } =>
	isObject(body) && Array.isArray(body.bookmarks) && 'nextCursor' in body;

/** A page whose records carry `listIds`, which Karakeep's records do not. */
const hasDocumentedRecords = (body: unknown) =>
	isRecordPage(body) && body.bookmarks.some((record) => Array.isArray(record.listIds));

export const documentedAdapter: BookmarkAdapter = {
	api: DOCUMENTED_API,
	option: documentedOption(SERVICE),
	like: 'the documented bookmark API',
	apiName: 'the documented API',
	serviceName: SERVICE,
	// Its records carry `listIds`, Karakeep's do not (an empty page tells neither).
	recognition: {
		probePath: '/api/v1/bookmarks?limit=1',
		answersLikeIt: ({ statusCode, body }) => statusCode === 200 && hasDocumentedRecords(body),
	},
	credentialProbe: {
		service: SERVICE,
		secretName: 'API key',
		secretHint: 'Check the API Key: it is generated in the web portal under Settings → API Tokens.',
		apiPrefix: '/api/v1',
		probePath: '/api/v1/bookmarks?limit=1',
		headers: (credentials) => ({ authorization: `Bearer ${String(credentials.apiKey ?? '')}` }),
		isServiceAnswer: isRecordPage,
		// Karakeep answers this read in the same shape; only its records (no `listIds`) differ.
		isAmbiguous: (body) => !hasDocumentedRecords(body),
		// The bookmark service answers 401 with the plain text "Unauthorized".
		isServiceRefusal: (body) => typeof body === 'string' && body.trim() === 'Unauthorized',
	},

	async createRecord(ctx, record, itemIndex) {
		const body: IDataObject = { ...record };
		if (!record.tags?.length) delete body.tags;
		const stored = await request(ctx, {
			method: 'POST',
			path: '/api/v1/bookmarks',
			body,
			itemIndex,
			lostAnswerHint: lostAnswerHints.createRecord(record),
		});
		return { ...stored, alreadyExists: stored.alreadyExists === true };
	},

	async getRecord(ctx, recordId, itemIndex) {
		return await request(ctx, { method: 'GET', path: recordPath(recordId), itemIndex });
	},

	async recordPage(ctx, filters, { limit, cursor }, itemIndex) {
		const qs: IDataObject = { limit };
		for (const [key, value] of Object.entries(filters)) if (value) qs[key] = value;
		if (cursor) qs.cursor = cursor;
		const page = await request<{ bookmarks: IDataObject[]; nextCursor: string | null }>(ctx, {
			method: 'GET',
			path: '/api/v1/bookmarks',
			qs,
			itemIndex,
		});
		return { records: page.bookmarks, nextCursor: page.nextCursor };
	},

	async withListIds(_ctx, records) {
		return records;
	},

	async updateRecord(ctx, recordId, changes, itemIndex) {
		return await request(ctx, {
			method: 'PATCH',
			path: recordPath(recordId),
			body: { ...changes },
			itemIndex,
			lostAnswerHint: lostAnswerHints.updateRecord(recordId),
		});
	},

	async deleteRecord(ctx, recordId, itemIndex) {
		return await answer(ctx, { method: 'DELETE', path: recordPath(recordId), itemIndex, acceptStatuses: [404] });
	},

	async changeTags(ctx, recordId, names, change, itemIndex) {
		const result = await request(ctx, {
			method: change === 'attach' ? 'POST' : 'DELETE',
			path: recordPath(recordId, '/tags'),
			body: { tags: names },
			itemIndex,
			// The answer lists what this very request attached or detached: sent again after the first
			// one was carried out, a removal would report nothing removed.
			repeatable: false,
			lostAnswerHint: lostAnswerHints.changeTags(recordId),
		});
		const tags = change === 'attach' ? result.attached : result.detached;
		return (Array.isArray(tags) ? tags : []) as TagRef[];
	},

	async listTags(ctx, itemIndex) {
		const { tags } = await request<{ tags: IDataObject[] }>(ctx, { method: 'GET', path: '/api/v1/tags', itemIndex });
		return tags;
	},

	async listLists(ctx, itemIndex) {
		const { lists } = await request<{ lists: IDataObject[] }>(ctx, { method: 'GET', path: '/api/v1/lists', itemIndex });
		return lists;
	},

	async createList(ctx, fields, itemIndex) {
		return await request(ctx, {
			method: 'POST',
			path: '/api/v1/lists',
			body: { ...fields },
			itemIndex,
			lostAnswerHint: lostAnswerHints.createList(fields.name),
		});
	},

	async updateList(ctx, listId, fields, itemIndex) {
		return await request(ctx, {
			method: 'PATCH',
			path: listPath(listId),
			body: { ...fields },
			itemIndex,
			lostAnswerHint: lostAnswerHints.updateList(listId),
		});
	},

	async deleteList(ctx, listId, itemIndex) {
		return await answer(ctx, { method: 'DELETE', path: listPath(listId), itemIndex, acceptStatuses: [404] });
	},

	async changeMembership(ctx, listId, recordId, change, itemIndex) {
		return await answer(ctx, {
			method: change === 'add' ? 'PUT' : 'DELETE',
			path: listPath(listId, `/bookmarks/${encodeURIComponent(recordId)}`),
			itemIndex,
			acceptStatuses: change === 'remove' ? [404] : [],
		});
	},
};
