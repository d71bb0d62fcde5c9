import type { IDataObject } from 'n8n-workflow';

import { karakeepAssets } from './karakeepAssets';
import { answer, request } from './karakeepRequest';
import type { Backups, Feeds } from './types';

/**
 * Karakeep's backups and RSS feeds (packages/api/routes/backups.ts, feeds.ts;
 * packages/trpc/routers/backups.ts, feeds.ts at 7ca5ee2; pinned in test/karakeep/backupsAndFeeds.test.ts).
 *
 * A backup is made by Karakeep's background worker: `POST /backups` answers it `pending`, the worker
 * sets `success` (with `assetId`, the zip archive) or `failure`. `GET /backups/{id}/download`
 * redirects to the web app's `/api/assets/{assetId}`, which a server without the web app does not
 * serve; the archive is read from `GET /api/v1/assets/{assetId}`, the same bytes.
 */
const backupPath = (backupId: string, rest = '') => `/api/v1/backups/${encodeURIComponent(backupId)}${rest}`;
const feedPath = (feedId: string, rest = '') => `/api/v1/feeds/${encodeURIComponent(feedId)}${rest}`;

export const karakeepBackups: Backups = {
	async create(ctx, itemIndex) {
		return await request(ctx, { method: 'POST', path: '/api/v1/backups', itemIndex });
	},

	async list(ctx, itemIndex) {
		return (await request<{ backups: IDataObject[] }>(ctx, { method: 'GET', path: '/api/v1/backups', itemIndex })).backups;
	},

	async get(ctx, backupId, itemIndex) {
		return await request(ctx, { method: 'GET', path: backupPath(backupId), itemIndex });
	},

	download: async (ctx, assetId, method, itemIndex) => await karakeepAssets.download(ctx, assetId, method, itemIndex),

	async delete(ctx, backupId, itemIndex) {
		return await answer(ctx, { method: 'DELETE', path: backupPath(backupId), itemIndex, acceptStatuses: [404] });
	},
};

export const karakeepFeeds: Feeds = {
	async create(ctx, fields, itemIndex) {
		return await request(ctx, { method: 'POST', path: '/api/v1/feeds', body: { ...fields }, itemIndex });
	},

	async list(ctx, itemIndex) {
		return (await request<{ feeds: IDataObject[] }>(ctx, { method: 'GET', path: '/api/v1/feeds', itemIndex })).feeds;
	},

	async update(ctx, feedId, fields, itemIndex) {
		return await request(ctx, { method: 'PATCH', path: feedPath(feedId), body: { ...fields }, itemIndex });
	},

	async delete(ctx, feedId, itemIndex) {
		return await answer(ctx, { method: 'DELETE', path: feedPath(feedId), itemIndex, acceptStatuses: [404] });
	},

	async fetchNow(ctx, feedId, itemIndex) {
		await request(ctx, { method: 'POST', path: feedPath(feedId, '/fetch'), itemIndex });
	},
};
