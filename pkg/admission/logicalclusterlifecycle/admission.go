package logicalclusterlifecycle

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/admission"
)

// Clusters tells whether the logical cluster of a request is still the
// one it came into; tenancy.Storage does.
type Clusters interface {
	StillServed(ctx context.Context) error
}

// Plugin refuses writes to a logical cluster deleted since the request
// came in.
type Plugin struct {
	*admission.Handler
	clusters Clusters
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin over clusters.
func New(clusters Clusters) *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Update, admission.Delete), clusters: clusters}
}

// Validate refuses the write of a, whose logical cluster was deleted, or
// deleted and made again, since the request came in.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	err := p.clusters.StillServed(ctx)
	var status apierrors.APIStatus
	if err == nil || errors.As(err, &status) {
		return err
	}
	return admission.NewForbidden(a, err)
}
