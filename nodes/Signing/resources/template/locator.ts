import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { RequestContext } from '../../../shared/request';
import { invalidInput } from '../../../shared/validation';
import { signingAdapter } from '../../adapters';
import { templateIdHint } from '../../hints';
import { slotWords } from '../document/recipients';

export const TEMPLATE_ID_HINT = templateIdHint('tpl_…; on Documenso a number such as 1');

/** The template, picked from the service's list (searchable by title) or given by ID. */
export function templateLocator(
	show: Record<string, string[]>,
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: 'Template',
		name: 'templateId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description:
			'The stored template; its recipients’ placeholders and prefillable fields come from it',
		hint: TEMPLATE_ID_HINT,
		displayOptions: { show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a template...',
				typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'tpl_…',
			},
		],
		...overrides,
	};
}

/** The chosen template's ID; `.` and `..` would change the request path, so they are refused. */
export function readTemplateId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameter = 'templateId',
): string {
	const value = ctx.getNodeParameter(parameter, itemIndex, '', { extractValue: true }) as unknown;
	const id = String(value ?? '').trim();
	if (id === '') throw invalidInput(ctx, itemIndex, 'Template', 'pick a template or give its ID');
	if (id === '.' || id === '..') {
		throw invalidInput(ctx, itemIndex, 'Template', `"${id}" is not a valid ID`);
	}
	return id;
}

export async function getTemplate(
	ctx: RequestContext,
	templateId: string,
	itemIndex?: number,
): Promise<IDataObject> {
	const adapter = await signingAdapter(ctx, itemIndex);
	return await adapter.getTemplate(ctx, templateId, itemIndex);
}

export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const adapter = await signingAdapter(this);
	// Where the API files templates in folders, every folder's: its list reads the root only.
	const templates = adapter.folders
		? await adapter.folders.listIn(this, 'TEMPLATE', 'all', {}, undefined)
		: await adapter.listTemplates(this);
	const needle = filter?.trim().toLowerCase() ?? '';
	return {
		results: templates
			.filter((template) => String(template.title).toLowerCase().includes(needle))
			.map((template) => ({ name: String(template.title), value: String(template.id) })),
	};
}

const FIELD_TYPE_NAMES: Record<string, string> = {
	checkbox: 'Checkbox: true or false',
	date: 'Date: YYYY-MM-DD',
	dropdown: 'Dropdown',
	number: 'Number',
	text: 'Text',
};

/** The prefillable fields of the template chosen in this node, by label. */
export async function getTemplateFields(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const templateId = String(
		this.getCurrentNodeParameter('templateId', { extractValue: true }) ?? '',
	).trim();
	if (templateId === '') return [];
	const template = await getTemplate(this, templateId);
	return ((template.fields as IDataObject[] | undefined) ?? []).map((field) => {
		const options = Array.isArray(field.options) ? `: ${field.options.join(', ')}` : '';
		return {
			name: String(field.label),
			value: String(field.id),
			description: `${FIELD_TYPE_NAMES[String(field.type)] ?? String(field.type)}${options}`,
		};
	});
}

/**
 * The Template Slot left empty, a choice of its own: n8n marks a value its options do not list
 * ("The value "" is not supported!").
 */
const FIRST_FREE_SLOT: INodePropertyOptions = {
	name: 'First Free Slot of the Role Below',
	value: '',
	description: 'No slot chosen: this person takes the first slot of the template with the Role below that nobody else fills',
};

/**
 * The recipient slots of the template chosen in this node: each with its role and placeholder
 * (name and address), so that a person is mapped to the slot they are. The value is the slot's ID
 * where the API has slots (Documenso), else its placeholder name.
 */
export async function getTemplateSlots(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const templateId = String(
		this.getCurrentNodeParameter('templateId', { extractValue: true }) ?? '',
	).trim();
	if (templateId === '') return [FIRST_FREE_SLOT];
	const template = await getTemplate(this, templateId);
	const slots = ((template.recipients as IDataObject[] | undefined) ?? []).map((slot) => ({
		name: slotWords(slot),
		value: String(slot.id ?? slot.placeholder),
		description:
			typeof slot.email === 'string' && slot.email !== ''
				? `${slot.hasRecipient === true ? 'The template names' : 'Placeholder'}: ${String(slot.name ?? '')} <${slot.email}>`
				: `Placeholder: ${String(slot.placeholder)}`,
	}));
	return [FIRST_FREE_SLOT, ...slots];
}
