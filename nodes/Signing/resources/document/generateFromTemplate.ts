import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { personalDataOption, runsAsTool } from '../../../shared/privacy';
import { requireToolConsent } from '../../../shared/toolConsent';
import { consentTo, PERSONAL_DATA_DESCRIPTION } from '../../personalData';
import {
	invalidInput,
	isEmail,
	isHttpUrl,
	listEntryLabel,
	requiredString,
} from '../../../shared/validation';
import { signingRequest } from '../../transport';
import {
	getTemplate,
	readTemplateId,
	templateLocator,
	templateNotFoundHint,
} from '../template/locator';
import { simplifyDocument, simplifyDocumentParameter, wantsSimplified } from './simplify';
import { prefillValue } from './prefillValue';

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
		displayName:
			'Executing this operation, also with "Execute step" in the editor, creates a real document and, with Send Now on, e-mails real invitations to its recipients. Turn Send Now off to get a draft while you build the workflow.',
		name: 'realInvitationsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: showOnlyForGenerate },
	},
	templateLocator(showOnlyForGenerate),
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
		description:
			'People invited to the document; Signers and Approvers must sign, Viewers and CC get copies',
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
							{
								name: 'Approver',
								value: 'APPROVER',
								description: 'Approves the document; required party',
							},
							{ name: 'CC', value: 'CC', description: 'Receives a copy once it is completed' },
							{
								name: 'Signer',
								value: 'SIGNER',
								description: 'Signs the document; required party',
							},
							{
								name: 'Viewer',
								value: 'VIEWER',
								description: 'Can view the document, never signs',
							},
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
	{
		displayName: 'Send Now',
		name: 'distribute',
		type: 'boolean',
		default: true,
		description:
			'Whether to e-mail the invitations at once. Off leaves a draft, to send later with Document → Send.',
		displayOptions: { show: showOnlyForGenerate },
	},
	{
		displayName: 'Prefill Fields Input',
		name: 'prefillInput',
		type: 'options',
		default: 'fields',
		options: [
			{ name: 'Define Below', value: 'fields', description: 'Pick each field and give its value' },
			{
				name: 'From Expression (JSON Array)',
				value: 'json',
				description: 'Give all fields as one array of objects with the field ID and its value',
			},
		],
		displayOptions: { show: showOnlyForGenerate },
	},
	{
		displayName: 'Prefill Fields',
		name: 'prefillFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Field',
		description: 'Values filled into the template’s fields before anyone signs',
		displayOptions: { show: { ...showOnlyForGenerate, prefillInput: ['fields'] } },
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Field Name or ID',
						name: 'id',
						type: 'options',
						typeOptions: {
							loadOptionsMethod: 'getTemplateFields',
							loadOptionsDependsOn: ['templateId.value'],
						},
						default: '',
						description:
							'A field of the chosen template. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description:
							'As the field’s type wants it (shown under each field in the list): text; a number; a date as YYYY-MM-DD, or a date from an expression such as {{ $now }} (its day in the workflow’s time zone); true or false for a checkbox; one of the options for a dropdown',
					},
				],
			},
		],
	},
	{
		displayName: 'Prefill Fields (JSON)',
		name: 'prefillFieldsJson',
		type: 'json',
		default: '[\n  {\n    "id": "",\n    "value": ""\n  }\n]',
		description: 'Array of fields, each with the field’s ID (fld_…) and its value',
		hint: 'For example: {{ [{ "id": "fld_residency_start_date", "value": $json.startDate }] }}. Template → Get lists a template’s field IDs.',
		displayOptions: { show: { ...showOnlyForGenerate, prefillInput: ['json'] } },
	},
	{
		displayName: 'Email Options',
		name: 'emailOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showOnlyForGenerate },
		options: [
			{
				displayName: 'Message',
				name: 'message',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				description: 'Text of the invitation e-mail',
			},
			{
				displayName: 'Redirect URL',
				name: 'redirectUrl',
				type: 'string',
				default: '',
				placeholder: 'https://example.org/thanks',
				description: 'Where a signer lands after signing (an http or https URL)',
			},
			{
				displayName: 'Subject',
				name: 'subject',
				type: 'string',
				default: '',
				description: 'Subject of the invitation e-mail',
			},
		],
	},
	simplifyDocumentParameter(['generateFromTemplate']),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showOnlyForGenerate },
		options: [
			{
				displayName: 'Include Signing URLs',
				name: 'includeSigningUrls',
				type: 'boolean',
				default: true,
				description:
					'Whether to return each recipient’s signing URL. Anyone with the link can sign as that recipient. Without this option: included, but left out when the node runs as an AI agent tool.',
			},
			{ ...personalDataOption, description: PERSONAL_DATA_DESCRIPTION },
		],
	},
];

