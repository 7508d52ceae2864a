package admissionregistration

import (
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestParamRefCell checks the ParamRef column against what
// kube-apiserver's printer writes for each way of naming params.
func TestParamRefCell(t *testing.T) {
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}
	for _, tc := range []struct {
		ref  *admissionregistrationv1.ParamRef
		want string
	}{
		{nil, "<unset>"},
		{&admissionregistrationv1.ParamRef{}, "<unset>"},
		{&admissionregistrationv1.ParamRef{Name: "limits"}, "*/limits"},
		{&admissionregistrationv1.ParamRef{Name: "limits", Namespace: "team"}, "team/limits"},
		{&admissionregistrationv1.ParamRef{Selector: selector}, selector.String()},
	} {
		if got := paramRef(tc.ref); got != tc.want {
			t.Errorf("paramRef(%v) = %q, want %q", tc.ref, got, tc.want)
		}
	}
}
