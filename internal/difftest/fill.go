package difftest

import (
	"math/rand"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

// The vocabularies randfill draws values from: values a user might write,
// valid in some fields and not in others, and values no field takes. Drawn
// from a short list instead of random bytes, a value means something to a
// validation rule (an enum, a DNS name, a port), so a case tests the rule
// and not only the decoder.
var (
	words = []string{
		"", "a", "web", "app", "TCP", "UDP", "SCTP", "Always", "Never", "IfNotPresent", "OnFailure",
		"ClusterIP", "NodePort", "LoadBalancer", "None", "Exists", "Equal", "In", "NotIn", "NoSchedule",
		"NoExecute", "10.0.0.1", "fd00::1", "10.0.0.0/24", "example.com", "busybox", "/data", "Bad_Name",
		"UPPER", "-leading", "a.b.c", "example.com/x", "x/y/z", "1", "80", "http", "Unknown", "*",
		"$(VAR)", "ünïcode", strings.Repeat("a", 64), strings.Repeat("b", 254),
	}
	numbers    = []int64{-1, 0, 1, 2, 3, 10, 80, 8080, 65535, 65536, 2147483647}
	quantities = []string{"0", "1", "100m", "1Gi", "-1", "1.5", "2e3"}
	times      = []time.Time{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1970, 1, 1, 0, 0, 1, 0, time.UTC)}
)

func pick[T any](r *rand.Rand, from []T) T { return from[r.Intn(len(from))] }

// newFiller is randfill with bounds: small lists and maps, a limited depth
// (recursive types such as JSONSchemaProps end), many fields left unset,
// values from the vocabularies, and the metadata the harness sets itself
// left alone.
func newFiller(r *rand.Rand) *randfill.Filler {
	return randfill.New().RandSource(rand.NewSource(r.Int63())).
		NilChance(0.6).NumElements(1, 2).MaxDepth(7).
		Funcs(
			func(s *string, c randfill.Continue) { *s = pick(c.Rand, words) },
			func(n *int64, c randfill.Continue) { *n = pick(c.Rand, numbers) },
			func(n *int32, c randfill.Continue) { *n = int32(pick(c.Rand, numbers)) },
			func(n *int, c randfill.Continue) { *n = int(pick(c.Rand, numbers)) },
			func(b *[]byte, c randfill.Continue) { *b = []byte(pick(c.Rand, words)) },
			func(q *resource.Quantity, c randfill.Continue) {
				*q = resource.MustParse(pick(c.Rand, quantities))
			},
			func(v *intstr.IntOrString, c randfill.Continue) {
				if c.Bool() {
					*v = intstr.FromInt32(int32(pick(c.Rand, numbers)))
				} else {
					*v = intstr.FromString(pick(c.Rand, words))
				}
			},
			func(t *metav1.Time, c randfill.Continue) { *t = metav1.NewTime(pick(c.Rand, times)) },
			func(t *metav1.MicroTime, c randfill.Continue) { *t = metav1.NewMicroTime(pick(c.Rand, times)) },
			func(*runtime.RawExtension, randfill.Continue) {},
			func(*metav1.TypeMeta, randfill.Continue) {},
			func(*metav1.ManagedFieldsEntry, randfill.Continue) {},
			func(m *metav1.ObjectMeta, c randfill.Continue) {
				// Labels and annotations are what users write in
				// templates; the rest is the server's or the harness's.
				c.Fill(&m.Labels)
				c.Fill(&m.Annotations)
			},
		)
}
