// Command etcd builds a real etcd server binary from the
// go.etcd.io/etcd/server/v3 module, for the benchmarks and for the
// physical clusters of the e2e tests.
//
// Build it with hack/tools/build.sh etcd, which caches the result.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
