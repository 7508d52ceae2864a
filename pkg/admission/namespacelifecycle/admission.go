package namespacelifecycle

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/admission"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

// immortal are the namespaces tools assume every cluster has.
var immortal = sets.New(metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic)

var namespaces = corev1.Resource("namespaces")

// Plugin checks creations against their namespace and deletions of
// namespaces.
type Plugin struct {
	*admission.Handler
	namespaces rest.Getter
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin, reading namespaces from the namespaces' registry
// store, which finds them in the logical cluster of the context it gets.
func New(namespaces rest.Getter) *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Delete), namespaces: namespaces}
}

// Validate refuses to delete an immortal namespace, and to create anything
// in a namespace that is missing (404) or Terminating (403), with
// Kubernetes' messages so that clients read them the same.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() == namespaces && a.GetSubresource() == "" {
		if a.GetOperation() == admission.Delete && immortal.Has(a.GetName()) {
			return apierrors.NewForbidden(namespaces, a.GetName(), fmt.Errorf("this namespace may not be deleted"))
		}
		return nil
	}
	// Cluster-scoped objects have no namespace to check.
	if a.GetOperation() != admission.Create || a.GetNamespace() == "" {
		return nil
	}
	// The watch cache answers without a database read; only a namespace
	// it does not hold yet, perhaps created just before, is read from the
	// database, as Kubernetes' plugin reads its informer first. Content
	// that slips into a namespace whose Terminating the cache has not seen
	// yet is found by the namespace controller's second look.
	ctx = genericapirequest.WithNamespace(ctx, "")
	obj, err := p.namespaces.Get(ctx, a.GetNamespace(), &metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		obj, err = p.namespaces.Get(ctx, a.GetNamespace(), &metav1.GetOptions{})
	}
	if apierrors.IsNotFound(err) {
		return apierrors.NewNotFound(namespaces, a.GetNamespace())
	}
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	if obj.(*corev1.Namespace).Status.Phase != corev1.NamespaceTerminating {
		return nil
	}
	forbidden := admission.NewForbidden(a, fmt.Errorf("unable to create new content in namespace %s because it is being terminated", a.GetNamespace()))
	if status, ok := forbidden.(apierrors.APIStatus); ok {
		// The cause lets clients tell this refusal from one by RBAC.
		s := status.Status()
		if s.Details == nil {
			s.Details = &metav1.StatusDetails{}
		}
		s.Details.Causes = append(s.Details.Causes, metav1.StatusCause{
			Type:    corev1.NamespaceTerminatingCause,
			Message: fmt.Sprintf("namespace %s is being terminated", a.GetNamespace()),
			Field:   "metadata.namespace",
		})
		return &apierrors.StatusError{ErrStatus: s}
	}
	return forbidden
}
