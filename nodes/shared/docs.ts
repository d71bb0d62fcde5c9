/** Where the pack's manual lives: the docs/ folder of its repository, one section per node and credential. */
const DOCS_URL = 'https://github.com/n8n-nodes-sign-survey-bookmark/n8n-nodes-sign-survey-bookmark/blob/main/docs';

/**
 * A node's documentation link: a section of a page of docs/. It goes in the node's own
 * `documentationUrl`, which n8n's editor opens as it is (`useNodeDocsUrl`, n8n 1.x and 2.x); a codex
 * `primaryDocumentation` URL gets n8n's tracking query appended after it, which lands after the `#`
 * and breaks the anchor.
 */
export const docsSection = (page: string, anchor: string) => `${DOCS_URL}/${page}.md#${anchor}`;
