import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { cancel, cancelDescription } from './cancel';
import { CREATE_FROM_FILE_NOTICE, createFromFile, createFromFileDescription } from './createFromFile';
import { DELETE_NOTICE, deleteDocument } from './delete';
import { duplicate } from './duplicate';
import { documentIdDescription } from './documentId';
import { download, downloadDescription } from './download';
import { generateFromTemplate, generateFromTemplateDescription } from './generateFromTemplate';
import { get } from './get';
import { getAuditLog, getAuditLogDescription } from './getAuditLog';
import { getMany, getManyDescription } from './getMany';
import { realEmailsNotices } from './notices';
import { resend, resendDescription } from './resend';
import { send } from './send';
import { update, updateFieldsProperty } from './update';
import { simplifyDocumentParameter } from './simplify';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

export const documentOperations: Record<string, ItemOperation> = {
	cancel,
	createFromFile,
	delete: deleteDocument,
	download,
	duplicate,
	generateFromTemplate,
	get,
	getAuditLog,
	getMany,
	resend,
	send,
	update,
};

export const documentDescription: INodeProperties[] = [
	withPlatformOnly('Documenso', ['createFromFile', 'delete', 'duplicate', 'update'], {
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
				name: 'Create From File',
				value: 'createFromFile',
				action: 'Create a document from a file',
				description:
					'Upload a PDF from the input item and send it for signature, with fields placed at a text or a position of it',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a document',
				description:
					'Delete a draft or pending document (its recipients are told), or hide a finished one',
			},
			{
				name: 'Download',
				value: 'download',
				action: 'Download a document',
				description:
					'Get the signed PDF (once completed) or the original as a file for the next node; as a tool, the file’s name and size',
			},
			{
				name: 'Duplicate',
				value: 'duplicate',
				action: 'Duplicate a document',
				description: 'Make a new draft with the document’s file, recipients and fields',
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
			{
				name: 'Update',
				value: 'update',
				action: 'Update a document',
				description: 'Change a document’s title, invitation e-mail, external ID or folder',
			},
		],
		default: 'generateFromTemplate',
	}),
	...platformOnlyNotices('Documenso', 'document', { createFromFile: CREATE_FROM_FILE_NOTICE, delete: DELETE_NOTICE, duplicate: '', update: '' }),
	...realEmailsNotices,
	documentIdDescription,
	simplifyDocumentParameter(['cancel', 'get', 'send']),
	...generateFromTemplateDescription,
	...createFromFileDescription,
	...getManyDescription,
	...resendDescription,
	...downloadDescription,
	...getAuditLogDescription,
	...cancelDescription,
	updateFieldsProperty('document'),
];
