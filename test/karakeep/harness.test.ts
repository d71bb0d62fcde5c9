/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/** Where the harness looks for Karakeep's start.sh (CI clones the project somewhere, with shared/ beside it). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { karakeepCandidateDirs, karakeepDir } from '../harness/karakeep';
import { PROJECT_ROOT } from '../harness/paths';

test('KARAKEEP_REAL_DIR first, then shared/ beside the project, then /work/shared', () => {
	expect(karakeepCandidateDirs({ KARAKEEP_REAL_DIR: '/somewhere/karakeep' })).toEqual([
		'/somewhere/karakeep',
		path.resolve(PROJECT_ROOT, '..', 'shared', 'real-services', 'karakeep'),
		'/work/shared/real-services/karakeep',
	]);
	expect(karakeepCandidateDirs({})).toHaveLength(2);
});

test('the first folder holding start.sh wins; none is an error naming where it looked and the variable to set', () => {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'karakeep-dir-'));
	try {
		writeFileSync(path.join(dir, 'start.sh'), '#!/usr/bin/env bash\n');
		expect(karakeepDir({ KARAKEEP_REAL_DIR: dir })).toBe(dir);
		const missing = [path.join(dir, 'nothing-here'), path.join(dir, 'nor-here')];
		expect(() => karakeepDir({}, missing)).toThrow(
			`The real Karakeep is not available: no start.sh in ${missing.join(', ')}. Set KARAKEEP_REAL_DIR`,
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
