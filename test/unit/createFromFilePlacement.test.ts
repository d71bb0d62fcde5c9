/**
 * Issue 43 item 7: Create From File (documents and templates) shows only the placement inputs of
 * the field's Placement, as Field → Add does: Placeholder and Match All at a Text, Page, X and Y at
 * a Position; Width, Height, Label and Required for both. Visibility is resolved with n8n-workflow's
 * NodeHelpers on the field's own values, as the editor resolves a fixedCollection entry.
 */
import type { INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';

const signing = new Signing();

function fieldValuesOf(resource: string): INodeProperties[] {
	const fields = signing.description.properties.find(
		(property) => property.name === 'uploadFields' && property.displayOptions?.show?.resource?.includes(resource),
	)!;
	return (fields.options as Array<{ values: INodeProperties[] }>)[0].values;
}

describe.each(['document', 'template'])('%s → Create From File: a field’s inputs', (resource) => {
	const values = fieldValuesOf(resource);
	const shownFor = (placement: string) =>
		values
			.filter((value) => NodeHelpers.displayParameter({ placement }, value, { typeVersion: 2 }, signing.description))
			.map((value) => value.name);

	it('at a Text: the Placeholder and Match All, no Page, X or Y', () => {
		expect(shownFor('text')).toEqual(['recipient', 'type', 'placement', 'placeholder', 'matchAll', 'width', 'height', 'label', 'required']);
	});

	it('at a Position: Page, X and Y, no Placeholder or Match All', () => {
		expect(shownFor('position')).toEqual(['recipient', 'type', 'placement', 'page', 'x', 'y', 'width', 'height', 'label', 'required']);
	});
});

describe('Field → Update', () => {
	it('offers every position input, whatever the field’s placement was', () => {
		const update = signing.description.properties.find(
			(property) => property.name === 'updateFields' && property.displayOptions?.show?.resource?.includes('field'),
		)!;
		const options = update.options as INodeProperties[];
		expect(options.filter((option) => option.displayOptions).map((option) => option.name)).toEqual([]);
		expect(options.map((option) => option.name)).toEqual(expect.arrayContaining(['page', 'x', 'y', 'width', 'height']));
	});
});
