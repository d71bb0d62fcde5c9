import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeOperation } from '../shared/execute';
import { signingApiTest } from './credentialTest';
import { documentDescription, documentOperations } from './resources/document';

export class Signing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Signing',
		name: 'signing',
		icon: { light: 'file:signing.svg', dark: 'file:signing.dark.svg' },
		group: ['output'],
		version: 1,
		// What the operation does, as a person reads it (issue 18: never the code names).
		subtitle:
			'={{ ({ "document:generateFromTemplate": "Generate from template", "document:get": "Get document" })[$parameter["resource"] + ":" + $parameter["operation"]] || "" }}',
		description: 'Generate documents from templates for e-signature and follow their status',
		defaults: { name: 'Signing' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'signingApi', required: true, testedBy: 'signingApiTest' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Document', value: 'document' }],
				default: 'document',
			},
			...documentDescription,
		],
	};

	methods = { credentialTest: { signingApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, { document: documentOperations });
	}
}
