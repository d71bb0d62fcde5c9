/** Projects so that the test command can run them as separate, named stages. */
const tsJest = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

module.exports = {
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			transform: tsJest,
			testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
		},
		{
			displayName: 'sandbox',
			testEnvironment: 'node',
			transform: tsJest,
			testMatch: ['<rootDir>/test/sandbox/**/*.test.ts'],
		},
		{
			displayName: 'e2e',
			testEnvironment: 'node',
			transform: tsJest,
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
		},
		{
			// n8n in queue mode (Redis, Postgres, worker, webhook processes, nginx): its own stage.
			displayName: 'e2e-queue',
			testEnvironment: 'node',
			transform: tsJest,
			testMatch: ['<rootDir>/test/e2e-queue/**/*.test.ts'],
		},
		{
			// The real Karakeep (scripts/install-karakeep.sh, test/harness/karakeep.ts): its own stage.
			displayName: 'karakeep',
			testEnvironment: 'node',
			transform: tsJest,
			testMatch: ['<rootDir>/test/karakeep/**/*.test.ts'],
		},
	],
};
