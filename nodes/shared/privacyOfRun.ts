import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PersonalDataMode } from './redaction';
import { RedactionMemory, Redactor } from './redaction';

/*
 * What one run of a node shares for personal data: whether it runs as an agent's tool, the one
 * pseudonym map of its whole output, and what its errors may say to the agent.
 */

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

const memories = new WeakMap<object, RedactionMemory>();

/**
 * The pseudonyms and remembered values of one run of a node: n8n makes a new context object for
 * every run (and every call of a tool), so every item and every operation's redaction of a run
 * shares them, and `EMAIL_1` is one address across the whole output.
 */
export function redactionMemoryOf(ctx: object): RedactionMemory {
	let memory = memories.get(ctx);
	if (!memory) memories.set(ctx, (memory = new RedactionMemory()));
	return memory;
}

/** What a result's (or an error's) redaction learns from besides its own text. */
const learntAlongside = new WeakMap<object, IDataObject[]>();

/**
 * Marks material that redaction must learn from along with this result, though it is not output:
 * Download returns a file's name made of the document's title, which may hold a recipient's name;
 * an error naming recipients learns the records it names them from.
 */
export function learnAlongside<T extends object>(result: T, ...material: IDataObject[]): T {
	learntAlongside.set(result, [...(learntAlongside.get(result) ?? []), ...material]);
	return result;
}

export function materialAlongside(result: object): IDataObject[] {
	return learntAlongside.get(result) ?? [];
}

/**
 * The mode an item's error follows: none for an ordinary node (its errors say everything, for the
 * workflow's author), else the item's Personal Data option, redaction when it is not set.
 */
function errorMode(ctx: IExecuteFunctions, itemIndex: number): PersonalDataMode {
	if (!runsAsTool(ctx)) return 'keep';
	let chosen: unknown;
	try {
		chosen = (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject)?.personalData;
	} catch {
		// An option that cannot be read is no consent to hand personal data to the agent.
	}
	return personalDataMode(ctx, chosen);
}

type ErrorFields = Error & {
	description?: unknown;
	messages?: unknown;
	context?: unknown;
	cause?: unknown;
	errorResponse?: unknown;
};

const isRecord = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Error);

/** Every text of an error n8n shows or hands on, redacted in place (the error is the item's alone). */
function redactErrorFields(error: ErrorFields, redactor: Redactor, seen = new Set<unknown>()): void {
	if (seen.has(error)) return;
	seen.add(error);
	const texts = [error.message, error.description, ...(Array.isArray(error.messages) ? error.messages : [])];
	for (const material of materialAlongside(error)) redactor.learn(material);
	for (const text of texts) if (typeof text === 'string') redactor.learnFromMessage(text);
	const scrub = (text: unknown) => (typeof text === 'string' ? redactor.scrubText(text) : text);
	error.message = scrub(error.message) as string;
	if (typeof error.stack === 'string') error.stack = scrub(error.stack) as string;
	if (typeof error.description === 'string') error.description = scrub(error.description);
	if (Array.isArray(error.messages)) error.messages = error.messages.map(scrub);
	for (const field of ['cause', 'errorResponse', 'context'] as const) {
		const value = error[field];
		if (value instanceof Error) redactErrorFields(value as ErrorFields, redactor, seen);
		else if (isRecord(value)) error[field] = redactor.apply(value);
		else if (typeof value === 'string') error[field] = scrub(value);
	}
}

/**
 * An item's error as the agent may see it: when the node runs as a tool, what it throws follows
 * Personal Data like its output (n8n hands the message and its description to the agent or MCP
 * client), the service's own text and the fields of its error included, with the pseudonyms of
 * the run's output. An ordinary node's errors stay as they are.
 */
export function privateError<E extends Error>(ctx: IExecuteFunctions, error: E, itemIndex: number): E {
	const mode = errorMode(ctx, itemIndex);
	if (mode === 'keep') return error;
	redactErrorFields(error, new Redactor(mode, { memory: redactionMemoryOf(ctx) }));
	return error;
}
