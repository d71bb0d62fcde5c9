import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { personalDataMode, redactRecords } from '../../../shared/privacy';
import { answersModeOf, withAnswers } from '../../answers';
import { simplifyResponse, wantsSimplified } from './simplify';

/**
 * What Get and Get Many return: personal data handled as chosen (redacted by default when the
 * node runs as a tool), then the answers keyed as chosen, then the one shape (version 2, Simplify
 * on). Redaction comes first, while the answers still carry their question ids, and covers all
 * responses of the output at once.
 */
export async function responsesOutput(
	ctx: IExecuteFunctions,
	responses: IDataObject[],
	options: IDataObject,
	itemIndex: number,
): Promise<IDataObject[]> {
	const shaped = await answeredResponses(ctx, responses, options, itemIndex);
	return wantsSimplified(ctx, itemIndex) ? shaped.map(simplifyResponse) : shaped;
}

async function answeredResponses(
	ctx: IExecuteFunctions,
	responses: IDataObject[],
	options: IDataObject,
	itemIndex: number,
): Promise<IDataObject[]> {
	const mode = personalDataMode(ctx, options.personalData);
	const answersMode = answersModeOf(options.answers);
	// Kept as they are, the responses are not copied: a Return All can hold hundreds of thousands.
	if (mode === 'keep') return await withAnswers(ctx, responses, answersMode, itemIndex);
	const answers = redactRecords(
		responses.map((response) => (response.data ?? {}) as IDataObject),
		mode,
	);
	const redacted = responses.map((response, index) => ({ ...response, data: answers[index] }));
	return await withAnswers(ctx, redacted, answersMode, itemIndex);
}
