import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { invalidInput } from '../../../shared/validation';
import { signingPages, signingRequest } from '../../transport';

export const TEMPLATE_ID_HINT =
	'Pick the template From List, or give its ID (tpl_…): Template → Get Many lists every template with its ID, as does the service’s template page.';

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

/** The error hint for a 404 on a path with the template in it. */
export const templateNotFoundHint = (templateId: string) =>
	`Check the Template parameter: the service has no template with ID "${templateId}". ${TEMPLATE_ID_HINT}`;

export async function getTemplate(
	ctx: IExecuteFunctions | ILoadOptionsFunctions,
	templateId: string,
	itemIndex?: number,
): Promise<IDataObject> {
	return await signingRequest(ctx, {
		method: 'GET',
		path: `/api/v2/templates/${encodeURIComponent(templateId)}`,
		itemIndex,
		errorHints: { 404: templateNotFoundHint(templateId) },
	});
}

export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const templates = await signingPages(this, { path: '/api/v2/templates' });
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