export interface PrefillField {
	id: string;
	value: string;
}

function prefillFromParameters(ctx: IExecuteFunctions, itemIndex: number): unknown[] {
	if (ctx.getNodeParameter('prefillInput', itemIndex, 'fields') === 'fields') {
		const collection = ctx.getNodeParameter('prefillFields', itemIndex, {}) as {
			field?: IDataObject[];
		};
		return collection.field ?? [];
	}
	let value = ctx.getNodeParameter('prefillFieldsJson', itemIndex, '[]') as unknown;
	if (typeof value === 'string') {
		if (value.trim() === '') return [];
		try {
			value = JSON.parse(value);
		} catch {
			throw invalidInput(ctx, itemIndex, 'Prefill Fields (JSON)', 'is not valid JSON');
		}
	}
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) value = [value];
	if (!Array.isArray(value)) {
		throw invalidInput(
			ctx,
			itemIndex,
			'Prefill Fields (JSON)',
			'must be an array of { "id", "value" }',
		);
	}
	// The JSON editor's starting point, left as it is, means no field.
	return value.filter(
		(entry) =>
			!(
				entry &&
				typeof entry === 'object' &&
				(entry as IDataObject).id === '' &&
				(entry as IDataObject).value === ''
			),
	);
}

/**
 * Prefill values as the service wants them (strings of the field's type), checked against the
 * template before anything is sent, so that a typo names its field instead of failing later.
 */
export function readPrefillFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	template: IDataObject,
): PrefillField[] {
	const fields = (template.fields as IDataObject[] | undefined) ?? [];
	const seen = new Set<string>();
	return prefillFromParameters(ctx, itemIndex).map((entry, position) => {
		const at = `Prefill Fields › field ${position + 1}`;
		if (entry === null || typeof entry !== 'object') {
			throw invalidInput(ctx, itemIndex, at, 'must be an object with id and value');
		}
		const { id, label, value } = entry as IDataObject;
		const wanted = String(id ?? '').trim();
		const field = fields.find(
			(candidate) => candidate.id === wanted || (wanted === '' && candidate.label === label),
		);
		if (!field) {
			const known = fields
				.map((candidate) => `${String(candidate.label)} (${String(candidate.id)})`)
				.join(', ');
			throw invalidInput(
				ctx,
				itemIndex,
				at,
				`the template "${String(template.title)}" has no field "${wanted || String(label ?? '')}"; its fields are ${known || 'none'}`,
			);
		}
		const name = `Prefill Fields › ${String(field.label)}`;
		if (seen.has(String(field.id))) throw invalidInput(ctx, itemIndex, name, 'is given twice');
		seen.add(String(field.id));
		return { id: String(field.id), value: prefillValue(ctx, itemIndex, name, field, value) };
	});
}

function readEmailOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	const given = ctx.getNodeParameter('emailOptions', itemIndex, {}) as IDataObject;
	const meta: IDataObject = {};
	for (const key of ['subject', 'message', 'redirectUrl']) {
		const value = typeof given[key] === 'string' ? (given[key] as string).trim() : '';
		if (value !== '') meta[key] = value;
	}
	if (meta.redirectUrl !== undefined && !isHttpUrl(meta.redirectUrl as string)) {
		throw invalidInput(
			ctx,
			itemIndex,
			'Email Options › Redirect URL',
			`"${String(meta.redirectUrl)}" is not an http(s) URL`,
		);
	}
	return Object.keys(meta).length > 0 ? meta : undefined;
}

