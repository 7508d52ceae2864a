package pcluster

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// metricsAPIService is the APIService metrics-server's manifests register.
const metricsAPIService = "v1beta1.metrics.k8s.io"

// metricsAvailable returns the Available condition of metrics-server's
// APIService, read raw: the aggregator's typed client is one module more
// for one field.
func (c *Cluster) metricsAvailable(ctx context.Context) (metav1.Condition, error) {
	raw, err := c.Client.Discovery().RESTClient().Get().
		AbsPath("/apis/apiregistration.k8s.io/v1/apiservices", metricsAPIService).DoRaw(ctx)
	if err != nil {
		return metav1.Condition{}, fmt.Errorf("reading APIService %s: %w", metricsAPIService, err)
	}
	var apiService struct {
		Status struct {
			Conditions []metav1.Condition `json:"conditions"`
		} `json:"status"`
	}
	if err := json.Unmarshal(raw, &apiService); err != nil {
		return metav1.Condition{}, fmt.Errorf("decoding APIService %s: %w", metricsAPIService, err)
	}
	for _, cond := range apiService.Status.Conditions {
		if cond.Type == "Available" {
			return cond, nil
		}
	}
	return metav1.Condition{Reason: "NoCondition", Message: "the aggregator has not checked it yet"}, nil
}
