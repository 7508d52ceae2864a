package logicalcluster

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
)

func TestWithWildcardReadOnly(t *testing.T) {
	var reached bool
	var gotQuery string
	h := WithWildcardReadOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached, gotQuery = true, r.URL.Query().Get("fieldSelector")
	}))
	serve := func(ctx context.Context, info *genericapirequest.RequestInfo, target string) *httptest.ResponseRecorder {
		reached, gotQuery = false, ""
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil).WithContext(genericapirequest.WithRequestInfo(ctx, info)))
		return rec
	}
	wildcard := WithWildcard(context.Background())

	for _, verb := range []string{"list", "watch"} {
		info := &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: verb, Resource: "configmaps"}
		if rec := serve(wildcard, info, "/api/v1/configmaps"); !reached || rec.Code != http.StatusOK || gotQuery != "" {
			t.Errorf("%s: reached %v, %d, fieldSelector %q", verb, reached, rec.Code, gotQuery)
		}
	}
	info := &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: "list", Resource: "configmaps", Namespace: "ns"}
	if serve(wildcard, info, "/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dx"); !reached || gotQuery != "metadata.name=x,metadata.namespace=ns" {
		t.Errorf("list in a namespace: reached %v, fieldSelector %q", reached, gotQuery)
	}
	if serve(wildcard, &genericapirequest.RequestInfo{Path: "/api"}, "/api"); !reached {
		t.Error("discovery did not reach the handler")
	}
	for _, info := range []*genericapirequest.RequestInfo{
		{IsResourceRequest: true, Verb: "get", Resource: "configmaps", Namespace: "ns", Name: "x"},
		{IsResourceRequest: true, Verb: "create", Resource: "configmaps", Namespace: "ns"},
		{IsResourceRequest: true, Verb: "deletecollection", Resource: "configmaps"},
		{IsResourceRequest: true, Verb: "list", Resource: "namespaces", Subresource: "status"},
	} {
		rec := serve(wildcard, info, "/x")
		var status metav1.Status
		if err := json.Unmarshal(rec.Body.Bytes(), &status); err != nil || reached || rec.Code != http.StatusMethodNotAllowed ||
			status.Reason != metav1.StatusReasonMethodNotAllowed || !strings.Contains(status.Message, "the wildcard is read-only, for list and watch") {
			t.Errorf("%s %s: reached %v, %d %s", info.Verb, info.Resource, reached, rec.Code, rec.Body)
		}
	}
	create := &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: "create", Resource: "configmaps", Namespace: "ns"}
	if serve(WithCluster(context.Background(), "root:a"), create, "/x"); !reached {
		t.Error("a create in a named logical cluster was refused")
	}
}
