import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { surveyLocator } from '../surveyLocator';
import { archive } from './archive';
import { complete } from './complete';
import { surveyConsentProperty } from './consent';
import { create } from './create';
import { definitionProperties } from './definition';
import { deleteSurvey } from './delete';
import { duplicate } from './duplicate';
import { get, getDescription } from './get';
import { getMany, getManyDescription } from './getMany';
import { getMetrics, getMetricsDescription } from './getMetrics';
import { getPersonalLink, getPersonalLinkDescription } from './getPersonalLink';
import { getSingleUseLinks, getSingleUseLinksDescription } from './getSingleUseLinks';
import { pause } from './pause';
import { publish } from './publish';
import { restore } from './restore';
import { update, updateDescription } from './update';
import { validate } from './validate';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

export const surveyOperations: Record<string, ItemOperation> = {
	archive,
	complete,
	create,
	delete: deleteSurvey,
	duplicate,
	get,
	getMany,
	getMetrics,
	getPersonalLink,
	getSingleUseLinks,
	pause,
	publish,
	restore,
	update,
	validate,
};

/** Formbricks' API v3 routes (archive, restore, validate) and the release that added each. */
const V3_ONLY = (version: string) => `Formbricks ${version} or later (its API v3)`;

const DELETE_NOTICE =
	'Formbricks deletes the survey with all its responses, displays and quotas; they cannot be restored. To keep the responses, Complete or Archive the survey instead.';

/** Every survey operation but the reads the documented survey API has too. */
const FORMBRICKS_ONLY = ['archive', 'complete', 'create', 'delete', 'duplicate', 'getPersonalLink', 'getSingleUseLinks', 'pause', 'publish', 'restore', 'update', 'validate'];

export const surveyDescription: INodeProperties[] = [
	withPlatformOnly('Formbricks', FORMBRICKS_ONLY, {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['survey'] } },
		options: [
			{
				name: 'Archive',
				value: 'archive',
				action: 'Archive a survey',
				description: `Keep a survey with its responses but take it out of the survey lists; ${V3_ONLY('5.3')}`,
			},
			{
				name: 'Complete',
				value: 'complete',
				action: 'Complete a survey',
				description: 'Close a survey for good: it takes no more responses (Formbricks)',
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create a survey',
				description: 'Make a survey from a list of questions or Formbricks’ survey JSON, as a draft (Formbricks)',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a survey',
				description: 'Delete a survey with all its responses (Formbricks)',
			},
			{
				name: 'Duplicate',
				value: 'duplicate',
				action: 'Duplicate a survey',
				description: 'Make a new draft with a survey’s questions, cards and settings, without its responses (Formbricks)',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a survey',
				description: 'Get one survey with its questions',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many surveys',
				description:
					'List the workspace’s surveys, published and draft, optionally by status and type. On Formbricks, which lists no response count, the responses of each survey returned are counted (a few requests per survey).',
			},
			{
				name: 'Get Metrics',
				value: 'getMetrics',
				action: 'Get survey metrics',
				description:
					'Response counts, completion rate, first and last response, recent activity and median time to finish',
			},
			{
				name: 'Get Personal Link',
				value: 'getPersonalLink',
				action: 'Get a personal survey link',
				description:
					'A link through which one contact (or each contact of a segment) answers as themselves; needs Formbricks’ Enterprise licence',
			},
			{
				name: 'Get Single-Use Links',
				value: 'getSingleUseLinks',
				action: 'Get single use survey links',
				description: 'Links that each take one anonymous response; the survey’s single-use links must be on',
			},
			{
				name: 'Pause',
				value: 'pause',
				action: 'Pause a survey',
				description: 'Stop a survey taking responses until it is published again (Formbricks)',
			},
			{
				name: 'Publish',
				value: 'publish',
				action: 'Publish a survey',
				description: 'Open a draft or paused survey to responses (Formbricks)',
			},
			{
				name: 'Restore',
				value: 'restore',
				action: 'Restore a survey',
				description: `Bring an archived survey back into the lists; ${V3_ONLY('5.3')}`,
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a survey',
				description: 'Change a survey’s name, questions, welcome and ending cards, hidden fields, closing date or response limit (Formbricks)',
			},
			{
				name: 'Validate',
				value: 'validate',
				action: 'Validate a survey definition',
				description: `Have Formbricks check a survey definition without creating it; ${V3_ONLY('5.1')}`,
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices(
		'Formbricks',
		'survey',
		Object.fromEntries(FORMBRICKS_ONLY.map((operation) => [operation, ''])),
	),
	{
		displayName: DELETE_NOTICE,
		name: 'surveyDeleteNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['survey'], operation: ['delete'] } },
	},
	surveyLocator({
		resource: ['survey'],
		operation: ['archive', 'complete', 'delete', 'duplicate', 'pause', 'publish', 'restore', 'update'],
	}),
	...definitionProperties({ resource: ['survey'], operation: ['create', 'validate'] }),
	...updateDescription,
	{
		displayName: 'New Name',
		name: 'newName',
		type: 'string',
		default: '',
		description: 'The copy’s name; the survey’s name with “(copy)” when empty',
		displayOptions: { show: { resource: ['survey'], operation: ['duplicate'] } },
	},
	surveyConsentProperty,
	...getDescription,
	...getManyDescription,
	...getMetricsDescription,
	...getPersonalLinkDescription,
	...getSingleUseLinksDescription,
];
