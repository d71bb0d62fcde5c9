import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { RecipientInput, SlotAssignment } from '../../adapters';
import { invalidInput, isEmail, listEntryLabel } from '../../../shared/validation';
import { recipientNameAndEmail } from './uploadRecipients';

/**
 * Who a generated document goes to: the people given, each matched to one of the template's
 * recipient slots where the API fills slots (Documenso: a template lists its recipients, each
 * with a role and a placeholder name and address, and a document has exactly those).
 */

const show = { resource: ['document'], operation: ['generateFromTemplate'] };

export const RECIPIENT_ROLES = ['APPROVER', 'CC', 'SIGNER', 'VIEWER'] as const;

const ROLE_WORDS: Record<string, string> = {
	APPROVER: 'Approver',
	ASSISTANT: 'Assistant',
	CC: 'CC',
	SIGNER: 'Signer',
	VIEWER: 'Viewer',
};

export const recipientsDescription: INodeProperties[] = [
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
		displayOptions: { show },
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
		displayOptions: { show: { ...show, recipientsInput: ['fields'] } },
		options: [
			{
				displayName: 'Recipient',
				name: 'recipient',
				values: [
					{
						displayName: 'Template Slot Name or ID',
						name: 'slot',
						type: 'options',
						typeOptions: {
							loadOptionsMethod: 'getTemplateSlots',
							loadOptionsDependsOn: ['templateId.value'],
						},
						default: '',
						description:
							'The template’s recipient this person is (its role and placeholder are listed); the role then comes from the template. Documenso fills exactly the template’s slots: each needs somebody. First Free Slot of the Role Below (the default): the first slot of that role nobody else fills. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					...recipientNameAndEmail,
					{
						displayName: 'Role',
						name: 'role',
						type: 'options',
						default: 'SIGNER',
						description: 'Not used when a Template Slot is chosen: the slot’s role counts',
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
			'Array of recipients, each with name, email and role (SIGNER, APPROVER, VIEWER or CC; SIGNER when left out), and optionally slotId: the template slot (Template → Get lists them under recipients, with their ID)',
		hint: 'For example: {{ [{ "name": $json.data.fullName, "email": $json.data.email, "role": "SIGNER" }] }}. On Documenso each person fills a slot of the template: by slotId, else the first free slot of their role, else (no role given) the first free slot.',
		displayOptions: { show: { ...show, recipientsInput: ['json'] } },
	},
];

/** The option of Generate From Template's Options that says what happens to a slot nobody fills. */
export const unfilledSlotsOption: INodeProperties = {
	displayName: 'Template Slots Without Recipient',
	name: 'unfilledSlots',
	type: 'options',
	default: 'fail',
	description:
		'On Documenso every recipient slot of the template becomes a recipient of the document: what to do with a slot none of the recipients given fills',
	options: [
		{
			name: 'Fail',
			value: 'fail',
			description: 'Stop before anything is sent, naming the slot',
		},
		{
			name: 'Keep the Template’s Recipient',
			value: 'keep',
			description:
				'Leave the person the template names there (e.g. a fixed approver); a slot with only a placeholder address still fails',
		},
	],
};

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

const label = (position: number, field?: string) => listEntryLabel('Recipients', 'recipient', position, field);

/** The recipients as given, checked, or an error naming the first bad one. */
export function readRecipients(ctx: IExecuteFunctions, itemIndex: number): RecipientInput[] {
	const raw = recipientsFromParameters(ctx, itemIndex);
	if (raw.length === 0)
		throw invalidInput(ctx, itemIndex, 'Recipients', 'add at least one recipient');
	return raw.map((entry, position) => {
		if (entry === null || typeof entry !== 'object') {
			throw invalidInput(ctx, itemIndex, label(position), 'must be an object with name, email and role');
		}
		const { name, email, role, slot, slotId } = entry as IDataObject;
		const cleanName = typeof name === 'string' ? name.trim() : '';
		const cleanEmail = typeof email === 'string' ? email.trim() : '';
		const givenRole = typeof role === 'string' && role.trim() !== '' ? role.trim().toUpperCase() : undefined;
		const givenSlot = [slot, slotId].find(
			(value) => (typeof value === 'string' && value.trim() !== '') || typeof value === 'number',
		);
		if (cleanName === '') throw invalidInput(ctx, itemIndex, label(position, 'Name'), 'must not be empty');
		if (!isEmail(cleanEmail)) {
			throw invalidInput(
				ctx,
				itemIndex,
				label(position, 'Email'),
				`"${String(email ?? '')}" is not a valid e-mail address`,
			);
		}
		if (givenRole !== undefined && !(RECIPIENT_ROLES as readonly string[]).includes(givenRole)) {
			throw invalidInput(
				ctx,
				itemIndex,
				label(position, 'Role'),
				`"${String(role)}" is not one of ${RECIPIENT_ROLES.join(', ')}`,
			);
		}
		return {
			name: cleanName,
			email: cleanEmail,
			role: givenRole,
			slot: givenSlot === undefined ? undefined : String(givenSlot).trim(),
			position,
		};
	});
}

/** A slot as a person reads it: `Director (Approver, slot 2)`. */
export function slotWords(slot: IDataObject): string {
	const role = ROLE_WORDS[String(slot.role)] ?? String(slot.role);
	const id = slot.id === undefined || slot.id === null ? '' : `, slot ${String(slot.id)}`;
	return `${String(slot.placeholder)} (${role}${id})`;
}

/**
 * Matches the recipients to the template's slots: first those given a slot (by its ID, or by its
 * placeholder name), then those given a role (the first free slot of that role, in the template's
 * order), then the rest (the first free slot). Without `everySlot`, only the chosen slots count
 * (their role is the recipient's) and every recipient is kept as given. With `everySlot`, each
 * recipient needs a slot and each slot a recipient, unless `keepTemplateRecipients` and the
 * template names a real person there (`hasRecipient`); a placeholder is never left to be e-mailed.
 */
export function assignSlots(
	ctx: IExecuteFunctions,
	itemIndex: number,
	template: IDataObject,
	recipients: RecipientInput[],
	options: { everySlot: boolean; keepTemplateRecipients: boolean },
): SlotAssignment[] {
	const slots = ((template.recipients as IDataObject[] | undefined) ?? []).filter(
		(slot) => slot !== null && typeof slot === 'object',
	);
	const title = String(template.title ?? template.id);
	const known = slots.map(slotWords).join(', ') || 'none';
	const filledBy = new Map<IDataObject, RecipientInput>();
	const slotOf = new Map<RecipientInput, IDataObject>();
	const fill = (slot: IDataObject, recipient: RecipientInput) => {
		filledBy.set(slot, recipient);
		slotOf.set(recipient, slot);
	};

	for (const recipient of recipients.filter((candidate) => candidate.slot !== undefined)) {
		const slot =
			slots.find((candidate) => candidate.id !== undefined && String(candidate.id) === recipient.slot) ??
			slots.find((candidate) => candidate.placeholder === recipient.slot);
		if (!slot) {
			throw invalidInput(
				ctx,
				itemIndex,
				label(recipient.position, 'Template Slot'),
				`the template "${title}" has no slot "${recipient.slot}"; its slots are ${known}`,
			);
		}
		const other = filledBy.get(slot);
		if (other) {
			throw invalidInput(
				ctx,
				itemIndex,
				label(recipient.position, 'Template Slot'),
				`${slotWords(slot)} is given to recipient ${other.position + 1} already`,
			);
		}
		fill(slot, recipient);
	}
	if (!options.everySlot) return recipients.map((recipient) => ({ recipient, slot: slotOf.get(recipient) }));

	const free = (role?: string) =>
		slots.find((slot) => !filledBy.has(slot) && (role === undefined || slot.role === role));
	const unplaced = recipients.filter((recipient) => recipient.slot === undefined);
	for (const recipient of unplaced.filter((candidate) => candidate.role !== undefined)) {
		const slot = free(recipient.role);
		if (!slot) {
			throw invalidInput(
				ctx,
				itemIndex,
				label(recipient.position, 'Role'),
				`the template "${title}" has no ${ROLE_WORDS[recipient.role as string] ?? recipient.role} slot left for this recipient; its slots are ${known}. Choose the Template Slot (or give slotId) instead`,
			);
		}
		fill(slot, recipient);
	}
	for (const recipient of unplaced.filter((candidate) => candidate.role === undefined)) {
		const slot = free();
		if (!slot) {
			throw invalidInput(
				ctx,
				itemIndex,
				label(recipient.position),
				`the template "${title}" has ${slots.length} slot(s), all filled by the recipients before this one; its slots are ${known}`,
			);
		}
		fill(slot, recipient);
	}
	for (const slot of slots.filter((candidate) => !filledBy.has(candidate))) {
		if (options.keepTemplateRecipients && slot.hasRecipient === true) continue;
		const address = typeof slot.email === 'string' && slot.email !== '' ? ` ${slot.email}` : '';
		throw invalidInput(
			ctx,
			itemIndex,
			'Recipients',
			`nobody is given the template slot ${slotWords(slot)} of "${title}": add a recipient for it (Template Slot, or a ${ROLE_WORDS[String(slot.role)] ?? String(slot.role)})${
				slot.hasRecipient === true
					? `, or set Options › Template Slots Without Recipient to keep the template’s recipient${address}`
					: `; otherwise the service would invite its placeholder address${address}`
			}`,
		);
	}
	return slots.map((slot) => ({ slot, recipient: filledBy.get(slot) }));
}
