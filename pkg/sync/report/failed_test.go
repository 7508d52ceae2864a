package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/canopy-dev/canopy/pkg/sync/hubclient"
)

// A 422, a 400 and a 403 are refused again if sent again, however
// wrapped; a 403 of a namespace being deleted passes, and every other
// error is worth retrying.
func TestTerminalReason(t *testing.T) {
	deployments := schema.GroupResource{Group: "apps", Resource: "deployments"}
	terminating := apierrors.NewForbidden(deployments, "web", errors.New("unable to create new content in namespace ns because it is being terminated"))
	terminating.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: corev1.NamespaceTerminatingCause, Message: "namespace ns is being terminated"}}
	for _, c := range []struct {
		name string
		err  error
		want metav1.StatusReason
	}{
		{"none", nil, ""},
		{"invalid", apierrors.NewInvalid(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "web",
			field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), -1, "must be greater than or equal to 0")}), metav1.StatusReasonInvalid},
		{"invalid by a policy", &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: http.StatusUnprocessableEntity,
			Reason: metav1.StatusReasonInvalid, Message: "ValidatingAdmissionPolicy 'p' with binding 'b' denied request"}}, metav1.StatusReasonInvalid},
		{"bad request", apierrors.NewBadRequest("the object is malformed"), metav1.StatusReasonBadRequest},
		{"a 400 of no reason", &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: http.StatusBadRequest}}, metav1.StatusReasonBadRequest},
		{"forbidden", apierrors.NewForbidden(deployments, "web", errors.New("admission webhook \"w\" denied the request")), metav1.StatusReasonForbidden},
		{"wrapped", fmt.Errorf("applying: %w", apierrors.NewBadRequest("no")), metav1.StatusReasonBadRequest},
		{"namespace terminating", terminating, ""},
		{"conflict", apierrors.NewConflict(deployments, "web", errors.New("modified")), ""},
		{"not found", apierrors.NewNotFound(deployments, "web"), ""},
		{"already exists", apierrors.NewAlreadyExists(deployments, "web"), ""},
		{"unauthorized", apierrors.NewUnauthorized("expired"), ""},
		{"throttled", apierrors.NewTooManyRequests("slow down", 1), ""},
		{"timeout", apierrors.NewTimeoutError("slow", 1), ""},
		{"internal", apierrors.NewInternalError(errors.New("etcd")), ""},
		{"unavailable", apierrors.NewServiceUnavailable("starting"), ""},
		{"connection", errors.New("dial tcp 127.0.0.1:6443: connect: connection refused"), ""},
	} {
		if got := terminalReason(c.err); got != c.want {
			t.Errorf("%s: terminalReason(%v) = %q, want %q", c.name, c.err, got, c.want)
		}
	}
}

// The condition of a rejection, written once, is found as it would be
// written again, from the status copied up as from the status at the
// hub: nothing is written twice, and its time is that of its first
// writing, also after a restart recorded the rejection anew.
func TestRejectedCondition(t *testing.T) {
	deployment := appsv1.SchemeGroupVersion.WithKind("Deployment")
	first := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	f := rejection{reason: metav1.StatusReasonForbidden, message: "SyncTarget root:pc1: refused", since: first}
	set, changed := withRejectedCondition(deployment, nil, f)
	if !changed {
		t.Fatal("setting the condition on no status changed nothing")
	}
	if again, changed := withRejectedCondition(deployment, set, f); changed {
		t.Errorf("setting the condition again changed the status: %v", again)
	}
	// As the hub answers with it: a Deployment's condition has a
	// lastUpdateTime, null when not set.
	if c := set["conditions"].([]any)[0].(map[string]any); c["reason"] != "Forbidden" || c["lastTransitionTime"] != "2026-01-02T03:04:05Z" {
		t.Errorf("condition %v", c)
	} else if v, ok := c["lastUpdateTime"]; !ok || v != nil {
		t.Errorf("condition %v, want a null lastUpdateTime as the typed Deployment has", c)
	}
	down := map[string]any{"replicas": int64(1), "conditions": []any{map[string]any{"type": "Available", "status": "True"}}}
	copied, _ := withRejectedCondition(deployment, down, f)
	if n := len(copied["conditions"].([]any)); n != 2 || copied["replicas"] != int64(1) {
		t.Errorf("the status copied up with the condition: %v", copied)
	}

	restarted := rejection{reason: f.reason, message: f.message, since: metav1.NewTime(first.Add(time.Hour))}
	if _, changed := withRejectedCondition(deployment, set, restarted); changed {
		t.Error("a rejection recorded anew changed the condition in place")
	}
	if got := transitionTime(set, restarted.since); !got.Equal(&first) {
		t.Errorf("transition time %v, want the first %v", got, first)
	}
	if got := transitionTime(down, restarted.since); !got.Equal(&restarted.since) {
		t.Errorf("transition time of a status without the condition %v, want %v", got, restarted.since)
	}
}

