package sqlstorage

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The reads a hub depends on are index range scans, never filters over the
// whole table: one resource in one logical cluster, one resource across all
// logical clusters (the wildcard read), each at the current revision and at
// an older one. The planner is told to avoid sequential scans, so a plan
// that still has one means no index can serve the read.
func TestReadsAreIndexRangeScans(t *testing.T) {
	reads := map[string]keyRange{
		"one cluster":  prefixRange("/registry/configmaps/root:a/", ""),
		"all clusters": prefixRange("/registry/configmaps/", ""),
		"continued":    prefixRange("/registry/configmaps/", "/registry/configmaps/root:a/ns/x\x00"),
		"one object":   exactKey("/registry/configmaps/root:a/ns/x"),
	}
	eachDatastore(t, func(t *testing.T, url string) {
		b := openBackend(t, url)
		ctx := context.Background()
		conn, err := b.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		explain := "EXPLAIN QUERY PLAN "
		if b.d.name == "postgres" {
			explain = "EXPLAIN "
			if _, err := conn.ExecContext(ctx, "SET enable_seqscan = off"); err != nil {
				t.Fatal(err)
			}
		}
		for name, r := range reads {
			for _, atRev := range []int64{0, 5} {
				q, args := b.rangeQuery(r, atRev, 500)
				rows, err := conn.QueryContext(ctx, explain+q, args...)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				var plan []string
				for rows.Next() {
					cols, _ := rows.Columns()
					vals := make([]any, len(cols))
					ptrs := make([]any, len(cols))
					for i := range vals {
						ptrs[i] = &vals[i]
					}
					if err := rows.Scan(ptrs...); err != nil {
						t.Fatal(err)
					}
					plan = append(plan, fmt.Sprint(vals[len(vals)-1]))
				}
				rows.Close()
				text := strings.Join(plan, "\n")
				for _, line := range plan {
					if strings.Contains(line, "canopy_revisions") && (strings.Contains(line, "Seq Scan") || strings.HasPrefix(strings.TrimSpace(line), "SCAN")) {
						t.Errorf("%s at rev %d scans the whole table:\n%s", name, atRev, text)
					}
				}
				if !strings.Contains(text, "canopy_revisions_current") && !strings.Contains(text, "canopy_revisions_history") {
					t.Errorf("%s at rev %d uses neither key index:\n%s", name, atRev, text)
				}
			}
		}
	})
}
