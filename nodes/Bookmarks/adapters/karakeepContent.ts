import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

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
 * Where each cursor handed out continues, and the whole's length then: the piece read with it must
 * start there. Entries are dropped when their cursor is used; a read abandoned half-way leaves one,
 * so the oldest go past a bound.
 */
const continuations = new Map<string, { start: number; total: number }>();
const MAX_CONTINUATIONS = 1_000;

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * A piece that does not advance: no `range`, an empty or backward one, a cursor given back as it
 * came, or a piece that does not start where the one before ended. Read on, it would never end.
 */
function stalledPiece(
	range: unknown,
	cursor: string | null | undefined,
	nextCursor: string | null,
	expected: { start: number; total: number } | undefined,
): string | undefined {
	const { start, end, total } = (range ?? {}) as IDataObject;
	if (!isCount(start) || !isCount(end) || !isCount(total) || start > end || end > total) {
		return `its answer has no valid range (${JSON.stringify(range ?? null)})`;
	}
	if (nextCursor !== null && nextCursor === cursor) return 'it gave back the cursor it was sent';
	if (nextCursor !== null && end === start) return `the piece at character ${start} is empty, and yet the answer has a next cursor`;
	if (expected && (start !== expected.start || total !== expected.total)) {
		return `the piece starts at character ${start} of ${total}, where the one before ended at ${expected.start} of ${expected.total}`;
	}
	return undefined;
}

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
		const expected = cursor ? continuations.get(cursor) : undefined;
		if (cursor) continuations.delete(cursor);
		if (read.error) return 'changed';
		const { content, range, nextCursor: rawNext, bookmarkType, contentVersion } = read.body as IDataObject;
		const nextCursor = typeof rawNext === 'string' ? rawNext : null;
		const stalled = stalledPiece(range, cursor, nextCursor, expected);
		if (stalled) {
			throw new NodeOperationError(ctx.getNode(), 'The Karakeep server\'s content cursor does not advance', {
				itemIndex,
				description: `Reading record ${recordId}'s content stopped, as it would never end: ${stalled}. The server does not page its content as Karakeep does.`,
			});
		}
		if (nextCursor !== null) {
			const { end, total } = range as ContentChunk['range'];
			continuations.set(nextCursor, { start: end, total });
			if (continuations.size > MAX_CONTINUATIONS) continuations.delete(continuations.keys().next().value as string);
		}
		return {
			content: String(content ?? ''),
			range: range as ContentChunk['range'],
			nextCursor,
			// What the record is, and which version of its content was read (its hash).
			beyond: { bookmarkType, contentVersion },
			emptyReason: EMPTY_REASONS[String(bookmarkType)],
		};
	},
};
