// Package ha benchmarks hub replicas on one PostgreSQL database: what a
// second and a third replica add, or cost, on the same machine.
//
// BenchmarkReplicas builds cmd/hub and, for each replica count (1, 2 and
// 3; $CANOPY_BENCH_REPLICA_COUNTS), makes a fresh pgtest database, runs
// hub init and starts that many replicas with its identity key, behind the
// TCP balancer the e2e tests use (internal/tcpbalancer). It does so in
// rounds ($CANOPY_BENCH_ROUNDS, 3), each count once a round and in turn
// (1, 2, 3, 1, 2, 3, ...), so that a slow spell of a machine other work
// shares hits every count alike; the report gives each figure's median
// over the rounds, and each round's creates/s with the load average as it
// started. In each round it measures, in this order:
//
//   - creates/s: ConfigMaps created through the balancer by 64 clients
//     ($CANOPY_BENCH_CLIENTS) over HTTP/1.1, so that their connections
//     spread over the replicas as a layer-4 balancer spreads them (over
//     HTTP/2 every request would share one connection, and one replica).
//     Each client keeps its connection, as separate clients would: with
//     client-go's default of 25 idle connections a host, the others would
//     be closed and opened again, each with a TLS handshake the replicas
//     pay for. It also reports how many creates shared a transaction (the
//     group commit's size, read from the rows' xmin);
//   - following, with two replicas or more: the same clients create half
//     as many ConfigMaps through the first replica alone, and the CPU the
//     others use meanwhile is what following another replica's writes
//     costs each replica: reading them from the database, decoding them,
//     caching them and handing them to its informers, which every replica
//     does for every write so that it can serve consistent reads and
//     watches;
//   - watch delivery: one client creates ConfigMaps one at a time through
//     replica A while watches on replica A and on replica B see them; the
//     time from sending each create to its event on A is the same-replica
//     latency, to its event on B the cross-replica one. Both include the
//     write itself, so their difference is what crossing replicas adds;
//     the goal is a cross-replica p99 at most 20 ms above the
//     same-replica one;
//   - controller throughput: LogicalClusters created through the balancer
//     by the 64 clients, spread over 16 parent logical clusters (made
//     first, not timed) since the owner of a parent's shard sets up its
//     children: a single parent would put all the set-up on one replica
//     whatever the count. It is the count divided by the time from the
//     first create to the last Ready seen on a wildcard watch;
//   - takeover, with two replicas or more: the replica owning the shard
//     of the first parent is killed with SIGKILL, a LogicalCluster is
//     created in that parent through the balancer right away, and the time
//     from the kill until a live replica holds the shard's Lease, and until
//     that LogicalCluster is Ready, is reported. The goal is 15 s. Which
//     replica owns a shard comes from its Lease's holderIdentity and the
//     member identity each replica logs when its shard Manager starts.
//
// Beside the rates it reports what they cost, read from /proc: the CPU
// time of each replica, of PostgreSQL (its postmaster and backends) and of
// the benchmark's own process (the clients and the balancer) per 1,000
// creates, of the replicas and PostgreSQL per 1,000 LogicalClusters, and each replica's CPU
// per second while idle, once it has settled. On a machine that other
// work keeps busy the rates say how large a share of it the processes
// got; the CPU per operation says what a replica costs the others.
// $CANOPY_BENCH_PROFILE takes CPU profiles of every replica as the
// creates, the creates through the first replica and the LogicalClusters
// start. $CANOPY_BENCH_SHARE_CORES=1 sets each replica's GOMAXPROCS to its
// share of the machine's cores, as a CPU limit would (Go reads the
// cgroup's): by default each of three replicas runs as many threads as the
// machine has cores.
//
// Every figure is taken on the same machine as the replicas, the database
// and the clients, so more replicas share the same cores: the goal that 3
// replicas not fall below 1's throughput is what HA costs at equal
// hardware, not what it gains on more machines.
//
// $CANOPY_BENCH_WATCH_WRITES=0 leaves the watch phase out, and
// $CANOPY_BENCH_LCS=0 the LogicalCluster and takeover phases, for a run of
// the creates alone.
//
// Run it with bench/ha.sh, which prints the table with each figure for
// each replica count and the ratio of 3 replicas to 1 at the end.
package ha
