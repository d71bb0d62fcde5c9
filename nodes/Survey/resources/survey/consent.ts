import type { ToolConsent } from '../../../shared/toolConsent';
import { toolConsentProperty } from '../../../shared/toolConsent';

/** An agent may not publish, pause, close, archive or delete a survey unless the workflow's author switched it on. */
export const SURVEY_CONSENT: ToolConsent = { name: 'allowAsTool', action: 'Publishing, closing or deleting surveys' };

export const surveyConsentProperty = toolConsentProperty(
	SURVEY_CONSENT,
	{ resource: ['survey'], operation: ['publish', 'pause', 'complete', 'archive', 'delete'] },
	'Whether an AI agent may run this operation when this node is its tool: it changes what respondents see (publishing, pausing, completing, archiving) or deletes the survey with its responses. Off: as a tool, it refuses and nothing is sent.',
);
