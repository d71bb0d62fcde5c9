import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { checkedInteger, invalidInput, listEntryLabel } from '../../../shared/validation';
import type { FieldPlacement, FieldPosition } from '../../adapters';
import { jsonList } from './uploadRecipients';

/** The field types a recipient fills in (Documenso's FieldType; radio and dropdown need choices, given in the web app). */
export const FIELD_TYPE_OPTIONS = [
	{ name: 'Checkbox', value: 'CHECKBOX' },
	{ name: 'Date', value: 'DATE', description: 'The date of signing' },
	{ name: 'Email', value: 'EMAIL', description: 'The recipient’s e-mail address' },
	{
		name: 'Free Signature',
		value: 'FREE_SIGNATURE',
		description: 'A signature drawn without a box',
	},
	{ name: 'Initials', value: 'INITIALS' },
	{ name: 'Name', value: 'NAME', description: 'The recipient’s name' },
	{ name: 'Number', value: 'NUMBER' },
	{ name: 'Signature', value: 'SIGNATURE' },
	{ name: 'Text', value: 'TEXT' },
];
const FIELD_TYPES = FIELD_TYPE_OPTIONS.map((option) => option.value);

/**
 * The values of one field. Placeholder and Match All are shown at a Text, Page, X and Y at a
 * Position: conditions on their sibling Placement only, which n8n 1.x resolves too (a condition on
 * a parameter outside the field is what it cannot, test/unit/compatibility.test.ts). A hidden value
 * is never read (checkedField reads those of the field's placement).
 */
export const fieldValues = (recipientDescription: string, recipientDefault = ''): INodeProperties[] => [
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		default: recipientDefault,
		required: true,
		description: recipientDescription,
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'SIGNATURE',
		options: FIELD_TYPE_OPTIONS,
	},
	{
		displayName: 'Placement',
		name: 'placement',
		type: 'options',
		default: 'text',
		options: [
			{
				name: 'At a Text in the PDF',
				value: 'text',
				description: 'Where the Placeholder text is, e.g. [[sign-ada]] (its text is covered)',
			},
			{
				name: 'At a Position',
				value: 'position',
				description: 'Page, X, Y, Width and Height in percent of the page',
			},
		],
	},
	{
		displayName: 'Placeholder',
		name: 'placeholder',
		type: 'string',
		default: '',
		placeholder: '[[sign-ada]]',
		description: 'The text in the PDF the field goes on, exactly as written there',
		displayOptions: { show: { placement: ['text'] } },
	},
	{
		displayName: 'Match All',
		name: 'matchAll',
		type: 'boolean',
		default: false,
		description: 'Whether to place a field on every occurrence of the Placeholder, not only the first',
		displayOptions: { show: { placement: ['text'] } },
	},
	{
		displayName: 'Page',
		name: 'page',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 1,
		description: 'The page, from 1',
		displayOptions: { show: { placement: ['position'] } },
	},
	{
		displayName: 'X (%)',
		name: 'x',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 0,
		description: 'Left edge, in percent of the page’s width from its left',
		displayOptions: { show: { placement: ['position'] } },
	},
	{
		displayName: 'Y (%)',
		name: 'y',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 0,
		description: 'Top edge, in percent of the page’s height from its top',
		displayOptions: { show: { placement: ['position'] } },
	},
	{
		displayName: 'Width (%)',
		name: 'width',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 0,
		description: 'In percent of the page’s width. At a Text, 0: the width of the text.',
	},
	{
		displayName: 'Height (%)',
		name: 'height',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 0,
		description: 'In percent of the page’s height. At a Text, 0: the height of the text.',
	},
	{
		displayName: 'Label',
		name: 'label',
		type: 'string',
		default: '',
		description: 'What the field asks, shown to the signer',
	},
	{
		displayName: 'Required',
		name: 'required',
		type: 'boolean',
		default: false,
		description: 'Whether the recipient must fill the field in (signature fields always are)',
	},
];

