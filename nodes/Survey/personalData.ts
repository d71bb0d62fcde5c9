import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { redactRecords } from '../shared/privacy';
import type { FieldGuide, Kind, PersonalDataMode, RedactionMemory } from '../shared/redaction';
import { kindOfFieldName, kindOfHeadline } from '../shared/redaction';
import type { Question } from './answers';

/*
 * What is personal in a survey's responses beyond what field names say: each answer by what its
 * question asks (its type, and its headline, since question ids are often random), and what a
 * response carries about its respondent beside the answers: `meta` (on Formbricks: the user
 * agent, the page URL, country), and Formbricks' contact and contact attributes.
 */

/** Question types whose answers are scales and ticks, never someone's details, whatever the headline says. */
const SCALE_TYPES = new Set(['rating', 'nps', 'consent']);

/**
 * Question types whose answer is a list with one input per position, what each position holds
 * (Formbricks, packages/types/surveys/elements.ts: `ZSurveyContactInfoElement`, `ZSurveyAddressElement`;
 * the order is the respondent's form's, packages/surveys/src/components/elements/contact-info-element.tsx
 * and address-element.tsx). A company and a country are no one's details (their text is still scanned);
 * a state or region is part of the postal address.
 */
const POSITIONS_BY_TYPE = new Map<string, Array<Kind | null>>([
	// firstName, lastName, email, phone, company
	['contactInfo', ['NAME', 'NAME', 'EMAIL', 'PHONE', null]],
	// addressLine1, addressLine2, city, state, zip, country
	['address', ['ADDRESS', 'ADDRESS', 'ADDRESS', 'ADDRESS', 'ADDRESS', null]],
]);

/** Free-text questions whose input type says what they ask (Formbricks' openText `inputType`). */
const KIND_BY_INPUT_TYPE = new Map<string, Kind>([
	['email', 'EMAIL'],
	['phone', 'PHONE'],
]);

/** A name is text: a number (or digits alone) answering "Nombre de participants" is no name. */
const isNumberLike = (value: unknown) =>
	typeof value === 'number' || (typeof value === 'string' && /^[\d\s.,+-]+$/.test(value.trim()));

/** Fields of a response's meta that say how the survey was reached, not who answered it. */
const META_KEPT = new Set(['source']);

/**
 * Fields of a response beside its answers that say who answered (Formbricks, packages/types/responses.ts
 * `ZResponse`: `contact: { id, userId }` and `contactAttributes`, the contact's attributes with
 * whatever keys the workspace gave them; v2's rows name the contact `contactId`).
 */
const RESPONDENT_FIELDS = new Set(['contact', 'contactId']);
const RESPONDENT_ATTRIBUTES = 'contactAttributes';

/**
 * Redaction's guide to survey answers: each answer judged by its question's type and headline as
 * well as its id, and Extra Personal Fields matched against the headline the output shows.
 *
 * @param where the path of the answers in each record: `[]` for answers alone, `['data']` for whole responses
 */
export function answersGuide(questions: Question[], where: string[] = []): FieldGuide {
	const byId = new Map(questions.map((question) => [question.id, question]));
	const headlineKinds = new Map<string, Kind | undefined>();
	const kindOfQuestion = (question: Question): Kind | null | undefined => {
		const type = String(question.type);
		if (SCALE_TYPES.has(type)) return undefined;
		// Judged position by position (below), whatever the headline says.
		if (POSITIONS_BY_TYPE.has(type)) return null;
		const byInput = type === 'openText' ? KIND_BY_INPUT_TYPE.get(String(question.inputType)) : undefined;
		if (byInput) return byInput;
		if (typeof question.headline !== 'string') return undefined;
		if (!headlineKinds.has(question.id)) {
			headlineKinds.set(question.id, kindOfHeadline(question.headline));
		}
		return headlineKinds.get(question.id);
	};
	/** The question of the answer at this path or inside it. */
	const questionOf = (path: string[]) =>
		path.length > where.length && where.every((key, index) => path[index] === key)
			? byId.get(path[where.length])
			: undefined;
	/** The question of the answer at exactly this path. */
	const answerAt = (path: string[]) => (path.length === where.length + 1 ? questionOf(path) : undefined);
	return {
		kindOf(path, value) {
			const question = answerAt(path);
			if (!question) return undefined;
			// Not the list the platform stores: what it holds cannot be told apart, so all of it is personal.
			if (POSITIONS_BY_TYPE.has(String(question.type)) && !Array.isArray(value)) return 'PERSONAL';
			const kind = kindOfQuestion(question);
			return kind === 'NAME' && isNumberLike(value) ? undefined : kind;
		},
		kindsByPosition(path) {
			return POSITIONS_BY_TYPE.get(String(answerAt(path)?.type));
		},
		shownAs(path) {
			const question = questionOf(path);
			if (!question || typeof question.headline !== 'string' || question.headline.trim() === '')
				return undefined;
			return [...where, question.headline.trim(), ...path.slice(where.length + 1)];
		},
	};
}

/**
 * Redaction's guide to whole responses (Response → Get and Get Many, the Survey Trigger): the
 * answers under `data` as `answersGuide` judges them, `meta` all but its `source`, and the
 * respondent's contact and contact attributes whatever their keys.
 */
function responseGuide(questions: Question[]): FieldGuide {
	const answers = answersGuide(questions, ['data']);
	return {
		kindOf(path, value, holder) {
			if (path.length === 2 && path[0] === 'meta') {
				return META_KEPT.has(path[1]) ? null : (kindOfFieldName(path[1]) ?? 'PERSONAL');
			}
			if (path.length === 2 && path[0] === RESPONDENT_ATTRIBUTES) {
				return kindOfFieldName(path[1]) ?? 'PERSONAL';
			}
			if (path.length === 1 && RESPONDENT_FIELDS.has(path[0])) return 'ID';
			return answers.kindOf!(path, value, holder);
		},
		kindsByPosition: answers.kindsByPosition,
		shownAs: answers.shownAs,
	};
}

/**
 * The one rule for survey responses, for every operation and the trigger: personal data handled
 * as `mode` says in whole responses, all of them together (a value gets the same pseudonym in
 * each, and a name learnt from one is found again in the others).
 */
export function redactResponses(
	responses: IDataObject[],
	mode: PersonalDataMode,
	questions: Question[],
	extraFields: string[],
	memory?: RedactionMemory,
): IDataObject[] {
	return redactRecords(responses, mode, { guide: responseGuide(questions), extraFields, memory });
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
