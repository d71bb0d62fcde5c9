import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { isEmail, invalidInput, listEntryLabel, requiredString } from '../../../shared/validation';
import { surveyAdapter, surveyApis } from '../../adapters';

/** The default attributes every Formbricks workspace has, offered as fields of their own. */
const STANDARD_ATTRIBUTES = [
	{ displayName: 'First Name', name: 'firstName' },
	{ displayName: 'Last Name', name: 'lastName' },
	{ displayName: 'User ID', name: 'userId', description: 'Your own identifier for the person, unique in the workspace (Formbricks links responses to the contact by it)' },
	{ displayName: 'Language', name: 'language', description: 'The contact’s language code, e.g. de, for surveys in several languages' },
];

/** Email, the standard attributes and custom ones: what Create and Create Many write. */
export function contactFields(show: IDataObject): INodeProperties[] {
	const displayOptions = { show: show as Record<string, string[]> };
	return [
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			required: true,
			default: '',
			description: 'The contact’s e-mail address: Formbricks keeps one contact per address in a workspace',
			displayOptions,
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions,
			options: STANDARD_ATTRIBUTES.map(({ displayName, name, description }) => ({
				displayName,
				name,
				type: 'string',
				default: '',
				...(description ? { description } : {}),
			})),
		},
		{
			displayName: 'Custom Attributes',
			name: 'customAttributes',
			type: 'fixedCollection',
			placeholder: 'Add Attribute',
			typeOptions: { multipleValues: true },
			default: {},
			displayOptions,
			options: [
				{
					displayName: 'Attribute',
					name: 'attribute',
					values: [
						{
							displayName: 'Key Name or ID',
							name: 'key',
							type: 'options',
							typeOptions: { loadOptionsMethod: 'getContactAttributeKeys' },
							default: '',
							description:
								'An attribute key of the workspace, or a new one (lowercase letters, digits and underscores). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						},
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
						},
					],
				},
			],
		},
	];
}

/** The attributes an item gives a contact, checked before anything is sent. */
export function readContactAttributes(ctx: IExecuteFunctions, itemIndex: number): Record<string, string> {
	const email = requiredString(ctx, itemIndex, 'email', 'Email');
	if (!isEmail(email)) throw invalidInput(ctx, itemIndex, 'Email', `"${email}" is not an e-mail address`);
	const attributes: Record<string, string> = { email };
	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	for (const { name } of STANDARD_ATTRIBUTES) {
		const value = String(additional[name] ?? '').trim();
		if (value !== '') attributes[name] = value;
	}
	const custom = ((ctx.getNodeParameter('customAttributes', itemIndex, {}) as IDataObject).attribute ?? []) as IDataObject[];
	custom.forEach((entry, position) => {
		const key = String(entry.key ?? '').trim();
		if (key === '') throw invalidInput(ctx, itemIndex, listEntryLabel('Custom Attributes', 'attribute', position, 'Key'), 'must not be empty');
		if (key in attributes) {
			throw invalidInput(ctx, itemIndex, listEntryLabel('Custom Attributes', 'attribute', position, 'Key'), `"${key}" is given twice`);
		}
		attributes[key] = String(entry.value ?? '');
	});
	return attributes;
}

/** The workspace's attribute keys for the Custom Attributes picker, the default ones left out (they have fields of their own). */
export async function getContactAttributeKeys(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const contacts = surveyApis.capability(this, await surveyAdapter(this), 'contacts', 'Contact attribute keys');
	const standard = new Set(['email', ...STANDARD_ATTRIBUTES.map(({ name }) => name)]);
	return (await contacts.attributeKeys(this))
		.filter((key) => !standard.has(String(key.key)))
		.map((key) => ({ name: String(key.name ?? key.key), value: String(key.key), description: String(key.key) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
