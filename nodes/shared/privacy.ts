import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PersonalDataMode, RedactorOptions } from './redaction';
import { Redactor } from './redaction';

/**
 * Whether the node runs as an AI agent's tool. Older n8n versions lack `isToolExecution`,
 * and there a node only ever runs as a tool through its generated `…Tool` variant.
 */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
	if (typeof ctx.isToolExecution === 'function' && ctx.isToolExecution()) return true;
	return ctx.getNode().type.endsWith('Tool');
}

/**
 * The Personal Data mode for an operation: what the user chose, or, when the user chose
 * nothing, redaction for a tool (an agent's context is no place for personal data) and the
 * answers as they are for an ordinary node.
 */
export function personalDataMode(ctx: IExecuteFunctions, chosen: unknown): PersonalDataMode {
	if (chosen === 'keep' || chosen === 'redact' || chosen === 'omit') return chosen;
	return runsAsTool(ctx) ? 'redact' : 'keep';
}

/** The Personal Data option, for an operation's Options collection (absent = the default above). */
export const personalDataOption: INodeProperties = {
	displayName: 'Personal Data',
	name: 'personalData',
	type: 'options',
	default: 'redact',
	description:
		'What to do with names, e-mail addresses, phone numbers, addresses and dates of birth. Without this option: kept as they are, but redacted when the node runs as an AI agent tool.',
	options: [
		{ name: 'Keep', value: 'keep', description: 'Return the answers as they are' },
		{ name: 'Omit', value: 'omit', description: 'Leave personal fields out' },
		{
			name: 'Redact',
			value: 'redact',
			description: 'Replace personal data with stable pseudonyms such as EMAIL_1',
		},
	],
};

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
	for (const record of records) redactor.learn(record);
	return records.map((record) => redactor.apply(record));
}
