import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BinaryItem } from '../../../shared/execute';
import { withBinary } from '../../../shared/execute';
import { learnAlongside, runsAsTool } from '../../../shared/privacy';
import { invalidInput } from '../../../shared/validation';
import { getSigningDocument, signingRequest } from '../../transport';
import { documentPath, readDocumentId } from './documentId';

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

/** A file name from the document title, without characters that file systems refuse. */
export function pdfFileName(title: string): string {
	const name = [...title]
		.map((character) => (character < ' ' || '\\/:*?"<>|'.includes(character) ? '_' : character))
		.join('')
		.trim();
	return `${name === '' ? 'document' : name}.pdf`;
}

/**
 * The document's PDF as n8n binary data. As an agent's tool it returns what the file is
 * (name, size, checksum), not its bytes: an agent's context cannot use a PDF.
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
	const document = await getSigningDocument(this, documentId, itemIndex);
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
	const bytes = await signingRequest<Buffer | undefined>(this, {
		method: 'GET',
		path: documentPath(documentId, '/download'),
		qs: { version },
		encoding: 'arraybuffer',
		itemIndex,
		acceptStatuses: [409],
	});
	if (bytes === undefined) throw notCompleted();
	const fileName = pdfFileName(String(document.title ?? documentId));
	const metadata: IDataObject = {
		documentId,
		title: document.title,
		status: document.status,
		version,
		fileName,
		mimeType: 'application/pdf',
		fileSize: bytes.length,
		sha256: createHash('sha256').update(bytes).digest('hex'),
	};
	// The file's name comes from the title, which may hold a recipient's name: redaction learns them.
	learnAlongside(metadata, document);
	if (runsAsTool(this)) return metadata;
	const binary = await this.helpers.prepareBinaryData(bytes, fileName, 'application/pdf');
	return withBinary(metadata, { [binaryPropertyName]: binary });
}
