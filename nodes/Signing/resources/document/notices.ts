import type { INodeProperties } from 'n8n-workflow';

/**
 * Said at the top of each operation that e-mails people: a user trying a step with "Execute step"
 * while building a workflow would otherwise e-mail real recipients without expecting it.
 */
function realEmailsNotice(name: string, operation: string, consequence: string): INodeProperties {
	return {
		displayName: `Executing this operation, also with "Execute step" in the editor, ${consequence}`,
		name,
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['document'], operation: [operation] } },
	};
}

export const realEmailsNotices: INodeProperties[] = [
	realEmailsNotice(
		'realInvitationsNotice',
		'generateFromTemplate',
		'creates a real document and, with Send Now on, e-mails real invitations to its recipients. Turn Send Now off to get a draft while you build the workflow.',
	),
	realEmailsNotice(
		'realInvitationsNotice',
		'send',
		'e-mails real invitations to every recipient of the document.',
	),
	realEmailsNotice(
		'realRemindersNotice',
		'resend',
		'e-mails real reminders to every signer and approver who has not signed yet, or to the Recipient IDs given.',
	),
];
