/** Three projects so that the test command can run them as separate, named stages. */
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
	],
};
