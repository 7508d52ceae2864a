// Package fairness benchmarks priority and fairness between logical
// clusters (issue 19, acceptance 4): one logical cluster floods the hub
// with lists and creates from many clients while a client in another
// logical cluster sends a steady 10 requests a second, and the steady
// client's p99 under the flood is compared with its p99 on the idle hub.
//
// Both tenants are ordinary users (static tokens, each the admin of its
// logical cluster): system:masters is exempt from flow control and would
// measure nothing. The flooder lists its ConfigMaps 500 at a time, as
// kubectl pages, and creates more as fast as it can; the steady client
// alternates a get and a list of a handful of ConfigMaps.
//
// The flood runs in a process of its own (this test binary run again, see
// load_test.go), and its clients read each list whole without decoding
// it: reading and decoding lists of 500 as fast as they come is a cost of
// the client, not of the hub, which in the steady client's process would
// delay the steady client, and on this machine takes CPU that clients on
// other machines would not take from the hub. It runs at each CPU
// priority (nice) of CANOPY_BENCH_NICE, 0 as the hub or 19 as a batch job.
//
// Every phase is measured in every round, the rounds interleaved so that
// the load of the rest of a shared machine hits them alike, and the
// figures are medians over the rounds; each phase's p99 is compared with
// the idle hub's of the same round. Besides the idle hub and the floods:
//
//   - the floor: the idle hub while a process that is not the hub burns
//     every CPU at the flood's priority. No hub can do better than that
//     on the machine, since the flood takes at least that CPU.
//   - the flood with priority and fairness off, first come first served,
//     on the same seats.
//   - with CANOPY_BENCH_KUBE=1, kube-apiserver of the harness (e2e/pcluster)
//     with its default flow control and seats, flooded in a namespace by
//     one user while another reads in its own, as the oracle: what kube
//     itself gets on the machine.
//
// Seats are per replica, and on a small machine the generic server's
// default (600) is far more than its cores can serve at once: every flood
// request then runs at the same time as the steady client's and shares
// the CPU with it, with or without fairness. CANOPY_BENCH_SEATS lists the
// seats (--max-requests-inflight) the hubs with fairness are started
// with; the hub without fairness gets the first. CANOPY_BENCH_SHARE lists
// the shares (--max-seats-per-cluster-percent) each of them is started
// with, 100 being none: a line per seat count prints the floor, the flood
// with each share and without fairness side by side, as ratios.
//
// Beside the latencies it prints, from the server's /metrics over each
// phase, the tenants' priority level's queue wait and execution time, the
// Go runtime's GC pauses and scheduling latency, and the statements the
// store ran; and from /proc the CPU the server and the load used.
//
// Figures are reported, not enforced: a benchmark, not a timed test.
package fairness
