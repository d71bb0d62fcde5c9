import type { IExecuteFunctions } from 'n8n-workflow';

import { withDescription } from '../../shared/request';
import { writeOutcome } from '../../shared/writeOutcome';

/**
 * Runs a change whose adapter reads the result back after writing it (Karakeep answers a PATCH
 * with less than the documented result). When only that read failed (`failedAfterWrite`), the
 * error says the change was made, so that no one runs it again to be sure.
 */
export async function changeReadBack<T>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	changed: string,
	shownBy: string,
	change: () => Promise<T>,
): Promise<T> {
	try {
		return await change();
	} catch (error) {
		throw withDescription(
			ctx,
			error as Error,
			itemIndex,
			writeOutcome(error) === 'written'
				? `${changed} was changed as asked; only reading it back failed: ${shownBy} shows it as it is now.`
				: undefined,
		);
	}
}