// A 403 is the physical cluster's refusal of the object only where the
// syncer's credential may make the write, as a SelfSubjectAccessReview
// answers; where it may not, or the review fails, it is the syncer's
// configuration, and the error is retried, saying so.
func TestRejectionReasonOfForbidden(t *testing.T) {
	deployments := appsv1.SchemeGroupVersion.WithResource("deployments")
	desired := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"namespace": "canopy-x", "name": "web"}}}
	w := ApplyWrite(deployments, desired)
	forbidden := apierrors.NewForbidden(deployments.GroupResource(), "web", errors.New("denied"))
	for _, c := range []struct {
		name       string
		allowed    map[string]bool
		reviewErr  error
		err        error
		wantReason metav1.StatusReason
		wantErr    string
	}{
		{"admission", map[string]bool{"patch": true, "create": true}, nil, forbidden, metav1.StatusReasonForbidden, ""},
		{"no create", map[string]bool{"patch": true}, nil, forbidden, "", "may not create deployments"},
		{"no patch", map[string]bool{"create": true}, nil, forbidden, "", "may not patch deployments"},
		{"review fails", nil, errors.New("unreachable"), forbidden, "", "asking the physical cluster whether the syncer may patch deployments"},
		{"invalid, no review", nil, errors.New("not asked"), apierrors.NewBadRequest("no"), metav1.StatusReasonBadRequest, ""},
		{"conflict, no review", nil, errors.New("not asked"), apierrors.NewConflict(deployments.GroupResource(), "web", errors.New("x")), "", "x"},
	} {
		client := kubefake.NewClientset()
		var asked []authorizationv1.ResourceAttributes
		client.PrependReactor("create", "selfsubjectaccessreviews", func(action clienttesting.Action) (bool, runtime.Object, error) {
			review := action.(clienttesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
			asked = append(asked, *review.Spec.ResourceAttributes)
			if c.reviewErr != nil {
				return true, nil, c.reviewErr
			}
			review.Status.Allowed = c.allowed[review.Spec.ResourceAttributes.Verb]
			return true, review, nil
		})
		s := &Reporter{downKube: client}
		reason, err := s.rejectionReason(context.Background(), w, c.err)
		if reason != c.wantReason || (c.wantErr == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: reason %q, error %v; want %q and an error saying %q", c.name, reason, err, c.wantReason, c.wantErr)
		}
		for _, a := range asked {
			if a.Group != "apps" || a.Resource != "deployments" || a.Namespace != "canopy-x" || a.Name != "web" {
				t.Errorf("%s: asked about %+v, want apps deployments canopy-x/web", c.name, a)
			}
		}
	}
}

// A rejection whose condition write fails, as when another write of the
// hub object, such as the hub's own revision bookkeeping, changed it
// meanwhile, is reported again with the condition alone: one Warning
// Event per rejection, however often the condition write is retried.
func TestRejectionReportedOnceThroughAConflict(t *testing.T) {
	deployments := appsv1.SchemeGroupVersion.WithResource("deployments")
	hub, events, statusWrites := hubConflictingOnce(t, deployments)

	s, o, obj := reportingTo(t, hub)
	f := rejection{uid: "u1", applied: "h1", reason: metav1.StatusReasonInvalid, message: "refused", since: metav1.Now()}
	s.rejections[o] = f

	if err := s.reportRejection(context.Background(), o, obj, f); !apierrors.IsConflict(err) {
		t.Fatalf("the first report: %v, want the condition write's conflict", err)
	}
	// Retried, as the queue does, on the rejection as recorded.
	f, ok := s.rejectionOf(o, "u1", "h1")
	if !ok {
		t.Fatal("the rejection was forgotten after a failed report")
	}
	if err := s.reportRejection(context.Background(), o, obj, f); err != nil {
		t.Fatalf("the report retried: %v", err)
	}
	if f, _ = s.rejectionOf(o, "u1", "h1"); !f.reported {
		t.Error("the rejection is not recorded as reported after the retry succeeded")
	}
	if *events != 1 || *statusWrites != 2 {
		t.Errorf("%d Events and %d condition writes at the hub, want 1 Event and 2 writes", *events, *statusWrites)
	}
}

