// Command etcd builds a real etcd server binary from the
// go.etcd.io/etcd/server/v3 module, for use by the benchmarks.
//
// Build it with bench/tools/build-etcd.sh, which caches the result.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
