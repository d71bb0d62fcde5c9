import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputFile, isPdfHeader } from '../../../shared/multipart';
import { personalDataOption, runsAsTool } from '../../../shared/privacy';
import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput } from '../../../shared/validation';
import type { FieldPlacement, UploadRecipient } from '../../adapters';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo, PERSONAL_DATA_DESCRIPTION } from '../../personalData';
import { emailOptionsProperty, readEmailOptions } from './emailOptions';
import { fieldsProperties, readFieldPlacements } from './fieldPlacements';
import { readUploadRecipients, uploadRecipientsProperties } from './uploadRecipients';
import { withoutSigningUrls } from './signingUrls';
import { simplifyDocument, simplifyDocumentParameter, wantsSimplified } from './simplify';

const show = { resource: ['document'], operation: ['createFromFile'] };

export const createFromFileDescription: INodeProperties[] = [
	{
		displayName:
			'Documenso only. Executing this uploads the PDF as a real document and, with Send Now on, e-mails real invitations. Fields go where a text of the PDF is (e.g. [[sign-ada]]) or at a position; Documenso’s own tags in the PDF ({{SIGNATURE, r1}}: a field for the first recipient) become fields by themselves.',
		name: 'createFromFileNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field holding the PDF',
		description:
			'The binary field of the input item with the PDF, e.g. from Read/Write Files from Disk, an HTTP Request or a form upload',
		displayOptions: { show },
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		placeholder: 'Residency agreement – Ada Lovelace',
		description: 'Title of the document, as recipients will see it. Empty: the file’s name.',
		displayOptions: { show },
	},
	...uploadRecipientsProperties(show),
	...fieldsProperties(show),
	{
		displayName: 'Send Now',
		name: 'distribute',
		type: 'boolean',
		default: true,
		description:
			'Whether to send the document at once. Off leaves a draft, to change (Recipient, Field) and send later with Document → Send.',
		displayOptions: { show },
	},
	emailOptionsProperty(show),
	simplifyDocumentParameter(['createFromFile']),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Distribution',
				name: 'distribution',
				type: 'options',
				default: 'EMAIL',
				options: [
					{ name: 'Email', value: 'EMAIL', description: 'Documenso e-mails each recipient their invitation' },
					{
						name: 'None',
						value: 'NONE',
						description:
							'Nobody is e-mailed: the output gives each recipient’s signing URL, for the workflow to hand out',
					},
				],
				description: 'How the recipients get their invitation when the document is sent',
			},
			{
				displayName: 'External ID',
				name: 'externalId',
				type: 'string',
				default: '',
				placeholder: '={{ $json.applicationId }}',
				description:
					'Your own ID for the document, stored with it in Documenso. With "If a Document With This External ID Exists", a retry finds the document a failed run made instead of uploading a second one.',
			},
			{
				displayName: 'Folder ID',
				name: 'folderId',
				type: 'string',
				default: '',
				description: 'The Documenso folder to file the document in; empty: the root',
			},
			{
				displayName: 'If a Document With This External ID Exists',
				name: 'ifExists',
				type: 'options',
				default: 'create',
				options: [
					{ name: 'Create Another', value: 'create', description: 'Upload anyway: External ID is not unique in Documenso' },
					{ name: 'Fail', value: 'fail', description: 'Stop before uploading, naming the document' },
					{
						name: 'Return It',
						value: 'return',
						description:
							'Upload nothing and return that document; a draft is sent first when Send Now is on (finishes a run whose send failed)',
					},
				],
				description: 'Looked up in the folder the document goes to (one list read per 100 matches) before uploading',
			},
			{
				displayName: 'Include Signing URLs',
				name: 'includeSigningUrls',
				type: 'boolean',
				default: true,
				description:
					'Whether to return each recipient’s signing URL. Anyone with the link can sign as that recipient. Without this option: included, but left out when the node runs as an AI agent tool.',
			},
			{ ...personalDataOption, description: PERSONAL_DATA_DESCRIPTION },
			{
				displayName: 'Signing Order',
				name: 'signingOrder',
				type: 'options',
				default: 'PARALLEL',
				options: [
					{ name: 'Parallel', value: 'PARALLEL', description: 'Everyone is invited at once' },
					{
						name: 'Sequential',
						value: 'SEQUENTIAL',
						description: 'One after another, by each recipient’s Signing Order',
					},
				],
				description: 'Whether recipients sign at once or one after another',
			},
			{
				displayName: 'Upload Size Limit (MB)',
				name: 'sizeLimitMb',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 50,
				description:
					'The largest file your Documenso takes (NEXT_PUBLIC_DOCUMENT_SIZE_UPLOAD_LIMIT, 50 MB by default): a larger file is refused before anything is sent',
			},
		],
	},
];

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** Uploads a PDF from the input item and makes a document of it, with recipients and their fields. */
export async function createFromFile(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Creating documents from a file'));
	const adapter = await signingAdapter(this, itemIndex);
	const uploads = signingApis.capability(this, adapter, 'uploads', 'Document → Create From File', itemIndex);

	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const distribute = this.getNodeParameter('distribute', itemIndex, true) as boolean;
	const recipients: UploadRecipient[] = readUploadRecipients(this, itemIndex);
	if (distribute && recipients.length === 0) {
		throw invalidInput(this, itemIndex, 'Recipients', 'add at least one recipient, or turn Send Now off to make a draft');
	}
	const fields: FieldPlacement[] = readFieldPlacements(this, itemIndex, recipients);
	const meta = readEmailOptions(this, itemIndex);
	const externalId = typeof options.externalId === 'string' ? options.externalId.trim() : '';
	const folderId = typeof options.folderId === 'string' ? options.folderId.trim() : '';

	const property = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? '').trim();
	if (property === '') throw invalidInput(this, itemIndex, 'Input Binary Field', 'must not be empty');
	const file = await inputFile(this, itemIndex, property, 'Input Binary Field');
	if (!isPdfHeader(file.head)) {
		throw invalidInput(
			this,
			itemIndex,
			'Input Binary Field',
			`the file "${file.name}" (${file.type}) is not a PDF: Documenso signs PDFs only`,
		);
	}
	const limitMb = Number(options.sizeLimitMb ?? uploads.defaultSizeLimitMb) || uploads.defaultSizeLimitMb;
	if (file.size > limitMb * MB) {
		throw invalidInput(
			this,
			itemIndex,
			'Input Binary Field',
			`the file "${file.name}" is ${megabytes(file.size)} (${file.size} bytes); Documenso takes at most ${limitMb} MB a file. If your server allows more (NEXT_PUBLIC_DOCUMENT_SIZE_UPLOAD_LIMIT), raise Options › Upload Size Limit`,
		);
	}
	const title = String(this.getNodeParameter('title', itemIndex, '') ?? '').trim() || file.name.replace(/\.pdf$/i, '');

	const document = await uploads.createDocument(
		this,
		{
			title,
			file,
			recipients,
			fields,
			distribute,
			distribution: options.distribution === 'NONE' ? 'NONE' : 'EMAIL',
			signingOrder: options.signingOrder === 'SEQUENTIAL' ? 'SEQUENTIAL' : undefined,
			meta,
			externalId: externalId || undefined,
			ifExists: externalId ? ((options.ifExists as 'create' | 'fail' | 'return' | undefined) ?? 'create') : 'create',
			folderId: folderId || undefined,
		},
		itemIndex,
	);
	const includeSigningUrls =
		typeof options.includeSigningUrls === 'boolean' ? options.includeSigningUrls : !runsAsTool(this);
	const output = includeSigningUrls ? document : withoutSigningUrls(document);
	return wantsSimplified(this, itemIndex) ? { ...simplifyDocument(output), alreadyExisted: output.alreadyExisted } : output;
}
