package registry

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

func TestKeys(t *testing.T) {
	k := keys{prefix: "/configmaps", namespaced: true}
	inNS := genericapirequest.WithNamespace(context.Background(), "ns")
	a := logicalcluster.WithCluster(inNS, "root:a")
	if got := k.root(a); got != "/configmaps/root:a/ns" {
		t.Errorf("root of root:a = %q", got)
	}
	if got, err := k.object(a, "x"); err != nil || got != "/configmaps/root:a/ns/x" {
		t.Errorf("object x of root:a = %q, %v", got, err)
	}
	// The wildcard reads every cluster's keys, of every namespace: one
	// namespace is selected by field, as no prefix holds only it.
	wildcard := logicalcluster.WithWildcard(inNS)
	if got := k.root(wildcard); got != "/configmaps" {
		t.Errorf("root of the wildcard = %q", got)
	}
	if got, err := k.object(wildcard, "x"); !apierrors.IsBadRequest(err) {
		t.Errorf("object x of the wildcard = %q, %v; want a BadRequest", got, err)
	}
	if got := k.root(context.Background()); got != "/configmaps/"+noCluster {
		t.Errorf("root without a cluster = %q", got)
	}
}
