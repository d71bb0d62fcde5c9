/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import * as path from 'node:path';

import { PROJECT_ROOT } from './paths';

/**
 * Where the shared `real-services` folder (the platforms' own specs, Karakeep's source and
 * start.sh) is looked for, in order: `REAL_SERVICES_DIR`, then `shared/real-services` beside the
 * project (CI clones the project next to `shared/`), then the shared folder of these machines.
 * It is not in the repository: its files are the platforms' own, under their licences.
 */
export function realServicesDirs(env: NodeJS.ProcessEnv = process.env): string[] {
	return [
		env.REAL_SERVICES_DIR?.trim(),
		path.resolve(PROJECT_ROOT, '..', 'shared', 'real-services'),
		'/work/shared/real-services',
	].filter((dir): dir is string => Boolean(dir));
}
