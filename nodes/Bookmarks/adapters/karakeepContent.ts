import type { IDataObject } from 'n8n-workflow';

import { answer } from './karakeepRequest';
import { recordPath } from './paths';
import type { ContentChunk, ReadableContent } from './types';

/**
 * Karakeep's readable content, `GET /bookmarks/{id}/content` (packages/api/routes/bookmarks.ts,
 * packages/api/utils/readableContent.ts at 7ca5ee2; pinned in test/karakeep/content.test.ts): a
 * text record's text, an asset's extracted text, a link's crawled page as markdown or plain text
 * (empty until Karakeep's crawler has fetched it). Pieces of at most `maxChars` characters (1 to
 * 50,000), cut at a paragraph or line end where one is near; `nextCursor` carries the content's
 * version, and a cursor of content changed since is refused with `409 CONTENT_CHANGED`.
 */
/**
 * Why a record of each kind has no content: Karakeep's workers fill it in the background (the
 * OCR and PDF-text job for a file, the crawler for a link), and a Karakeep without them never does.
 */
const EMPTY_REASONS: Record<string, string> = {
	asset:
		'Karakeep has no text of this file yet: it extracts a PDF’s or an image’s text in the background (its OCR worker), which takes a while after the upload and never happens on a Karakeep that runs no workers.',
	link: 'Karakeep has not fetched this page yet: its crawler reads a link’s page in the background, which takes a while after the link is saved and never happens on a Karakeep that runs no workers.',
	text: 'The record’s text is empty.',
};

export const karakeepContent: ReadableContent = {
	// MAX_READABLE_CONTENT_MAX_CHARS, packages/shared/types/bookmarks.ts.
	maxCharsPerChunk: 50_000,

	async chunk(ctx, recordId, { format, maxChars, cursor }, itemIndex) {
		const qs: IDataObject = { format, maxChars };
		if (cursor) qs.cursor = cursor;
		const read = await answer(ctx, {
			method: 'GET',
			path: recordPath(recordId, '/content'),
			qs,
			itemIndex,
			acceptStatuses: cursor ? [409] : [],
		});
		if (read.error) return 'changed';
		const { content, range, nextCursor, bookmarkType, contentVersion } = read.body as IDataObject;
		return {
			content: String(content ?? ''),
			range: range as ContentChunk['range'],
			nextCursor: typeof nextCursor === 'string' ? nextCursor : null,
			// What the record is, and which version of its content was read (its hash).
			beyond: { bookmarkType, contentVersion },
			emptyReason: EMPTY_REASONS[String(bookmarkType)],
		};
	},
};
