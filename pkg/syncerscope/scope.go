package syncerscope

import (
	"context"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// target is the SyncTarget a syncer's credential is for, and what binds
// the credential to it.
type target struct {
	cluster logicalcluster.Name
	name    string
	key     string
	// uid is the UID of the SyncTarget the credential was issued for,
	// empty if it names none.
	uid string
	// issued is when the credential was issued, zero if unknown.
	issued time.Time
}

func (t target) String() string { return string(t.cluster) + ":" + t.name }

// targetOf is the target of u's credential; false if u is no syncer, and
// an error if u claims to be one inconsistently.
func targetOf(u user.Info) (target, bool, error) {
	if u == nil || !slices.Contains(u.GetGroups(), workloadv1alpha1.SyncersGroup) {
		return target{}, false, nil
	}
	for _, g := range u.GetGroups() {
		if cluster, name, ok := workloadv1alpha1.SyncTargetOfGroup(g); ok {
			t := target{cluster: logicalcluster.Name(cluster), name: name, key: workloadv1alpha1.TargetKey(cluster, name)}
			if u.GetName() != workloadv1alpha1.SyncerUser(t.key) {
				return t, true, fmt.Errorf("the syncer credential of SyncTarget %s must be of user %s, not %s", t, workloadv1alpha1.SyncerUser(t.key), u.GetName())
			}
			for _, g := range u.GetGroups() {
				if uid, ok := workloadv1alpha1.SyncTargetUIDOfGroup(g); ok {
					t.uid = uid
				}
			}
			if issued := u.GetExtra()[workloadv1alpha1.CredentialIssuedExtra]; len(issued) == 1 {
				// Unparsable, it stays zero: issued before any rotation.
				t.issued, _ = time.Parse(time.RFC3339, issued[0])
			}
			return t, true, nil
		}
	}
	return target{}, true, fmt.Errorf("a syncer credential (group %s) must also name its SyncTarget by a group %s", workloadv1alpha1.SyncersGroup,
		workloadv1alpha1.SyncTargetGroup("<logical cluster>", "<name>"))
}

func (t target) assigned(obj metav1.Object) bool {
	return obj.GetLabels()[workloadv1alpha1.StateLabel(t.key)] == workloadv1alpha1.StateSync
}

func (t target) holds(obj metav1.Object) bool {
	return slices.Contains(obj.GetFinalizers(), t.finalizer())
}

func (t target) finalizer() string { return workloadv1alpha1.FinalizerPrefix + t.key }

// copied tells whether obj is one of the pods or Events the syncer of t
// writes at the hub.
func (t target) copied(obj metav1.Object) bool {
	l := obj.GetLabels()
	return l[workloadv1alpha1.UpsyncedLabel] == t.key || l[workloadv1alpha1.ReportedByLabel] == t.key
}

// Object is a hub object as its store holds it. Those of the watch
// caches are shared: a decision reads them and never changes them.
type Object interface {
	runtime.Object
	metav1.Object
}

// Objects reads hub objects in the logical cluster of the context.
type Objects interface {
	Get(ctx context.Context, resource schema.GroupResource, namespace, name string) (Object, error)
	List(ctx context.Context, resource schema.GroupResource, namespace string, selector labels.Selector) ([]Object, error)
}

// Stores are Objects read from the watch caches of the registry's stores
// of each resource. A syncer's informers are fed from the same caches, so
// what a decision reads is never older than what the syncer asks about,
// and a decision costs no SQL. The objects are the stores' own typed ones:
// a syncer's every request is decided on them, and converting each to
// another form on the way cost about a tenth of the hub's CPU in a rollout.
type Stores map[schema.GroupResource]rest.Storage

func (s Stores) Get(ctx context.Context, resource schema.GroupResource, namespace, name string) (Object, error) {
	return s.get(ctx, resource, namespace, name, "0")
}

// GetLatest reads the datastore's latest version of an object, past the
// watch cache.
func (s Stores) GetLatest(ctx context.Context, resource schema.GroupResource, namespace, name string) (Object, error) {
	return s.get(ctx, resource, namespace, name, "")
}

func (s Stores) get(ctx context.Context, resource schema.GroupResource, namespace, name, resourceVersion string) (Object, error) {
	g, ok := s[resource].(rest.Getter)
	if !ok {
		return nil, fmt.Errorf("%s cannot be read", resource)
	}
	obj, err := g.Get(genericapirequest.WithNamespace(ctx, namespace), name, &metav1.GetOptions{ResourceVersion: resourceVersion})
	if err != nil {
		return nil, err
	}
	return asObject(obj)
}

func (s Stores) List(ctx context.Context, resource schema.GroupResource, namespace string, selector labels.Selector) ([]Object, error) {
	l, ok := s[resource].(rest.Lister)
	if !ok {
		return nil, fmt.Errorf("%s cannot be listed", resource)
	}
	list, err := l.List(genericapirequest.WithNamespace(ctx, namespace), &metainternalversion.ListOptions{LabelSelector: selector, ResourceVersion: "0"})
	if err != nil {
		return nil, err
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	out := make([]Object, 0, len(items))
	for _, item := range items {
		o, err := asObject(item)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func asObject(obj runtime.Object) (Object, error) {
	o, ok := obj.(Object)
	if !ok {
		return nil, fmt.Errorf("a %T has no object metadata", obj)
	}
	return o, nil
}
