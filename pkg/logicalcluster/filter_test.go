package logicalcluster

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/audit"
)

func TestRoute(t *testing.T) {
	for _, tc := range []struct{ path, cluster, rest string }{
		{"/api/v1/namespaces", "root", "/api/v1/namespaces"},
		{"/", "root", "/"},
		{"/readyz", "root", "/readyz"},
		{"/clusters/root:a/api/v1/configmaps", "root:a", "/api/v1/configmaps"},
		{"/clusters/root:a", "root:a", "/"},
		{"/clusters/root:a/", "root:a", "/"},
		{"/clusters/root/apis", "root", "/apis"},
		{"/clustersfoo/x", "root", "/clustersfoo/x"},
	} {
		n, rest, err := Route(tc.path)
		if err != nil || string(n) != tc.cluster || rest != tc.rest {
			t.Errorf("Route(%q) = %q, %q, %v; want %q, %q", tc.path, n, rest, err, tc.cluster, tc.rest)
		}
	}
	for _, bad := range []string{"/clusters/", "/clusters//api", "/clusters/Root/api", "/clusters/root:a_b/api"} {
		if n, rest, err := Route(bad); err == nil {
			t.Errorf("Route(%q) = %q, %q; want an error", bad, n, rest)
		}
	}
}

func TestWithLogicalCluster(t *testing.T) {
	var gotCluster Name
	var gotPath, gotURI string
	h := WithLogicalCluster(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotCluster, _ = ClusterFrom(r.Context())
		gotPath, gotURI = r.URL.Path, r.RequestURI
	}))

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/clusters/root:org:team/api/v1/namespaces/default/configmaps?limit=5", nil))
	if rec.Code != http.StatusOK || gotCluster != "root:org:team" || gotPath != "/api/v1/namespaces/default/configmaps" ||
		gotURI != "/api/v1/namespaces/default/configmaps?limit=5" {
		t.Errorf("got %d, cluster %q, path %q, URI %q", rec.Code, gotCluster, gotPath, gotURI)
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api", nil))
	if gotCluster != Root || gotPath != "/api" {
		t.Errorf("unprefixed request went to cluster %q, path %q", gotCluster, gotPath)
	}

	gotCluster = ""
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/clusters/root:Bad/api", nil))
	if rec.Code != http.StatusBadRequest || gotCluster != "" {
		t.Fatalf("bad name: got %d and the request reached cluster %q", rec.Code, gotCluster)
	}
	var status metav1.Status
	if err := json.Unmarshal(rec.Body.Bytes(), &status); err != nil {
		t.Fatalf("bad name: body %q is not a Status: %v", rec.Body, err)
	}
	if status.Kind != "Status" || status.Reason != metav1.StatusReasonBadRequest || status.Code != http.StatusBadRequest || status.Message == "" {
		t.Errorf("bad name: got status %+v", status)
	}
}

func TestContext(t *testing.T) {
	if n, ok := ClusterFrom(context.Background()); ok {
		t.Errorf("empty context has cluster %q", n)
	}
	if n, ok := ClusterFrom(WithCluster(context.Background(), "root:a")); !ok || n != "root:a" {
		t.Errorf("got %q, %v", n, ok)
	}
}

func TestAnnotation(t *testing.T) {
	obj := &metav1.ObjectMeta{Name: "x", Annotations: map[string]string{Annotation: "root:forged"}}
	SetOn(obj, "root:a")
	if n, err := FromObject(obj); err != nil || n != "root:a" {
		t.Errorf("got %q, %v", n, err)
	}
	if _, err := FromObject(&metav1.ObjectMeta{Name: "y"}); err == nil {
		t.Error("an object without the annotation has a cluster")
	}
}

func TestWildcard(t *testing.T) {
	for _, tc := range []struct{ path, rest string }{
		{"/clusters/*", "/"},
		{"/clusters/*/", "/"},
		{"/clusters/*/api/v1/configmaps", "/api/v1/configmaps"},
	} {
		if rest, ok := RouteWildcard(tc.path); !ok || rest != tc.rest {
			t.Errorf("RouteWildcard(%q) = %q, %v; want %q", tc.path, rest, ok, tc.rest)
		}
	}
	for _, not := range []string{"/clusters/*x/api", "/clusters/root/api", "/api", "/clusters/"} {
		if rest, ok := RouteWildcard(not); ok {
			t.Errorf("RouteWildcard(%q) = %q; want no wildcard", not, rest)
		}
	}

	var wildcard, named bool
	var gotPath, gotRaw string
	h := WithLogicalCluster(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, named = ClusterFrom(r.Context())
		wildcard, gotPath, gotRaw = IsWildcard(r.Context()), r.URL.Path, r.URL.RawPath
	}))
	// Clients such as client-go escape the "*" of a Host ending in it.
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/clusters/%2A/api/v1/namespaces/a%2Fb/configmaps", nil))
	if !wildcard || named || gotPath != "/api/v1/namespaces/a/b/configmaps" || gotRaw != "/api/v1/namespaces/a%2Fb/configmaps" {
		t.Errorf("wildcard request: wildcard %v, named cluster %v, path %q, raw %q", wildcard, named, gotPath, gotRaw)
	}
}

func TestWildcardContext(t *testing.T) {
	ctx := WithWildcard(context.Background())
	if n, ok := ClusterFrom(ctx); ok || !IsWildcard(ctx) {
		t.Errorf("wildcard context is for cluster %q, %v", n, ok)
	}
	ctx = WithCluster(ctx, Root)
	if n, ok := ClusterFrom(ctx); !ok || n != Root || IsWildcard(ctx) {
		t.Errorf("a wildcard context made for root is for %q, %v, wildcard %v", n, ok, IsWildcard(ctx))
	}
}

func TestAuditAnnotation(t *testing.T) {
	var got string
	h := WithLogicalCluster(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = audit.AuditContextFrom(r.Context()).GetEventAnnotation(Annotation)
	}))
	for path, want := range map[string]string{
		"/clusters/root:a/apis/placement.canopy.dev/v1alpha1/placements": "root:a",
		"/api/v1/namespaces":            "root",
		"/clusters/*/api/v1/configmaps": "*",
	} {
		got = ""
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", path, nil))
		if got != want {
			t.Errorf("%s: audit annotation %s is %q, want %q", path, Annotation, got, want)
		}
	}
}
