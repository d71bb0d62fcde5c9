import type { IDataObject } from 'n8n-workflow';

import { answer, request } from './karakeepRequest';
import { recordPath } from './paths';
import type { Highlights } from './types';

/**
 * Karakeep's highlights (packages/api/routes/highlights.ts, packages/shared/types/highlights.ts at
 * 7ca5ee2; pinned in test/karakeep/highlights.test.ts). Create needs `text` and `note` present
 * (either may be null); colours are yellow (the default), red, green and blue. All highlights are
 * paged by cursor (`<id>_<createdAt>`); a record's come at once.
 */
const highlightPath = (highlightId: string) => `/api/v1/highlights/${encodeURIComponent(highlightId)}`;

export const karakeepHighlights: Highlights = {
	async create(ctx, recordId, fields, itemIndex) {
		const body: IDataObject = { bookmarkId: recordId, ...fields };
		return await request(ctx, { method: 'POST', path: '/api/v1/highlights', body, itemIndex });
	},

	async get(ctx, highlightId, itemIndex) {
		return await request(ctx, { method: 'GET', path: highlightPath(highlightId), itemIndex });
	},

	async page(ctx, { limit, cursor }, itemIndex) {
		const qs: IDataObject = { limit };
		if (cursor) qs.cursor = cursor;
		const page = await request<{ highlights: IDataObject[]; nextCursor?: string | null }>(ctx, {
			method: 'GET',
			path: '/api/v1/highlights',
			qs,
			itemIndex,
		});
		return { highlights: page.highlights, nextCursor: page.nextCursor ?? null };
	},

	async ofRecord(ctx, recordId, itemIndex) {
		const { highlights } = await request<{ highlights: IDataObject[] }>(ctx, {
			method: 'GET',
			path: recordPath(recordId, '/highlights'),
			itemIndex,
		});
		return highlights;
	},

	async update(ctx, highlightId, changes, itemIndex) {
		return await request(ctx, { method: 'PATCH', path: highlightPath(highlightId), body: { ...changes }, itemIndex });
	},

	async delete(ctx, highlightId, itemIndex) {
		return await answer(ctx, { method: 'DELETE', path: highlightPath(highlightId), itemIndex, acceptStatuses: [404] });
	},
};
