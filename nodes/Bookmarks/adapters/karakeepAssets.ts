import { multipartBody } from '../../shared/multipart';
import { answer, request } from './karakeepRequest';
import { recordPath } from './paths';
import { documentedRecord } from './karakeepShapes';
import type { Assets, UploadedAsset } from './types';

/**
 * Karakeep's files ("assets"; packages/api/routes/assets.ts, packages/api/utils/upload.ts,
 * packages/trpc/models/assets.ts at 7ca5ee2; pinned in test/karakeep/assets.test.ts).
 *
 * An upload is `POST /assets`, multipart with one part `file`. Karakeep tells the type from the
 * bytes (the declared type only where the bytes tell nothing), and refuses with `400 Unsupported
 * asset type` what it does not keep, with `413 Asset is too big` a file over `MAX_ASSET_SIZE_MB`
 * (50 unless its server sets it; megabytes of 1,048,576 bytes), and with `403 Storage quota
 * exceeded…` a file over the user's quota. An uploaded file belongs to no record until a record is
 * made of it (`POST /bookmarks` with `type: "asset"`: PDFs and images only) or it is attached to one.
 */

const IMAGE_TYPES = ['image/gif', 'image/jpeg', 'image/png', 'image/webp'];

/** SUPPORTED_BOOKMARK_ASSET_TYPES and SUPPORTED_UPLOAD_ASSET_TYPES, packages/shared/assetdb.ts. */
const RECORD_TYPES: Record<string, 'pdf' | 'image'> = {
	'application/pdf': 'pdf',
	...Object.fromEntries(IMAGE_TYPES.map((type) => [type, 'image' as const])),
};
const UPLOAD_TYPES = new Set([...Object.keys(RECORD_TYPES), 'text/html', 'video/mp4', 'video/webm', 'video/x-matroska']);

const SIZE_SETTING = 'MAX_ASSET_SIZE_MB';
const assetPath = (assetId: string) => `/api/v1/assets/${encodeURIComponent(assetId)}`;

/** How long Karakeep may take to start answering a download or an upload, and between two parts of it. */
const FILE_TIMEOUT_MS = 120_000;

export const karakeepAssets: Assets = {
	recordTypes: RECORD_TYPES,
	uploadTypes: UPLOAD_TYPES,
	// MAX_ASSET_SIZE_MB's default, packages/shared/config.ts.
	defaultMaxMiB: 50,
	sizeSetting: `Karakeep's ${SIZE_SETTING}`,

	async upload(ctx, file, itemIndex) {
		return await request<UploadedAsset>(ctx, {
			method: 'POST',
			path: '/api/v1/assets',
			multipart: multipartBody({ file }),
			itemIndex,
			timeoutMs: FILE_TIMEOUT_MS,
			errorHints: {
				413: `Karakeep takes files up to its ${SIZE_SETTING} (50 MB unless the server sets another limit)`,
				403: 'Karakeep keeps files only within the storage quota of the API key’s user (or the key lacks the scope assets:readwrite)',
			},
		});
	},

	async createRecord(ctx, record, itemIndex) {
		const body = { type: 'asset', ...record };
		return documentedRecord(await request(ctx, { method: 'POST', path: '/api/v1/bookmarks', body, itemIndex }), []);
	},

	async download(ctx, assetId, method, itemIndex) {
		return await answer(ctx, {
			method,
			path: assetPath(assetId),
			encoding: method === 'GET' ? 'stream' : undefined,
			itemIndex,
			timeoutMs: FILE_TIMEOUT_MS,
		});
	},

	async attach(ctx, recordId, assetId, assetType, itemIndex) {
		return await request(ctx, {
			method: 'POST',
			path: recordPath(recordId, '/assets'),
			body: { id: assetId, assetType },
			itemIndex,
		});
	},

	async replace(ctx, recordId, oldAssetId, newAssetId, itemIndex) {
		await request(ctx, {
			method: 'PUT',
			path: recordPath(recordId, `/assets/${encodeURIComponent(oldAssetId)}`),
			body: { assetId: newAssetId },
			itemIndex,
			// Sent again after it was carried out, it would find the old file deleted and fail.
			repeatable: false,
		});
	},

	async detach(ctx, recordId, assetId, itemIndex) {
		return await answer(ctx, {
			method: 'DELETE',
			path: recordPath(recordId, `/assets/${encodeURIComponent(assetId)}`),
			itemIndex,
			acceptStatuses: [404],
		});
	},
};
