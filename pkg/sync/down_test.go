package sync

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"github.com/canopy-dev/canopy/pkg/sync/hubclient"
)

// TestHoldFinalizer checks how the syncer adds its finalizer to a hub
// object: for a built-in kind, a strategic merge patch of the finalizer
// and the object's UID alone, with no resourceVersion to conflict on,
// since many targets' syncers may write one object at once; for a custom
// resource, which takes no strategic merge patch, an update.
func TestHoldFinalizer(t *testing.T) {
	for _, tc := range []struct {
		name              string
		gvk               schema.GroupVersionKind
		resource          string
		method, mediaType string
	}{
		{"built-in", schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, "deployments", http.MethodPatch, "application/strategic-merge-patch+json"},
		{"custom", schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, "widgets", http.MethodPut, "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var method, mediaType string
			var body map[string]any
			hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				method, mediaType = r.Method, r.Header.Get("Content-Type")
				raw, _ := io.ReadAll(r.Body)
				if err := json.Unmarshal(raw, &body); err != nil {
					t.Errorf("the request's body: %v", err)
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"apiVersion":"` + tc.gvk.GroupVersion().String() + `","kind":"` + tc.gvk.Kind +
					`","metadata":{"name":"web","namespace":"ns1","uid":"u1","resourceVersion":"8","finalizers":["other","mine"]}}`))
			}))
			defer hub.Close()
			clients, err := hubclient.New(&rest.Config{Host: hub.URL})
			if err != nil {
				t.Fatal(err)
			}
			gvr := tc.gvk.GroupVersion().WithResource(tc.resource)
			c := &specController{hub: clients, resources: []*resource{{gvr: gvr, gvk: tc.gvk}}}
			obj := &unstructured.Unstructured{}
			obj.SetGroupVersionKind(tc.gvk)
			obj.SetNamespace("ns1")
			obj.SetName("web")
			obj.SetUID("u1")
			obj.SetResourceVersion("7")
			obj.SetFinalizers([]string{"other"})
			k := objectKey{0, origin{cluster: "root:a", namespace: "ns1", name: "web"}}
			held, err := c.holdFinalizer(context.Background(), k, obj, "mine")
			if err != nil {
				t.Fatal(err)
			}
			if method != tc.method || mediaType != tc.mediaType {
				t.Errorf("the write was %s %s, want %s %s", method, mediaType, tc.method, tc.mediaType)
			}
			meta, _ := body["metadata"].(map[string]any)
			if tc.method == http.MethodPatch {
				if len(body) != 1 || len(meta) != 2 || meta["uid"] != "u1" || len(meta["finalizers"].([]any)) != 1 || meta["finalizers"].([]any)[0] != "mine" {
					t.Errorf("the patch is %v, want the UID and the finalizer alone", body)
				}
			} else if meta["resourceVersion"] != "7" {
				t.Errorf("the update is %v, want it conditional on resourceVersion 7", body)
			}
			if held.GetResourceVersion() != "8" || len(obj.GetFinalizers()) != 1 {
				t.Errorf("held %v (resourceVersion %s), obj's finalizers %v: want the hub's answer, obj untouched", held.GetFinalizers(), held.GetResourceVersion(), obj.GetFinalizers())
			}
		})
	}
}
