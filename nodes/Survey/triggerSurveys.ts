import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import type { RequestContext } from '../shared/request';
import { waitsWithOwnDeadline } from '../shared/request';
import { deliveryScope, withinDeadline } from '../shared/webhooks';
import type { Question } from './answers';
import { hiddenFieldIds } from './answers';
import { getSurvey } from './transport';

/**
 * How long a delivery waits for its survey's questions: the service stops waiting for an answer
 * after 5 s (Formbricks' WEBHOOK_TIMEOUT_MS, CONTRACTS.md).
 */
export const QUESTIONS_WAIT_MS = 3_000;

/** After this long a survey is read again, in the background while the questions kept still answer. */
const FRESH_MS = 10 * 60 * 1000;

/** Surveys kept in the process, across all triggers; the least recently used go first. */
const MAX_SURVEYS = 200;

interface KnownSurvey {
	questions: Question[];
	/**
	 * The ids a delivery's answers may have: the questions', the survey's hidden fields', and every
	 * answer id of the deliveries that led to this read or an earlier one (variables, fields since removed).
	 */
	known: Set<string>;
	readAt: number;
}

interface Entry {
	survey?: KnownSurvey;
	/** The read in flight, which every delivery of the survey meanwhile waits for. */
	reading?: Promise<KnownSurvey>;
}

const surveys = new Map<string, Entry>();

function keep(key: string, entry: Entry): void {
	surveys.delete(key);
	surveys.set(key, entry);
	for (const oldest of surveys.keys()) {
		if (surveys.size <= MAX_SURVEYS) break;
		surveys.delete(oldest);
	}
}

function read(ctx: IWebhookFunctions, entry: Entry, surveyId: string, answerIds: string[]) {
	// The delivery stops waiting after QUESTIONS_WAIT_MS; the read goes on for the deliveries after it.
	waitsWithOwnDeadline(ctx);
	// The webhook context has n8n's authenticated request helper, as the other request contexts do.
	const reading = getSurvey(ctx as unknown as RequestContext, surveyId).then((found) => {
		const questions = (found.questions ?? []) as Question[];
		// What earlier reads learnt stays known: a refresh prompted by one delivery must not forget the ids of others.
		const known = new Set([
			...(entry.survey?.known ?? []),
			...questions.map(({ id }) => id),
			...hiddenFieldIds(found),
			...answerIds,
		]);
		const survey = { questions, known, readAt: Date.now() };
		entry.survey = survey;
		return survey;
	});
	entry.reading = reading;
	// A read that ends (or fails) after every delivery stopped waiting still settles the entry.
	const settled = () => {
		if (entry.reading === reading) delete entry.reading;
	};
	reading.then(settled, settled);
	return reading;
}

/**
 * The questions of a delivery's survey, kept per workflow, node and credential in the n8n process,
 * so that deliveries do not each read the survey (a burst of responses would spend the service's
 * rate limit on it). Read again when a delivery answers a question id the kept survey does not
 * know (a question added since), and in the background once it is ten minutes old. `undefined`
 * when they could not be read within QUESTIONS_WAIT_MS, or the read failed: a read still going on
 * keeps them for the deliveries after this one.
 */
export async function deliveryQuestions(
	ctx: IWebhookFunctions,
	surveyId: string,
	answerIds: string[],
): Promise<Question[] | undefined> {
	const credentialId = ctx.getNode().credentials?.surveyApi?.id ?? '';
	const key = [deliveryScope(ctx), credentialId, surveyId].join('\n');
	const entry = surveys.get(key) ?? {};
	keep(key, entry);
	const { survey } = entry;
	const knowsAll = survey !== undefined && answerIds.every((id) => survey.known.has(id));
	if (survey && knowsAll) {
		if (Date.now() - survey.readAt > FRESH_MS && !entry.reading) {
			read(ctx, entry, surveyId, answerIds).catch(() => undefined);
		}
		return survey.questions;
	}
	try {
		const waited = await withinDeadline(entry.reading ?? read(ctx, entry, surveyId, answerIds), QUESTIONS_WAIT_MS);
		return waited.late ? undefined : waited.value.questions;
	} catch {
		return undefined;
	}
}

/** Forgets the surveys a trigger kept, when its workflow is deactivated. */
export function forgetDeliveryQuestions(ctx: IHookFunctions): void {
	const scope = `${deliveryScope(ctx)}\n`;
	for (const key of surveys.keys()) if (key.startsWith(scope)) surveys.delete(key);
}
