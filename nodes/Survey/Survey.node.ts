import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeOperation } from '../shared/execute';
import { surveyApis } from './adapters';
import { surveyApiTest } from './credentialTest';
import { applicantRecordsDescription, applicantRecordsOperations } from './resources/applicantRecords';
import { contactDescription, contactOperations, getContactAttributeKeys } from './resources/contact';
import { contactAttributeKeyDescription, contactAttributeKeyOperations } from './resources/contactAttributeKey';
import {
	getSurveyHiddenFields,
	getSurveyQuestions,
	responseDescription,
	responseOperations,
} from './resources/response';
import { surveyDescription, surveyOperations } from './resources/survey';
import { searchSurveys } from './resources/surveyLocator';
import { docsSection } from '../shared/docs';
import { withPlatformOnly } from '../shared/platformOnly';
import { SURVEY_DESCRIPTION } from '../shared/nodeDescriptions';
import { NODE_VERSIONS, ONE_SHAPE_VERSION } from '../shared/simplify';

const operationsByResource = {
	applicantRecords: applicantRecordsOperations,
	contact: contactOperations,
	contactAttributeKey: contactAttributeKeyOperations,
	response: responseOperations,
	survey: surveyOperations,
};

export class Survey implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Survey',
		name: 'survey',
		icon: { light: 'file:survey.svg', dark: 'file:survey.dark.svg' },
		group: ['input'],
		version: NODE_VERSIONS,
		defaultVersion: ONE_SHAPE_VERSION,
		// What the operation does, as a person reads it (issue 18: never the code names).
		subtitle:
			'={{ ({ "survey:archive": "Archive survey", "survey:complete": "Complete survey", "survey:create": "Create survey", "survey:delete": "Delete survey", "survey:duplicate": "Duplicate survey", "survey:get": "Get survey", "survey:getMany": "Get many surveys", "survey:getMetrics": "Get survey metrics", "survey:getPersonalLink": "Get personal survey link", "survey:getSingleUseLinks": "Get single-use links", "survey:pause": "Pause survey", "survey:publish": "Publish survey", "survey:restore": "Restore survey", "survey:update": "Update survey", "survey:validate": "Validate survey definition", "response:create": "Create response", "response:delete": "Delete response", "response:get": "Get response", "response:getMany": "Get many responses", "response:markAsRead": "Mark responses as read", "response:update": "Update response", "applicantRecords:export": "Export applicant records", "contact:create": "Create contact", "contact:createMany": "Create or update contacts", "contact:delete": "Delete contact", "contact:get": "Get contact", "contact:getMany": "Get many contacts", "contactAttributeKey:create": "Create contact attribute key", "contactAttributeKey:getMany": "Get contact attribute keys" })[$parameter["resource"] + ":" + $parameter["operation"]] || "" }}',
		description: SURVEY_DESCRIPTION,
		documentationUrl: docsSection('survey', 'survey'),
		defaults: { name: 'Survey' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'surveyApi', required: true, testedBy: 'surveyApiTest' }],
		properties: [
			withPlatformOnly('Formbricks', ['contact', 'contactAttributeKey'], {
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Applicant Record', value: 'applicantRecords' },
					{ name: 'Contact', value: 'contact', description: 'A person of the workspace, to send a personal survey link' },
					{ name: 'Contact Attribute Key', value: 'contactAttributeKey', description: 'An attribute contacts can have' },
					{ name: 'Response', value: 'response' },
					{ name: 'Survey', value: 'survey' },
				],
				default: 'survey',
			}),
			...surveyDescription,
			...responseDescription,
			...applicantRecordsDescription,
			...contactDescription,
			...contactAttributeKeyDescription,
		],
	};

	methods = {
		credentialTest: { surveyApiTest },
		listSearch: { searchSurveys },
		loadOptions: { getContactAttributeKeys, getSurveyHiddenFields, getSurveyQuestions },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, operationsByResource, surveyApis.explainError);
	}
}
