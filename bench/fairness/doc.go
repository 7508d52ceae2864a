// Package fairness benchmarks priority and fairness between logical
// clusters (issue 19, acceptance 4): one logical cluster floods the hub
// with lists and creates from many clients while a client in another
// logical cluster sends a steady 10 requests a second, and the steady
// client's p99 under the flood is compared with its p99 on the idle hub.
// The same run is made with --enable-priority-and-fairness=false as the
// comparison, on the same seats (--max-requests-inflight).
//
// Both tenants are ordinary users (static tokens, each the admin of its
// logical cluster): system:masters is exempt from flow control and would
// measure nothing. The flooder lists its ConfigMaps 500 at a time, as
// kubectl pages, and creates more as fast as it can; the steady client
// alternates a get and a list of a handful of ConfigMaps.
//
// Seats are per replica, and on a small machine the generic server's
// default (600) is far more than its cores can serve at once: every flood
// request then runs at the same time as the steady client's and shares
// the CPU with it, with or without fairness. The benchmark's seats
// (CANOPY_BENCH_SEATS, 4 by default on its 2 cores) are what lets the
// queues, not the CPU scheduler, decide who goes next; the README says
// how to size them.
//
// Figures are reported, not enforced: a benchmark, not a timed test.
package fairness
