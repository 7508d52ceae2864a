package syncerscope

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// revoked is why t's credential is revoked, st being its SyncTarget as the
// hub holds it (nil if there is none); empty if the credential is good.
func (t target) revoked(st *workloadv1alpha1.SyncTarget) string {
	renew := fmt.Sprintf("get a new one with `hub synctarget rotate %s --logical-cluster %s`", t.name, t.cluster)
	var why string
	switch notBefore := credentialsNotBefore(st); {
	case st == nil:
		why = "SyncTarget " + t.String() + " does not exist"
		renew = fmt.Sprintf("register it again with `hub synctarget create %s --logical-cluster %s`, which issues a new one", t.name, t.cluster)
	case t.uid == "":
		why = fmt.Sprintf("it names no SyncTarget UID (group %s), as those issued before credentials were bound to their SyncTarget", workloadv1alpha1.SyncTargetUIDGroup("<uid>"))
	case t.uid != string(st.UID):
		why = fmt.Sprintf("it was issued for the SyncTarget of UID %s, which was deleted; SyncTarget %s is now UID %s", t.uid, t, st.UID)
	case !t.issued.Before(notBefore):
		return ""
	case notBefore.Equal(st.Spec.CredentialsNotBefore.Time):
		why = fmt.Sprintf("it was issued at %s, before spec.credentialsNotBefore %s, which `hub synctarget rotate --revoke` set",
			t.issued.UTC().Format(time.RFC3339), notBefore.UTC().Format(time.RFC3339))
	default:
		why = fmt.Sprintf("it was issued at %s, and the syncer has since reported with one issued at %s (status.credentialNotBefore)",
			t.issued.UTC().Format(time.RFC3339), notBefore.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("the syncer credential of SyncTarget %s is revoked: %s; %s", t, why, renew)
}

// credentialsNotBefore is the issue time before which st's syncer
// credentials are revoked: the later of the one an administrator set and
// the one the hub saw used.
func credentialsNotBefore(st *workloadv1alpha1.SyncTarget) time.Time {
	if st == nil {
		return time.Time{}
	}
	if st.Spec.CredentialsNotBefore.After(st.Status.CredentialNotBefore.Time) {
		return st.Spec.CredentialsNotBefore.Time
	}
	return st.Status.CredentialNotBefore.Time
}

// latestGetter reads the datastore's latest version of an object.
type latestGetter interface {
	GetLatest(ctx context.Context, resource schema.GroupResource, namespace, name string) (Object, error)
}

// syncTarget is t's SyncTarget, nil if there is none: as the watch cache
// holds it, or, when that would revoke t's credential, as the datastore
// does. A replica's cache may not hold yet a SyncTarget created, or made
// again, through another replica a moment ago, and a syncer that starts
// then must not be told its new credential is revoked. Only a credential
// the cache would refuse costs a read of the datastore.
func syncTarget(ctx context.Context, objects Objects, t target) (*workloadv1alpha1.SyncTarget, error) {
	ctx = logicalcluster.WithCluster(ctx, t.cluster)
	st, err := readSyncTarget(objects.Get(ctx, syncTargets, "", t.name))
	if err != nil || t.revoked(st) == "" {
		return st, err
	}
	if latest, ok := objects.(latestGetter); ok {
		return readSyncTarget(latest.GetLatest(ctx, syncTargets, "", t.name))
	}
	return st, nil
}

func readSyncTarget(o Object, err error) (*workloadv1alpha1.SyncTarget, error) {
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading SyncTarget: %w", err)
	}
	st, ok := o.(*workloadv1alpha1.SyncTarget)
	if !ok {
		return nil, fmt.Errorf("reading SyncTarget %s: its store holds a %T", o.GetName(), o)
	}
	return st, nil
}

// Revoker ends the requests in flight of a syncer credential once it is
// revoked, watches included, which the Authorizer alone would let stream
// on: its filter runs each request of a syncer with a context that the
// SyncTargets' shared informer (Watch, which feeds Changed) cancels when the target is deleted, created
// again, or revokes the credential. Every hub replica watches the
// SyncTargets of the shared store, so each ends its own requests.
type Revoker struct {
	objects Objects

	mu       sync.Mutex
	requests map[targetName]map[*request]struct{}
}

// targetName names a SyncTarget.
type targetName struct {
	cluster logicalcluster.Name
	name    string
}

// request is a syncer's request in flight.
type request struct {
	t      target
	cancel context.CancelCauseFunc
}

// NewRevoker returns a Revoker reading SyncTargets from objects.
func NewRevoker(objects Objects) *Revoker {
	return &Revoker{objects: objects, requests: map[targetName]map[*request]struct{}{}}
}

// WithRevocation is the filter: it must come after authentication and
// authorization.
func (r *Revoker) WithRevocation(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		u, _ := genericapirequest.UserFrom(req.Context())
		t, ok, err := targetOf(u)
		if !ok || err != nil {
			// The Authorizer has denied an inconsistent credential.
			next.ServeHTTP(w, req)
			return
		}
		ctx, cancel := context.WithCancelCause(req.Context())
		defer cancel(nil)
		defer r.add(t, cancel)()
		// The SyncTarget may have changed between the Authorizer's
		// decision and the request's being added, unseen by Changed. The
		// watch cache is never behind the informer that feeds Changed,
		// which lists and watches it.
		var refusal *apierrors.StatusError
		st, err := syncTarget(ctx, r.objects, t)
		if err != nil {
			refusal = apierrors.NewInternalError(err)
		} else if reason := t.revoked(st); reason != "" {
			refusal = apierrors.NewForbidden(syncTargets, t.name, errors.New(reason))
		}
		if refusal == nil {
			next.ServeHTTP(w, req.WithContext(ctx))
			return
		}
		s := refusal.Status()
		s.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
		responsewriters.WriteRawJSON(int(s.Code), s, w)
	})
}

