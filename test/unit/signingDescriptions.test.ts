/**
 * What the Signing node's parameters say and hold by default, operation by operation: defaults
 * and wording that belong to one operation must not leak into another that shares the parameter.
 */
import type { INodeProperties } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';

const properties = new Signing().description.properties;

/** The top-level parameter `name` shown for the resource and operation. */
function parameter(resource: string, operation: string, name: string): INodeProperties {
	const found = properties.filter(
		(property) =>
			property.name === name &&
			(property.displayOptions?.show?.resource ?? [resource]).includes(resource) &&
			(property.displayOptions?.show?.operation ?? [operation]).includes(operation),
	);
	expect(found).toHaveLength(1);
	return found[0];
}

describe('Signing node parameters', () => {
	it('Field → Add has no Recipient by default: its Recipient is an ID or e-mail, not Create From File’s "1 = the first"', () => {
		expect(parameter('field', 'add', 'recipient').default).toBe('');
		const fields = parameter('document', 'createFromFile', 'uploadFields');
		const [field] = fields.options as Array<{ values: INodeProperties[] }>;
		expect(field.values.find((value) => value.name === 'recipient')?.default).toBe('1');
	});
});

describe('Create From File options, in the words of what is uploaded', () => {
	const option = (resource: string, name: string) =>
		(parameter(resource, 'createFromFile', 'options').options as INodeProperties[]).find(
			(property) => property.name === name,
		)!;
	const words = (property: INodeProperties) => JSON.stringify(property);

	it('Template → Create From File speaks of the template, and has no Send Now', () => {
		for (const name of ['externalId', 'folderId', 'ifExists']) {
			expect(words(option('template', name))).not.toMatch(/document|Send Now/i);
		}
		expect(option('template', 'ifExists').displayName).toBe(
			'If a Template With This External ID Exists',
		);
		expect(option('template', 'externalId').description).toContain(
			'"If a Template With This External ID Exists"',
		);
		expect(option('template', 'folderId').description).toContain('file the template in');
	});

	it('Document → Create From File keeps its wording, and the parameters keep their names', () => {
		expect(option('document', 'ifExists').displayName).toBe(
			'If a Document With This External ID Exists',
		);
		expect(words(option('document', 'ifExists'))).toContain('when Send Now is on');
		expect(option('document', 'folderId').description).toContain('file the document in');
	});
});
