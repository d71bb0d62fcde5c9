/**
 * The nodes' descriptions, as n8n's nodes panel shows them. The panel merges an action node and
 * its trigger (`<name>` and `<name>Trigger`) into one entry and gives that entry the trigger's
 * description (`generateMergedNodesAndActions` in n8n-editor-ui: "default to trigger
 * description"), in the list and on the entry's page. So a trigger's description is written for
 * the pair, as n8n's own Form and n8n Trigger nodes are: it begins with the action node's words
 * and says what starts a workflow.
 */
const pair = (actions: string, events: string) => `${actions}; start workflows ${events}`;

export const SIGNING_DESCRIPTION =
	'Generate documents from templates for e-signature (your signing service or Documenso), send, remind, cancel, download the signed PDF and read the audit log';
export const SIGNING_TRIGGER_DESCRIPTION = pair(
	SIGNING_DESCRIPTION,
	'when a document is created, sent, opened, signed, completed, rejected or cancelled',
);

export const BOOKMARKS_DESCRIPTION =
	'Store, search, organise and delete bookmark records: links, notes and OCR text, tags and lists';
export const BOOKMARKS_TRIGGER_DESCRIPTION = pair(
	BOOKMARKS_DESCRIPTION,
	'when bookmark records are created or changed',
);

/** Its own entry in the nodes panel (not `<name>Trigger`), so it is described on its own. */
export const BOOKMARKS_WEBHOOK_TRIGGER_DESCRIPTION =
	'Start workflows when Karakeep sends a webhook: a bookmark created, edited, crawled, AI tagged or deleted, as it happens';

export const SURVEY_DESCRIPTION =
	'Read surveys, their responses and metrics, erase responses, and export applicant records without personal data; on Formbricks, write responses, add contacts and send them personal survey links';
export const SURVEY_TRIGGER_DESCRIPTION = pair(
	SURVEY_DESCRIPTION,
	'when a survey response is created, updated or finished',
);
