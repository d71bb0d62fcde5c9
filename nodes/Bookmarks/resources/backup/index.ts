import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ifAlreadyGoneParameter, settleGone } from '../../../shared/alreadyGone';
import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import type { BinaryItem, ItemOperation } from '../../../shared/execute';
import { fileNameFrom } from '../../../shared/fileName';
import { runsAsTool } from '../../../shared/privacy';
import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredId, requiredString } from '../../../shared/validation';
import { type Backups, bookmarkAdapter, bookmarkApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { fileNameOption } from '../asset/upload';
import { downloadedFile, mimeTypeOf } from '../downloadedFile';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

/**
 * Backups of the whole account (Karakeep): every record, tag, list and highlight in a zip archive
 * that Karakeep makes in the background. A nightly backup to storage is Create, a wait, Download.
 */

const BACKUPS_DEFAULT_LIMIT = 50;

const show = (...operation: string[]) => ({ resource: ['backup'], operation });

export const backupDescription: INodeProperties[] = [
	withPlatformOnly('Karakeep', ['create', 'delete', 'download', 'getMany'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['backup'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a backup',
				description:
					'Start a backup of the whole account; Karakeep makes it in the background (Karakeep)',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a backup',
				description: 'Delete a backup and its archive (Karakeep)',
			},
			{
				name: 'Download',
				value: 'download',
				action: 'Download a backup',
				description: 'Get a finished backup’s zip archive as binary data (Karakeep)',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many backups',
				description: 'Get the account’s backups with their status, newest first (Karakeep)',
			},
		],
		default: 'create',
	}),
	...platformOnlyNotices('Karakeep', 'backup', {
		create: '',
		delete: '',
		download: '',
		getMany: '',
	}),
	{
		displayName: 'Backup ID',
		name: 'backupId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID of a backup, as Backup → Create or Get Many return it',
		displayOptions: { show: show('download', 'delete') },
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the archive in',
		displayOptions: { show: show('download') },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: show('download') },
		options: [
			{
				...fileNameOption,
				description: 'The output file’s name; without it, karakeep-backup-<date>.zip',
			},
		],
	},
	ifAlreadyGoneParameter(show('delete'), 'deleted'),
	...returnAllAndLimit(show('getMany'), BACKUPS_DEFAULT_LIMIT),
];

const backupsOf = async (
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: string,
): Promise<Backups> =>
	bookmarkApis.capability(
		ctx,
		await bookmarkAdapter(ctx, itemIndex),
		'backups',
		`Backup → ${operation}`,
		itemIndex,
	);

/** Output: the backup, `status` `pending` until Karakeep has made it. */
async function create(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await (await backupsOf(this, itemIndex, 'Create')).create(this, itemIndex);
}

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit(this, itemIndex, BACKUPS_DEFAULT_LIMIT);
	const found = await (await backupsOf(this, itemIndex, 'Get Many')).list(this, itemIndex);
	return limit === undefined ? found : found.slice(0, limit);
}

/** The archive of a finished backup; a backup still being made (or failed) is an error saying so. */
async function download(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | BinaryItem> {
	const backupId = requiredId(this, itemIndex, 'backupId', 'Backup ID');
	const binaryPropertyName = requiredString(
		this,
		itemIndex,
		'binaryPropertyName',
		'Put Output File in Field',
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const backups = await backupsOf(this, itemIndex, 'Download');
	const backup = await backups.get(this, backupId, itemIndex);
	if (backup.status !== 'success' || typeof backup.assetId !== 'string') {
		throw new NodeOperationError(
			this.getNode(),
			`Backup ${backupId} has no archive to download: its status is ${String(backup.status)}`,
			{
				itemIndex,
				description:
					backup.status === 'pending'
						? 'Karakeep is still making it in the background: download it later (e.g. after a Wait node), or check its status with Backup → Get Many.'
						: `Karakeep could not make it${backup.errorMessage ? `: ${String(backup.errorMessage)}` : ''}. Create another.`,
			},
		);
	}
	const answer = await backups.download(
		this,
		backup.assetId,
		runsAsTool(this) ? 'HEAD' : 'GET',
		itemIndex,
	);
	const named = String(options.fileName ?? '').trim();
	const day = String(backup.createdAt ?? '').slice(0, 10);
	const fileName = named
		? fileNameFrom(named, '', backupId)
		: `karakeep-backup-${day || backupId}.zip`;
	const metadata = {
		backupId,
		createdAt: backup.createdAt,
		bookmarkCount: backup.bookmarkCount,
		fileName,
		mimeType: mimeTypeOf(answer),
	};
	return await downloadedFile(this, answer, metadata, binaryPropertyName);
}

/** Output: `{ deleted: true, id, alreadyGone }`. */
async function deleteBackup(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Deleting backups'));
	const id = requiredId(this, itemIndex, 'backupId', 'Backup ID');
	const answer = await (await backupsOf(this, itemIndex, 'Delete')).delete(this, id, itemIndex);
	return { deleted: true, id, alreadyGone: settleGone(this, itemIndex, answer) };
}

export const backupOperations: Record<string, ItemOperation> = {
	create,
	delete: deleteBackup,
	download,
	getMany,
};