// add registers a request of t's credential, to be cancelled once it is
// revoked, until the function it returns is called.
func (r *Revoker) add(t target, cancel context.CancelCauseFunc) func() {
	n := targetName{t.cluster, t.name}
	req := &request{t: t, cancel: cancel}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.requests[n] == nil {
		r.requests[n] = map[*request]struct{}{}
	}
	r.requests[n][req] = struct{}{}
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.requests[n], req)
		if len(r.requests[n]) == 0 {
			delete(r.requests, n)
		}
	}
}

// Watch has the SyncTargets' shared informer tell Changed of each change,
// a deletion missed while its watch was broken included.
func (r *Revoker) Watch(i *informer.Informer) error {
	_, err := i.AddHandler(func(obj runtime.Object, _ logicalcluster.Name, deleted bool) { r.Changed(obj, deleted) })
	return err
}

// Changed takes a change the SyncTarget watch saw, deleted telling a
// deletion, and ends the requests of credentials it revokes.
func (r *Revoker) Changed(obj runtime.Object, deleted bool) {
	n, st, ok := nameOf(obj)
	if !ok {
		return
	}
	if deleted {
		st = nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	revoke(r.requests[n], st)
}

// revoke cancels the requests whose credentials st revokes.
func revoke(requests map[*request]struct{}, st *workloadv1alpha1.SyncTarget) {
	for req := range requests {
		if reason := req.t.revoked(st); reason != "" {
			klog.V(2).InfoS("Ending a request of a revoked syncer credential", "reason", reason)
			req.cancel(errors.New(reason))
		}
	}
}

// nameOf is the name of SyncTarget obj.
func nameOf(obj runtime.Object) (targetName, *workloadv1alpha1.SyncTarget, bool) {
	st, ok := obj.(*workloadv1alpha1.SyncTarget)
	if !ok {
		klog.ErrorS(nil, "The SyncTarget watch sent something else", "type", fmt.Sprintf("%T", obj))
		return targetName{}, nil, false
	}
	cluster, err := logicalcluster.FromObject(st)
	if err != nil {
		klog.ErrorS(err, "A stored SyncTarget has no logical cluster", "synctarget", st.Name)
		return targetName{}, nil, false
	}
	return targetName{cluster, st.Name}, st, true
}
