import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import {
	INPUT_BINARY_FIELD,
	inputBinaryFieldParameter,
	inputFileOfParameter,
	isPdfHeader,
	megabytes,
} from '../../../shared/inputFile';
import { personalDataOption } from '../../../shared/privacy';
import { invalidInput } from '../../../shared/validation';
import type { CreateFromFileInput } from '../../adapters';
import { PERSONAL_DATA_DESCRIPTION } from '../../personalData';
import { fieldsProperties, readFieldPlacements } from './fieldPlacements';
import { readUploadRecipients, uploadRecipientsProperties } from './uploadRecipients';

/** What an upload of a document or a template takes. */
export type UploadInput = Omit<CreateFromFileInput, 'distribute' | 'distribution' | 'meta'>;

type Show = NonNullable<IDisplayOptions['show']>;

/** The name of the option that says what happens when the External ID is taken, for a document or a template. */
const ifExistsName = (kind: 'document' | 'template') =>
	`If a ${kind === 'document' ? 'Document' : 'Template'} With This External ID Exists`;

/** The options of a document's upload that a template's has too, in the words of the kind uploaded. */
const sharedOptions = (kind: 'document' | 'template'): INodeProperties[] => [
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		default: '',
		placeholder: '={{ $json.applicationId }}',
		description: `Your own ID for the ${kind}, stored with it in Documenso. With "${ifExistsName(kind)}", a retry finds the ${kind} a failed run made instead of uploading a second one.`,
	},
	{
		displayName: 'Folder ID',
		name: 'folderId',
		type: 'string',
		default: '',
		description: `The Documenso folder to file the ${kind} in; empty: the root`,
	},
	{
		displayName: ifExistsName(kind),
		name: 'ifExists',
		type: 'options',
		default: 'create',
		options: [
			{
				name: 'Create Another',
				value: 'create',
				description: 'Upload anyway: External ID is not unique in Documenso',
			},
			{ name: 'Fail', value: 'fail', description: `Stop before uploading, naming the ${kind}` },
			{
				name: 'Return It',
				value: 'return',
				description:
					kind === 'document'
						? 'Upload nothing and return that document; a draft a failed run left is finished (its fields at a text) and, when Send Now is on, sent first. Two runs at once keep one document.'
						: 'Upload nothing and return that template',
			},
		],
		description: `Looked up before uploading in the folder the ${kind} goes to, then in every other folder (a ${kind} someone moved is found too)`,
	},
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
];

/** The file, title, recipients and fields of Create From File (`before` goes after the fields, then the Options). */
export function uploadDescription(
	show: Show,
	kind: 'document' | 'template',
	before: INodeProperties[] = [],
	options: INodeProperties[] = [],
): INodeProperties[] {
	return [
		inputBinaryFieldParameter(
			show,
			'The name of the input binary field holding the PDF',
			'The binary field of the input item with the PDF, e.g. from Read/Write Files from Disk, an HTTP Request or a form upload',
		),
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			placeholder: 'Residency agreement – Ada Lovelace',
			description: `Title of the ${kind}, as recipients will see it. Empty: the file’s name.`,
			displayOptions: { show },
		},
		...uploadRecipientsProperties(show),
		...fieldsProperties(show),
		...before,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: { show },
			options: [
				...sharedOptions(kind),
				...options,
				{ ...personalDataOption, description: PERSONAL_DATA_DESCRIPTION },
			].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
	];
}

const MB = 1024 * 1024;

/** The upload as given, checked before anything is sent: the file is a PDF within the size limit, every field has its recipient. */
export async function readUpload(
	ctx: IExecuteFunctions,
	itemIndex: number,
	defaultLimitMb: number,
): Promise<UploadInput> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const recipients = readUploadRecipients(ctx, itemIndex);
	const fields = readFieldPlacements(ctx, itemIndex, recipients);
	const externalId = typeof options.externalId === 'string' ? options.externalId.trim() : '';
	const folderId = typeof options.folderId === 'string' ? options.folderId.trim() : '';
	const file = await inputFileOfParameter(ctx, itemIndex);
	if (!isPdfHeader(file.head)) {
		throw invalidInput(
			ctx,
			itemIndex,
			INPUT_BINARY_FIELD,
			`the file "${file.fileName}" (${file.declaredType}) is not a PDF: Documenso signs PDFs only`,
		);
	}
	const limitMb = Number(options.sizeLimitMb ?? defaultLimitMb) || defaultLimitMb;
	if (file.size > limitMb * MB) {
		throw invalidInput(
			ctx,
			itemIndex,
			INPUT_BINARY_FIELD,
			`the file "${file.fileName}" is ${megabytes(file.size)} (${file.size} bytes); Documenso takes at most ${limitMb} MB a file. If your server allows more (NEXT_PUBLIC_DOCUMENT_SIZE_UPLOAD_LIMIT), raise Options › Upload Size Limit`,
		);
	}
	return {
		title:
			String(ctx.getNodeParameter('title', itemIndex, '') ?? '').trim() ||
			file.fileName.replace(/\.pdf$/i, ''),
		file,
		recipients,
		fields,
		signingOrder: options.signingOrder === 'SEQUENTIAL' ? 'SEQUENTIAL' : undefined,
		externalId: externalId || undefined,
		ifExists: externalId
			? ((options.ifExists as UploadInput['ifExists'] | undefined) ?? 'create')
			: 'create',
		folderId: folderId || undefined,
	};
}
