import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput, isEmail, listEntryLabel, requiredId, requiredString } from '../../../shared/validation';
import { signingRequest } from '../../transport';

const showOnlyForGenerate = { resource: ['document'], operation: ['generateFromTemplate'] };

export const RECIPIENT_ROLES = ['APPROVER', 'CC', 'SIGNER', 'VIEWER'] as const;
type RecipientRole = (typeof RECIPIENT_ROLES)[number];

export interface Recipient {
	name: string;
	email: string;
	role: RecipientRole;
}

export const generateFromTemplateDescription: INodeProperties[] = [
	{
		displayName: 'Template ID',
		name: 'templateId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'tpl_residency_agreement',
		description: 'ID of the stored template the document is generated from',
		displayOptions: { show: showOnlyForGenerate },
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Residency agreement – Ada Lovelace',
		description: 'Title of the new document, as recipients will see it',
		displayOptions: { show: showOnlyForGenerate },
	},
	{
		displayName: 'Recipients Input',
		name: 'recipientsInput',
		type: 'options',
		default: 'fields',
		options: [
			{
				name: 'Define Below',
				value: 'fields',
				description: 'Enter each recipient one by one',
			},
			{
				name: 'From Expression (JSON Array)',
				value: 'json',
				description: 'Give all recipients as one array, e.g. built from a form answer',
			},
		],
		displayOptions: { show: showOnlyForGenerate },
	},
	{
		displayName: 'Recipients',
		name: 'recipients',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		required: true,
		default: {},
		placeholder: 'Add Recipient',
		description: 'People invited to the document; Signers and Approvers must sign, Viewers and CC get copies',
		displayOptions: { show: { ...showOnlyForGenerate, recipientsInput: ['fields'] } },
		options: [
			{
				displayName: 'Recipient',
				name: 'recipient',
				values: [
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
					{
						displayName: 'Role',
						name: 'role',
						type: 'options',
						default: 'SIGNER',
						options: [
							{ name: 'Approver', value: 'APPROVER', description: 'Approves the document; required party' },
							{ name: 'CC', value: 'CC', description: 'Receives a copy once it is completed' },
							{ name: 'Signer', value: 'SIGNER', description: 'Signs the document; required party' },
							{ name: 'Viewer', value: 'VIEWER', description: 'Can view the document, never signs' },
						],
					},
				],
			},
		],
	},
	{
		displayName: 'Recipients (JSON)',
		name: 'recipientsJson',
		type: 'json',
		required: true,
		default: '[\n  {\n    "name": "",\n    "email": "",\n    "role": "SIGNER"\n  }\n]',
		description:
			'Array of recipients, each with name, email and role (SIGNER, APPROVER, VIEWER or CC; SIGNER when left out)',
		hint: 'For example: {{ [{ "name": $json.data.fullName, "email": $json.data.email, "role": "SIGNER" }] }}',
		displayOptions: { show: { ...showOnlyForGenerate, recipientsInput: ['json'] } },
	},
];

function recipientsFromParameters(ctx: IExecuteFunctions, itemIndex: number): unknown[] {
	if (ctx.getNodeParameter('recipientsInput', itemIndex, 'fields') === 'fields') {
		const collection = ctx.getNodeParameter('recipients', itemIndex, {}) as { recipient?: IDataObject[] };
		return collection.recipient ?? [];
	}
	let value = ctx.getNodeParameter('recipientsJson', itemIndex, '[]') as unknown;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch {
			throw invalidInput(ctx, itemIndex, 'Recipients (JSON)', 'is not valid JSON');
		}
	}
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) value = [value];
	if (!Array.isArray(value)) {
		throw invalidInput(ctx, itemIndex, 'Recipients (JSON)', 'must be an array of recipients');
	}
	return value;
}

/** Recipients as the service wants them, or an error naming the first bad one. */
export function readRecipients(ctx: IExecuteFunctions, itemIndex: number): Recipient[] {
	const raw = recipientsFromParameters(ctx, itemIndex);
	if (raw.length === 0) throw invalidInput(ctx, itemIndex, 'Recipients', 'add at least one recipient');
	return raw.map((entry, position) => {
		const label = (field?: string) => listEntryLabel('Recipients', 'recipient', position, field);
		if (entry === null || typeof entry !== 'object') {
			throw invalidInput(ctx, itemIndex, label(), 'must be an object with name, email and role');
		}
		const { name, email, role } = entry as IDataObject;
		const cleanName = typeof name === 'string' ? name.trim() : '';
		const cleanEmail = typeof email === 'string' ? email.trim() : '';
		const cleanRole = (typeof role === 'string' && role.trim() !== '' ? role.trim() : 'SIGNER').toUpperCase();
		if (cleanName === '') throw invalidInput(ctx, itemIndex, label('Name'), 'must not be empty');
		if (!isEmail(cleanEmail)) {
			throw invalidInput(ctx, itemIndex, label('Email'), `"${String(email ?? '')}" is not a valid e-mail address`);
		}
		if (!(RECIPIENT_ROLES as readonly string[]).includes(cleanRole)) {
			throw invalidInput(ctx, itemIndex, label('Role'), `"${String(role)}" is not one of ${RECIPIENT_ROLES.join(', ')}`);
		}
		return { name: cleanName, email: cleanEmail, role: cleanRole as RecipientRole };
	});
}

export async function generateFromTemplate(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const templateId = requiredId(this, itemIndex, 'templateId', 'Template ID');
	const title = requiredString(this, itemIndex, 'title', 'Title');
	const recipients = readRecipients(this, itemIndex);
	return await signingRequest(this, {
		method: 'POST',
		path: `/api/v2/templates/${encodeURIComponent(templateId)}/generate-document`,
		body: { title, recipients: recipients as unknown as IDataObject[] },
		itemIndex,
	});
}