// A conflict's Warning Event is recorded once too when its condition
// write conflicts with another write of the hub object.
func TestConflictReportedOnceThroughAConflict(t *testing.T) {
	deployments := appsv1.SchemeGroupVersion.WithResource("deployments")
	hub, events, statusWrites := hubConflictingOnce(t, deployments)
	s, o, obj := reportingTo(t, hub)
	if err := s.Conflicted(context.Background(), o, obj, "canopy-0123456789abcdef"); !apierrors.IsConflict(err) {
		t.Fatalf("the first report: %v, want the condition write's conflict", err)
	}
	if err := s.Conflicted(context.Background(), o, obj, "canopy-0123456789abcdef"); err != nil {
		t.Fatalf("the report retried: %v", err)
	}
	if err := s.Conflicted(context.Background(), o, obj, "canopy-0123456789abcdef"); err != nil {
		t.Fatalf("a resync: %v", err)
	}
	if *events != 1 || *statusWrites != 2 {
		t.Errorf("%d Events and %d condition writes at the hub, want 1 Event and 2 writes", *events, *statusWrites)
	}
}

// reportingTo is a syncer reporting to hub, and the hub Deployment
// ns1/invalid of logical cluster root:a it reports on.
func reportingTo(t *testing.T, hub *httptest.Server) (*Reporter, Ref, *unstructured.Unstructured) {
	clients, err := hubclient.New(&rest.Config{Host: hub.URL})
	if err != nil {
		t.Fatal(err)
	}
	s := New(clients, hubclient.NewReports(clients, "k", cache.NewStore(cache.MetaNamespaceKeyFunc)), nil, "root", "pc1", "k")
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"namespace": "ns1", "name": "invalid", "uid": "u1", "resourceVersion": "1"},
	}}
	return s, Ref{appsv1.SchemeGroupVersion.WithResource("deployments"), "root:a", "ns1", "invalid"}, obj
}

// hubConflictingOnce is a hub that takes Events in namespace ns1 and
// answers the first status write of Deployment ns1/invalid with a 409,
// as the hub does when other writes of it kept winning over the patch's
// retries there; it counts both. A status write is a merge patch without
// a resourceVersion, which nothing else makes conflict.
func hubConflictingOnce(t *testing.T, deployments schema.GroupVersionResource) (hub *httptest.Server, events, statusWrites *int) {
	events, statusWrites = new(int), new(int)
	hub = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/api/v1/namespaces/ns1/events"):
			// The clientset sends protobuf; JSON answers as well.
			*events++
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"apiVersion":"v1","kind":"Event","metadata":{"namespace":"ns1","name":"invalid.1"}}`))
		case r.Method == http.MethodPatch && strings.HasSuffix(r.URL.Path, "/apis/apps/v1/namespaces/ns1/deployments/invalid/status"):
			if r.Header.Get("Content-Type") != string(types.MergePatchType) || strings.Contains(string(body), "resourceVersion") {
				t.Errorf("a status write %s %s: %s; want a merge patch without a resourceVersion", r.Header.Get("Content-Type"), r.Method, body)
			}
			if *statusWrites++; *statusWrites == 1 {
				status := apierrors.NewConflict(deployments.GroupResource(), "invalid", errors.New("the object has been modified")).Status()
				w.WriteHeader(http.StatusConflict)
				_ = json.NewEncoder(w).Encode(&status)
				return
			}
			_, _ = w.Write([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"namespace":"ns1","name":"invalid","resourceVersion":"2"}}`))
		default:
			t.Errorf("unexpected request to the hub: %s %s", r.Method, r.URL.Path)
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(hub.Close)
	return hub, events, statusWrites
}
