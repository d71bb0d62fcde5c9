import type { ToolConsent } from '../../../shared/toolConsent';
import { toolConsentProperty } from '../../../shared/toolConsent';

/** An agent may not add, change or delete contacts unless the workflow's author switched it on. */
export const CONTACT_CONSENT: ToolConsent = { name: 'allowAsTool', action: 'Writing or deleting contacts' };

export const contactConsentProperty = toolConsentProperty(
	CONTACT_CONSENT,
	{ resource: ['contact', 'contactAttributeKey'], operation: ['create', 'createMany', 'delete'] },
	'Whether an AI agent may create, update or delete contacts (and create attribute keys) when this node is its tool. Off: as a tool, these operations refuse and nothing is sent.',
);
