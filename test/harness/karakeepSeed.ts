/**
 * A few demo records in a fresh Karakeep, the bookmark sandbox's seed (its lists, links, notes and
 * tags) written through Karakeep's own REST API, so that `BOOKMARKS=karakeep npm start` shows what
 * the sandbox shows. Link records stay as given: the demo Karakeep runs no crawler.
 */
import { seedBookmarks, seedLists } from '../sandbox/seed';

export interface KarakeepSeedCounts {
	bookmarks: number;
	lists: number;
}

export async function seedKarakeep(server: { url: string; apiKey: string }): Promise<KarakeepSeedCounts> {
	const send = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${server.url}/api/v1${route}`, {
			method,
			headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`Seeding Karakeep: ${method} ${route} answered ${response.status}: ${text.slice(0, 300)}`);
		return (text ? JSON.parse(text) : undefined) as T;
	};
	const listIds = new Map<string, string>();
	for (const list of seedLists()) {
		const created = await send<{ id: string }>('POST', '/lists', { name: list.name, icon: list.icon, description: list.description || undefined });
		listIds.set(list.id, created.id);
	}
	const bookmarks = seedBookmarks();
	// Oldest first, so that Karakeep's newest-first lists show them in the sandbox's order.
	for (const bookmark of [...bookmarks].sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)))) {
		const common = {
			title: bookmark.title,
			note: bookmark.note,
			archived: bookmark.archived,
			favourited: bookmark.favourited,
			createdAt: bookmark.createdAt ?? undefined,
		};
		const created = await send<{ id: string }>(
			'POST',
			'/bookmarks',
			bookmark.type === 'text' ? { type: 'text', text: bookmark.text, ...common } : { type: 'link', url: bookmark.url, ...common },
		);
		if (bookmark.tags?.length) {
			await send('POST', `/bookmarks/${created.id}/tags`, { tags: bookmark.tags.map((tagName) => ({ tagName })) });
		}
		for (const listId of bookmark.listIds ?? []) {
			const target = listIds.get(listId);
			if (target) await send('PUT', `/lists/${target}/bookmarks/${created.id}`);
		}
	}
	return { bookmarks: bookmarks.length, lists: listIds.size };
}
