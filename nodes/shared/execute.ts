import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { privateError } from './privacyOfRun';

/** Errors the node raised itself stay as they are; anything unexpected is tied to its item. */
function asNodeError(
	ctx: IExecuteFunctions,
	error: Error,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error, { itemIndex });
}

/** An output item with a file beside its JSON (`withBinary`); other results are JSON only. */
const BINARY_ITEM = Symbol('binaryItem');
export interface BinaryItem {
	[BINARY_ITEM]: true;
	json: IDataObject;
	binary: IBinaryKeyData;
}

export function withBinary(json: IDataObject, binary: IBinaryKeyData): BinaryItem {
	return { [BINARY_ITEM]: true, json, binary };
}

const isBinaryItem = (result: object): result is BinaryItem => BINARY_ITEM in result;

/** Adds what the node can tell about a failed item's error (e.g. that the server speaks another API). */
export type ErrorExplainer = (ctx: IExecuteFunctions, error: Error, itemIndex: number) => Promise<Error>;

export type ItemOperation = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<IDataObject | IDataObject[] | BinaryItem | BinaryItem[]>;

/**
 * Runs one operation per input item. Every output item points back at its input item,
 * and with "Continue On Fail" a failing item becomes an error item instead of stopping
 * the others.
 */
export async function runForEachItem(
	ctx: IExecuteFunctions,
	operation: ItemOperation,
	explainError?: ErrorExplainer,
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		// One object for all the items an input item gave, as n8n's constructExecutionMetaData does.
		const pairedItem = { item: itemIndex };
		try {
			const result = await operation.call(ctx, itemIndex);
			for (const entry of (Array.isArray(result) ? result : [result]) as Array<IDataObject | BinaryItem>) {
				if (isBinaryItem(entry)) output.push({ json: entry.json, binary: entry.binary, pairedItem });
				else output.push({ json: entry, pairedItem });
			}
		} catch (caught) {
			const explained = explainError ? await explainError(ctx, caught as Error, itemIndex) : (caught as Error);
			// As a tool, what the item's error says reaches the agent: it follows Personal Data.
			const error = privateError(ctx, explained, itemIndex);
			if (ctx.continueOnFail()) {
				output.push({ json: { error: error.message }, pairedItem });
				continue;
			}
			throw asNodeError(ctx, error, itemIndex);
		}
	}
	return [output];
}

export type OperationsByResource = Record<string, Record<string, ItemOperation>>;

/** The execute() of a resource/operation node: finds the chosen operation and runs it per item. */
export async function executeOperation(
	ctx: IExecuteFunctions,
	operations: OperationsByResource,
	explainError?: ErrorExplainer,
): Promise<INodeExecutionData[][]> {
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const run = operations[resource]?.[operation];
	if (!run) {
		throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" is not supported for "${resource}"`);
	}
	return await runForEachItem(ctx, run, explainError);
}
