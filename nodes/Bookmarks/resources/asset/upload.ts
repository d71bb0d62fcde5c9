import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	INPUT_BINARY_FIELD,
	type InputFile,
	inputBinaryFieldParameter,
	inputFileOfParameter,
	megabytes,
	sniffedType,
} from '../../../shared/inputFile';
import { joinOr } from '../../../shared/text';
import { checkedInteger, invalidInput } from '../../../shared/validation';
import type { Assets } from '../../adapters';

/**
 * An input item's file uploaded to the bookmark API's file store (Karakeep's assets), checked
 * before anything is sent: a type the API keeps (told from the file's first bytes, as Karakeep
 * tells it), a size within the server's limit. Streamed from n8n's binary data, never held whole.
 */

export const binaryFieldParameter = (show: IDataObject, what: string): INodeProperties =>
	inputBinaryFieldParameter(
		show as never,
		'The name of the input binary field containing the file to be uploaded',
		`The file ${what}, e.g. the PDF a Signing → Download or a Read/Write Files from Disk node put there`,
	);

export const largestFileOption: INodeProperties = {
	displayName: 'Largest File (MB)',
	name: 'maxFileMegabytes',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description:
		'The largest file your server takes, checked before uploading. Karakeep’s limit is its MAX_ASSET_SIZE_MB, 50 unless the server sets another; set this to match.',
};

export const fileNameOption: INodeProperties = {
	displayName: 'File Name',
	name: 'fileName',
	type: 'string',
	default: '',
	placeholder: 'agreement.pdf',
	description: 'The name the file is stored under; without it, the input file’s own name',
};

/** The kinds of file names in errors, by MIME type. */
const KINDS: Record<string, string> = {
	'application/pdf': 'PDF',
	'image/jpeg': 'JPEG image',
	'image/png': 'PNG image',
	'image/gif': 'GIF image',
	'image/webp': 'WebP image',
	'video/mp4': 'MP4 video',
	'video/webm': 'WebM video',
	'video/x-matroska': 'Matroska video',
	'text/html': 'HTML page',
};
const kinds = (types: Iterable<string>) => [...types].map((type) => KINDS[type] ?? type);
/** "a" or "an" before a kind, by how it is spoken: an MP4 video, an HTML page. */
const withArticle = (kind: string) => `${/^(MP4|HTML|[AEIOU])/.test(kind) ? 'an' : 'a'} ${kind}`;

/**
 * The input file, checked against `accepted` (MIME types) and the size limit in Options, with the
 * type its bytes say (the declared one for an HTML page, which bytes do not tell); errors name the
 * field and the item, and nothing is sent. `otherwise` says what to do with a file of another type.
 */
export async function checkedInputFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	assets: Assets,
	accepted: Iterable<string>,
	otherwise: string,
): Promise<InputFile> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const file = await inputFileOfParameter(ctx, itemIndex);
	const fileName = String(options.fileName ?? '').trim();
	if (fileName) file.fileName = fileName;
	const acceptedTypes = new Set(accepted);
	const sniffed = sniffedType(file.head);
	const mimeType = sniffed ?? (file.declaredType === 'text/html' ? 'text/html' : undefined);
	if (!mimeType || !acceptedTypes.has(mimeType)) {
		const is = sniffed
			? withArticle(KINDS[sniffed])
			: `not ${withArticle(joinOr(kinds(acceptedTypes)))} by its first bytes (n8n calls it ${file.declaredType})`;
		throw invalidInput(ctx, itemIndex, INPUT_BINARY_FIELD, `the file "${file.fileName}" is ${is}. ${otherwise}`);
	}
	if (file.size === 0) throw invalidInput(ctx, itemIndex, INPUT_BINARY_FIELD, `the file "${file.fileName}" is empty`);
	const limitMiB = checkedInteger(ctx, itemIndex, options.maxFileMegabytes ?? assets.defaultMaxMiB, largestFileOption.displayName, { min: 1 });
	if (file.size > limitMiB * 1_048_576) {
		throw invalidInput(
			ctx,
			itemIndex,
			INPUT_BINARY_FIELD,
			`the file "${file.fileName}" is ${megabytes(file.size)}; the server takes files up to ${limitMiB} MB (${assets.sizeSetting}, ${assets.defaultMaxMiB} MB unless the server sets another: if yours allows more, raise Options → ${largestFileOption.displayName})`,
		);
	}
	return { ...file, mimeType };
}
