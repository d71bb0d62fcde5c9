import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../shared/credentialTest';

/*
 * Formbricks' survey schema as the node checks it before sending (packages/types/surveys at b66c1dd):
 * the question (element) types of `TSurveyElementTypeEnum` (constants.ts), ids as `ZSurveyElementId`
 * checks them (elements.ts; `FORBIDDEN_IDS` in validation.ts), at least two choices where
 * `ZSurveyMultipleChoice…Element`, `ZSurveyRankingElement` and `ZSurveyPictureSelectionElement`
 * require them, and ids unique within the survey (`surveyRefinement` in types.ts). Formbricks checks
 * the rest itself, and its answer names the field.
 */

export const FORMBRICKS_QUESTION_TYPES = [
	'address',
	'cal',
	'ces',
	'consent',
	'contactInfo',
	'csat',
	'cta',
	'date',
	'fileUpload',
	'matrix',
	'multipleChoiceMulti',
	'multipleChoiceSingle',
	'nps',
	'openText',
	'pictureSelection',
	'ranking',
	'rating',
] as const;

/** Types whose question offers choices, at least two (Formbricks' own minimum). */
const CHOICE_TYPES = new Set(['multipleChoiceSingle', 'multipleChoiceMulti', 'ranking', 'pictureSelection']);

/** `FORBIDDEN_IDS` (packages/types/surveys/validation.ts): ids Formbricks keeps for itself. */
export const FORBIDDEN_IDS = ['userId', 'source', 'suid', 'end', 'start', 'welcomeCard', 'hidden', 'verifiedEmail', 'multiLanguage', 'embed', 'verify'];

const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;

/** What is wrong with an id Formbricks would refuse; undefined when it is fine. */
export function idProblem(id: string): string | undefined {
	if (FORBIDDEN_IDS.includes(id)) return `the ID "${id}" is kept by Formbricks for itself`;
	if (!ID_PATTERN.test(id)) return `the ID "${id}" may hold only letters, digits, hyphens and underscores`;
	return undefined;
}

/** A question as the error names it: its position (from 1), its id and its headline where given. */
function questionName(question: unknown, position: number): string {
	const id = isObject(question) && typeof question.id === 'string' ? ` "${question.id}"` : '';
	const headline = isObject(question) ? textOf(question.headline) : undefined;
	return `question ${position + 1}${id}${headline ? ` (${headline})` : ''}`;
}

/** A per-language text's default, or a plain text. */
function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (isObject(value) && typeof value.default === 'string') return value.default;
	return undefined;
}

/** Every question of a definition: its `questions`, or the elements of its `blocks`. */
export function questionsOfDefinition(definition: IDataObject): unknown[] {
	if (Array.isArray(definition.questions) && definition.questions.length > 0) return definition.questions;
	if (!Array.isArray(definition.blocks)) return [];
	return definition.blocks.flatMap((block: unknown) =>
		isObject(block) && Array.isArray(block.elements) ? (block.elements as unknown[]) : [],
	);
}

/**
 * What Formbricks would refuse in the questions of a definition, each naming its question; empty
 * when they are fine. `requireQuestions`: a survey to create needs at least one.
 */
export function definitionProblems(definition: IDataObject, requireQuestions: boolean): string[] {
	const problems: string[] = [];
	if (Array.isArray(definition.questions) && definition.questions.length > 0 && Array.isArray(definition.blocks) && definition.blocks.length > 0) {
		problems.push('give either "questions" or "blocks", not both');
	}
	const questions = questionsOfDefinition(definition);
	if (requireQuestions && questions.length === 0) problems.push('the survey has no questions ("questions" or "blocks")');
	const seen = new Map<string, number>();
	questions.forEach((question, position) => {
		const name = questionName(question, position);
		if (!isObject(question)) {
			problems.push(`${name} is not an object`);
			return;
		}
		const type = question.type;
		if (typeof type !== 'string' || !(FORMBRICKS_QUESTION_TYPES as readonly string[]).includes(type)) {
			problems.push(`${name} has the unknown type ${JSON.stringify(type ?? null)} (Formbricks knows ${FORMBRICKS_QUESTION_TYPES.join(', ')})`);
		}
		if (typeof question.id !== 'string' || question.id === '') {
			problems.push(`${name} has no ID`);
		} else {
			const problem = idProblem(question.id);
			if (problem) problems.push(`${name}: ${problem}`);
			const earlier = seen.get(question.id);
			if (earlier !== undefined) problems.push(`${name} has the same ID as question ${earlier + 1}; question IDs must be unique`);
			else seen.set(question.id, position);
		}
		if (textOf(question.headline) === undefined) problems.push(`${name} has no headline`);
		if (typeof type === 'string' && CHOICE_TYPES.has(type)) {
			const choices = Array.isArray(question.choices) ? question.choices : [];
			if (choices.length < 2) {
				problems.push(`${name} is a ${type} question with ${choices.length === 0 ? 'no choices' : 'one choice'}; it needs at least two`);
			}
		}
	});
	return problems;
}
