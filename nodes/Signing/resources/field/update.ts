import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { checkedInteger, invalidInput } from '../../../shared/validation';
import { consentTo } from '../../personalData';
import { checkWithinPage, fieldValues } from '../document/fieldPlacements';
import { fieldsOf } from './fieldsOf';

const CHANGEABLE = ['page', 'x', 'y', 'width', 'height', 'label', 'required'];

export const updateDescription: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['field'], operation: ['update'] } },
		options: fieldValues('')
			.filter((property) => CHANGEABLE.includes(property.name))
			// A field's position is changed whatever its placement was: no option hides another here.
			.map((property) => {
				const option = { ...property };
				delete option.displayOptions;
				return option;
			}),
	},
];

/** Moves, resizes or relabels a field not filled in yet. */
export async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Changing the fields of documents'));
	const { fields, fieldId } = await fieldsOf(this, itemIndex, 'Update');
	const id = fieldId();
	const given = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const position: Record<string, number> = {};
	if (given.page !== undefined)
		position.page = checkedInteger(this, itemIndex, given.page, 'Update Fields › Page', { min: 1 });
	for (const [name, label] of [
		['x', 'X (%)'],
		['y', 'Y (%)'],
		['width', 'Width (%)'],
		['height', 'Height (%)'],
	]) {
		if (given[name] === undefined) continue;
		const value = Number(given[name]);
		if (
			!Number.isFinite(value) ||
			value < 0 ||
			value > 100 ||
			(value === 0 && (name === 'width' || name === 'height'))
		) {
			throw invalidInput(
				this,
				itemIndex,
				`Update Fields › ${label}`,
				`${JSON.stringify(given[name])} is not a percentage of the page`,
			);
		}
		position[name] = value;
	}
	checkWithinPage(this, itemIndex, position, (label) => `Update Fields › ${label}`);
	const meta: IDataObject = {};
	if (typeof given.label === 'string') meta.label = given.label.trim();
	if (typeof given.required === 'boolean') meta.required = given.required;
	if (Object.keys(position).length === 0 && Object.keys(meta).length === 0) {
		throw invalidInput(this, itemIndex, 'Update Fields', 'add at least one field to change');
	}
	return await fields.update(this, id, { position, meta }, itemIndex);
}
