/**
 * Issue 18 item 6: the canvas shows each node's subtitle; it must read as words, never as the
 * code names of resources, operations or events ("generateFromTemplate: document").
 * Subtitles are evaluated with n8n-workflow's own expression code, as the editor does.
 */
import type { INode, INodeProperties, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { SigningTrigger } from '../../nodes/Signing/SigningTrigger.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';

const NODES: INodeType[] = [
	new Signing(),
	new SigningTrigger(),
	new Bookmarks(),
	new BookmarksTrigger(),
	new Survey(),
	new SurveyTrigger(),
];

const nodeTypes: INodeTypes = {
	getByName: (type: string) => NODES.find((node) => node.description.name === type) as INodeType | IVersionedNodeType,
	getByNameAndVersion: (type: string) => NODES.find((node) => node.description.name === type) as INodeType,
	getKnownTypes: () => ({}),
};

function subtitleOf(nodeType: INodeType, parameters: INode['parameters']): string {
	const node: INode = {
		id: 'n',
		name: nodeType.description.defaults.name ?? 'n',
		type: nodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return String(workflow.expression.getSimpleParameterValue(node, nodeType.description.subtitle!, 'internal', {}));
}

const optionValues = (property: INodeProperties) =>
	(property.options ?? []).filter((option) => 'value' in option).map((option) => String((option as { value: unknown }).value));

/** Every resource/operation pair an action node offers, read from its description. */
function operations(nodeType: INodeType): Array<{ resource: string; operation: string }> {
	const properties = nodeType.description.properties;
	const resources = optionValues(properties.find((p) => p.name === 'resource')!);
	return properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) =>
			((p.displayOptions?.show?.resource ?? []) as string[])
				.filter((resource) => resources.includes(resource))
				.flatMap((resource) => optionValues(p).map((operation) => ({ resource, operation }))),
		);
}

/** What a person reads: words, capitalised, no camelCase, no dotted or colon-joined code names. */
function expectReadable(subtitle: string, codeNames: string[]) {
	expect(subtitle).toMatch(/^[A-Z]/);
	expect(subtitle).not.toMatch(/[a-z][A-Z]/);
	expect(subtitle).not.toMatch(/\w[.:_]\w/);
	for (const codeName of codeNames.filter((name) => /[A-Z._]/.test(name))) expect(subtitle).not.toContain(codeName);
}

describe('Subtitles read as words', () => {
	const actionNodes = NODES.filter((node) => node.description.properties.some((p) => p.name === 'operation'));

	it.each(actionNodes.map((node) => [node.description.displayName, node] as const))(
		'%s: every operation has a readable subtitle',
		(_, nodeType) => {
			const pairs = operations(nodeType);
			expect(pairs.length).toBeGreaterThan(0);
			for (const { resource, operation } of pairs) {
				const subtitle = subtitleOf(nodeType, { resource, operation });
				expect({ resource, operation, subtitle }).toEqual({ resource, operation, subtitle: expect.any(String) });
				expect({ resource, operation, empty: subtitle.trim() === '' }).toEqual({ resource, operation, empty: false });
				expectReadable(subtitle, [resource, operation]);
			}
		},
	);

	it('says what the issue asked for', () => {
		expect(subtitleOf(new Signing(), { resource: 'document', operation: 'generateFromTemplate' })).toBe(
			'Generate from template',
		);
		expect(subtitleOf(new Survey(), { resource: 'applicantRecords', operation: 'export' })).toBe(
			'Export applicant records',
		);
		expect(subtitleOf(new Bookmarks(), { resource: 'bookmark', operation: 'getMany' })).toBe('Get many bookmarks');
	});

	it.each([new SigningTrigger(), new SurveyTrigger()].map((node) => [node.description.displayName, node] as const))(
		'%s: the selected events read as words',
		(_, nodeType) => {
			const events = optionValues(nodeType.description.properties.find((p) => p.name === 'events')!);
			expect(events.length).toBeGreaterThan(0);
			for (const event of events) expectReadable(subtitleOf(nodeType, { events: [event] }), [event]);
			const all = subtitleOf(nodeType, { events });
			expect(all.split(', ')).toHaveLength(events.length);
			expectReadable(all, events);
		},
	);

	it('reads "Response finished" and "Document completed" for the flagship events', () => {
		expect(subtitleOf(new SurveyTrigger(), { events: ['responseFinished'] })).toBe('Response finished');
		expect(subtitleOf(new SigningTrigger(), { events: ['document.completed', 'document.signed'] })).toBe(
			'Document completed, Document signed',
		);
	});

	it('Bookmarks Trigger', () => {
		expectReadable(subtitleOf(new BookmarksTrigger(), {}), []);
	});
});
