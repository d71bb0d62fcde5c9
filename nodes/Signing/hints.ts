/** Advice shared by the Signing nodes' parameters and the adapters' errors. */

/** How to find a template's ID; `looks` is how the API's template IDs look ("tpl_…"). */
export const templateIdHint = (looks = 'tpl_…') =>
	`Pick the template From List, or give its ID (${looks}): Template → Get Many lists every template with its ID, as does the service’s template page.`;

/** The error hint for a 404 on a path with the template in it. */
export const templateNotFoundHint = (templateId: string, looks?: string) =>
	`Check the Template parameter: the service has no template with ID "${templateId}". ${templateIdHint(looks)}`;

/**
 * After the answer to a write was lost (it is not sent again): where its effect shows, and what
 * running the item again would do.
 */
export const lostAnswerHints = {
	generate: (templateId: string, title: string) =>
		`Look before running this item again, which would make another document: Document → Get Many with Filters › Template ${templateId} lists the documents made from it, newest first; one titled "${title}" made just now is this one.`,
	send: (documentId: string) =>
		`Document → Get ${documentId} shows whether it was sent: it is pending once it was. Running this item again cannot send it twice: Send takes only a draft.`,
	resend: (documentId: string) =>
		`Document → Get Audit Log of ${documentId} lists each reminder sent (INVITATION_RESENT). Running this item again would send the reminders again.`,
	cancel: (documentId: string) =>
		`Document → Get ${documentId} shows whether it was cancelled. Running this item again cancels nothing twice: a cancelled document is not cancelled again.`,
};
