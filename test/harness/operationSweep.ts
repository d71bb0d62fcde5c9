/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The every-operation sweep (issue 41): one workflow node per resource × operation of an action
 * node, with its parameters as n8n's editor saves them. The editor keeps only what the node's
 * displayOptions show for the chosen resource and operation, and leaves out every value equal to
 * its default (`NodeHelpers.getNodeParameters(…, returnDefaults = false)`, as the editor's
 * `getNodeDataToSave` calls it): a node that reads a parameter it hides then fails in n8n with
 * `Could not get parameter`, as users saw Field → Add do.
 *
 * The values come from a table by parameter name (IDs of the sandbox's seed, or expressions that
 * read the output of a setup node in front of the operation, e.g. a draft made for Document →
 * Send); anything the table does not name keeps its default, so it is left out like the editor does.
 */
import type { INodeProperties, INodeTypeDescription, NodeParameterValueType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import * as path from 'node:path';

import { PACKAGE_NAME } from './n8n';
import { PROJECT_ROOT } from './paths';
import type { CredentialRef, WorkflowFile, WorkflowNode } from './provision';

type Values = Record<string, NodeParameterValueType>;

export interface Operation {
	resource: string;
	operation: string;
}

/** The built node's description, as n8n loads it from dist/. */
export function builtDescription(file: string, className: string): INodeTypeDescription {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = require(path.join(PROJECT_ROOT, 'dist', 'nodes', file)) as Record<string, new () => { description: INodeTypeDescription }>;
	return new exported[className]().description;
}

const versionOf = (description: INodeTypeDescription) =>
	description.defaultVersion ?? (Array.isArray(description.version) ? Math.max(...description.version) : description.version);

/** Every resource × operation the editor offers (the options of `operation` shown for each resource). */
export function operationsOf(description: INodeTypeDescription): Operation[] {
	const typeVersion = versionOf(description);
	const resources = description.properties.find((property) => property.name === 'resource')?.options ?? [];
	return resources.flatMap((resource) => {
		const values = { resource: (resource as { value: string }).value };
		return description.properties
			.filter(
				(property) =>
					property.name === 'operation' &&
					NodeHelpers.displayParameter(values, property, { typeVersion } as never, description),
			)
			.flatMap((property) => (property.options ?? []) as Array<{ value: string }>)
			.map((option) => ({ resource: values.resource, operation: option.value }));
	});
}

/** All parameters n8n's runtime has for these values: shown ones, with their defaults. */
export function shownParameters(description: INodeTypeDescription, values: Values): Values {
	const typeVersion = versionOf(description);
	return NodeHelpers.getNodeParameters(description.properties, values as never, true, false, { typeVersion, parameters: values } as never, description) as Values;
}

/** The parameters as the editor saves them: shown ones only, defaults left out. */
export function editorParameters(description: INodeTypeDescription, values: Values): Values {
	const typeVersion = versionOf(description);
	return NodeHelpers.getNodeParameters(description.properties, values as never, false, false, { typeVersion, parameters: values } as never, description) as Values;
}

/** The first text option of a collection (e.g. Update Fields), for an update that changes something. */
function firstTextOption(property: INodeProperties): string | undefined {
	const options = (property.options ?? []) as INodeProperties[];
	const preferred = options.find((option) => ['title', 'name'].includes(option.name) && option.type === 'string');
	return (preferred ?? options.find((option) => option.type === 'string'))?.name;
}

/**
 * The values of one node: `given` (by parameter name; only those the chosen resource and operation
 * show are kept), and for an Update Fields collection left empty, its first text option.
 */
export function valuesFor(description: INodeTypeDescription, operation: Operation, given: Values): Values {
	const values: Values = { resource: operation.resource, operation: operation.operation };
	// Twice: a value given may show further parameters (e.g. Placement → Page).
	for (let round = 0; round < 3; round++) {
		const shown = shownParameters(description, { ...values });
		for (const [name, value] of Object.entries(given)) {
			if (name in shown) values[name] = value;
		}
	}
	const shown = shownParameters(description, values);
	for (const property of description.properties) {
		if (property.name !== 'updateFields' || !('updateFields' in shown) || values.updateFields) continue;
		if (!NodeHelpers.displayParameter(values as never, property, { typeVersion: versionOf(description) } as never, description)) continue;
		const option = firstTextOption(property);
		if (option) values.updateFields = { [option]: 'Sweep update' };
	}
	return editorParameters(description, values);
}

export interface SweepStep {
	/** The node's name in the workflow, which the test reports. */
	name: string;
	operation: Operation;
	values: Values;
	/** The steps before it (setup), in order; it reads their output. */
	after?: SweepStep[];
}

const FILE_NODE = 'Read PDF';

/**
 * One workflow: a Webhook (path `webhookPath`) → Read/Write Files from Disk (the agreement PDF, the
 * file of every upload) → each step, in its own branch, behind its setup steps. Every node continues on error ("On
 * Error: Continue"), so that one failure does not hide the others and each error is an item.
 */
export function sweepWorkflow(options: {
	name: string;
	webhookPath: string;
	type: string;
	typeVersion: number;
	description: INodeTypeDescription;
	credentials: Record<string, CredentialRef>;
	steps: SweepStep[];
}): WorkflowFile {
	const nodes: WorkflowNode[] = [
		{
			name: 'Start',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: `sweep-${options.webhookPath}`,
			parameters: { httpMethod: 'POST', path: options.webhookPath, options: {} },
		},
		{
			name: FILE_NODE,
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1,
			position: [200, 0],
			parameters: { operation: 'read', fileSelector: 'agreements/residency-agreement.pdf', options: {} },
		},
	];
	const connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }> = {};
	const connect = (from: string, to: string) => {
		connections[from] ??= { main: [[]] };
		connections[from].main[0].push({ node: to, type: 'main', index: 0 });
	};
	connect('Start', FILE_NODE);
	const added = new Set<string>();
	let row = 0;
	const place = (step: SweepStep, column: number, previous: string) => {
		if (!added.has(step.name)) {
			added.add(step.name);
			nodes.push({
				name: step.name,
				type: `${PACKAGE_NAME}.${options.type}`,
				typeVersion: options.typeVersion,
				// Branches run top to bottom (execution order v1): one row each.
				position: [400 + column * 220, row * 160],
				parameters: valuesFor(options.description, step.operation, step.values),
				credentials: options.credentials,
				onError: 'continueRegularOutput',
			});
		}
		connect(previous, step.name);
	};
	for (const step of options.steps) {
		const chain = [...(step.after ?? []), step];
		let previous = FILE_NODE;
		chain.forEach((link, column) => {
			place(link, column, previous);
			previous = link.name;
		});
		row++;
	}
	return { name: options.name, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** What one node did: its items' errors, or none when every item succeeded. */
export interface StepOutcome {
	name: string;
	ran: boolean;
	items: number;
	errors: string[];
	first?: Record<string, unknown>;
}

type RunData = Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> }; error?: { message?: string; description?: string } }>>;

/** Each named node's outcome in an execution's run data. */
export function outcomesOf(runData: RunData, names: string[]): StepOutcome[] {
	return names.map((name) => {
		const runs = runData[name];
		if (!runs?.length) return { name, ran: false, items: 0, errors: [] };
		const items = runs.flatMap((run) => run.data?.main[0] ?? []);
		const errors = [
			...runs.flatMap((run) => (run.error ? [String(run.error.message)] : [])),
			...items.flatMap((item) => (item.json.error === undefined ? [] : [String(typeof item.json.error === 'object' ? JSON.stringify(item.json.error) : item.json.error)])),
		];
		return { name, ran: true, items: items.length, errors, first: items[0]?.json };
	});
}
