// Prometheus tooling for deploy/'s monitoring: promtool, built from the Prometheus Go module and
// cached, checks and unit-tests the alerting rules.
export { buildPromtool } from './build.ts';
