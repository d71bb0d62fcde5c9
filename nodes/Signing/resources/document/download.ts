import { createHash } from 'crypto';
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BinaryItem } from '../../../shared/execute';
import type { ServiceAnswer } from '../../../shared/request';
import { withBinary } from '../../../shared/execute';
import { fileNameFrom } from '../../../shared/fileName';
import { learnAlongside, runsAsTool } from '../../../shared/privacy';
import { invalidInput } from '../../../shared/validation';
import { signingAdapter, signingApis } from '../../adapters';
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
			{
				name: 'Audit Log (PDF)',
				value: 'auditLog',
				description: 'Documenso’s audit log of the document as a PDF: who did what, when, from where (Documenso)',
			},
			{
				name: 'Signing Certificate (PDF)',
				value: 'certificate',
				description: 'Documenso’s signing certificate of a completed document (Documenso)',
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
		hint: 'The name of the output binary field to put the file in. A document of several PDFs (Documenso) gives one item per PDF, each with its file in this field.',
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
): Promise<IDataObject | BinaryItem | IDataObject[] | BinaryItem[]> {
	const documentId = readDocumentId(this, itemIndex);
	const version = this.getNodeParameter('version', itemIndex, 'signed') as 'signed' | 'original' | 'auditLog' | 'certificate';
	const binaryPropertyName = String(
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? '',
	).trim();
	if (binaryPropertyName === '') {
		throw invalidInput(this, itemIndex, 'Put Output File in Field', 'must not be empty');
	}
	const adapter = await signingAdapter(this, itemIndex);
	// Before any request: on an API without these reports, nothing is read only to fail.
	const reports =
		version === 'auditLog' || version === 'certificate'
			? signingApis.capability(
					this,
					adapter,
					'files',
					`Download › ${version === 'auditLog' ? 'Audit Log (PDF)' : 'Signing Certificate (PDF)'}`,
					itemIndex,
				)
			: undefined;
	const document = await adapter.getDocument(this, documentId, itemIndex);
	const what = version === 'certificate' ? 'signing certificate' : 'signed PDF';
	const notCompleted = () =>
		new NodeOperationError(
			this.getNode(),
			`Document ${documentId} is not completed yet (status ${String(document.status)}): its ${what} exists once every signer and approver has signed`,
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
	const asTool = runsAsTool(this);
	const method = asTool ? 'HEAD' : 'GET';
	const timeoutMs = asTool ? undefined : DOWNLOAD_TIMEOUT_MS;
	/** The answer as the output item: what the file is for a tool, the file itself otherwise. */
	const output = async (answer: ServiceAnswer<unknown>, described: IDataObject): Promise<IDataObject | BinaryItem> => {
		if (asTool) return learnAlongside({ ...described, fileSize: contentLength(answer.headers) }, document);
		const binary = await this.helpers.prepareBinaryData(answer.body as FileStream, String(described.fileName), 'application/pdf');
		const { size, sha256 } = await digestOfStored(this, binary);
		return withBinary(learnAlongside({ ...described, fileSize: size, sha256 }, document), { [binaryPropertyName]: binary });
	};

	if (version === 'auditLog' || version === 'certificate') {
		if (version === 'certificate' && document.status !== 'COMPLETED') throw notCompleted();
		const fileName = pdfFileName(`${String(document.title ?? documentId)}_${version === 'auditLog' ? 'audit-log' : 'certificate'}`);
		const answer = await reports!.report(this, document, version, { method, timeoutMs }, itemIndex);
		if (answer.error) throw answer.error;
		return await output(answer, { ...metadata, fileName });
	}

	// Every PDF of a document that has several (Documenso's envelopes), one item each.
	const parts = (await adapter.files?.list(this, document, itemIndex)) ?? [];
	if (parts.length > 0) {
		const items: Array<IDataObject | BinaryItem> = [];
		for (const [index, part] of parts.entries()) {
			const answer = await adapter.files!.download(this, part, { version, method, timeoutMs }, itemIndex);
			if (answer.error) throw answer.error;
			const fileName = pdfFileName(`${part.title.replace(/\.pdf$/i, '')}${version === 'signed' ? '_signed' : ''}`);
			items.push(await output(answer, { ...metadata, fileName, fileIndex: index + 1, fileCount: parts.length, envelopeItemId: part.id }));
		}
		return items as IDataObject[] | BinaryItem[];
	}

	const answer = await adapter.downloadFile(this, document, { documentId, version, method, timeoutMs }, itemIndex);
	if (answer.error) throw notCompleted();
	return await output(answer, metadata);
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
