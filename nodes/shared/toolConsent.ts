import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runsAsTool } from './privacy';

/*
 * An agent may not delete, cancel or e-mail people unless the workflow's author said so: the
 * "Allow as AI Agent Tool" switch of each such operation, off by default. Only the author can
 * change a node's settings, so the switch is the author's explicit consent.
 */

export interface ToolConsent {
	/** The switch's parameter name (Response → Delete keeps its `allowDeleteAsTool`). */
	name: string;
	/** What the operation does, as the refusal names it: "Deleting responses", "Sending invitations". */
	action: string;
}

/** The "Allow as AI Agent Tool" switch of an operation. */
export function toolConsentProperty(
	consent: ToolConsent,
	show: NonNullable<IDisplayOptions['show']>,
	description: string,
): INodeProperties {
	return {
		displayName: 'Allow as AI Agent Tool',
		name: consent.name,
		type: 'boolean',
		default: false,
		description,
		displayOptions: { show },
	};
}

/** Refuses before anything is sent when the node runs as a tool and its switch is off. */
export function requireToolConsent(
	ctx: IExecuteFunctions,
	itemIndex: number,
	consent: ToolConsent,
	alternative = '',
): void {
	if (!runsAsTool(ctx) || ctx.getNodeParameter(consent.name, itemIndex, false) === true) return;
	throw new NodeOperationError(ctx.getNode(), `${consent.action} is not allowed for an AI agent`, {
		itemIndex,
		description: `This is switched off when the node runs as a tool. To let an agent do it, switch on "Allow as AI Agent Tool" in the node.${alternative ? ` ${alternative}` : ''}`,
	});
}
