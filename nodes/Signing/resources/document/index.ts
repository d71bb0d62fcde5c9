import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { cancel, cancelDescription } from './cancel';
import { documentIdDescription } from './documentId';
import { download, downloadDescription } from './download';
import { generateFromTemplate, generateFromTemplateDescription } from './generateFromTemplate';
import { get } from './get';
import { getAuditLog, getAuditLogDescription } from './getAuditLog';
import { getMany, getManyDescription } from './getMany';
import { realEmailsNotices } from './notices';
import { resend, resendDescription } from './resend';
import { send } from './send';
import { simplifyDocumentParameter } from './simplify';

export const documentOperations: Record<string, ItemOperation> = {
	cancel,
	download,
	generateFromTemplate,
	get,
	getAuditLog,
	getMany,
	resend,
	send,
};

export const documentDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				action: 'Cancel a document',
				description:
					'Cancel a draft or pending document so nobody can sign it any more; a completed document cannot be cancelled',
			},
			{
				name: 'Download',
				value: 'download',
				action: 'Download a document',
				description:
					'Get the signed PDF (once completed) or the original as a file for the next node; as a tool, the file’s name and size',
			},
			{
				name: 'Generate From Template',
				value: 'generateFromTemplate',
				action: 'Generate a document from a template',
				description:
					'Create a document from a stored template, with prefilled fields, and invite its recipients to sign (or keep it as a draft)',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a document',
				description: 'Get a document with its status and each recipient’s signing status',
			},
			{
				name: 'Get Audit Log',
				value: 'getAuditLog',
				action: 'Get the audit log of a document',
				description:
					'Get who created, sent, opened, signed, rejected or cancelled a document, and when',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many documents',
				description: 'List documents, newest first, by status and template',
			},
			{
				name: 'Resend',
				value: 'resend',
				action: 'Resend a document',
				description:
					'Remind the signers of a pending document who have not signed yet, or chosen recipients',
			},
			{
				name: 'Send',
				value: 'send',
				action: 'Send a document',
				description: 'Send a draft’s invitations to its recipients',
			},
		],
		default: 'generateFromTemplate',
	},
	...realEmailsNotices,
	documentIdDescription,
	simplifyDocumentParameter(['cancel', 'get', 'send']),
	...generateFromTemplateDescription,
	...getManyDescription,
	...resendDescription,
	...downloadDescription,
	...getAuditLogDescription,
	...cancelDescription,
];
