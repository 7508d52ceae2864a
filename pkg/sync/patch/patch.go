package patch

import (
	"encoding/json"
	"fmt"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
)

// Merge is the JSON merge patch that makes object from into object to,
// with null for each key from has and to has not; nil when they are
// equal, so that nothing need be written.
func Merge(from, to map[string]any) ([]byte, error) {
	original, err := json.Marshal(nonNil(from))
	if err != nil {
		return nil, err
	}
	modified, err := json.Marshal(nonNil(to))
	if err != nil {
		return nil, err
	}
	diff, err := jsonpatch.CreateMergePatch(original, modified)
	if err != nil {
		return nil, fmt.Errorf("computing a merge patch: %w", err)
	}
	if string(diff) == "{}" {
		return nil, nil
	}
	return diff, nil
}

// Status is the merge patch, for the status subresource, that makes an
// object's status from into to; nil when they are equal.
func Status(from, to map[string]any) ([]byte, error) {
	return Merge(map[string]any{"status": nonNil(from)}, map[string]any{"status": nonNil(to)})
}

// Metadata is the merge patch that makes an object's labels from into to
// and sets the annotations of set, leaving its other annotations, which
// are have; nil when nothing changes.
func Metadata(from, to, have, set map[string]string) ([]byte, error) {
	annotations := map[string]any{}
	for k, v := range have {
		annotations[k] = v
	}
	for k, v := range set {
		annotations[k] = v
	}
	before := map[string]any{"labels": stringMap(from), "annotations": stringMap(have)}
	after := map[string]any{"labels": stringMap(to), "annotations": annotations}
	return Merge(map[string]any{"metadata": before}, map[string]any{"metadata": after})
}

func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
