package hubclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// TestPatchReportOfAGoneObject checks that a report on a hub object that
// is gone (404) is done, not an error to retry, and that any other
// refusal is an error.
func TestPatchReportOfAGoneObject(t *testing.T) {
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	for _, tc := range []struct {
		code    int
		wantErr bool
	}{{http.StatusNotFound, false}, {http.StatusForbidden, true}, {http.StatusOK, false}} {
		hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(tc.code)
			if tc.code == http.StatusOK {
				_, _ = w.Write([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"ns1"}}`))
				return
			}
			_, _ = fmt.Fprintf(w, `{"apiVersion":"v1","kind":"Status","status":"Failure","code":%d,"reason":%q}`, tc.code, map[int]string{404: "NotFound", 403: "Forbidden"}[tc.code])
		}))
		c, err := New(&rest.Config{Host: hub.URL})
		if err != nil {
			t.Fatal(err)
		}
		err = c.PatchReport(context.Background(), gvr, "k1", "root:a", "ns1", "web", []byte(`{}`))
		if (err != nil) != tc.wantErr {
			t.Errorf("a report answered %d: %v, want an error: %v", tc.code, err, tc.wantErr)
		}
		hub.Close()
	}
}
