import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ifAlreadyGoneParameter, settleGone } from '../../../shared/alreadyGone';
import type { BinaryItem, ItemOperation } from '../../../shared/execute';
import { fileNameFrom } from '../../../shared/fileName';
import { runsAsTool } from '../../../shared/privacy';
import { withDescription } from '../../../shared/request';
import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput, requiredId, requiredString } from '../../../shared/validation';
import { writeOutcome } from '../../../shared/writeOutcome';
import { type Assets, bookmarkAdapter, bookmarkApis } from '../../adapters';
import { bookmarksPersonalDataOption, consentTo } from '../../personalData';
import { downloadedFile, mimeTypeOf } from '../downloadedFile';
import { recordLocator } from '../locators';
import { binaryFieldParameter, checkedInputFile, fileNameOption, largestFileOption } from './upload';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

/**
 * Files kept by the bookmark service (Karakeep's assets): a record's own file (a PDF or image
 * record), its screenshots, archived pages, banner images, videos and attachments. Download puts a
 * file into n8n's binary data, streamed; Attach and Replace upload an input file, streamed.
 */

const show = (...operation: string[]) => ({ resource: ['asset'], operation });

/** The kinds of file a record can have attached (Karakeep's `isAllowedToAttachAsset`, packages/trpc/lib/attachments.ts). */
const ATTACH_AS = [
	{ name: 'Attachment', value: 'userUploaded', description: 'A file of the user’s, shown with the record' },
	{ name: 'Banner Image', value: 'bannerImage', description: 'The image shown on the record’s card' },
	{ name: 'Page Archive', value: 'precrawledArchive', description: 'The page as an HTML file, read instead of crawling it' },
	{ name: 'Page as PDF', value: 'pdf', description: 'The page printed to a PDF' },
	{
		name: 'PDF Preview Image',
		value: 'assetScreenshot',
		description: 'The image shown for a PDF record (Karakeep makes one of its first page)',
	},
	{ name: 'Screenshot', value: 'screenshot', description: 'A screenshot of the page' },
	{ name: 'Video', value: 'video', description: 'The page’s video' },
];

/** File name extensions of the types a download names itself by. */
const EXTENSIONS: Record<string, string> = {
	'application/pdf': '.pdf',
	'image/jpeg': '.jpg',
	'image/png': '.png',
	'image/gif': '.gif',
	'image/webp': '.webp',
	'text/html': '.html',
	'video/mp4': '.mp4',
	'video/webm': '.webm',
	'video/x-matroska': '.mkv',
};

const assetIdParameter = (operations: string[], description: string): INodeProperties => ({
	displayName: 'Asset ID',
	name: 'assetId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 0b7a…',
	description,
	displayOptions: { show: show(...operations) },
});

export const assetDescription: INodeProperties[] = [
	withPlatformOnly('Karakeep', ['attach', 'detach', 'download', 'replace'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['asset'] } },
		options: [
			{
				name: 'Attach',
				value: 'attach',
				action: 'Attach a file to a bookmark',
				description: 'Upload an input file and attach it to a record: an attachment, a screenshot, an archived page…',
			},
			{
				name: 'Detach',
				value: 'detach',
				action: 'Detach a file from a bookmark',
				description: 'Take a file off a record; the file is deleted',
			},
			{
				name: 'Download',
				value: 'download',
				action: 'Download a file',
				description: 'Get a stored file (a PDF record’s PDF, a screenshot…) as binary data',
			},
			{
				name: 'Replace',
				value: 'replace',
				action: 'Replace a file of a bookmark',
				description: 'Upload an input file in the place of one of a record’s files; the old file is deleted',
			},
		],
		default: 'download',
	}),
	...platformOnlyNotices('Karakeep', 'asset', { attach: '', detach: '', download: '', replace: '' }),
	recordLocator(show('attach', 'replace', 'detach'), 'The record whose files change'),
	assetIdParameter(
		['download'],
		'The file’s ID: a file record’s content.assetId, or an ID from the record’s assets',
	),
	assetIdParameter(['replace'], 'The ID of the record’s file to replace (from the record’s assets)'),
	assetIdParameter(['detach'], 'The ID of the record’s file to take off (from the record’s assets)'),
	binaryFieldParameter(show('attach', 'replace'), 'to upload'),
	{
		displayName: 'Attach As',
		name: 'assetType',
		type: 'options',
		default: 'userUploaded',
		options: ATTACH_AS,
		description: 'What the file is to the record',
		displayOptions: { show: show('attach') },
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
		displayOptions: { show: show('download') },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: show('attach', 'replace') },
		options: [fileNameOption, largestFileOption, bookmarksPersonalDataOption],
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
				description: 'The output file’s name; without it, the asset ID with the extension of its type',
			},
			bookmarksPersonalDataOption,
		],
	},
	ifAlreadyGoneParameter(show('detach'), 'deleted'),
];

