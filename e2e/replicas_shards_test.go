package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// memberLine is what a replica's shard Manager logs when it starts,
// naming the member identity its Leases hold.
var memberLine = regexp.MustCompile(`"Taking part in the shards of logical clusters" member="([^"]+)"`)

// member is the shard member identity of replica i as it runs now, from
// its log; "" if it has logged none (a hub without shards).
func (r *replicas) member(i int) string {
	m := memberLine.FindStringSubmatch(r.hubs[i].log.String())
	if m == nil {
		return ""
	}
	return m[1]
}

// shardLease is the Lease in root's kube-system naming the replica that
// owns the shard of cluster (pkg/shard's canopy-shard-NN).
func shardLease(cluster logicalcluster.Name) string {
	return fmt.Sprintf("canopy-shard-%02d", shard.Of(cluster))
}

// leases is a client of the Leases in root's kube-system of replica i.
func (r *replicas) leases(i int) coordinationv1client.LeaseInterface {
	r.t.Helper()
	cs, err := kubernetes.NewForConfig(r.hubs[i].admin(r.t).restConfig("root"))
	if err != nil {
		r.t.Fatal(err)
	}
	return cs.CoordinationV1().Leases(metav1.NamespaceSystem)
}

// leaseHolder is the holderIdentity of Lease name; "" if there is no
// such Lease or it is free.
func leaseHolder(ctx context.Context, leases coordinationv1client.LeaseInterface, name string) (string, error) {
	l, err := leases.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if l.Spec.HolderIdentity == nil {
		return "", nil
	}
	return *l.Spec.HolderIdentity, nil
}

// indexOf is the index of the running replica whose member identity is
// member; -1 if none.
func (r *replicas) indexOf(member string) int {
	for i, h := range r.hubs {
		if h.cmd != nil && member != "" && r.member(i) == member {
			return i
		}
	}
	return -1
}

// owner waits up to a minute for a running replica to hold the lease of
// the shard of cluster, reading it through replica via, and returns that
// replica's index; -1 and an error saying what it saw if none does.
func (r *replicas) owner(via int, cluster logicalcluster.Name) (int, error) {
	r.t.Helper()
	lease := shardLease(cluster)
	leases := r.leases(via)
	var holder string
	var err error
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		holder, err = leaseHolder(ctx, leases, lease)
		cancel()
		if i := r.indexOf(holder); err == nil && i >= 0 {
			return i, nil
		}
	}
	members := make([]string, len(r.hubs))
	for i := range r.hubs {
		members[i] = r.member(i)
	}
	return -1, fmt.Errorf("after a minute, Lease %s of the shard of %s in root's kube-system names %q (err %v), no running replica (members %q)",
		lease, cluster, holder, err, members)
}

// addContext adds kubectl context name to k, for the logical cluster at
// path through the balancer, as the admin.
func (r *replicas) addContext(k kubectl, name string, path logicalcluster.Name) {
	r.t.Helper()
	k.must("config", "set-cluster", name, "--server", "https://"+r.lb.Addr()+"/clusters/"+path.String(),
		"--certificate-authority", filepath.Join(r.hubs[0].dataDir, "pki", "ca.crt"), "--embed-certs")
	k.must("config", "set-context", name, "--cluster", name, "--user", "admin")
}

// takeover polls, through replica via, often and until ctx ends, the
// Lease of the shard of cluster, which member held when it was killed
// at killed; what it returns is how long after the kill a running
// replica other than member was first seen holding it, 0 until then.
func (r *replicas) takeover(ctx context.Context, via int, cluster logicalcluster.Name, member string, killed time.Time) func() time.Duration {
	leases := r.leases(via)
	var took atomic.Int64
	go func() {
		for ctx.Err() == nil {
			holder, err := leaseHolder(ctx, leases, shardLease(cluster))
			if err == nil && holder != member && r.indexOf(holder) >= 0 {
				took.Store(int64(time.Since(killed)))
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	return func() time.Duration { return time.Duration(took.Load()) }
}
