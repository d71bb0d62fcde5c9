export type PersonalDataMode = 'keep' | 'redact' | 'omit';

/** What a personal value is; its pseudonyms are `EMAIL_1`, `NAME_2`… */
export type Kind =
	| 'EMAIL'
	| 'PHONE'
	| 'NAME'
	| 'ADDRESS'
	| 'BIRTHDATE'
	| 'ID'
	| 'IP'
	| 'DEVICE'
	| 'PERSONAL';

/** What personal data becomes in Omit mode where it cannot be left out (inside other text). */
export const REMOVED = '[removed]';
