package pcluster

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	auditv1 "k8s.io/apiserver/pkg/apis/audit/v1"
)

// auditPolicyMetadata logs every request once, when its response is
// complete, with who asked what of which object and the answer's code,
// but no bodies: enough to count a client's requests, small enough for
// a test's cluster.
const auditPolicyMetadata = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
`

// AuditEvents are the events of the audit log so far, oldest first, of
// a cluster started with Options.Audit. The kube-apiserver writes each
// event as one line; a last line it is still writing is left out.
func (c *Cluster) AuditEvents() ([]auditv1.Event, error) {
	if c.AuditLog == "" {
		return nil, errors.New("the cluster was started without Options.Audit")
	}
	f, err := os.Open(c.AuditLog)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var events []auditv1.Event
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			// line is the part of an event not yet written out.
			return events, nil
		}
		if err != nil {
			return nil, err
		}
		var e auditv1.Event
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("audit log %s: %w", c.AuditLog, err)
		}
		events = append(events, e)
	}
}
