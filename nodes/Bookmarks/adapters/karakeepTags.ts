import type { IDataObject } from 'n8n-workflow';

import type { RequestContext } from '../../shared/request';
import { failedAfterWrite } from '../../shared/writeOutcome';
import { answer, request } from './karakeepRequest';
import { documentedTag } from './karakeepShapes';
import type { TagManagement } from './types';

/**
 * Karakeep's tags (packages/api/routes/tags.ts at 7ca5ee2; pinned in test/karakeep/tagManagement.test.ts).
 * A tag's name is trimmed and loses a leading `#`; a name another tag has is refused (`400 Tag name
 * already exists…`). Deleting a tag detaches it from its records, which stay.
 */

/** Tags a page: Karakeep's largest (`MAX_NUM_TAGS_PER_PAGE`, packages/shared/types/tags.ts). */
const TAG_PAGE_SIZE = 1000;

const tagPath = (tagId: string) => `/api/v1/tags/${encodeURIComponent(tagId)}`;

/**
 * Every tag `GET /tags` lists with these filters, page by page. Karakeep answers all tags at once
 * when no limit is sent, but its source says a limit is coming (`// TODO: Remove the optional to
 * enforce a limit`): the pages are asked for and `nextCursor` followed.
 */
export async function tagPages(ctx: RequestContext, filters: IDataObject, itemIndex?: number): Promise<IDataObject[]> {
	const tags: IDataObject[] = [];
	let cursor: string | null = null;
	do {
		const qs: IDataObject = { ...filters, limit: TAG_PAGE_SIZE };
		if (cursor) qs.cursor = cursor;
		const page: { tags: IDataObject[]; nextCursor?: string | null } = await request(ctx, {
			method: 'GET',
			path: '/api/v1/tags',
			qs,
			itemIndex,
		});
		tags.push(...page.tags);
		cursor = page.nextCursor ?? null;
	} while (cursor);
	return tags;
}

export const karakeepTags: TagManagement = {
	async create(ctx, name, itemIndex) {
		const tag = await request(ctx, { method: 'POST', path: '/api/v1/tags', body: { name }, itemIndex });
		return documentedTag({ ...tag, numBookmarks: 0 });
	},

	async get(ctx, tagId, itemIndex) {
		return documentedTag(await request(ctx, { method: 'GET', path: tagPath(tagId), itemIndex }));
	},

	async rename(ctx, tagId, name, itemIndex) {
		await request(ctx, { method: 'PATCH', path: tagPath(tagId), body: { name }, itemIndex });
		// Karakeep's answer is `{id, name}`: the tag is read again for its count.
		try {
			return await karakeepTags.get(ctx, tagId, itemIndex);
		} catch (error) {
			throw failedAfterWrite(error);
		}
	},

	async delete(ctx, tagId, itemIndex) {
		return await answer(ctx, { method: 'DELETE', path: tagPath(tagId), itemIndex, acceptStatuses: [404] });
	},
};
