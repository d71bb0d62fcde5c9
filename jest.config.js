/** Projects so that the test command can run them as separate, named stages. */
const tsJest = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };
/** Jest runs the nodes in its own process: each test gets fresh rate budgets. */
const freshRateBudgets = ['<rootDir>/test/harness/freshRateBudgets.ts'];

module.exports = {
	// Ends a hung test, nothing more: a test never judges how fast the machine is (a busy one
	// takes what it takes). Files that start n8n set longer ones of their own.
	testTimeout: 120_000,
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			transform: tsJest,
			testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
			setupFilesAfterEnv: freshRateBudgets,
		},
		{
			displayName: 'sandbox',
			testEnvironment: 'node',
			transform: tsJest,
			testMatch: ['<rootDir>/test/sandbox/**/*.test.ts'],
			setupFilesAfterEnv: freshRateBudgets,
		},
		{
			// What is released: the GitHub workflows, the packed tarball, the documentation's links.
			// Needs `npm run build` first (the tarball holds dist/).
			displayName: 'release',
			testEnvironment: 'node',
			transform: tsJest,
			testMatch: ['<rootDir>/test/release/**/*.test.ts'],
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
			setupFilesAfterEnv: freshRateBudgets,
		},
	],
};
