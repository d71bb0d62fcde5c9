import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { checkedInteger, invalidInput, isEmail, listEntryLabel } from '../../../shared/validation';
import type { UploadRecipient } from '../../adapters';

/** Every role a recipient of an uploaded document can have (Documenso's RecipientRole). */
export const UPLOAD_ROLE_OPTIONS = [
	{ name: 'Approver', value: 'APPROVER', description: 'Approves the document; required party' },
	{
		name: 'Assistant',
		value: 'ASSISTANT',
		description: 'Fills in fields for the recipients after them in the signing order, never signs',
	},
	{ name: 'CC', value: 'CC', description: 'Receives a copy once it is completed' },
	{ name: 'Signer', value: 'SIGNER', description: 'Signs the document; required party' },
	{ name: 'Viewer', value: 'VIEWER', description: 'Must view the document, never signs' },
];

const ROLES = UPLOAD_ROLE_OPTIONS.map((option) => option.value);

/** A recipient's name and e-mail address, as every list of recipients asks for them. */
export const recipientNameAndEmail: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'Display name of the recipient',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		required: true,
		description: 'E-mail address the invitation is sent to',
	},
];

/** The values of one recipient of a document made from a file (name, e-mail, role, signing order). */
export const uploadRecipientValues: INodeProperties[] = [
	...recipientNameAndEmail,
	{
		displayName: 'Role',
		name: 'role',
		type: 'options',
		default: 'SIGNER',
		options: UPLOAD_ROLE_OPTIONS,
	},
	{
		displayName: 'Signing Order',
		name: 'signingOrder',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			'Position in a sequential signing order (Options › Signing Order), from 1; 0: none',
	},
];

/** The recipients of Create From File: one by one, or as a JSON array. */
export function uploadRecipientsProperties(
	show: NonNullable<IDisplayOptions['show']>,
): INodeProperties[] {
	return [
		{
			displayName: 'Recipients Input',
			name: 'uploadRecipientsInput',
			type: 'options',
			default: 'fields',
			options: [
				{ name: 'Define Below', value: 'fields', description: 'Enter each recipient one by one' },
				{
					name: 'From Expression (JSON Array)',
					value: 'json',
					description: 'Give all recipients as one array, e.g. built from a form answer',
				},
			],
			displayOptions: { show },
		},
		{
			displayName: 'Recipients',
			name: 'uploadRecipients',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			default: {},
			placeholder: 'Add Recipient',
			description:
				'People the document goes to, in this order: Fields refer to them by number (1 = the first) or e-mail',
			displayOptions: { show: { ...show, uploadRecipientsInput: ['fields'] } },
			options: [{ displayName: 'Recipient', name: 'recipient', values: uploadRecipientValues }],
		},
		{
			displayName: 'Recipients (JSON)',
			name: 'uploadRecipientsJson',
			type: 'json',
			default: '[\n  {\n    "name": "",\n    "email": "",\n    "role": "SIGNER"\n  }\n]',
			description:
				'Array of recipients, each with name, email, role (SIGNER, APPROVER, VIEWER, CC or ASSISTANT; SIGNER when left out) and optionally signingOrder',
			displayOptions: { show: { ...show, uploadRecipientsInput: ['json'] } },
		},
	];
}

/** A JSON parameter given as text or as a value, as an array (one object is taken as a list of one). */
export function jsonList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	label: string,
): unknown[] {
	let value = ctx.getNodeParameter(parameter, itemIndex, '[]') as unknown;
	if (typeof value === 'string') {
		if (value.trim() === '') return [];
		try {
			value = JSON.parse(value);
		} catch {
			throw invalidInput(ctx, itemIndex, label, 'is not valid JSON');
		}
	}
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) value = [value];
	if (!Array.isArray(value)) throw invalidInput(ctx, itemIndex, label, 'must be an array');
	return value;
}

/** One recipient as given, checked; `at` names it in errors ("Recipients › Email (recipient 2)"). */
export function checkedUploadRecipient(
	ctx: IExecuteFunctions,
	itemIndex: number,
	entry: unknown,
	at: (field?: string) => string,
	partial = false,
): Partial<UploadRecipient> {
	if (entry === null || typeof entry !== 'object') {
		throw invalidInput(ctx, itemIndex, at(), 'must be an object with name, email and role');
	}
	const { name, email, role, signingOrder } = entry as IDataObject;
	const recipient: Partial<UploadRecipient> = {};
	if (name !== undefined || !partial) {
		const cleanName = typeof name === 'string' ? name.trim() : '';
		if (cleanName === '' && !partial)
			throw invalidInput(ctx, itemIndex, at('Name'), 'must not be empty');
		if (cleanName !== '') recipient.name = cleanName;
	}
	if (email !== undefined || !partial) {
		const cleanEmail = typeof email === 'string' ? email.trim() : '';
		if (!(partial && cleanEmail === '')) {
			if (!isEmail(cleanEmail)) {
				throw invalidInput(
					ctx,
					itemIndex,
					at('Email'),
					`"${String(email ?? '')}" is not a valid e-mail address`,
				);
			}
			recipient.email = cleanEmail;
		}
	}
	const givenRole =
		typeof role === 'string' && role.trim() !== '' ? role.trim().toUpperCase() : undefined;
	if (givenRole !== undefined && !ROLES.includes(givenRole)) {
		throw invalidInput(
			ctx,
			itemIndex,
			at('Role'),
			`"${String(role)}" is not one of ${ROLES.join(', ')}`,
		);
	}
	if (givenRole !== undefined || !partial) recipient.role = givenRole ?? 'SIGNER';
	if (
		signingOrder !== undefined &&
		signingOrder !== null &&
		signingOrder !== '' &&
		signingOrder !== 0
	) {
		recipient.signingOrder = checkedInteger(ctx, itemIndex, signingOrder, at('Signing Order'), {
			min: 1,
		});
	}
	return recipient;
}

/** The recipients of Create From File, checked, in the order given. */
export function readUploadRecipients(ctx: IExecuteFunctions, itemIndex: number): UploadRecipient[] {
	const raw =
		ctx.getNodeParameter('uploadRecipientsInput', itemIndex, 'fields') === 'json'
			? jsonList(ctx, itemIndex, 'uploadRecipientsJson', 'Recipients (JSON)')
			: (((ctx.getNodeParameter('uploadRecipients', itemIndex, {}) as { recipient?: IDataObject[] })
					.recipient ?? []) as unknown[]);
	return raw.map(
		(entry, position) =>
			checkedUploadRecipient(ctx, itemIndex, entry, (field) =>
				listEntryLabel('Recipients', 'recipient', position, field),
			) as UploadRecipient,
	);
}