function recipientsFromParameters(ctx: IExecuteFunctions, itemIndex: number): unknown[] {
	if (ctx.getNodeParameter('recipientsInput', itemIndex, 'fields') === 'fields') {
		const collection = ctx.getNodeParameter('recipients', itemIndex, {}) as {
			recipient?: IDataObject[];
		};
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
	if (raw.length === 0)
		throw invalidInput(ctx, itemIndex, 'Recipients', 'add at least one recipient');
	return raw.map((entry, position) => {
		const label = (field?: string) => listEntryLabel('Recipients', 'recipient', position, field);
		if (entry === null || typeof entry !== 'object') {
			throw invalidInput(ctx, itemIndex, label(), 'must be an object with name, email and role');
		}
		const { name, email, role } = entry as IDataObject;
		const cleanName = typeof name === 'string' ? name.trim() : '';
		const cleanEmail = typeof email === 'string' ? email.trim() : '';
		const cleanRole = (
			typeof role === 'string' && role.trim() !== '' ? role.trim() : 'SIGNER'
		).toUpperCase();
		if (cleanName === '') throw invalidInput(ctx, itemIndex, label('Name'), 'must not be empty');
		if (!isEmail(cleanEmail)) {
			throw invalidInput(
				ctx,
				itemIndex,
				label('Email'),
				`"${String(email ?? '')}" is not a valid e-mail address`,
			);
		}
		if (!(RECIPIENT_ROLES as readonly string[]).includes(cleanRole)) {
			throw invalidInput(
				ctx,
				itemIndex,
				label('Role'),
				`"${String(role)}" is not one of ${RECIPIENT_ROLES.join(', ')}`,
			);
		}
		return { name: cleanName, email: cleanEmail, role: cleanRole as RecipientRole };
	});
}

export async function generateFromTemplate(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const distribute = this.getNodeParameter('distribute', itemIndex, true) as boolean;
	// A draft e-mails no one; sending it at once does, which an agent may do only with consent.
	if (distribute !== false) {
		requireToolConsent(
			this,
			itemIndex,
			consentTo('Generating a document that e-mails its recipients'),
			'Or turn Send Now off: an agent may then create drafts, which e-mail no one, to send later.',
		);
	}
	const templateId = readTemplateId(this, itemIndex);
	const title = requiredString(this, itemIndex, 'title', 'Title');
	const recipients = readRecipients(this, itemIndex);
	const meta = readEmailOptions(this, itemIndex);
	const body: IDataObject = { title, recipients: recipients as unknown as IDataObject[] };
	// The template is read only when there are values to check against its fields.
	if (prefillFromParameters(this, itemIndex).length > 0) {
		const template = await getTemplate(this, templateId, itemIndex);
		body.prefillFields = readPrefillFields(this, itemIndex, template) as unknown as IDataObject[];
	}
	if (meta) body.meta = meta;
	if (!distribute) body.distribute = false;
	const document = await signingRequest(this, {
		method: 'POST',
		path: `/api/v2/templates/${encodeURIComponent(templateId)}/generate-document`,
		body,
		itemIndex,
		errorHints: { 404: templateNotFoundHint(templateId) },
	});
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const includeSigningUrls =
		typeof options.includeSigningUrls === 'boolean'
			? options.includeSigningUrls
			: !runsAsTool(this);
	const output = includeSigningUrls ? document : withoutSigningUrls(document);
	// The service's answer does not repeat the template; the one shape names it.
	return wantsSimplified(this, itemIndex) ? simplifyDocument({ templateId, ...output }) : output;
}

/** A signing URL lets anyone sign as its recipient: an agent's context is no place for it. */
function withoutSigningUrls(document: IDataObject): IDataObject {
	if (!Array.isArray(document.recipients)) return document;
	return {
		...document,
		recipients: (document.recipients as IDataObject[]).map((recipient) => {
			const withoutUrl = { ...recipient };
			delete withoutUrl.signingUrl;
			return withoutUrl;
		}),
	};
}
