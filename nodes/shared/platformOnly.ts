import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * One rule for what only one platform's API has (an operation that fails at once on another API
 * with the "available with the … API" error of adapterRegistry.ts), in every place a user meets it:
 * - the nodes panel lists the operation by its `action`: it ends with "(Karakeep)", as the
 *   triggers' platform events do;
 * - the operation list shows its description, which ends the same way;
 * - a resource whose every operation is the platform's ends its description the same way;
 * - right below the operation, a notice starts with "Karakeep only".
 * test/unit/platformOnly.test.ts checks the four from the node descriptions.
 */
export type Platform = 'Documenso' | 'Karakeep' | 'Formbricks';

export const platformMark = (platform: Platform) => `(${platform})`;

const marked = (text: string | undefined, platform: Platform) => {
	const bare = (text ?? '').replace(/\s*\((Documenso|Karakeep|Formbricks)\)$/, '');
	return `${bare} ${platformMark(platform)}`;
};

/**
 * The Resource or Operation parameter with the options of `values` marked as the platform's alone:
 * their action and description end with the platform's name. The options stay literals where
 * they are written, as n8n's lint reads them.
 */
export function withPlatformOnly<Property extends INodeProperties>(platform: Platform, values: string[], property: Property): Property {
	const options = (property.options ?? []) as INodePropertyOptions[];
	return {
		...property,
		options: options.map((option) =>
			values.includes(String(option.value))
				? {
						...option,
						...(option.action === undefined ? {} : { action: marked(option.action, platform) }),
						description: marked(option.description, platform),
					}
				: option,
		),
	};
}

/**
 * The notice right below the operation, one per operation of `resource` the platform alone has:
 * "Karakeep only", then what the operation needs to be known before it runs (`more`), or, when
 * nothing, what happens with another API in the credential.
 */
export function platformOnlyNotices(
	platform: Platform,
	resource: string,
	operations: Record<string, string>,
): INodeProperties[] {
	return Object.entries(operations).map(([operation, more]) => ({
		displayName: more
			? `${platform} only. ${more}`
			: `${platform} only: with a credential of another API, this operation stops before anything is sent, saying so.`,
		name: `${resource}${operation[0].toUpperCase()}${operation.slice(1)}PlatformNotice`,
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: [resource], operation: [operation] } },
	}));
}
