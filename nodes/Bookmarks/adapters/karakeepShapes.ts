import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../shared/credentialTest';
import type { ServiceError } from '../../shared/request';
import { serviceErrorOf } from '../../shared/request';

/**
 * Karakeep's answers in the documented shapes (CONTRACTS.md section 2 and Part 2, section 5),
 * with every field Karakeep returns kept beside them. Facts from Karakeep's source at 7ca5ee2,
 * each pinned against the real server in test/karakeep/ (its README has the tables).
 */

/**
 * A Karakeep bookmark as a documented record. `title` is the one Karakeep shows: the user's, else
 * the crawled page's. `createdAt` stays Karakeep's (when the URL was last saved, what Karakeep
 * sorts and pages on); `firstCreatedAt` beside it is when it was first stored. `content.ocrText`
 * is an asset's extracted text (a PDF's or an image's), `content.url` a link's URL or an asset's source.
 */
export function documentedRecord(bookmark: IDataObject, listIds?: string[]): IDataObject {
	const content = isObject(bookmark.content) ? bookmark.content : {};
	const ocrText = content.type === 'asset' && typeof content.content === 'string' ? content.content : null;
	return {
		...bookmark,
		title: bookmark.title ?? content.title ?? null,
		tags: Array.isArray(bookmark.tags) ? bookmark.tags : [],
		...(listIds ? { listIds } : {}),
		content: {
			...content,
			url: content.url ?? content.sourceUrl ?? null,
			description: content.description ?? null,
			ocrText,
		},
	};
}

/** A Karakeep tag (`numBookmarks`) as a documented one (`bookmarkCount`). */
export function documentedTag(tag: IDataObject): IDataObject {
	return { ...tag, bookmarkCount: tag.numBookmarks ?? 0 };
}

/** A Karakeep list as a documented one: `description` a string, `bookmarkCount` when known. */
export function documentedList(list: IDataObject, bookmarkCount?: number): IDataObject {
	return {
		...list,
		description: list.description ?? '',
		...(bookmarkCount === undefined ? {} : { bookmarkCount }),
	};
}

/**
 * Karakeep's error bodies: plain text (`Unauthorized`, `Bookmark not found`, `Internal server
 * error`) or, for input zod refused, `{success: false, error: {name: "ZodError", message}}` whose
 * message is the issues as a JSON string (`[{code, path, message}]`).
 */
export function karakeepError(body: unknown): ServiceError {
	const parsed = typeof body === 'string' ? parseJson(body) : body;
	if (isObject(parsed) && isObject(parsed.error) && typeof parsed.error.message === 'string') {
		const issues = parseJson(parsed.error.message);
		if (Array.isArray(issues) && issues.every(isObject)) {
			return {
				message: issues
					.map((issue) => {
						const path = Array.isArray(issue.path) ? issue.path.join('.') : '';
						return path ? `${path}: ${String(issue.message)}` : String(issue.message);
					})
					.join('; '),
				code: typeof parsed.error.name === 'string' ? parsed.error.name : undefined,
			};
		}
		return { message: parsed.error.message };
	}
	return serviceErrorOf(body);
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