/** The Fields of Create From File: one by one, or as a JSON array. */
export function fieldsProperties(show: NonNullable<IDisplayOptions['show']>): INodeProperties[] {
	return [
		{
			displayName: 'Fields Input',
			name: 'uploadFieldsInput',
			type: 'options',
			default: 'fields',
			options: [
				{ name: 'Define Below', value: 'fields', description: 'Enter each field one by one' },
				{
					name: 'From Expression (JSON Array)',
					value: 'json',
					description: 'Give all fields as one array',
				},
			],
			displayOptions: { show },
		},
		{
			displayName: 'Fields',
			name: 'uploadFields',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			default: {},
			placeholder: 'Add Field',
			description: 'What each recipient fills in, and where',
			displayOptions: { show: { ...show, uploadFieldsInput: ['fields'] } },
			options: [
				{
					displayName: 'Field',
					name: 'field',
					values: fieldValues(
						'Whose field: the recipient’s number in Recipients (1 = the first) or e-mail address',
						'1',
					),
				},
			],
		},
		{
			displayName: 'Fields (JSON)',
			name: 'uploadFieldsJson',
			type: 'json',
			default:
				'[\n  {\n    "recipient": 1,\n    "type": "SIGNATURE",\n    "placeholder": "[[sign-1]]"\n  }\n]',
			description:
				'Array of fields, each with recipient (number from 1, or e-mail), type, and either placeholder (and matchAll, width, height) or page, x, y, width, height (percent); optionally label and required',
			displayOptions: { show: { ...show, uploadFieldsInput: ['json'] } },
		},
	];
}

const isGiven = (value: unknown) => value !== undefined && value !== null && value !== '';

/** A percentage of the page, or an error naming the field. */
function percent(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
	options: { positive: boolean },
): number {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value)
				: Number.NaN;
	if (
		!Number.isFinite(number) ||
		number < 0 ||
		number > 100 ||
		(options.positive && number === 0)
	) {
		throw invalidInput(
			ctx,
			itemIndex,
			label,
			`${JSON.stringify(value)} is not a percentage of the page ${options.positive ? 'above 0 and up to 100' : 'from 0 to 100'}`,
		);
	}
	return number;
}

/**
 * A field at a position ends on its page: X + Width and Y + Height at most 100 (percent of the
 * page). Documenso takes a field past the edge and the signer cannot reach all of it.
 */
export function checkWithinPage(
	ctx: IExecuteFunctions,
	itemIndex: number,
	position: { x?: number; y?: number; width?: number; height?: number },
	at: (field: string) => string,
): void {
	const edges = [
		['x', 'width', 'X (%)', 'Width (%)', 'right'],
		['y', 'height', 'Y (%)', 'Height (%)', 'bottom'],
	] as const;
	for (const [start, size, startLabel, sizeLabel, edge] of edges) {
		const [from, extent] = [position[start], position[size]];
		if (from === undefined || extent === undefined || from + extent <= 100) continue;
		throw invalidInput(
			ctx,
			itemIndex,
			at(sizeLabel),
			`${startLabel} ${from} + ${sizeLabel} ${extent} is ${from + extent}: the field runs past the page’s ${edge} edge (at most 100)`,
		);
	}
}

/**
 * One field as given (`placement` "text" or "position"; JSON may leave it out: a `placeholder`
 * means at a text), checked. `recipientOf` turns its Recipient into whose field it is, or throws.
 */
