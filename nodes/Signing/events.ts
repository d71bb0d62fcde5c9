import { withTriggerActions } from '../shared/descriptions';
import type { EventOption } from './adapters';
import { extraEventOptions } from './adapters';

/** The events of the documented API (CONTRACTS.md sections 1 and 4), which every signing API's events are given under. */
const DOCUMENTED_EVENTS: EventOption[] = [
	{
		name: 'Document Cancelled',
		value: 'document.cancelled',
		description:
			'The document was cancelled before completion; nobody can sign it any more (Documenso: also when it is deleted)',
	},
	{
		name: 'Document Completed',
		value: 'document.completed',
		description:
			'All required parties signed and the certified package (Documenso: the signed PDF) is ready. On Documenso it may arrive before the last signer’s Document Signed.',
	},
	{
		name: 'Document Created',
		value: 'document.created',
		description: 'A new document was drafted',
	},
	{
		name: 'Document Opened',
		value: 'document.opened',
		description:
			'A recipient opened their signing link (fires on each opening; Documenso: on the first opening only); the recipient is in "recipient"',
	},
	{
		name: 'Document Rejected',
		value: 'document.rejected',
		description:
			'A signer or approver declined to sign; the recipient is in "recipient", their reason in "rejectionReason"',
	},
	{
		name: 'Document Sent',
		value: 'document.sent',
		description: 'Invitations were dispatched to the recipients',
	},
	{
		name: 'Document Signed',
		value: 'document.signed',
		description: 'One recipient completed their signing action; the recipient is in "recipient"',
	},
];

/** The Signing Trigger's events: the documented ones and those only some APIs send, by name. */
export const SIGNING_EVENT_OPTIONS: EventOption[] = withTriggerActions(
	[...DOCUMENTED_EVENTS, ...extraEventOptions].sort((a, b) => a.name.localeCompare(b.name)),
);
