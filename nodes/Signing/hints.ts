/** Advice shared by the Signing nodes' parameters and the adapters' errors. */

/** How to find a template's ID; `looks` is how the API's template IDs look ("tpl_…"). */
export const templateIdHint = (looks = 'tpl_…') =>
	`Pick the template From List, or give its ID (${looks}): Template → Get Many lists every template with its ID, as does the service’s template page.`;

/** The error hint for a 404 on a path with the template in it. */
export const templateNotFoundHint = (templateId: string, looks?: string) =>
	`Check the Template parameter: the service has no template with ID "${templateId}". ${templateIdHint(looks)}`;
