import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FieldGuide, Kind } from '../shared/redaction';
import { kindOfFieldName, kindOfHeadline } from '../shared/redaction';
import type { Question } from './answers';

/*
 * What is personal in a survey's responses beyond what field names say: each answer by what its
 * question asks (the headline, since question ids are often random), and a response's `meta`
 * (on the real platform: the respondent's user agent, the page URL, country, contact attributes).
 */

/** Question types whose answers are scales and ticks, never someone's details, whatever the headline says. */
const SCALE_TYPES = new Set(['rating', 'nps', 'consent']);

/** A name is text: a number (or digits alone) answering "Nombre de participants" is no name. */
const isNumberLike = (value: unknown) =>
	typeof value === 'number' || (typeof value === 'string' && /^[\d\s.,+-]+$/.test(value.trim()));

/** Fields of a response's meta that say how the survey was reached, not who answered it. */
const META_KEPT = new Set(['source']);

/**
 * Redaction's guide to survey answers: each answer judged by its question's headline as well as
 * its id, and Extra Personal Fields matched against the headline the output shows.
 *
 * @param where the path of the answers in each record: `[]` for answers alone, `['data']` for whole responses (whose `meta` is then personal too)
 */
export function answersGuide(questions: Question[], where: string[] = []): FieldGuide {
	const byId = new Map(questions.map((question) => [question.id, question]));
	const headlineKinds = new Map<string, Kind | undefined>();
	const kindOfQuestion = (question: Question): Kind | undefined => {
		if (SCALE_TYPES.has(String(question.type)) || typeof question.headline !== 'string') {
			return undefined;
		}
		if (!headlineKinds.has(question.id)) {
			headlineKinds.set(question.id, kindOfHeadline(question.headline));
		}
		return headlineKinds.get(question.id);
	};
	const answerAt = (path: string[]) =>
		path.length > where.length && where.every((key, index) => path[index] === key)
			? byId.get(path[where.length])
			: undefined;
	const withMeta = where.length > 0;
	return {
		kindOf(path, value) {
			if (withMeta && path[0] === 'meta' && path.length === 2) {
				return META_KEPT.has(path[1]) ? null : (kindOfFieldName(path[1]) ?? 'PERSONAL');
			}
			if (path.length !== where.length + 1) return undefined;
			const question = answerAt(path);
			const kind = question ? kindOfQuestion(question) : undefined;
			return kind === 'NAME' && isNumberLike(value) ? undefined : kind;
		},
		shownAs(path) {
			const question = answerAt(path);
			if (!question || typeof question.headline !== 'string' || question.headline.trim() === '')
				return undefined;
			return [...where, question.headline.trim(), ...path.slice(where.length + 1)];
		},
	};
}

/** The Extra Personal Fields option. */
export const extraPersonalFieldsOption: INodeProperties = {
	displayName: 'Extra Personal Fields',
	name: 'extraPersonalFields',
	type: 'string',
	default: '',
	placeholder: 'passportNumber, Your employer, referees.employer',
	description:
		'Comma-separated answers to treat as personal data too, named as the output shows them: the question’s ID or its headline (with Answers "By Question Text"), or a dotted name for a nested answer, in any naming style',
};

export function readExtraFields(options: IDataObject): string[] {
	return String(options.extraPersonalFields ?? '')
		.split(',')
		.map((field) => field.trim())
		.filter(Boolean);
}
