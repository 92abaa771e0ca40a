/** Set to `1` by `npm run test:stack` while test files run side by side on the shared stack. */
export const SIDE_BY_SIDE_ENV = 'METAL3_TS_TEST_SIDE_BY_SIDE';
