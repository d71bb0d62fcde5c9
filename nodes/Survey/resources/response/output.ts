import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { personalDataMode, redactionMemoryOf } from '../../../shared/privacy';
import type { Question } from '../../answers';
import { answersModeOf, surveyQuestions, withAnswers } from '../../answers';
import { readExtraFields, redactResponses } from '../../personalData';
import { simplifyResponse, wantsSimplified } from './simplify';

/**
 * What Get and Get Many return: personal data handled as chosen (redacted by default when the
 * node runs as a tool), then the answers keyed as chosen, then the one shape (version 2, Simplify
 * on). Redaction comes first, while the answers still carry their question ids, judges each
 * answer by its question's type and headline too, and covers all responses of the output at
 * once, whole: their `meta` and the respondent's contact and contact attributes included.
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
	const questions: Question[] = [];
	for (const surveyId of new Set(responses.map((response) => String(response.surveyId)))) {
		questions.push(...(await surveyQuestions(ctx, surveyId, itemIndex)));
	}
	const redacted = redactResponses(
		responses,
		mode,
		questions,
		readExtraFields(options),
		redactionMemoryOf(ctx),
	);
	return await withAnswers(ctx, redacted, answersMode, itemIndex);
}
