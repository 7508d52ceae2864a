package authentication

import (
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
)

// TestSelfSubjectReviewAnswersAnew: the answer holds the requester and a
// creation time, and nothing of the metadata posted, as kube's does.
func TestSelfSubjectReviewAnswersAnew(t *testing.T) {
	alice := &user.DefaultInfo{Name: "alice", UID: "u1", Groups: []string{"team", user.AllAuthenticated}, Extra: map[string][]string{"scopes": {"a"}}}
	ctx := genericapirequest.WithUser(t.Context(), alice)
	posted := &authenticationv1.SelfSubjectReview{ObjectMeta: metav1.ObjectMeta{
		Name: "UPPER", Labels: map[string]string{"a": "b"},
		OwnerReferences: []metav1.OwnerReference{{Kind: "Bad_Name!"}},
	}}
	obj, err := SelfSubjectReviews{}.Create(ctx, posted, nil, &metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := obj.(*authenticationv1.SelfSubjectReview)
	if got.CreationTimestamp.IsZero() {
		t.Error("no creation time")
	}
	got.CreationTimestamp = metav1.Time{}
	want := authenticationv1.SelfSubjectReview{Status: authenticationv1.SelfSubjectReviewStatus{UserInfo: authenticationv1.UserInfo{
		Username: "alice", UID: "u1", Groups: []string{"team", user.AllAuthenticated}, Extra: map[string]authenticationv1.ExtraValue{"scopes": {"a"}},
	}}}
	if !equality.Semantic.DeepEqual(*got, want) {
		t.Errorf("answered %+v, want %+v", got, want)
	}
}
