import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ErrorExplainer, OperationsByResource } from './execute';
import { executeOperation } from './execute';
import { learnAlongside, materialAlongside, personalDataMode, privateError, redactionMemoryOf, runsAsTool } from './privacyOfRun';
import type { FieldGuide, PersonalDataMode, RedactorOptions } from './redaction';
import { Redactor } from './redaction';

export { learnAlongside, personalDataMode, redactionMemoryOf, runsAsTool };

/** The Personal Data option, for an operation's Options collection (absent = `personalDataMode`'s default). */
export const personalDataOption: INodeProperties = {
	displayName: 'Personal Data',
	name: 'personalData',
	type: 'options',
	default: 'redact',
	description:
		'What to do with names, e-mail addresses, phone numbers, addresses and dates of birth. Without this option: kept as they are, but redacted when the node runs as an AI agent tool.',
	options: [
		{ name: 'Keep', value: 'keep', description: 'Return personal data as it is' },
		{ name: 'Omit', value: 'omit', description: 'Leave personal fields out' },
		{
			name: 'Redact',
			value: 'redact',
			description: 'Replace personal data with stable pseudonyms such as EMAIL_1',
		},
	],
};

/** An Options collection with the Personal Data option alone, for operations (and triggers) that have no other option. */
export function personalDataOptions(
	show: NonNullable<IDisplayOptions['show']> | undefined,
	description = personalDataOption.description,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		...(show ? { displayOptions: { show } } : {}),
		options: [{ ...personalDataOption, description }],
	};
}

/**
 * A trigger's Personal Data mode: what the user chose, else the data as it came. A trigger never
 * runs as an agent's tool: its output goes into the workflow, where the user decides what reaches
 * an agent.
 */
export function triggerPersonalDataMode(chosen: unknown): PersonalDataMode {
	return chosen === 'redact' || chosen === 'omit' ? chosen : 'keep';
}

/**
 * A trigger's items with personal data handled as its Personal Data option says, by the guide its
 * service's node applies to the same records (read only when there is something to redact).
 */
export async function redactTriggerOutput(
	options: IDataObject,
	items: IDataObject[],
	guide: () => Promise<FieldGuide | undefined> | FieldGuide | undefined,
): Promise<IDataObject[]> {
	const mode = triggerPersonalDataMode(options?.personalData);
	if (mode === 'keep') return items;
	return redactRecords(items, mode, { guide: await guide() });
}

/**
 * Applies one mode to all records of one output, in two passes: the values of every record's
 * personal fields are learnt first, then each record is redacted, so that a value gets the same
 * pseudonym wherever it recurs among them (a name repeated in another answer, in any record).
 */
export function redactRecords(
	records: IDataObject[],
	mode: PersonalDataMode,
	options: RedactorOptions = {},
): IDataObject[] {
	if (mode === 'keep') return records;
	const redactor = new Redactor(mode, options);
	for (const record of records) {
		redactor.learn(record);
		for (const material of materialAlongside(record)) redactor.learn(material);
	}
	return records.map((record) => redactor.apply(record));
}

export interface OutputPrivacy {
	/** What the node knows about its records' fields beyond their names: prefilled fields by label, tag names. */
	guide?: (
		ctx: IExecuteFunctions,
		records: IDataObject[],
	) => Promise<FieldGuide | undefined> | FieldGuide | undefined;
}

/**
 * The Personal Data option applied to a node's whole output: each item in the mode its Options
 * ask for (redacted by default when the node runs as a tool), all items of one mode redacted
 * together, so a name gets the same pseudonym in every item and is found again in free text
 * (titles, notes, rejection reasons) wherever it recurs. Binary data is left as it is.
 */
export async function applyPersonalData(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	privacy: OutputPrivacy = {},
): Promise<INodeExecutionData[]> {
	// Read once per input item: one Get Many can give thousands of items of the same input item.
	const modeOfInput = new Map<number, PersonalDataMode>();
	const modes = items.map((item) => {
		const paired = item.pairedItem;
		const itemIndex =
			typeof paired === 'object' && paired !== null && !Array.isArray(paired) ? paired.item : 0;
		if (!modeOfInput.has(itemIndex)) {
			const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
			modeOfInput.set(itemIndex, personalDataMode(ctx, options?.personalData));
		}
		return modeOfInput.get(itemIndex)!;
	});
	if (modes.every((mode) => mode === 'keep')) return items;
	const output = [...items];
	for (const mode of ['redact', 'omit'] as const) {
		const indexes = modes.flatMap((itemMode, index) => (itemMode === mode ? [index] : []));
		if (indexes.length === 0) continue;
		const records = indexes.map((index) => items[index].json);
		const redacted = redactRecords(records, mode, {
			guide: await privacy.guide?.(ctx, records),
			memory: redactionMemoryOf(ctx),
		});
		indexes.forEach((index, position) => (output[index] = { ...items[index], json: redacted[position] }));
	}
	return output;
}

/** The execute() of a resource/operation node whose output may hold personal data. */
export async function executeWithPersonalData(
	ctx: IExecuteFunctions,
	operations: OperationsByResource,
	privacy: OutputPrivacy = {},
	explainError?: ErrorExplainer,
): Promise<INodeExecutionData[][]> {
	const [items] = await executeOperation(ctx, operations, explainError);
	try {
		return [await applyPersonalData(ctx, items, privacy)];
	} catch (error) {
		// Reading what redaction needs (a template's labels) failed: the agent hears it as redacted too.
		throw privateError(ctx, error as Error, 0);
	}
}
