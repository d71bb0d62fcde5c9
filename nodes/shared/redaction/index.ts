/*
 * Personal data in records, by what recognises it: field names (`fieldNames.ts`), survey questions' headlines (`headlines.ts`), free text
 * (`freeText.ts`), values found again where they recur (`recurrences.ts`), the pseudonyms that
 * replace them (`pseudonyms.ts`), and the Redactor that walks a record with all of them
 * (`redactor.ts`).
 */
export { kindOfFieldName } from './fieldNames';
export { kindOfHeadline } from './headlines';
export { RedactionMemory, Redactor } from './redactor';
export type { FieldGuide, RedactorOptions } from './redactor';
export type { Kind, PersonalDataMode } from './types';
