import type { IExecuteFunctions } from 'n8n-workflow';

import { invalidInput } from './validation';

/**
 * A file for a multipart upload whose bytes are read while the request is sent, and read again
 * from the start when the request is sent again (after a 429): `open()` gives a new pass each time.
 */
export interface UploadFile {
	name: string;
	type: string;
	/** Exact bytes: the request's Content-Length is computed from it before anything is read. */
	size: number;
	open(): AsyncIterable<Uint8Array>;
}

/** A file part as n8n's HTTP client (axios) reads a spec-compliant FormData entry: a Blob look-alike. */
class FilePart {
	constructor(private readonly file: UploadFile) {}

	get name() {
		return this.file.name;
	}

	get type() {
		return this.file.type;
	}

	get size() {
		return this.file.size;
	}

	get [Symbol.toStringTag]() {
		return 'File';
	}

	stream(): AsyncIterable<Uint8Array> {
		return this.file.open();
	}
}

/**
 * A multipart/form-data body that n8n's HTTP client streams part by part: it looks like a
 * spec-compliant FormData (an iterable with `append` and the tag "FormData"), which axios encodes
 * itself (boundary, Content-Length from each part's size) reading each file part through its
 * `stream()`. Node's own FormData holds its files in memory; a community node may import no
 * stream or form-data library. So a file goes from n8n's binary data store to the server without
 * being held whole here, on n8n 1.x and 2.x alike.
 */
export class MultipartBody {
	private readonly parts: Array<[string, string | FilePart]> = [];

	get [Symbol.toStringTag]() {
		return 'FormData';
	}

	append(name: string, value: string | UploadFile): void {
		this.parts.push([name, typeof value === 'string' ? value : new FilePart(value)]);
	}

	*entries(): IterableIterator<[string, string | FilePart]> {
		yield* this.parts;
	}

	[Symbol.iterator]() {
		return this.entries();
	}

	/** What each part is, for tests and errors: names, file names and sizes, never bytes. */
	describe(): Array<{ name: string; fileName?: string; size: number }> {
		return this.parts.map(([name, value]) =>
			typeof value === 'string'
				? { name, size: Buffer.byteLength(value) }
				: { name, fileName: value.name, size: value.size },
		);
	}
}

/** Base64 characters decoded at a time, a multiple of 4: a few hundred KB, never the whole file. */
const BASE64_SLICE = 4 * 131_072;

/** Bytes of a base64 text without decoding it. */
const base64Bytes = (data: string) =>
	Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

/** Where a PDF's header must start (ISO 32000-1 7.5.2 allows bytes before it; readers look within 1 KiB). */
const HEADER_WINDOW = 1024;

/**
 * A file of an input item's binary field, ready to upload: its name, type, exact size and first
 * bytes (for checks), and a reader that streams it from n8n's binary data store (filesystem, S3)
 * or decodes it piece by piece from the item (n8n's default in-memory mode), never whole.
 */
export async function inputFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	label: string,
): Promise<UploadFile & { head: Buffer }> {
	const item = ctx.getInputData()[itemIndex];
	if (!item?.binary?.[propertyName]) {
		const present = Object.keys(item?.binary ?? {});
		throw invalidInput(
			ctx,
			itemIndex,
			label,
			`input item ${itemIndex} has no binary field "${propertyName}"${
				present.length
					? `; its binary fields are ${present.map((name) => `"${name}"`).join(', ')}`
					: ' (it has no file at all)'
			}`,
		);
	}
	const binary = ctx.helpers.assertBinaryData(itemIndex, propertyName);
	const name =
		binary.fileName ?? `${propertyName}${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	const type = binary.mimeType || 'application/octet-stream';
	if (binary.id) {
		const id = binary.id;
		const metadata = await ctx.helpers.getBinaryMetadata(id);
		const open = async function* (): AsyncIterable<Uint8Array> {
			for await (const chunk of await ctx.helpers.getBinaryStream(id)) yield chunk as Buffer;
		};
		const head: Buffer[] = [];
		let headSize = 0;
		for await (const chunk of open()) {
			head.push(Buffer.from(chunk));
			headSize += chunk.length;
			if (headSize >= HEADER_WINDOW) break;
		}
		return {
			name,
			type,
			size: Number(metadata.fileSize),
			open,
			head: Buffer.concat(head).subarray(0, HEADER_WINDOW),
		};
	}
	const data = binary.data;
	const open = async function* (): AsyncIterable<Uint8Array> {
		for (let start = 0; start < data.length; start += BASE64_SLICE) {
			yield Buffer.from(data.slice(start, start + BASE64_SLICE), 'base64');
		}
	};
	return {
		name,
		type,
		size: base64Bytes(data),
		open,
		head: Buffer.from(data.slice(0, (HEADER_WINDOW / 3) * 4 + 4), 'base64'),
	};
}

/** Whether bytes start a PDF: "%PDF-" within the first KiB. */
export const isPdfHeader = (head: Buffer) => head.subarray(0, HEADER_WINDOW).includes('%PDF-');
