package rollouthistory

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/dump"
)

// ComputeHash is the pod-template-hash of template, as kube's deployment
// controller computes it, with collisionCount, when not nil, hashed in
// to find another name after a collision. Taken from
// k8s.io/kubernetes@v1.37.1 pkg/controller/controller_utils.go
// (ComputeHash) and pkg/util/hash/hash.go (DeepHashObject), which are not
// importable: an FNV-32a hash of the template as k8s.io/utils/dump prints
// it for hashing, encoded by rand.SafeEncodeString.
func ComputeHash(template *corev1.PodTemplateSpec, collisionCount *int32) string {
	hasher := fnv.New32a()
	fmt.Fprintf(hasher, "%v", dump.ForHash(*template))
	if collisionCount != nil {
		b := make([]byte, 8)
		binary.LittleEndian.PutUint32(b, uint32(*collisionCount))
		hasher.Write(b)
	}
	return rand.SafeEncodeString(fmt.Sprint(hasher.Sum32()))
}
