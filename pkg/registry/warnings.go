package registry

import (
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
)

// PodNameWarnings is a Warn for workloads: upstream warns on creating one
// whose name is no DNS label, as its pods' names and hostnames start with
// it.
func PodNameWarnings[T runtime.Object](obj, old T) []string {
	if !reflect.ValueOf(old).IsNil() {
		return nil
	}
	msgs := validation.IsDNS1123Label(metaOf(obj).GetName())
	if len(msgs) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: %v", msgs)}
}
