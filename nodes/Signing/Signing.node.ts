import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeOperation } from '../shared/execute';
import { documentDescription, documentOperations } from './resources/document';
import { templateDescription, templateOperations } from './resources/template';
import { getTemplateFields, searchTemplates } from './resources/template/locator';

export class Signing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Signing',
		name: 'signing',
		icon: { light: 'file:signing.svg', dark: 'file:signing.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Generate documents from templates for e-signature, send, remind, cancel, download the signed PDF and read the audit log',
		defaults: { name: 'Signing' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'signingApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Document', value: 'document' },
					{ name: 'Template', value: 'template' },
				],
				default: 'document',
			},
			...documentDescription,
			...templateDescription,
		],
	};

	methods = {
		listSearch: { searchTemplates },
		loadOptions: { getTemplateFields },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, { document: documentOperations, template: templateOperations });
	}
}
