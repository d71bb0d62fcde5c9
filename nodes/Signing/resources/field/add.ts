import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { requiredId } from '../../../shared/validation';
import { consentTo } from '../../personalData';
import { checkedField, fieldValues } from '../document/fieldPlacements';
import { fieldsOf } from './fieldsOf';

const show = { resource: ['field'], operation: ['add'] };
const ONLY_AT: Record<string, 'text' | 'position'> = {
	placeholder: 'text',
	matchAll: 'text',
	page: 'position',
	x: 'position',
	y: 'position',
};

export const addDescription: INodeProperties[] = [
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1001',
		description: 'The document to place the field on: its number (documentId) or envelope_… ID',
		displayOptions: { show },
	},
	...fieldValues(
		'Whose field: the recipient’s ID (recipientId in Document → Get) or e-mail address',
	).map((property) => ({
		...property,
		displayOptions: {
			show: ONLY_AT[property.name] ? { ...show, placement: [ONLY_AT[property.name]] } : show,
		},
	})),
];

const FIELD_PARAMETERS = [
	'recipient',
	'type',
	'placeholder',
	'matchAll',
	'page',
	'x',
	'y',
	'width',
	'height',
	'label',
	'required',
];

/** Places one field (or one at every occurrence of its text) for a recipient of a document. */
export async function add(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	requireToolConsent(this, itemIndex, consentTo('Changing the fields of documents'));
	const { fields } = await fieldsOf(this, itemIndex, 'Add');
	const documentId = requiredId(this, itemIndex, 'documentId', 'Document ID');
	const placement = this.getNodeParameter('placement', itemIndex, 'text') as string;
	// Only what the chosen placement shows: n8n leaves hidden parameters out of the node, and
	// reading one fails the node ("Could not get parameter").
	const given = {
		placement,
		...Object.fromEntries(
			FIELD_PARAMETERS.filter((name) => (ONLY_AT[name] ?? placement) === placement).map((name) => [
				name,
				this.getNodeParameter(name, itemIndex, null),
			]),
		),
	};
	const field = checkedField(
		this,
		itemIndex,
		given,
		(name) => name ?? 'Field',
		() => requiredId(this, itemIndex, 'recipient', 'Recipient'),
	);
	return await fields.add(this, documentId, field, itemIndex);
}
