import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { OutputPrivacy } from '../shared/privacy';
import { personalDataOption, personalDataOptions, redactTriggerOutput } from '../shared/privacy';
import type { FieldGuide } from '../shared/redaction';
import { inOneShapeVersions } from '../shared/simplify';
import type { ToolConsent } from '../shared/toolConsent';
import { toolConsentProperty } from '../shared/toolConsent';

/*
 * Personal data in the Bookmarks node's output: records' titles, notes, texts, descriptions and
 * OCR transcripts are free text where applicants' details end up (e-mail addresses, phone
 * numbers, "Applicant: …" lines and the names they give), and so are tag and list names.
 */

export const PERSONAL_DATA_DESCRIPTION =
	'What to do with personal data in titles, notes, texts, OCR transcripts and tag and list names: e-mail addresses, phone numbers, values written after a label such as "Applicant:" or "Phone:", and the names these give wherever they recur. Without this option: kept as they are, but redacted when the node runs as an AI agent tool.';

export const bookmarksPersonalDataOption: INodeProperties = {
	...personalDataOption,
	description: PERSONAL_DATA_DESCRIPTION,
};

/** The Options of the operations that have no other option and return names or free text. */
export const bookmarksPersonalDataOptions: INodeProperties[] = [
	// Version 1 has the reads' Options (Simplify); version 2 moved Simplify out of them.
	personalDataOptions(
		{ resource: ['bookmark'], operation: ['get', 'getMany', 'search'], ...inOneShapeVersions },
		PERSONAL_DATA_DESCRIPTION,
	),
	personalDataOptions(
		{ resource: ['bookmark'], operation: ['addTags', 'removeTags', 'update'] },
		PERSONAL_DATA_DESCRIPTION,
	),
	personalDataOptions(
		{ resource: ['bookmark'], operation: ['create'], type: ['text'] },
		PERSONAL_DATA_DESCRIPTION,
	),
	personalDataOptions({ resource: ['bookmark'], operation: ['getContent'] }, PERSONAL_DATA_DESCRIPTION),
	personalDataOptions(
		{ resource: ['list'], operation: ['create', 'get', 'getMany', 'update'] },
		PERSONAL_DATA_DESCRIPTION,
	),
	personalDataOptions(
		{ resource: ['tag'], operation: ['create', 'get', 'getMany', 'rename'] },
		PERSONAL_DATA_DESCRIPTION,
	),
	personalDataOptions(
		{ resource: ['highlight'], operation: ['create', 'get', 'getMany', 'update'] },
		PERSONAL_DATA_DESCRIPTION,
	),
	personalDataOptions({ resource: ['user'], operation: ['getStats'] }, PERSONAL_DATA_DESCRIPTION),
];

/** Deleting acts for an agent only with the author's consent. */
export const consentTo = (action: string): ToolConsent => ({ name: 'allowAsTool', action });

export const bookmarksToolConsentProperty = toolConsentProperty(
	consentTo(''),
	// Detach and Replace delete a file; Summarize replaces a record's summary and spends the server's AI.
	{ resource: ['asset', 'backup', 'bookmark', 'feed', 'highlight', 'list', 'tag'], operation: ['delete', 'detach', 'replace', 'summarize'] },
	'Whether an AI agent may delete when this node is its tool. Off: as a tool, Delete (and Detach or Replace, which delete a file, and Summarize, which replaces a record’s summary) refuses and nothing is changed.',
);

/** Tags and lists have names that are not people's (their text is still scanned). */
const THING_HOLDERS = new Set(['attached', 'detached']);
/** User → Get Stats: `tagUsage` lists the most used tags by name. */
const STATS_HOLDERS = new Set([...THING_HOLDERS, 'tagUsage']);

/**
 * What is known about bookmark records beyond field names: tags' and lists' names name things,
 * not people (their text is still scanned), where the records are tags or lists, in what Add
 * Tags and Remove Tags return and in a user's statistics (`holders`).
 */
function bookmarkGuide(recordsAreThings: boolean, holders: ReadonlySet<string> = THING_HOLDERS): FieldGuide {
	return {
		kindOf(path) {
			if (path[path.length - 1] !== 'name') return undefined;
			if (path.length === 1 && recordsAreThings) return null;
			return path.length === 2 && holders.has(path[0]) ? null : undefined;
		},
	};
}

export const bookmarksPrivacy: OutputPrivacy = {
	guide(ctx) {
		const resource = ctx.getNodeParameter('resource', 0) as string;
		return bookmarkGuide(resource === 'tag' || resource === 'list', resource === 'user' ? STATS_HOLDERS : THING_HOLDERS);
	},
};

/** The Options of the Bookmarks Trigger and the Bookmarks Webhook Trigger: personal data kept unless chosen otherwise. */
export const bookmarksTriggerPersonalDataOptions = personalDataOptions(
	undefined,
	'What to do with personal data in the records’ titles, notes, texts, OCR transcripts and tag and list names (and, in the Bookmarks Webhook Trigger, the event’s URL): e-mail addresses, phone numbers, values written after a label such as "Applicant:" or "Phone:", and the names these give wherever they recur. Without this option: kept as they are.',
);

/** A bookmarks trigger's records (or events), personal data handled as its Personal Data option says, by the Bookmarks node's rule. */
export const redactBookmarkRecords = async (options: IDataObject, items: IDataObject[]) =>
	await redactTriggerOutput(options, items, () => bookmarkGuide(false));
