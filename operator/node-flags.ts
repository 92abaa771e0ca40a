// The Node/V8 flags and the environment of the operator process, decided here for every way it
// is started: the operator image's ENTRYPOINT and ENV (test/integration/deploy/images.test.ts checks them),
// the e2e and integration operator processes (test/support/operator-process.ts) and the
// benchmark's (test/bench/operator/operator-process.ts).
//
// A 1 MiB young-generation semi-space (Node 24's default grows to 16 MiB each, three of them)
// keeps short-lived request and reconcile garbage from growing RSS: in the 200-host fixture
// benchmark peak RSS fell from 320 to ~185 MiB at 2 MiB for a few percent more scavenges
// (test/bench/README.md, "Where the memory goes"); 1 MiB took 2–3 MiB more off 10 Redfish hosts.
//
// The old generation collects once it has grown by a quarter of what the last full collection
// kept, where V8 lets it grow up to fourfold on a machine with memory to spare: at 1000 fixture
// hosts peak RSS 380 → 292 MiB at a half (test/bench/README.md, "Per-host histograms and the
// garbage V8 kept"); a quarter took 2–3 MiB more off 10 Redfish hosts.
//
// `--optimize-for-size` has V8 favour a small heap over speed, and two malloc arenas (glibc makes
// one per thread that allocates, V8's workers among them) hold less free memory: together, at 1000
// fixture hosts, peak RSS 164–182 → 148–153 MiB, for up to a third more CPU from the flag
// (test/bench/README.md, "Two malloc arenas and a heap sized for size").
//
// No Maglev (V8's middle compiler; TurboFan still optimises hot code): its code and working memory
// were ~1.5 MiB of 10 Redfish hosts' RSS. A fixed 128 KiB mmap threshold has malloc give large
// blocks back when they are freed, where glibc raises the threshold after the first ones and keeps
// them in its heap. Together with the two above: 10 Redfish hosts 102 → 95 MiB
// (test/bench/README.md, "One file per process").
export const OPERATOR_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--heap-growing-percent=25', '--optimize-for-size', '--no-maglev'];

export const OPERATOR_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
