import { isThingWord } from './fieldNames';
import * as W from './headlineWords';
import type { Kind } from './types';

/*
 * What a question asks, read from its headline ("Your full name", "What's your e-mail
 * address?", "Name of a referee", "Date de naissance"), for surveys whose question ids say
 * nothing (random ids such as `k3x9q2…`). The words are in `headlineWords.ts`.
 */

/** A headline as words: lower case, accents folded, `e-mail` as `email`, apostrophes as word breaks. */
export function headlineWords(headline: string): string[] {
	return headline
		.toLowerCase()
		.replace(/ß/g, 'ss')
		.replace(/œ/g, 'oe')
		.replace(/æ/g, 'ae')
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.replace(/\be[\s\u2010-\u2015-]*mail/g, 'email')
		.split(/[^a-z0-9]+/)
		.filter(Boolean);
}

const isThing = (word: string) => isThingWord(word) || W.THINGS.test(word);

/** The index of the word where a phrase matched on the joined words starts, or -1. */
function phraseAt(all: string[], phrase: RegExp): number {
	const text = all.join(' ');
	const found = phrase.exec(text);
	if (!found) return -1;
	return text.slice(0, found.index).split(' ').length - 1;
}

const firstIndex = (all: string[], test: (word: string, index: number) => boolean) =>
	all.findIndex(test);

/** Whether the "name" at this index names a thing: "Project name", "Name of your company", "Nom du projet". */
function namesAThing(all: string[], at: number): boolean {
	let before = at - 1;
	while (before >= 0 && W.FILLER.test(all[before])) before--;
	if (before >= 0 && isThing(all[before])) return true;
	let after = at + 1;
	while (after < all.length && W.FILLER.test(all[after])) {
		// "Name on your application", "Name as in your passport": a person's name written there.
		if (W.WRITTEN_ON.test(all[after])) return false;
		after++;
	}
	if (after >= all.length || W.NAME_QUALIFIERS.test(all[after])) return false;
	return isThing(all[after]);
}

/** Where a headline asks for someone's name, or -1. */
function nameIndex(all: string[]): number {
	const asks = all.some((word) => W.OTHER_QUESTION_WORDS.test(word) || W.WHO.test(word));
	const mentionsThing = all.some(isThing);
	for (let index = 0; index < all.length; index++) {
		const word = all[index];
		if (W.NAME_ON_ITS_OWN.test(word)) return index;
		if (W.NAME.test(word)) {
			// French "nombre d'…" is "number of", not the Spanish "nombre" (name).
			if (word === 'nombre' && all[index + 1] === 'd') continue;
			if (!namesAThing(all, index)) return index;
			continue;
		}
		// German and Dutch compounds: "Vorname" is listed, "Künstlername" is a person's, "Projektname" a thing's.
		const compound = /^([a-z]{3,}?)(?:name|namen|naam)$/.exec(word);
		if (compound) {
			const prefix = compound[1];
			if (!isThing(prefix) && !isThing(prefix.replace(/s$/, ''))) return index;
			continue;
		}
		if (W.CALLED.test(word) && asks && !mentionsThing) return index;
		if (word === 'handle' && index === all.length - 1) return index;
	}
	return -1;
}

/** Where a headline asks who someone is ("Your referee", "Parent or guardian", "Who referred you?"), or -1. */
function personIndex(all: string[]): number {
	const who = firstIndex(all, (word) => W.WHO.test(word));
	const mentionsPerson =
		all.some((word) => W.PERSONS.test(word)) || phraseAt(all, W.PERSON_PHRASES) >= 0;
	const referred = firstIndex(all, (word) => W.REFERRED.test(word));
	if (who >= 0 && (mentionsPerson || referred >= 0)) return who;
	// "Persona que te recomendó", "The person who referred you".
	const person = firstIndex(all, (word) => W.PERSON_NOUN.test(word));
	if (person >= 0 && referred >= 0) return person;
	if (all.some((word) => W.OTHER_QUESTION_WORDS.test(word) || W.NOT_THE_PERSON.test(word))) return -1;
	if (W.YES_NO_OPENERS.test(all[0])) return -1;
	const content = all.filter((word) => !W.FILLER.test(word) && !W.PERSON_QUALIFIERS.test(word));
	if (content.length > 3) return -1;
	// The person must be what the headline is about: nothing but qualifiers after it ("Referee 2"),
	// and not a possessive ("Candidate's statement").
	const endsAt = (index: number) =>
		all.slice(index + 1).every((word) => W.FILLER.test(word) || W.PERSON_QUALIFIERS.test(word)) &&
		all[index + 1] !== 's';
	const phrase = phraseAt(all, W.PERSON_PHRASES);
	if (phrase >= 0) {
		const phraseEnd = phrase + (W.PERSON_PHRASES.exec(all.join(' '))?.[0].split(' ').length ?? 1) - 1;
		if (endsAt(phraseEnd)) return phrase;
	}
	return firstIndex(all, (word, index) => W.PERSONS.test(word) && endsAt(index));
}

/** Where a headline asks for an address ("Home address", "Where do you live?"), or -1. */
function addressIndex(all: string[]): number {
	const aboutTheWeb = all.some((word) => W.WEB.test(word));
	const word = firstIndex(
		all,
		(candidate) => W.ADDRESS.test(candidate) && !(aboutTheWeb && W.GENERIC_ADDRESS.test(candidate)),
	);
	const where = firstIndex(all, (candidate) => W.WHERE.test(candidate));
	const lives = where >= 0 && all.some((candidate) => W.LIVE.test(candidate));
	if (word < 0) return lives ? where : -1;
	return lives ? Math.min(word, where) : word;
}

/** "Date of birth", but not "birth name" (a name) nor "Geburtsname". */
function birthIndex(all: string[]): number {
	return firstIndex(
		all,
		(word, index) =>
			W.BIRTH.test(word) &&
			!W.NAME_ON_ITS_OWN.test(word) &&
			![all[index - 2], all[index - 1], all[index + 1]].some(
				(near) => near !== undefined && W.NAME.test(near),
			),
	);
}

/**
 * What kind of personal data a question asks for, by its headline; undefined when it asks for
 * none. Contact details and dates of birth win over the rest ("Referee's e-mail" is an e-mail);
 * otherwise the first thing the headline asks about ("Name as in your passport" is a name).
 */
export function kindOfHeadline(headline: string): Kind | undefined {
	const all = headlineWords(headline);
	if (all.length === 0) return undefined;
	if (all.some((word) => W.EMAIL.test(word)) || phraseAt(all, W.EMAIL_PHRASES) >= 0) return 'EMAIL';
	if (all.some((word) => W.PHONE.test(word)) || phraseAt(all, W.PHONE_PHRASES) >= 0) return 'PHONE';
	if (birthIndex(all) >= 0) return 'BIRTHDATE';
	const identity = [
		firstIndex(all, (word) => W.IDENTITY.test(word)),
		phraseAt(all, W.IDENTITY_PHRASES),
	].filter((index) => index >= 0);
	const name = [nameIndex(all), personIndex(all)].filter((index) => index >= 0);
	const candidates: Array<[Kind, number]> = [
		['ID', identity.length ? Math.min(...identity) : -1],
		['ADDRESS', addressIndex(all)],
		['NAME', name.length ? Math.min(...name) : -1],
	];
	const found = candidates.filter(([, index]) => index >= 0).sort((a, b) => a[1] - b[1]);
	return found[0]?.[0];
}