export function checkedField<Recipient = number>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	entry: unknown,
	at: (field?: string) => string,
	recipientOf: (value: unknown, label: string) => Recipient,
): Omit<FieldPlacement, 'recipient'> & { recipient: Recipient } {
	if (entry === null || typeof entry !== 'object') {
		throw invalidInput(
			ctx,
			itemIndex,
			at(),
			'must be an object with recipient, type and a placeholder or a position',
		);
	}
	const given = entry as IDataObject;
	const type = String(given.type ?? 'SIGNATURE')
		.trim()
		.toUpperCase();
	if (!FIELD_TYPES.includes(type)) {
		throw invalidInput(
			ctx,
			itemIndex,
			at('Type'),
			`"${String(given.type)}" is not one of ${FIELD_TYPES.join(', ')}`,
		);
	}
	const recipient = recipientOf(given.recipient, at('Recipient'));
	const byText =
		given.placement === undefined ? isGiven(given.placeholder) : given.placement === 'text';
	let position: FieldPosition;
	if (byText) {
		const placeholder = typeof given.placeholder === 'string' ? given.placeholder : '';
		if (placeholder.trim() === '') {
			throw invalidInput(
				ctx,
				itemIndex,
				at('Placeholder'),
				'must not be empty for a field at a text of the PDF',
			);
		}
		position = { placeholder };
		const width = isGiven(given.width)
			? percent(ctx, itemIndex, given.width, at('Width (%)'), { positive: false })
			: 0;
		const height = isGiven(given.height)
			? percent(ctx, itemIndex, given.height, at('Height (%)'), { positive: false })
			: 0;
		if (width > 0) position.width = width;
		if (height > 0) position.height = height;
		if (given.matchAll === true) position.matchAll = true;
	} else {
		position = {
			page: checkedInteger(ctx, itemIndex, given.page ?? 1, at('Page'), { min: 1 }),
			x: percent(ctx, itemIndex, given.x ?? given.positionX ?? 0, at('X (%)'), { positive: false }),
			y: percent(ctx, itemIndex, given.y ?? given.positionY ?? 0, at('Y (%)'), { positive: false }),
			width: percent(ctx, itemIndex, given.width, at('Width (%)'), { positive: true }),
			height: percent(ctx, itemIndex, given.height, at('Height (%)'), { positive: true }),
		};
		checkWithinPage(ctx, itemIndex, position, at);
	}
	const meta: IDataObject = {};
	if (typeof given.label === 'string' && given.label.trim() !== '') meta.label = given.label.trim();
	if (given.required === true) meta.required = true;
	return { recipient, type, position, meta, label: at() };
}

/**
 * Whose field it is among `recipients`: a number counts from 1, anything else is an e-mail address
 * (any case). A field for nobody is an error before anything is sent.
 */
export function recipientIndexOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	recipients: Array<{ email: string }>,
): (value: unknown, label: string) => number {
	return (value, label) => {
		const text = String(value ?? '').trim();
		const known = `${recipients.length} recipient(s): ${recipients.map((recipient, index) => `${index + 1} ${recipient.email}`).join(', ') || 'none'}`;
		if (/^\d+$/.test(text)) {
			const number = Number(text);
			if (number >= 1 && number <= recipients.length) return number - 1;
			throw invalidInput(
				ctx,
				itemIndex,
				label,
				`there is no recipient ${number}; the document has ${known}`,
			);
		}
		const index = recipients.findIndex(
			(recipient) => recipient.email.toLowerCase() === text.toLowerCase(),
		);
		if (index >= 0) return index;
		throw invalidInput(
			ctx,
			itemIndex,
			label,
			`"${text}" is none of the recipients; the document has ${known}`,
		);
	};
}

/** Roles Documenso gives no fields (canRecipientFieldsBeModified), as Field → Add says too. */
const WITHOUT_FIELDS: Record<string, string> = { CC: 'in CC', VIEWER: 'a viewer' };

/** The fields of Create From File, each for one of `recipients` who can have fields, checked. */
export function readFieldPlacements(
	ctx: IExecuteFunctions,
	itemIndex: number,
	recipients: Array<{ email: string; role?: string }>,
): FieldPlacement[] {
	const raw =
		ctx.getNodeParameter('uploadFieldsInput', itemIndex, 'fields') === 'json'
			? jsonList(ctx, itemIndex, 'uploadFieldsJson', 'Fields (JSON)')
			: (((ctx.getNodeParameter('uploadFields', itemIndex, {}) as { field?: IDataObject[] })
					.field ?? []) as unknown[]);
	const recipientOf = recipientIndexOf(ctx, itemIndex, recipients);
	return raw.map((entry, position) => {
		const at = (field?: string) => listEntryLabel('Fields', 'field', position, field);
		const field = checkedField(ctx, itemIndex, entry, at, recipientOf);
		const { email, role = '' } = recipients[field.recipient];
		if (role in WITHOUT_FIELDS) {
			throw invalidInput(
				ctx,
				itemIndex,
				at('Recipient'),
				`recipient ${field.recipient + 1} (${email}) is ${WITHOUT_FIELDS[role]}: Documenso gives such recipients no fields`,
			);
		}
		return field;
	});
}
