import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { RequestContext } from '../shared/request';
import { getSurvey } from './transport';

export type AnswersMode = 'id' | 'text' | 'both';

export interface Question {
	id: string;
	headline?: string;
	type?: string;
	/** What a free-text question takes (Formbricks' openText: text, email, url, number, phone). */
	inputType?: string;
}

/** The Answers option, for an operation's Options collection; absent = by question ID, as the service sends them. */
export const answersOption: INodeProperties = {
	displayName: 'Answers',
	name: 'answers',
	type: 'options',
	default: 'id',
	description: 'How each response’s answers are keyed',
	options: [
		{
			name: 'Both',
			value: 'both',
			description:
				'A list with one { ID, question, answer } per answer, in the survey’s question order',
		},
		{
			name: 'By Question ID',
			value: 'id',
			description: 'Keyed by the question’s ID, as the service sends them',
		},
		{
			name: 'By Question Text',
			value: 'text',
			description: 'Keyed by the question’s headline; a headline that repeats gets " (2)", " (3)"…',
		},
	],
};

export function answersModeOf(value: unknown): AnswersMode {
	return value === 'text' || value === 'both' ? value : 'id';
}

/**
 * The survey's questions, read once per execution: keyed by the execution's context object,
 * which n8n creates anew for each run of a node, so every item of one run shares one read.
 */
const questionsByRun = new WeakMap<object, Map<string, Promise<Question[]>>>();

export async function surveyQuestions(
	ctx: RequestContext,
	surveyId: string,
	itemIndex?: number,
): Promise<Question[]> {
	let bySurvey = questionsByRun.get(ctx);
	if (!bySurvey) questionsByRun.set(ctx, (bySurvey = new Map()));
	let questions = bySurvey.get(surveyId);
	if (!questions) {
		questions = getSurvey(ctx, surveyId, itemIndex).then(
			(survey) => (survey.questions ?? []) as Question[],
		);
		// A failed read is not cached: the next item may try again.
		questions.catch(() => bySurvey.delete(surveyId));
		bySurvey.set(surveyId, questions);
	}
	return await questions;
}

/** The ids of a survey's hidden fields (Formbricks' `hiddenFields.fieldIds`). */
export function hiddenFieldIds(survey: IDataObject): string[] {
	const hidden = survey.hiddenFields as IDataObject | undefined;
	return Array.isArray(hidden?.fieldIds) ? (hidden.fieldIds as unknown[]).map(String) : [];
}

/** Key per question id for "By Question Text": the headline, numbered where headlines repeat. */
export function textKeys(questions: Question[]): {
	keys: Map<string, string>;
	unique: (base: string) => string;
} {
	const keys = new Map<string, string>();
	const used = new Set<string>();
	const unique = (base: string) => {
		let key = base;
		for (let n = 2; used.has(key); n++) key = `${base} (${n})`;
		used.add(key);
		return key;
	};
	for (const question of questions) {
		const headline =
			typeof question.headline === 'string' && question.headline.trim() !== ''
				? question.headline.trim()
				: question.id;
		keys.set(question.id, unique(headline));
	}
	return { keys, unique };
}

/**
 * A response's answers (keyed by question id, as the service sends them) in the chosen form.
 * Answers to ids the survey no longer lists keep their id as key (or as question, for Both).
 */
export function shapeAnswers(
	data: IDataObject,
	questions: Question[],
	mode: AnswersMode,
): IDataObject | IDataObject[] {
	if (mode === 'id') return data;
	const known = questions.filter((question) => question.id in data);
	const unknown = Object.keys(data).filter(
		(id) => !questions.some((question) => question.id === id),
	);
	if (mode === 'both') {
		return [
			...known.map((question) => ({
				id: question.id,
				question: question.headline ?? question.id,
				answer: data[question.id],
			})),
			...unknown.map((id) => ({ id, question: null, answer: data[id] })),
		];
	}
	const { keys, unique } = textKeys(questions);
	const shaped: IDataObject = {};
	for (const question of known) shaped[keys.get(question.id)!] = data[question.id];
	for (const id of unknown) shaped[unique(id)] = data[id];
	return shaped;
}

/** Responses with their answers in the chosen form; the questions are read only when needed. */
export async function withAnswers(
	ctx: RequestContext,
	responses: IDataObject[],
	mode: AnswersMode,
	itemIndex?: number,
): Promise<IDataObject[]> {
	if (mode === 'id') return responses;
	const shaped: IDataObject[] = [];
	for (const response of responses) {
		const questions = await surveyQuestions(ctx, String(response.surveyId), itemIndex);
		shaped.push({
			...response,
			data: shapeAnswers((response.data ?? {}) as IDataObject, questions, mode),
		});
	}
	return shaped;
}
