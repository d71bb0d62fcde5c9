import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { runsAsTool } from '../../../shared/privacy';
import { requireToolConsent } from '../../../shared/toolConsent';
import { invalidInput } from '../../../shared/validation';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { emailOptionsProperty, readEmailOptions } from './emailOptions';
import { withoutSigningUrls } from './signingUrls';
import { simplifyDocument, simplifyDocumentParameter, wantsSimplified } from './simplify';
import { readUpload, uploadDescription } from './upload';

const show = { resource: ['document'], operation: ['createFromFile'] };

/** Shown right below the operation, after "Documenso only." (shared/platformOnly.ts). */
export const CREATE_FROM_FILE_NOTICE =
	'Executing this uploads the PDF as a real document and, with Send Now on, e-mails real invitations. Fields go where a text of the PDF is (e.g. [[sign-ada]]) or at a position; Documenso’s own tags in the PDF ({{SIGNATURE, r1}}: a field for the first recipient) become fields by themselves.';

export const createFromFileDescription: INodeProperties[] = [
	...uploadDescription(
		show,
		'document',
		[
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
		],
		[
			{
				displayName: 'Distribution',
				name: 'distribution',
				type: 'options',
				default: 'EMAIL',
				options: [
					{
						name: 'Email',
						value: 'EMAIL',
						description: 'Documenso e-mails each recipient their invitation',
					},
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
				displayName: 'Include Signing URLs',
				name: 'includeSigningUrls',
				type: 'boolean',
				default: true,
				description:
					'Whether to return each recipient’s signing URL. Anyone with the link can sign as that recipient. Without this option: included, but left out when the node runs as an AI agent tool.',
			},
		],
	),
];

/** Uploads a PDF from the input item and makes a document of it, with recipients and their fields. */
export async function createFromFile(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Creating documents from a file'));
	const adapter = await signingAdapter(this, itemIndex);
	const uploads = signingApis.capability(
		this,
		adapter,
		'uploads',
		'Document → Create From File',
		itemIndex,
	);
	const distribute = this.getNodeParameter('distribute', itemIndex, true) as boolean;
	const upload = await readUpload(this, itemIndex, uploads.defaultSizeLimitMb);
	if (distribute && upload.recipients.length === 0) {
		throw invalidInput(
			this,
			itemIndex,
			'Recipients',
			'add at least one recipient, or turn Send Now off to make a draft',
		);
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const document = await uploads.createDocument(
		this,
		{
			...upload,
			distribute,
			distribution: options.distribution === 'NONE' ? 'NONE' : 'EMAIL',
			meta: readEmailOptions(this, itemIndex),
		},
		itemIndex,
	);
	const includeSigningUrls =
		typeof options.includeSigningUrls === 'boolean'
			? options.includeSigningUrls
			: !runsAsTool(this);
	const output = includeSigningUrls ? document : withoutSigningUrls(document);
	return wantsSimplified(this, itemIndex)
		? { ...simplifyDocument(output), alreadyExisted: output.alreadyExisted }
		: output;
}
