import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeWithPersonalData } from '../shared/privacy';
import { signingApis } from './adapters';
import { signingApiTest } from './credentialTest';
import { signingPersonalDataOptions, signingPrivacy, signingToolConsentProperty } from './personalData';
import { attachmentDescription, attachmentOperations } from './resources/attachment';
import { documentDescription, documentOperations } from './resources/document';
import { fieldDescription, fieldOperations } from './resources/field';
import { fileDescription, fileOperations } from './resources/file';
import { folderDescription, folderOperations } from './resources/folder';
import { getDocumentFolders, getTemplateFolders } from './resources/folder/folderFilter';
import { recipientDescription, recipientOperations } from './resources/recipient';
import { templateDescription, templateOperations } from './resources/template';
import { getTemplateFields, getTemplateSlots, searchTemplates } from './resources/template/locator';
import { docsSection } from '../shared/docs';
import { withPlatformOnly } from '../shared/platformOnly';
import { SIGNING_DESCRIPTION } from '../shared/nodeDescriptions';
import { NODE_VERSIONS, ONE_SHAPE_VERSION } from '../shared/simplify';

export class Signing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Signing',
		name: 'signing',
		icon: { light: 'file:signing.svg', dark: 'file:signing.dark.svg' },
		group: ['output'],
		version: NODE_VERSIONS,
		defaultVersion: ONE_SHAPE_VERSION,
		// What the operation does, as a person reads it (issue 18: never the code names).
		subtitle:
			'={{ ({ "attachment:add": "Add attachment", "attachment:getMany": "Get many attachments", "attachment:remove": "Remove attachment", "document:cancel": "Cancel document", "document:createFromFile": "Create document from file", "document:delete": "Delete document", "document:download": "Download document", "document:duplicate": "Duplicate document", "document:generateFromTemplate": "Generate from template", "document:get": "Get document", "document:getAuditLog": "Get audit log", "document:getMany": "Get many documents", "document:resend": "Resend document", "document:send": "Send document", "document:update": "Update document", "field:add": "Add field", "folder:create": "Create folder", "folder:delete": "Delete folder", "folder:getMany": "Get many folders", "folder:update": "Update folder", "field:get": "Get field", "field:remove": "Remove field", "field:update": "Update field", "file:getMany": "Get many files", "file:remove": "Remove file", "file:update": "Update file", "recipient:add": "Add recipient", "recipient:get": "Get recipient", "recipient:rejectOnBehalf": "Reject on behalf of recipient", "recipient:remove": "Remove recipient", "recipient:update": "Update recipient", "template:createFromFile": "Create template from file", "template:delete": "Delete template", "template:duplicate": "Duplicate template", "template:get": "Get template", "template:getMany": "Get many templates", "template:update": "Update template" })[$parameter["resource"] + ":" + $parameter["operation"]] || "" }}',
		description: SIGNING_DESCRIPTION,
		documentationUrl: docsSection('signing', 'signing'),
		defaults: { name: 'Signing' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'signingApi', required: true, testedBy: 'signingApiTest' }],
		properties: [
			withPlatformOnly('Documenso', ['attachment', 'field', 'file', 'folder', 'recipient'], {
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Attachment', value: 'attachment', description: 'A link signers see beside a document' },
					{ name: 'Document', value: 'document' },
					{ name: 'Field', value: 'field', description: 'A place in a document a recipient signs or fills in' },
					{ name: 'File', value: 'file', description: 'One of the PDFs a document is made of' },
					{ name: 'Folder', value: 'folder', description: 'A folder of documents or templates' },
					{ name: 'Recipient', value: 'recipient', description: 'A person a document goes to, before they act' },
					{ name: 'Template', value: 'template' },
				],
				default: 'document',
			}),
			...documentDescription,
			...attachmentDescription,
			...recipientDescription,
			...fieldDescription,
			...fileDescription,
			...folderDescription,
			...templateDescription,
			signingToolConsentProperty,
			...signingPersonalDataOptions,
		],
	};

	methods = {
		credentialTest: { signingApiTest },
		listSearch: { searchTemplates },
		loadOptions: { getDocumentFolders, getTemplateFields, getTemplateFolders, getTemplateSlots },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeWithPersonalData(
			this,
			{ attachment: attachmentOperations, document: documentOperations, field: fieldOperations, file: fileOperations, folder: folderOperations, recipient: recipientOperations, template: templateOperations },
			signingPrivacy,
			signingApis.explainError,
		);
	}
}
