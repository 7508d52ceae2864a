package report

import (
	"os"
	"strings"
)

// LoadAverage is the 1-, 5- and 15-minute load averages, as /proc/loadavg
// has them, or "unknown".
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// PassMiss is how a figure that met its goal, or did not, is marked.
func PassMiss(ok bool) string {
	if ok {
		return "PASS"
	}
	return "MISS"
}
