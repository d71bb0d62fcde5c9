import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { perRun } from '../../../shared/perRun';
import { withDescription } from '../../../shared/request';
import { requireToolConsent } from '../../../shared/toolConsent';
import { type ContactToWrite, type ContactWriteReport, contactsWrittenBeforeFailure } from '../../adapters';
import { surveyCapability } from '../../transport';
import { CONTACT_CONSENT } from './consent';
import { readContactAttributes } from './fields';
import { contactsOutput } from './output';

/** What each input item of a run came to: its report, or the error of its input. */
type Outcomes = Map<number, IDataObject | Error>;

const outcomesOfRun = perRun<Outcomes>();

/**
 * The run's failure as one item's error: its own object, with its own item index, because the
 * node adds to an error's message per item (the wrong-API advice) and n8n reads the index from it.
 */
function failureOfItem(error: Error, itemIndex: number): Error {
	const copy = Object.create(Object.getPrototypeOf(error) as object, Object.getOwnPropertyDescriptors(error)) as Error & {
		context?: unknown;
	};
	if (copy.context && typeof copy.context === 'object') copy.context = { ...copy.context, itemIndex };
	return copy;
}

/**
 * All input items of the run at once, in the service's batches (Formbricks: 250 a request). Every
 * item's input is checked before anything is sent: a bad one stops the run then, or, with Continue
 * On Fail, becomes that item's error while the others are sent.
 */
async function writeAll(ctx: IExecuteFunctions): Promise<Outcomes> {
	const outcomes: Outcomes = new Map();
	const valid: ContactToWrite[] = [];
	const count = ctx.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			requireToolConsent(ctx, itemIndex, CONTACT_CONSENT);
			valid.push({ itemIndex, attributes: readContactAttributes(ctx, itemIndex) });
		} catch (error) {
			const failure = withDescription(ctx, error as Error, itemIndex, undefined);
			if (!ctx.continueOnFail()) throw failure;
			outcomes.set(itemIndex, failure);
		}
	}
	if (valid.length === 0) return outcomes;
	const first = valid[0].itemIndex;
	let reports: Array<ContactWriteReport | undefined>;
	let failure: Error | undefined;
	try {
		const contacts = await surveyCapability(ctx, 'contacts', 'Contact → Create Many', first);
		reports = await contacts.upsertMany(ctx, valid, first);
	} catch (error) {
		failure = withDescription(ctx, error as Error, first, undefined);
		if (!ctx.continueOnFail()) throw failure;
		// The contacts written before a later batch failed are output as written; only the others fail.
		reports = contactsWrittenBeforeFailure.get(error as Error) ?? [];
	}
	valid.forEach(({ itemIndex, attributes }, index) => {
		const written = reports[index];
		if (!written) {
			// Kept as the item's outcome, so that the run's other items do not send the bulk again.
			outcomes.set(itemIndex, failureOfItem(failure as Error, itemIndex));
			return;
		}
		const { status, contactId, reason } = written;
		const report: IDataObject = { status, contactId, email: attributes.email, attributes };
		if (reason !== undefined) report.reason = reason;
		outcomes.set(itemIndex, contactsOutput(ctx, [report], itemIndex)[0]);
	});
	return outcomes;
}

/**
 * Creates the contacts of all input items, and updates those whose e-mail address the workspace
 * has already: one report per item (`created`, `updated`, `unchanged`, `skipped` with the reason,
 * `refused` with the reason).
 */
export async function createMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const outcome = (await outcomesOfRun(this, 'createMany', async () => await writeAll(this))).get(itemIndex);
	if (outcome instanceof Error) throw outcome;
	return outcome ?? {};
}
