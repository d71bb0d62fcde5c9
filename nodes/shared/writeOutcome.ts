import { answerWasLost } from './request';

/** Errors thrown after the write they follow went through: only reading the result back failed. */
const afterWrite = new WeakSet<Error>();

/** Marks an error thrown once the write before it was carried out (e.g. the read that follows a PATCH). */
export function failedAfterWrite(error: unknown): unknown {
	if (error instanceof Error) afterWrite.add(error);
	return error;
}

/**
 * What the write a step made became, by the error that ended the step: carried out (only what
 * followed failed), unknown (its answer was lost), or not carried out (the service refused it).
 */
export type WriteOutcome = 'written' | 'unknown' | 'not written';

export function writeOutcome(error: unknown): WriteOutcome {
	if (error instanceof Error && afterWrite.has(error)) return 'written';
	return answerWasLost(error) ? 'unknown' : 'not written';
}