const assetsOf = async (ctx: IExecuteFunctions, itemIndex: number, operation: string): Promise<Assets> =>
	bookmarkApis.capability(ctx, await bookmarkAdapter(ctx, itemIndex), 'assets', `Asset → ${operation}`, itemIndex);

/**
 * The file as n8n binary data, streamed into n8n's binary data store. As an agent's tool, what the
 * file is (type and size, from a HEAD request), not its bytes: an agent's context cannot use them.
 */
async function download(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | BinaryItem> {
	const assetId = requiredId(this, itemIndex, 'assetId', 'Asset ID');
	const binaryPropertyName = requiredString(this, itemIndex, 'binaryPropertyName', 'Put Output File in Field');
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const assets = await assetsOf(this, itemIndex, 'Download');
	const answer = await assets.download(this, assetId, runsAsTool(this) ? 'HEAD' : 'GET', itemIndex);
	const mimeType = mimeTypeOf(answer);
	const named = String(options.fileName ?? '').trim();
	const fileName = named ? fileNameFrom(named, '', assetId) : `${assetId}${EXTENSIONS[mimeType] ?? ''}`;
	return await downloadedFile(this, answer, { assetId, fileName, mimeType }, binaryPropertyName);
}

/** The upload of an Attach or Replace, then the change; a failure after the upload says what became of the file. */
async function uploadThen(
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: string,
	change: (assets: Assets, recordId: string, assetId: string) => Promise<IDataObject>,
): Promise<IDataObject> {
	const recordId = requiredId(ctx, itemIndex, 'recordId', 'Bookmark');
	const assets = await assetsOf(ctx, itemIndex, operation);
	const file = await checkedInputFile(
		ctx,
		itemIndex,
		assets,
		assets.uploadTypes,
		'Attach PDFs, images, videos or HTML pages.',
	);
	const uploaded = await assets.upload(ctx, file, itemIndex);
	try {
		return {
			recordId,
			...(await change(assets, recordId, uploaded.assetId)),
			fileName: uploaded.fileName,
			mimeType: uploaded.contentType,
			fileSize: uploaded.size,
		};
	} catch (error) {
		const uploadedAs = `The file was uploaded (asset ${uploaded.assetId})`;
		const state = {
			written: `${uploadedAs} and put on record ${recordId}; only reading the result failed: Bookmark → Get ${recordId} shows its files.`,
			unknown: `${uploadedAs}; whether it was put on record ${recordId} is unknown, as the answer was lost: Bookmark → Get ${recordId} shows its files. Running this item again uploads it again.`,
			'not written': `${uploadedAs} but not put on record ${recordId}: it is kept unattached. Running this item again uploads it again.`,
		}[writeOutcome(error)];
		throw withDescription(ctx, error as Error, itemIndex, state);
	}
}

async function attach(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const assetType = String(this.getNodeParameter('assetType', itemIndex, 'userUploaded'));
	if (!ATTACH_AS.some((choice) => choice.value === assetType)) {
		throw invalidInput(this, itemIndex, 'Attach As', `"${assetType}" is not one of ${ATTACH_AS.map((choice) => choice.value).join(', ')}`);
	}
	return await uploadThen(this, itemIndex, 'Attach', async (assets, recordId, assetId) => {
		const attached = await assets.attach(this, recordId, assetId, assetType, itemIndex);
		return { assetId: attached.id ?? assetId, assetType: attached.assetType ?? assetType };
	});
}

async function replace(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Replacing files'), 'Attach adds a file without deleting one.');
	const oldAssetId = requiredId(this, itemIndex, 'assetId', 'Asset ID');
	return await uploadThen(this, itemIndex, 'Replace', async (assets, recordId, assetId) => {
		await assets.replace(this, recordId, oldAssetId, assetId, itemIndex);
		return { assetId, replacedAssetId: oldAssetId };
	});
}

/** Output: `{ detached: true, recordId, assetId, alreadyGone }`. */
async function detach(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Detaching files'));
	const recordId = requiredId(this, itemIndex, 'recordId', 'Bookmark');
	const assetId = requiredId(this, itemIndex, 'assetId', 'Asset ID');
	const answer = await (await assetsOf(this, itemIndex, 'Detach')).detach(this, recordId, assetId, itemIndex);
	return { detached: true, recordId, assetId, alreadyGone: settleGone(this, itemIndex, answer) };
}

export const assetOperations: Record<string, ItemOperation> = { attach, detach, download, replace };
