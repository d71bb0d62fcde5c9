import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PrefillValue } from '../../adapters';
import { invalidInput } from '../../../shared/validation';
import { prefillValue } from './prefillValue';

/** Values written into the template's fields before anyone signs, checked against the template. */

const show = { resource: ['document'], operation: ['generateFromTemplate'] };

export const prefillDescription: INodeProperties[] = [
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
		displayOptions: { show },
	},
	{
		displayName: 'Prefill Fields',
		name: 'prefillFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Field',
		description: 'Values filled into the template’s fields before anyone signs',
		displayOptions: { show: { ...show, prefillInput: ['fields'] } },
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
							'As the field’s type wants it (shown under each field in the list): text; a number; a date as YYYY-MM-DD, or a date from an expression such as {{ $now }} (its day in the workflow’s time zone); true or false for a checkbox; one of the options for a dropdown or radio buttons',
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
		description: 'Array of fields, each with the field’s ID (fld_…; a number on Documenso) and its value',
		hint: 'For example: {{ [{ "id": "fld_residency_start_date", "value": $json.startDate }] }}. Template → Get lists a template’s field IDs.',
		displayOptions: { show: { ...show, prefillInput: ['json'] } },
	},
];

/** The prefill entries as given, before they are checked against the template. */
export function prefillFromParameters(ctx: IExecuteFunctions, itemIndex: number): unknown[] {
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
 * A field is named by its ID (a number given as text counts) or, without one, by its label.
 */
export function readPrefillFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	template: IDataObject,
	entries: unknown[] = prefillFromParameters(ctx, itemIndex),
): PrefillValue[] {
	const fields = (template.fields as IDataObject[] | undefined) ?? [];
	const seen = new Set<string>();
	return entries.map((entry, position) => {
		const at = `Prefill Fields › field ${position + 1}`;
		if (entry === null || typeof entry !== 'object') {
			throw invalidInput(ctx, itemIndex, at, 'must be an object with id and value');
		}
		const { id, label, value } = entry as IDataObject;
		const wanted = String(id ?? '').trim();
		const field = fields.find(
			(candidate) =>
				(wanted !== '' && String(candidate.id) === wanted) || (wanted === '' && candidate.label === label),
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
		return { id: String(field.id), value: prefillValue(ctx, itemIndex, name, field, value), field };
	});
}
