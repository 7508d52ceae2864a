package definitioncleanup

import (
	"context"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiserver/pkg/admission"
)

// Plugin refuses updates that remove a definition's
// customresourcecleanup finalizer.
type Plugin struct {
	*admission.Handler
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin.
func New() *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Update)}
}

// Validate refuses an update of a CustomResourceDefinition, or of its
// status, that drops the customresourcecleanup finalizer, whoever asks.
func (p *Plugin) Validate(_ context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() != apiextensions.Resource("customresourcedefinitions") {
		return nil
	}
	old, ok := a.GetOldObject().(*apiextensions.CustomResourceDefinition)
	crd, ok2 := a.GetObject().(*apiextensions.CustomResourceDefinition)
	if !ok || !ok2 || !apiextensions.CRDHasFinalizer(old, apiextensions.CustomResourceCleanupFinalizer) ||
		apiextensions.CRDHasFinalizer(crd, apiextensions.CustomResourceCleanupFinalizer) {
		return nil
	}
	return admission.NewForbidden(a, fmt.Errorf("the hub removes finalizer %s once the objects of %s are deleted; "+
		"removed before, they would stay stored, unseen, and be served again by the next definition of the resource: "+
		"remove the finalizers of its objects that hold them instead",
		apiextensions.CustomResourceCleanupFinalizer, old.Name))
}
