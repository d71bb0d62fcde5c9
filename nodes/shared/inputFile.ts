import type { IBinaryData, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { StreamedFileSource } from './multipart';
import { invalidInput } from './validation';

/**
 * An input item's file, to be uploaded without being held whole: read from n8n's binary data store
 * (filesystem, S3) as a stream, or, in n8n's in-memory mode, decoded from the item's base64 a piece
 * at a time. Its exact size is known before anything is read, as a `Content-Length` needs.
 */
export interface InputFile extends StreamedFileSource {
	/** Its first bytes (at most 1 KiB), by which its type is told (`sniffedType`, `isPdfHeader`). */
	head: Buffer;
	/** The MIME type n8n gives it (from the file name or the service that sent it), not checked. */
	declaredType: string;
}

/** Base64 characters decoded at a time, a multiple of 4: a few hundred KB, never the whole file. */
const BASE64_SLICE = 4 * 131_072;
/** Where a PDF's header must start (ISO 32000-1 7.5.2 allows bytes before it; readers look within 1 KiB). */
const HEAD_BYTES = 1024;

/** The bytes a base64 text decodes to, counted without decoding it. */
function base64Size(data: string): number {
	const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
	return Math.floor((data.length * 3) / 4) - padding;
}

async function* base64Pieces(data: string): AsyncIterable<Uint8Array> {
	for (let start = 0; start < data.length; start += BASE64_SLICE) {
		yield Buffer.from(data.slice(start, start + BASE64_SLICE), 'base64');
	}
}

async function firstBytes(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
	const pieces: Buffer[] = [];
	let size = 0;
	// Leaving the loop early closes the stream.
	for await (const piece of stream) {
		pieces.push(Buffer.from(piece));
		size += piece.length;
		if (size >= HEAD_BYTES) break;
	}
	return Buffer.concat(pieces).subarray(0, HEAD_BYTES);
}

/**
 * The file in the input item's binary field `field` (labelled `label` in errors); when the item has
 * no such field, the error names the fields it has.
 */
export async function inputFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	label: string,
): Promise<InputFile> {
	const property = field.trim();
	if (property === '') throw invalidInput(ctx, itemIndex, label, 'must not be empty');
	const item = ctx.getInputData()[itemIndex];
	if (!item?.binary?.[property]) {
		const present = Object.keys(item?.binary ?? {});
		throw invalidInput(
			ctx,
			itemIndex,
			label,
			`input item ${itemIndex} has no binary field "${property}"${
				present.length
					? `; its binary fields are ${present.map((name) => `"${name}"`).join(', ')}`
					: ' (it has no file at all)'
			}`,
		);
	}
	const binary: IBinaryData = ctx.helpers.assertBinaryData(itemIndex, property);
	const declaredType = binary.mimeType || 'application/octet-stream';
	const fileName = binary.fileName || `${property}${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	const { id } = binary;
	if (id) {
		const size =
			typeof binary.bytes === 'number'
				? binary.bytes
				: Number((await ctx.helpers.getBinaryMetadata(id)).fileSize);
		const open = async () => (await ctx.helpers.getBinaryStream(id)) as AsyncIterable<Uint8Array>;
		const head = await firstBytes((await ctx.helpers.getBinaryStream(id, HEAD_BYTES)) as AsyncIterable<Uint8Array>);
		return { fileName, mimeType: declaredType, declaredType, size, open, head };
	}
	const data = binary.data ?? '';
	return {
		fileName,
		mimeType: declaredType,
		declaredType,
		size: base64Size(data),
		open: async () => base64Pieces(data),
		head: Buffer.from(data.slice(0, Math.ceil(HEAD_BYTES / 3) * 4), 'base64').subarray(0, HEAD_BYTES),
	};
}

/** The parameter naming the input item's binary field with the file to upload; its label names it in errors. */
export const INPUT_BINARY_FIELD = 'Input Binary Field';

/** The Input Binary Field parameter (`binaryPropertyName`, `data` by default) of an operation that uploads a file. */
export const inputBinaryFieldParameter = (
	show: NonNullable<IDisplayOptions['show']>,
	hint: string,
	description: string,
): INodeProperties => ({
	displayName: INPUT_BINARY_FIELD,
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	hint,
	description,
	displayOptions: { show },
});

/** The file in the binary field the item's Input Binary Field parameter names. */
export const inputFileOfParameter = async (ctx: IExecuteFunctions, itemIndex: number): Promise<InputFile> =>
	await inputFile(
		ctx,
		itemIndex,
		String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? ''),
		INPUT_BINARY_FIELD,
	);

const startsWith = (head: Buffer, bytes: number[], at = 0) => bytes.every((byte, index) => head[at + index] === byte);
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/**
 * Whether a file's first bytes start a PDF: its first line is the header "%PDF-" and a version
 * (ISO 32000-1, 7.5.2, which allows nothing before it). Readers that look further (Acrobat, within
 * the first KiB) would take a text that merely mentions "%PDF-".
 */
export const isPdfHeader = (head: Buffer) => startsWith(head, ascii('%PDF-'));

/** The bytes that tell a type in `sniffedType`: the signatures are within them. */
const SIGNATURE_BYTES = 64;

/**
 * The type a file's first bytes say it is, for the types services take as documents, images and
 * videos (PDF, JPEG, PNG, GIF, WebP, MP4, WebM/Matroska); undefined for any other.
 */
export function sniffedType(file: Buffer): string | undefined {
	const head = file.subarray(0, SIGNATURE_BYTES);
	if (startsWith(head, ascii('%PDF-'))) return 'application/pdf';
	if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
	if (startsWith(head, [0x89, ...ascii('PNG\r\n'), 0x1a, 0x0a])) return 'image/png';
	if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
	if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
	if (startsWith(head, ascii('ftyp'), 4)) return 'video/mp4';
	if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) {
		return head.includes(Buffer.from('webm')) ? 'video/webm' : 'video/x-matroska';
	}
	return undefined;
}

/** A size in the megabytes upload limits are set in (`MAX_ASSET_SIZE_MB`: 1 MB = 1,048,576 bytes), e.g. `20.4 MB`. */
export function megabytes(bytes: number): string {
	return `${(bytes / 1_048_576).toFixed(1)} MB`;
}
