import { createHash } from 'crypto';
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BinaryItem } from '../../../shared/execute';
import { withBinary } from '../../../shared/execute';
import { fileNameFrom } from '../../../shared/fileName';
import { learnAlongside, runsAsTool } from '../../../shared/privacy';
import { invalidInput } from '../../../shared/validation';
import { signingAdapter } from '../../adapters';
import { readDocumentId } from './documentId';

const show = { resource: ['document'], operation: ['download'] };

export const downloadDescription: INodeProperties[] = [
	{
		displayName: 'Version',
		name: 'version',
		type: 'options',
		default: 'signed',
		options: [
			{
				name: 'Signed',
				value: 'signed',
				description:
					'The certified PDF with every signature; exists once the document is completed',
			},
			{
				name: 'Original',
				value: 'original',
				description: 'The PDF as generated, before anyone signed',
			},
		],
		displayOptions: { show },
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
		description:
			'The next node (e.g. Write Files from Disk, Send Email, Google Drive) reads the PDF from this field',
		displayOptions: { show },
	},
];

/** The PDF's file name from the document title (see `fileNameFrom`). */
export function pdfFileName(title: string): string {
	return fileNameFrom(title, '.pdf', 'document');
}

/**
 * How long the service may take to start sending the file, and to send each further part; the
 * whole download has no limit, so a large file is not cut off while it is still arriving.
 */
const DOWNLOAD_TIMEOUT_MS = 120_000;

type FileStream = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/**
 * The document's PDF as n8n binary data, streamed into n8n's binary data store (memory,
 * filesystem or S3, as n8n is set up) without a copy held here. As an agent's tool it returns
 * what the file is (name and size, from a HEAD request), not its bytes: an agent's context
 * cannot use a PDF, and downloading one only to describe it would be waste.
 */
export async function download(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | BinaryItem> {
	const documentId = readDocumentId(this, itemIndex);
	const version = this.getNodeParameter('version', itemIndex, 'signed') as 'signed' | 'original';
	const binaryPropertyName = String(
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? '',
	).trim();
	if (binaryPropertyName === '') {
		throw invalidInput(this, itemIndex, 'Put Output File in Field', 'must not be empty');
	}
	const adapter = await signingAdapter(this, itemIndex);
	const document = await adapter.getDocument(this, documentId, itemIndex);
	const notCompleted = () =>
		new NodeOperationError(
			this.getNode(),
			`Document ${documentId} is not completed yet (status ${String(document.status)}): its signed PDF exists once every signer and approver has signed`,
			{
				itemIndex,
				description:
					'Download it after the document.completed event (Signing Trigger), or choose Version "Original" for the PDF before signing.',
			},
		);
	if (version === 'signed' && document.status !== 'COMPLETED') throw notCompleted();
	const fileName = pdfFileName(String(document.title ?? documentId));
	const metadata: IDataObject = {
		documentId: adapter.outputId(documentId),
		title: document.title,
		status: document.status,
		version,
		fileName,
		mimeType: 'application/pdf',
	};

	// The file's name comes from the title, which may hold a recipient's name: redaction learns them.
	if (runsAsTool(this)) {
		const head = await adapter.downloadFile(this, document, { documentId, version, method: 'HEAD' }, itemIndex);
		if (head.error) throw notCompleted();
		return learnAlongside({ ...metadata, fileSize: contentLength(head.headers) }, document);
	}

	const answer = await adapter.downloadFile(
		this,
		document,
		{ documentId, version, method: 'GET', timeoutMs: DOWNLOAD_TIMEOUT_MS },
		itemIndex,
	);
	if (answer.error) throw notCompleted();
	const binary = await this.helpers.prepareBinaryData(answer.body as FileStream, fileName, 'application/pdf');
	const { size, sha256 } = await digestOfStored(this, binary);
	return withBinary(learnAlongside({ ...metadata, fileSize: size, sha256 }, document), {
		[binaryPropertyName]: binary,
	});
}

/** Bytes announced by `Content-Length`; null when the service does not say. */
function contentLength(headers: Record<string, string | string[] | undefined>): number | null {
	const value = Number(headers['content-length']);
	return Number.isInteger(value) && value >= 0 ? value : null;
}

/** Base64 characters decoded at a time, a multiple of 4: a few hundred KB, never the whole file. */
const BASE64_SLICE = 4 * 131_072;

/**
 * Size and SHA-256 of a file in n8n's binary data store, read back piece by piece: from the
 * store (filesystem, S3) as a stream, or from the item's base64 data in memory mode. Hashing
 * while the download streamed in would need a stream of our own between the service and n8n.
 */
async function digestOfStored(
	ctx: IExecuteFunctions,
	binary: IBinaryData,
): Promise<{ size: number; sha256: string }> {
	const hash = createHash('sha256');
	let size = 0;
	const add = (chunk: Buffer) => {
		hash.update(chunk);
		size += chunk.length;
	};
	if (binary.id) {
		for await (const chunk of await ctx.helpers.getBinaryStream(binary.id)) add(chunk as Buffer);
	} else {
		for (let start = 0; start < binary.data.length; start += BASE64_SLICE) {
			add(Buffer.from(binary.data.slice(start, start + BASE64_SLICE), 'base64'));
		}
	}
	return { size, sha256: hash.digest('hex') };
}
