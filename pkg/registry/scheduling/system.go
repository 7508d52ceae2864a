package scheduling

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	schedulingapiv1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/scheduling/v1"
)

// SetUp creates in cluster the system PriorityClasses, unless they exist,
// as kube-apiserver's post-start hook
// scheduling/bootstrap-system-priority-classes does in its cluster: pods
// that name them, as cluster add-ons do, are refused where they are
// missing.
func SetUp(ctx context.Context, classes rest.Creater, cluster logicalcluster.Name) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), cluster)
	var errs []error
	for _, pc := range schedulingapiv1.SystemPriorityClasses() {
		_, err := classes.Create(ctx, pc.DeepCopy(), rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
