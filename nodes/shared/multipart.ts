/**
 * multipart/form-data bodies whose files are streamed while the request is sent, never held
 * whole: for uploads of files of any size (a signed PDF, a scan) through `serviceAnswer`.
 *
 * The body is a standard `FormData`, which n8n's HTTP client (axios, n8n-core 2.x and 1.x) and
 * fetch both encode themselves, boundary and `Content-Length` included, reading each file through
 * its `stream()`. A file here is a `File` whose `stream()` opens its source anew each time it is
 * read, so the same body can be sent again after a `429`, and whose `size` is the source's:
 * nothing of it is in memory until the request reads it, a piece at a time.
 */

/** A file's bytes, read from the start: called once for each attempt of the request. */
export type OpenFile = () => Promise<AsyncIterable<Uint8Array>>;

export interface StreamedFileSource {
	/** The file name sent in the part's `Content-Disposition`. */
	fileName: string;
	mimeType: string;
	/** Exact size in bytes: the request's `Content-Length` is counted from it before anything is read. */
	size: number;
	open: OpenFile;
}

/** A `File` read from its source when the request sends it. */
class StreamedFile extends File {
	readonly #source: StreamedFileSource;

	constructor(source: StreamedFileSource) {
		super([], source.fileName, { type: source.mimeType });
		this.#source = source;
		// The size is the source's, not that of the empty content given to File.
		Object.defineProperty(this, 'size', { value: source.size, enumerable: true });
	}

	override stream(): ReadableStream<Uint8Array> {
		let pieces: AsyncIterator<Uint8Array> | undefined;
		const source = this.#source;
		// Pulled one piece at a time, as the request sends them: what is held is a piece or two.
		return new ReadableStream<Uint8Array>({
			async pull(controller) {
				pieces ??= (await source.open())[Symbol.asyncIterator]();
				const { value, done } = await pieces.next();
				if (done) controller.close();
				else controller.enqueue(value);
			},
			async cancel() {
				await pieces?.return?.();
			},
		});
	}

	override async arrayBuffer(): Promise<ArrayBuffer> {
		const bytes = await this.bytes();
		return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
	}

	override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
		const chunks: Uint8Array[] = [];
		for await (const chunk of await this.#source.open()) chunks.push(chunk);
		return new Uint8Array(Buffer.concat(chunks));
	}

	override async text(): Promise<string> {
		return Buffer.from(await this.bytes()).toString('utf8');
	}

	override slice(): Blob {
		throw new Error('A streamed file cannot be sliced');
	}
}

/**
 * A multipart/form-data body: text fields as they are, files streamed from their source. Pass it
 * as `multipart` of a `ServiceRequest`.
 */
export function multipartBody(fields: Record<string, string | StreamedFileSource>): FormData {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) {
		if (typeof value === 'string') form.append(name, value);
		else form.append(name, new StreamedFile(value));
	}
	return form;
}
